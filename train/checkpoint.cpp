#include "checkpoint.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>

#include "atomic_file.hpp"
#include "error.hpp"
#include "random.hpp"

namespace dama::train {

namespace {

constexpr const char* kFormat = "dama-tune-checkpoint";
// 2: the data digest is taken position by position (the same for streamed
// data), and the sums of a pass are cut into fixed chunks.
constexpr int kVersion = 2;

// A digest of raw bytes, 8 at a time.
template <class T>
std::uint64_t digest(std::span<const T> values, std::uint64_t h = 0) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  const std::size_t size = values.size_bytes();
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    h = mix64(h ^ word);
  }
  for (; i < size; ++i) h = mix64(h ^ bytes[i]);
  return mix64(h ^ size);
}

std::string hex(std::uint64_t h) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

nlohmann::json settings_json(const TrainSettings& s) {
  const OptimizerSettings& o = s.optimizer;
  nlohmann::json j = {{"loss", loss_name(s.model.loss)},
          {"lambda", s.model.lambda},
          {"k", s.model.k},
          {"fit_k", s.fit_k},
          {"optimizer", optimizer_name(o.kind)},
          {"learning_rate", o.learning_rate},
          {"schedule", static_cast<int>(o.schedule)},
          {"min_learning_rate", o.min_learning_rate},
          {"step_epochs", o.step_epochs},
          {"step_factor", o.step_factor},
          {"beta1", o.beta1},
          {"beta2", o.beta2},
          {"epsilon", o.epsilon},
          {"batch_size", o.batch_size},
          {"l2", o.l2},
          {"max_epochs", s.max_epochs},
          {"patience", s.patience},
          {"validation_share", s.validation_share},
          {"seed", s.seed}};
  if (s.quiet_only) j["quiet_only"] = true;  // absent when false: older checkpoints still match
  return j;
}

nlohmann::json vector_json(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

// A finite double, or null (JSON has no infinity).
nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

class Reader {
 public:
  Reader(const std::string& path, const nlohmann::json& doc) : path_(path), doc_(doc) {}

  const nlohmann::json& field(const char* name) const {
    const auto it = doc_.find(name);
    if (it == doc_.end()) fail(name, "missing");
    return *it;
  }
  double number(const char* name, bool null_is_infinity = false) const {
    const auto& j = field(name);
    if (null_is_infinity && j.is_null()) return std::numeric_limits<double>::infinity();
    if (!j.is_number()) fail(name, "expected a number");
    return j.get<double>();
  }
  long long integer(const char* name) const {
    const auto& j = field(name);
    if (!j.is_number_integer()) fail(name, "expected an integer");
    return j.get<long long>();
  }
  bool boolean(const char* name) const {
    const auto& j = field(name);
    if (!j.is_boolean()) fail(name, "expected true or false");
    return j.get<bool>();
  }
  Eigen::VectorXd vector(const char* name, Eigen::Index size, bool may_be_empty = false) const {
    const auto& j = field(name);
    if (!j.is_array()) fail(name, "expected an array");
    if (may_be_empty && j.empty()) return {};
    if (static_cast<Eigen::Index>(j.size()) != size)
      fail(name, "expected " + std::to_string(size) + " values, found " + std::to_string(j.size()));
    Eigen::VectorXd v(size);
    for (Eigen::Index i = 0; i < size; ++i) {
      if (!j[i].is_number()) fail(name, "value " + std::to_string(i) + " is not a number");
      v[i] = j[i].get<double>();
    }
    return v;
  }
  [[noreturn]] void fail(const std::string& name, const std::string& why) const {
    throw Error(path_ + ": \"" + name + "\": " + why);
  }

 private:
  const std::string& path_;
  const nlohmann::json& doc_;
};

// The first field of two fingerprints that differs, for the refusal message.
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  for (const auto& [key, value] : a.items()) {
    if (!b.contains(key)) return key;
    if (b[key] != value) {
      if (value.is_object() && b[key].is_object()) return key + "." + first_difference(value, b[key]);
      return key;
    }
  }
  for (const auto& [key, value] : b.items())
    if (!a.contains(key)) return key;
  return "?";
}

}  // namespace

