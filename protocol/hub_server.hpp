// The engine side of the Hub protocol, version 2, as Scan speaks it: the
// conversation with a GUI or match runner (hub_server.cpp has the commands).
#pragma once

#include <cstdio>
#include <istream>
#include <string>
#include <vector>

namespace dama {

// Reads Hub lines from `in` and answers on `out` until `quit` or the end of
// the input.  `params` are NAME=VALUE pairs applied as `set-param` would be
// before `init` (the command line's --param); a bad one throws dama::Error
// naming it before anything is read.  A bad line is answered with `error`.
void serve_hub(std::istream& in, std::FILE* out, const std::vector<std::string>& params);

}  // namespace dama
