// Bashni's rule set (docs/rules-russian-family.md, "Bashni"): Russian
// draughts' rules, with every jumped tower's top piece put under the
// capturing tower.  Kept here until bashni is an entry of kVariants: the
// tower position and its moves exist and are tested (tests/tower_position_test.cpp),
// the rest of the program does not play it yet.
#pragma once

#include <algorithm>
#include <string_view>

#include "../variant.hpp"

namespace dama {

inline constexpr RuleSet kBashniRules = [] {
  RuleSet r = std::ranges::find(kVariants, std::string_view("russian"), &Variant::name)->rules;
  r.prisoners = Prisoners::UnderCapturer;
  return r;
}();

}  // namespace dama
