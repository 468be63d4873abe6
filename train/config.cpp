#include "config.hpp"

#include <cstdint>
#include <limits>

#include "atomic_file.hpp"
#include "config_file.hpp"
#include "error.hpp"

namespace dama::train {

namespace detail {
struct EmbeddedConfig {
  std::string_view name;
  std::string_view text;
};
extern const EmbeddedConfig kEmbeddedTrainConfigs[];
}  // namespace detail

namespace {

constexpr double kHuge = 1e12;
constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxBatch = std::numeric_limits<std::uint32_t>::max();
constexpr std::int64_t kMaxSeed = std::numeric_limits<std::int64_t>::max();  // TOML integers are signed 64-bit
constexpr std::int64_t kMaxMemoryMb = std::int64_t{1} << 30;  // a pebibyte: past any machine, short of overflowing bytes

int whole(ConfigFile& f, const std::string& key, int fallback) {
  return static_cast<int>(f.integer(key, fallback, 1, kMaxInt));
}

// The choices follow the enums' order: choice() returns the position in the list.
void read_model(ConfigFile& f, TrainSettings& s) {
  s.model.loss = static_cast<LossKind>(f.choice("model.loss", static_cast<std::size_t>(s.model.loss), {"mse", "cross_entropy"}));
  s.model.lambda = f.number("model.lambda", s.model.lambda, 0, 1);
  s.model.k = f.number("model.k", s.model.k, 1e-3, 100);
  s.fit_k = f.boolean("model.fit_k", s.fit_k);
  s.man_value = f.number("model.man_value", s.man_value, 0, 10000);
}

void read_optimizer(ConfigFile& f, OptimizerSettings& o) {
  o.kind = static_cast<OptimizerKind>(
      f.choice("optimizer.kind", static_cast<std::size_t>(o.kind), {"adam", "gradient_descent", "lazy_adam"}));
  o.learning_rate = f.number("optimizer.learning_rate", o.learning_rate, 0, kHuge);
  o.schedule = static_cast<Schedule>(
      f.choice("optimizer.schedule", static_cast<std::size_t>(o.schedule), {"constant", "step", "cosine"}));
  o.min_learning_rate = f.number("optimizer.min_learning_rate", o.min_learning_rate, 0, kHuge);
  o.step_epochs = whole(f, "optimizer.step_epochs", o.step_epochs);
  o.step_factor = f.number("optimizer.step_factor", o.step_factor, 0, 1);
  o.beta1 = f.number("optimizer.beta1", o.beta1, 0, 0.999999);
  o.beta2 = f.number("optimizer.beta2", o.beta2, 0, 0.999999999);
  o.epsilon = f.number("optimizer.epsilon", o.epsilon, 1e-300, 1);
  o.batch_size = static_cast<std::uint32_t>(f.integer("optimizer.batch_size", o.batch_size, 0, kMaxBatch));
  o.l2 = f.number("optimizer.l2", o.l2, 0, kHuge);
}

void read_training(ConfigFile& f, TrainSettings& s) {
  s.max_epochs = whole(f, "training.max_epochs", s.max_epochs);
  s.patience = whole(f, "training.patience", s.patience);
  s.validation_share = f.number("training.validation_share", s.validation_share, 0, 0.9);
  s.quiet_only = f.boolean("training.quiet_only", s.quiet_only);
  s.seed = static_cast<std::uint64_t>(f.integer("training.seed", static_cast<std::int64_t>(s.seed), 0, kMaxSeed));
  s.checkpoint_every = whole(f, "training.checkpoint_every", s.checkpoint_every);
  s.data.memory_mb = static_cast<std::uint64_t>(
      f.integer("data.memory_mb", static_cast<std::int64_t>(s.data.memory_mb), 0, kMaxMemoryMb));
}

}  // namespace

TrainSettings parse_train_config(std::string_view text, const std::string& origin) {
  ConfigFile file = ConfigFile::parse(text, origin);
  TrainSettings settings;
  read_model(file, settings);
  read_optimizer(file, settings.optimizer);
  read_training(file, settings);
  file.refuse_unknown_keys();
  if (settings.optimizer.schedule == Schedule::Cosine &&
      settings.optimizer.min_learning_rate > settings.optimizer.learning_rate)
    throw Error(origin + ": optimizer.min_learning_rate: must not exceed optimizer.learning_rate");
  return settings;
}

TrainSettings load_train_config(const std::string& path) { return parse_train_config(read_whole_file(path), path); }

std::string_view built_in_train_config(const Variant& variant) {
  for (const auto* c = detail::kEmbeddedTrainConfigs; !c->name.empty(); ++c)
    if (c->name == variant.name) return c->text;
  throw Error("no built-in tuner config for " + std::string(variant.name) + " (configs/train/" +
              std::string(variant.name) + ".toml)");
}

}  // namespace dama::train
