// Whether dama tune holds its samples in memory or streams them from the
// files: an estimate of the memory each way, from the number of positions
// (the files' row counts, which HDF5 knows without reading the data) and the
// terms per position of a probe block converted first.
//
//   in memory: positions * (6 B * terms * kTermHeadroom   the terms, room reserved
//                           + 17 B                       offset, result, score, game id
//                           + 8 B)                       split index and target
//              + the working memory of one block
//   streamed:  the working memory of one block: its rows (sizeof(PositionRow)
//              each), its samples twice (the threads' shares and the joined
//              block) and its split and targets
#pragma once

#include <cstddef>
#include <cstdint>

#include "samples.hpp"

namespace dama::train {

struct MemoryPlan {
  std::uint64_t positions = 0;
  double terms_per_position = 0;       // of the probe
  double bytes_per_position = 0;       // held in memory per position
  std::uint64_t in_memory_bytes = 0;   // estimate holding every sample
  std::uint64_t streamed_bytes = 0;    // estimate streaming block by block
  std::uint64_t budget_bytes = 0;
  bool stream = false;                 // in_memory_bytes > budget_bytes
};

// `largest_block`: the rows of the largest block; `probe`: samples of some of the data.
MemoryPlan plan_memory(std::uint64_t positions, std::size_t largest_block, const SampleSet& probe,
                       std::uint64_t budget_bytes);

}  // namespace dama::train
