#include "config.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#if __has_include(<toml++/toml.hpp>)
#include <toml++/toml.hpp>
#else
#include <toml++/toml.h>  // Debian 12's libtomlplusplus-dev ships the header only under its older name
#endif

#include "atomic_file.hpp"
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

// Reads one value of a key, refusing the wrong type or range.
class Field {
 public:
  Field(const std::string& origin, std::string key, const toml::node& node)
      : origin_(origin), key_(std::move(key)), node_(node) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(origin_ + ":" + std::to_string(node_.source().begin.line) + ": " + key_ + ": " + why);
  }

  double number(double low, double high) const {
    std::optional<double> value;
    if (node_.is_floating_point()) value = node_.as_floating_point()->get();
    else if (node_.is_integer()) value = static_cast<double>(node_.as_integer()->get());
    else fail("expected a number, got " + type_name());
    if (!std::isfinite(*value) || *value < low || *value > high)
      fail("must be between " + shown(low) + " and " + shown(high) + ", got " + shown(*value));
    return *value;
  }
  long long integer(long long low, long long high) const {
    if (!node_.is_integer()) fail("expected an integer, got " + type_name());
    const long long value = node_.as_integer()->get();
    if (value < low || value > high)
      fail("must be between " + std::to_string(low) + " and " + std::to_string(high) + ", got " +
           std::to_string(value));
    return value;
  }
  bool boolean() const {
    if (!node_.is_boolean()) fail("expected true or false, got " + type_name());
    return node_.as_boolean()->get();
  }
  // One of `choices`; returns its position.
  std::size_t choice(std::initializer_list<std::string_view> choices) const {
    if (!node_.is_string()) fail("expected a string, got " + type_name());
    const std::string& value = node_.as_string()->get();
    std::string known;
    std::size_t i = 0;
    for (const auto c : choices) {
      if (value == c) return i;
      known += (i++ ? ", " : "") + std::string(c);
    }
    fail("unknown value \"" + value + "\" (known: " + known + ")");
  }

 private:
  std::string type_name() const {
    switch (node_.type()) {
      case toml::node_type::string: return "a string";
      case toml::node_type::integer: return "an integer";
      case toml::node_type::floating_point: return "a number";
      case toml::node_type::boolean: return "a boolean";
      case toml::node_type::array: return "an array";
      case toml::node_type::table: return "a table";
      default: return "a date or time";
    }
  }
  static std::string shown(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return text;
  }

  const std::string& origin_;
  std::string key_;
  const toml::node& node_;
};

using Setter = std::function<void(const Field&, TrainSettings&)>;

struct Key {
  std::string_view section, name;
  Setter set;
};

constexpr double kHuge = 1e12;
constexpr long long kMaxInt = std::numeric_limits<int>::max();
constexpr long long kMaxBatch = std::numeric_limits<std::uint32_t>::max();
constexpr long long kMaxSeed = std::numeric_limits<long long>::max();  // TOML integers are signed 64-bit
constexpr long long kMaxMemoryMb = 1LL << 30;  // a pebibyte: past any machine, short of overflowing bytes

const std::vector<Key>& keys() {
  using F = const Field&;
  using S = TrainSettings&;
  static const std::vector<Key> all = {
      // choice() returns the position in the list: the lists follow the enums' order.
      {"model", "loss", [](F f, S s) { s.model.loss = static_cast<LossKind>(f.choice({"mse", "cross_entropy"})); }},
      {"model", "lambda", [](F f, S s) { s.model.lambda = f.number(0, 1); }},
      {"model", "k", [](F f, S s) { s.model.k = f.number(1e-3, 100); }},
      {"model", "fit_k", [](F f, S s) { s.fit_k = f.boolean(); }},
      {"optimizer", "kind",
       [](F f, S s) { s.optimizer.kind = static_cast<OptimizerKind>(f.choice({"adam", "gradient_descent", "lazy_adam"})); }},
      {"optimizer", "learning_rate", [](F f, S s) { s.optimizer.learning_rate = f.number(0, kHuge); }},
      {"optimizer", "schedule",
       [](F f, S s) { s.optimizer.schedule = static_cast<Schedule>(f.choice({"constant", "step", "cosine"})); }},
      {"optimizer", "min_learning_rate", [](F f, S s) { s.optimizer.min_learning_rate = f.number(0, kHuge); }},
      {"optimizer", "step_epochs", [](F f, S s) { s.optimizer.step_epochs = static_cast<int>(f.integer(1, kMaxInt)); }},
      {"optimizer", "step_factor", [](F f, S s) { s.optimizer.step_factor = f.number(0, 1); }},
      {"optimizer", "beta1", [](F f, S s) { s.optimizer.beta1 = f.number(0, 0.999999); }},
      {"optimizer", "beta2", [](F f, S s) { s.optimizer.beta2 = f.number(0, 0.999999999); }},
      {"optimizer", "epsilon", [](F f, S s) { s.optimizer.epsilon = f.number(1e-300, 1); }},
      {"optimizer", "batch_size",
       [](F f, S s) { s.optimizer.batch_size = static_cast<std::uint32_t>(f.integer(0, kMaxBatch)); }},
      {"optimizer", "l2", [](F f, S s) { s.optimizer.l2 = f.number(0, kHuge); }},
      {"training", "max_epochs", [](F f, S s) { s.max_epochs = static_cast<int>(f.integer(1, kMaxInt)); }},
      {"training", "patience", [](F f, S s) { s.patience = static_cast<int>(f.integer(1, kMaxInt)); }},
      {"training", "validation_share", [](F f, S s) { s.validation_share = f.number(0, 0.9); }},
      {"training", "quiet_only", [](F f, S s) { s.quiet_only = f.boolean(); }},
      {"training", "seed", [](F f, S s) { s.seed = static_cast<std::uint64_t>(f.integer(0, kMaxSeed)); }},
      {"training", "checkpoint_every", [](F f, S s) { s.checkpoint_every = static_cast<int>(f.integer(1, kMaxInt)); }},
      {"data", "memory_mb", [](F f, S s) { s.data.memory_mb = static_cast<std::uint64_t>(f.integer(0, kMaxMemoryMb)); }},
  };
  return all;
}

// "file:line" of a node, for messages.
std::string where(const std::string& origin, const toml::node& node) {
  return origin + ":" + std::to_string(node.source().begin.line);
}

bool is_section(std::string_view name) {
  for (const Key& k : keys())
    if (k.section == name) return true;
  return false;
}

const Key* find_key(std::string_view section, std::string_view name) {
  for (const Key& k : keys())
    if (k.section == section && k.name == name) return &k;
  return nullptr;
}

}  // namespace

TrainSettings parse_train_config(std::string_view text, const std::string& origin) {
  toml::table document;
  try {
    document = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + ":" + std::to_string(e.source().begin.line) + ": not valid TOML: " +
                std::string(e.description()));
  }
  TrainSettings settings;
  for (const auto& [section_key, section_node] : document) {
    const std::string section(section_key.str());
    if (!is_section(section))
      throw Error(where(origin, section_node) + ": " + section +
                  ": unknown key (sections: model, optimizer, training, data)");
    const toml::table* table = section_node.as_table();
    if (!table) throw Error(where(origin, section_node) + ": " + section + ": expected a table ([" + section + "])");
    for (const auto& [name_key, node] : *table) {
      const std::string key = section + "." + std::string(name_key.str());
      const Key* known = find_key(section, name_key.str());
      if (!known) throw Error(where(origin, node) + ": " + key + ": unknown key");
      known->set(Field(origin, key, node), settings);
    }
  }
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
