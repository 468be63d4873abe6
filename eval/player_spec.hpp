// A match player written on the command line: comma-separated key=value
// fields,
//   depth=4                                  built-in weights, 4 plies
//   weights=configs/weights/russian.json,depth=4
//   weights=default,nodes=20000              "default": the built-in weights
//   movetime=100                             milliseconds per move
//   hub:/usr/bin/scan hub,movetime=100      an external Hub engine (program
//                                            and arguments up to the first comma)
// At least one limit (depth, nodes, movetime) is required -- a search with
// none would never end -- and they may be combined (the first reached ends
// the search).  A weights path cannot contain a comma.  A Hub engine takes
// depth or movetime (the protocol has no node limit) and its own weights.
#pragma once

#include <string>
#include <string_view>

#include "search.hpp"

namespace dama::eval {

struct PlayerSpec {
  std::string text;          // as written, for names and messages
  std::string weights_file;  // empty: the variant's built-in weights
  SearchLimits limits;       // stop left null
  std::string hub_command;   // not empty: an external Hub engine, run with this command
};

// Throws dama::Error naming `option` (e.g. "--a"), the spec and the field at fault.
PlayerSpec parse_player_spec(std::string_view text, std::string_view option);

}  // namespace dama::eval