nlohmann::json run_fingerprint(const TrainSettings& settings, SampleSource& source, const Eigen::VectorXd& start) {
  nlohmann::json fingerprint = {
      {"settings", settings_json(settings)},
      {"positions", source.training_size() + source.validation_size()},
      {"training_positions", source.training_size()},
      {"validation_positions", source.validation_size()},
      {"data_digest", hex(source.data_digest())},
      {"start_digest", hex(digest(std::span<const double>(start.data(), static_cast<std::size_t>(start.size()))))}};
  if (settings.optimizer.batch_size > 0) {
    const std::vector<std::size_t>& sizes = source.block_sizes();
    const std::vector<std::uint64_t> rows(sizes.begin(), sizes.end());
    fingerprint["blocks"] = {{"count", rows.size()}, {"digest", hex(digest(std::span<const std::uint64_t>(rows)))}};
  }
  return fingerprint;
}

nlohmann::json run_fingerprint(const TrainSettings& settings, const SampleSet& samples, const Split& split,
                               const Eigen::VectorXd& start) {
  InMemorySamples source(samples, split);
  return run_fingerprint(settings, source, start);
}

void save_checkpoint(const std::string& path, const TrainerState& state, const nlohmann::json& fingerprint) {
  const nlohmann::json doc = {{"format", kFormat},
                              {"version", kVersion},
                              {"fingerprint", fingerprint},
                              {"epoch", state.epoch},
                              {"k", state.k},
                              {"start", vector_json(state.start)},
                              {"weights", vector_json(state.weights)},
                              {"optimizer_steps", state.optimizer.steps},
                              {"moment1", vector_json(state.optimizer.moment1)},
                              {"moment2", vector_json(state.optimizer.moment2)},
                              {"best_weights", vector_json(state.best_weights)},
                              {"best_loss", number_or_null(state.best_loss)},
                              {"best_training_loss", number_or_null(state.best_training_loss)},
                              {"best_epoch", state.best_epoch},
                              {"epochs_since_best", state.epochs_since_best},
                              {"finished", state.finished}};
  write_file_atomically(path, doc.dump(1) + "\n");
}

TrainerState load_checkpoint(const std::string& path, const nlohmann::json& fingerprint) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(read_whole_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(path + ": not a checkpoint (not valid JSON: " + e.what() + ")");
  }
  const bool tagged = doc.is_object() && doc.contains("format") && doc["format"] == kFormat;
  if (!tagged) throw Error(path + ": not a dama tune checkpoint (no \"format\": \"" + kFormat + "\")");
  const Reader read(path, doc);
  if (read.integer("version") != kVersion) read.fail("version", "unsupported version");
  if (read.field("fingerprint") != fingerprint)
    read.fail("fingerprint", "written for another run (" + first_difference(read.field("fingerprint"), fingerprint) +
                                 " differs); start afresh without --resume");
  TrainerState state;
  const Eigen::Index size = static_cast<Eigen::Index>(read.field("start").size());
  state.epoch = static_cast<int>(read.integer("epoch"));
  state.k = read.number("k");
  state.start = read.vector("start", size);
  state.weights = read.vector("weights", size);
  state.optimizer.steps = read.integer("optimizer_steps");
  state.optimizer.moment1 = read.vector("moment1", size, true);
  state.optimizer.moment2 = read.vector("moment2", size, true);
  state.best_weights = read.vector("best_weights", size);
  state.best_loss = read.number("best_loss", true);
  state.best_training_loss = read.number("best_training_loss", true);
  state.best_epoch = static_cast<int>(read.integer("best_epoch"));
  state.epochs_since_best = static_cast<int>(read.integer("epochs_since_best"));
  state.finished = read.boolean("finished");
  return state;
}

}  // namespace dama::train
