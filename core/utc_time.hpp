// Dates and times as text, in UTC: the creation time stored in datasets and
// weight files, and the Date tag of PDN games.
#pragma once

#include <chrono>
#include <string>

namespace dama {

// `when` formatted by strftime's `format` (at most 63 characters of output).
std::string utc_text(std::chrono::system_clock::time_point when, const char* format);

// Now, in ISO 8601: "2026-11-30T23:59:07Z".
std::string utc_timestamp_now();

}  // namespace dama
