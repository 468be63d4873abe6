#include "utc_time.hpp"

#include <ctime>

namespace dama {

std::string utc_text(std::chrono::system_clock::time_point when, const char* format) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[64];
  const std::size_t length = std::strftime(text, sizeof text, format, &utc);
  return std::string(text, length);
}

std::string utc_timestamp_now() { return utc_text(std::chrono::system_clock::now(), "%Y-%m-%dT%H:%M:%SZ"); }

}  // namespace dama
