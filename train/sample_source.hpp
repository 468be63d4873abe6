// Where a fit's samples come from: held in memory, or streamed from the
// dataset files block by block when they do not fit (issue 5).
//
// The trainer sees the data only as blocks (SampleSource::visit): a block's
// samples, their targets, and which of them are training and validation
// samples.  Both sources cut the data into the same blocks (the files' row
// blocks, see PositionBlocks) and the split is the same game-wise hash, so a
// fit runs the same sums in the same order either way and ends with the same
// weights, bit for bit, full batch or mini-batch.
//
// Nothing here opens a file: a streamed source reads its rows through the
// PositionBlocks::read function the caller supplies (dama tune's is the HDF5
// reader of selfplay/dataset_io.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "model.hpp"
#include "samples.hpp"
#include "split.hpp"
#include "variant.hpp"

namespace dama::train {

// One block as a pass sees it.  The references are valid during the visit only.
struct SampleBlock {
  std::size_t index = 0;             // the block's number (0 when a source hands over all its data at once)
  const SampleSet& samples;
  std::span<const float> targets;    // one per sample, under the visit's model
  Selection training;                // indices into samples, ascending
  Selection validation;
};

using BlockVisitor = std::function<void(const SampleBlock&)>;

class SampleSource {
 public:
  virtual ~SampleSource() = default;

  virtual int weight_count() const = 0;
  virtual std::size_t training_size() const = 0;
  virtual std::size_t validation_size() const = 0;
  // The rows of each block, in stored order (the mini-batch order shuffles these blocks).
  virtual const std::vector<std::size_t>& block_sizes() const = 0;
  // digest_samples of all the data, in stored order.
  virtual std::uint64_t data_digest() = 0;

  // Calls visit for the blocks `order` lists, in that order, with targets
  // under `targets_model`.  An empty order means every sample in stored
  // order, in pieces as large as the source likes (in memory: one).
  virtual void visit(std::span<const std::size_t> order, const Model& targets_model, const BlockVisitor& visit) = 0;
};

// Samples held in memory, with their split.  Both must outlive the source.
class InMemorySamples final : public SampleSource {
 public:
  // block_sizes must add up to samples.size(); empty means one block.
  InMemorySamples(const SampleSet& samples, const Split& split, std::vector<std::size_t> block_sizes = {});

  int weight_count() const override { return samples_.weight_count; }
  std::size_t training_size() const override { return split_.training.size(); }
  std::size_t validation_size() const override { return split_.validation.size(); }
  const std::vector<std::size_t>& block_sizes() const override { return block_sizes_; }
  std::uint64_t data_digest() override { return digest_samples(samples_); }
  void visit(std::span<const std::size_t> order, const Model& targets_model, const BlockVisitor& visit) override;

 private:
  const SampleSet& samples_;
  const Split& split_;
  std::vector<std::size_t> block_sizes_;
  std::vector<std::size_t> block_starts_;  // block b is samples [block_starts_[b], block_starts_[b + 1])
  HugePageVector<float> targets_;             // under targets_model_, computed when the model changes
  Model targets_model_;
  bool have_targets_ = false;
};

// Rows [first, first + count) of file number `file`.
struct RowBlock {
  std::size_t file = 0;
  std::uint64_t first = 0;
  std::size_t count = 0;
};

// The position rows of some dataset files, in blocks, and how to read one.
struct PositionBlocks {
  std::vector<std::string> files;  // for messages
  std::vector<RowBlock> blocks;    // every row of every file once, file by file, in row order
  std::function<void(const RowBlock&, std::vector<PositionRow>&)> read;  // fills the vector with the block's rows
  EvalModel model = EvalModel::Linear;  // the features the rows are turned into

  std::uint64_t rows() const;
  std::vector<std::size_t> block_sizes() const;
};

// What a block is read and converted through, kept from block to block so
// that a pass allocates (and the system zeroes pages) once, not per block.
struct BlockBuffers {
  std::vector<PositionRow> rows;
  std::vector<SampleSet> shares;  // one per thread converting
};

// The samples of block b into `out`: its rows read, then converted on every
// OpenMP thread (make_samples_in_parallel).  An illegal row is an error
// naming the file and the row.
void load_block(const PositionBlocks& data, std::size_t b, const Variant& variant, BlockBuffers& buffers,
                SampleSet& out);

// Every block's samples, joined: the data to hold in memory.  Room for the
// terms is reserved from the first block's terms per position with this
// headroom, so that the vectors do not double (and briefly triple) as they grow.
inline constexpr double kTermHeadroom = 1.1;
SampleSet load_all(const PositionBlocks& data, const Variant& variant);

// Samples streamed from the files: each visit reads and converts the blocks
// it needs, one at a time, so the memory held is a block's, whatever the
// size of the data.
class StreamedSamples final : public SampleSource {
 public:
  // Reads every block once: counts the training and validation positions,
  // digests the data, and fails now, not in epoch 37, on a bad row.
  StreamedSamples(PositionBlocks data, const Variant& variant, double validation_share, std::uint64_t seed,
                  bool quiet_only = false);

  int weight_count() const override { return weight_count_; }
  std::size_t training_size() const override { return training_size_; }
  std::size_t validation_size() const override { return validation_size_; }
  const std::vector<std::size_t>& block_sizes() const override { return block_sizes_; }
  std::uint64_t data_digest() override { return digest_; }
  void visit(std::span<const std::size_t> order, const Model& targets_model, const BlockVisitor& visit) override;

 private:
  void load(std::size_t b);  // into samples_ and split_

  PositionBlocks data_;
  Variant variant_;
  double validation_share_;
  std::uint64_t seed_;
  bool quiet_only_;
  std::vector<std::size_t> block_sizes_;
  int weight_count_ = 0;
  std::size_t training_size_ = 0, validation_size_ = 0;
  std::uint64_t digest_ = 0;
  // The block in hand, in buffers kept from block to block.
  BlockBuffers buffers_;
  SampleSet samples_;
  Split split_;
  HugePageVector<float> targets_;
};

}  // namespace dama::train
