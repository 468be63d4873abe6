// Bashni's rule set (docs/rules-russian-family.md, "Bashni"), by name, for
// code and tests that are about towers only.
#pragma once

#include <algorithm>
#include <string_view>

#include "../variant.hpp"

namespace dama {

inline constexpr RuleSet kBashniRules = std::ranges::find(kVariants, std::string_view("bashni"), &Variant::name)->rules;
static_assert(has_towers(kBashniRules));

}  // namespace dama
