// One exception type for every user-facing failure (bad FEN, unknown variant,
// illegal move, bad file).  The program's edge turns it into a one-line
// message and exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace dama {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dama
