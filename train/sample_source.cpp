#include "sample_source.hpp"

#include <algorithm>
#include <cmath>

#include "error.hpp"

namespace dama::train {

namespace {

// The part of an ascending index list that falls in [first, end).
Selection within(const std::vector<std::uint32_t>& ascending, std::size_t first, std::size_t end) {
  const auto begin = std::lower_bound(ascending.begin(), ascending.end(), first);
  const auto stop = std::lower_bound(begin, ascending.end(), end);
  return {ascending.data() + (begin - ascending.begin()), static_cast<std::size_t>(stop - begin)};
}

bool same_targets(const Model& a, const Model& b) { return a.k == b.k && a.lambda == b.lambda; }

int weight_count_of(const Variant& variant, EvalModel model) {
  return make_samples(std::span<const PositionRow>{}, variant, 0, model).weight_count;
}

}  // namespace

InMemorySamples::InMemorySamples(const SampleSet& samples, const Split& split, std::vector<std::size_t> block_sizes)
    : samples_(samples), split_(split), block_sizes_(std::move(block_sizes)) {
  if (block_sizes_.empty()) block_sizes_.push_back(samples.size());
  block_starts_.push_back(0);
  for (const std::size_t size : block_sizes_) block_starts_.push_back(block_starts_.back() + size);
  if (block_starts_.back() != samples.size())
    throw Error("the blocks hold " + std::to_string(block_starts_.back()) + " positions, the samples " +
                std::to_string(samples.size()));
}

void InMemorySamples::visit(std::span<const std::size_t> order, const Model& targets_model,
                            const BlockVisitor& visit) {
  if (!have_targets_ || !same_targets(targets_model, targets_model_)) {
    targets_ = targets_of(samples_, targets_model);
    targets_model_ = targets_model;
    have_targets_ = true;
  }
  if (order.empty()) {
    visit({0, samples_, targets_, split_.training, split_.validation});
    return;
  }
  for (const std::size_t b : order) {
    const std::size_t first = block_starts_.at(b), end = block_starts_[b + 1];
    visit({b, samples_, targets_, within(split_.training, first, end), within(split_.validation, first, end)});
  }
}

std::uint64_t PositionBlocks::rows() const {
  std::uint64_t total = 0;
  for (const RowBlock& b : blocks) total += b.count;
  return total;
}

std::vector<std::size_t> PositionBlocks::block_sizes() const {
  std::vector<std::size_t> sizes;
  for (const RowBlock& b : blocks) sizes.push_back(b.count);
  return sizes;
}

void load_block(const PositionBlocks& data, std::size_t b, const Variant& variant, BlockBuffers& buffers,
                SampleSet& out) {
  const RowBlock& block = data.blocks.at(b);
  const std::string& file = data.files.at(block.file);
  data.read(block, buffers.rows);
  if (buffers.rows.size() != block.count)
    throw Error(file + ": rows " + std::to_string(block.first) + "+" + std::to_string(block.count) + ": read " +
                std::to_string(buffers.rows.size()) + " rows");
  try {
    make_samples_in_parallel(out, buffers.rows, variant, data.model, block.first, buffers.shares);
  } catch (const Error& e) {
    throw Error(file + ": " + e.what());
  }
}

SampleSet load_all(const PositionBlocks& data, const Variant& variant) {
  SampleSet all;
  all.weight_count = weight_count_of(variant, data.model);
  BlockBuffers buffers;
  SampleSet block;
  for (std::size_t b = 0; b < data.blocks.size(); ++b) {
    load_block(data, b, variant, buffers, block);
    if (all.size() == 0 && block.size() > 0) {
      const double terms_per_position = static_cast<double>(block.term_count()) / static_cast<double>(block.size());
      const auto positions = static_cast<std::size_t>(data.rows());
      all.reserve(positions, static_cast<std::size_t>(std::ceil(terms_per_position * kTermHeadroom * positions)));
    }
    append_samples(all, block);
  }
  return all;
}

StreamedSamples::StreamedSamples(PositionBlocks data, const Variant& variant, double validation_share,
                                 std::uint64_t seed, bool quiet_only)
    : data_(std::move(data)),
      variant_(variant),
      validation_share_(validation_share),
      seed_(seed),
      quiet_only_(quiet_only),
      block_sizes_(data_.block_sizes()),
      weight_count_(weight_count_of(variant, data_.model)) {
  for (std::size_t b = 0; b < data_.blocks.size(); ++b) {
    load(b);
    training_size_ += split_.training.size();
    validation_size_ += split_.validation.size();
    digest_ = digest_samples(samples_, digest_);
  }
}

void StreamedSamples::load(std::size_t b) {
  load_block(data_, b, variant_, buffers_, samples_);
  split_ = split_by_game(samples_, validation_share_, seed_, quiet_only_);
}

void StreamedSamples::visit(std::span<const std::size_t> order, const Model& targets_model,
                            const BlockVisitor& visit) {
  const std::size_t count = order.empty() ? data_.blocks.size() : order.size();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t b = order.empty() ? i : order[i];
    load(b);
    targets_ = targets_of(samples_, targets_model);
    visit({b, samples_, targets_, split_.training, split_.validation});
  }
}

}  // namespace dama::train
