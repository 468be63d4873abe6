// What the program was built from, for `dama --version`, the Hub and DXP
// greetings and the metadata of datasets and weight files.  Defined in a
// file the build writes (cmake/BuildInfo.cmake), so the commit is the one
// the sources were at when this binary was built.
#pragma once

#include <string_view>

namespace dama {

std::string_view build_version();  // the project's version, e.g. "0.1.0"
std::string_view build_commit();   // git's short hash, "-dirty" with local changes, or "unknown"

}  // namespace dama
