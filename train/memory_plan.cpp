#include "memory_plan.hpp"

#include <cmath>

#include "dataset.hpp"
#include "sample_source.hpp"

namespace dama::train {

namespace {

constexpr double kTermBytes = sizeof(std::uint32_t) + sizeof(float);
constexpr double kPositionBytes = sizeof(std::uint32_t) + sizeof(std::int8_t) + sizeof(float) + sizeof(std::uint64_t);
constexpr double kSplitAndTargetBytes = sizeof(std::uint32_t) + sizeof(float);

}  // namespace

MemoryPlan plan_memory(std::uint64_t positions, std::size_t largest_block, const SampleSet& probe,
                       std::uint64_t budget_bytes) {
  MemoryPlan plan;
  plan.positions = positions;
  plan.budget_bytes = budget_bytes;
  plan.terms_per_position =
      probe.size() ? static_cast<double>(probe.term_count()) / static_cast<double>(probe.size()) : 0.0;
  const double sample_bytes = kTermBytes * plan.terms_per_position + kPositionBytes;
  plan.bytes_per_position = kTermBytes * plan.terms_per_position * kTermHeadroom + kPositionBytes + kSplitAndTargetBytes;
  const double block_bytes =
      static_cast<double>(largest_block) * (sizeof(PositionRow) + 2 * sample_bytes + kSplitAndTargetBytes);
  plan.streamed_bytes = static_cast<std::uint64_t>(std::ceil(block_bytes));
  plan.in_memory_bytes =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(positions) * plan.bytes_per_position + block_bytes));
  plan.stream = plan.in_memory_bytes > budget_bytes;
  return plan;
}

}  // namespace dama::train
