#include "config_file.hpp"

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "error.hpp"

namespace dama {

namespace {

std::string line_of(const toml::source_region& where) {
  return where.begin.line > 0 ? ":" + std::to_string(where.begin.line) : "";
}

void collect_keys(const toml::table& table, const std::string& prefix, std::vector<std::pair<std::string, const toml::node*>>& out) {
  for (auto&& [key, node] : table) {
    const std::string path = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (const auto* sub = node.as_table())
      collect_keys(*sub, path, out);
    else
      out.emplace_back(path, &node);
  }
}

// "got a string": what the file holds where something else was expected.
std::string got(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "got a string";
    case toml::node_type::integer: return "got an integer";
    case toml::node_type::floating_point: return "got a number";
    case toml::node_type::boolean: return "got a boolean";
    case toml::node_type::array: return "got an array";
    case toml::node_type::table: return "got a table";
    default: return "got a date or time";
  }
}

std::string shown(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

}  // namespace

ConfigFile ConfigFile::read(const std::string& path) {
  try {
    return ConfigFile(toml::parse_file(path), path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source();
    if (where.begin.line == 0) throw Error(path + ": cannot read the file");
    throw Error(path + line_of(where) + ": not valid TOML: " + std::string(e.description()));
  }
}

ConfigFile ConfigFile::parse(std::string_view text, const std::string& origin) {
  try {
    return ConfigFile(toml::parse(text, origin), origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + line_of(e.source()) + ": not valid TOML: " + std::string(e.description()));
  }
}

bool ConfigFile::has(const std::string& key) const { return table_.at_path(key).node() != nullptr; }

const toml::node* ConfigFile::find(const std::string& key) {
  asked_.insert(key);
  return table_.at_path(key).node();
}

void ConfigFile::fail(const toml::node& node, const std::string& key, const std::string& what) const {
  throw Error(origin_ + line_of(node.source()) + ": " + key + ": " + what);
}

std::int64_t ConfigFile::integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const auto value = node->value_exact<std::int64_t>();
  if (!value) fail(*node, key, "expected an integer, " + got(*node));
  if (*value < min || *value > max)
    fail(*node, key,
         "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " + std::to_string(*value));
  return *value;
}

double ConfigFile::number(const std::string& key, double fallback, double min, double max) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  std::optional<double> value;
  if (node->is_integer()) value = static_cast<double>(*node->value_exact<std::int64_t>());
  else value = node->value_exact<double>();
  if (!value) fail(*node, key, "expected a number, " + got(*node));
  if (!(*value >= min && *value <= max))  // NaN fails too
    fail(*node, key, "must be between " + shown(min) + " and " + shown(max) + ", got " + shown(*value));
  return *value;
}

bool ConfigFile::boolean(const std::string& key, bool fallback) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const auto value = node->value_exact<bool>();
  if (!value) fail(*node, key, "expected true or false, " + got(*node));
  return *value;
}

std::string ConfigFile::text(const std::string& key, const std::string& fallback) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const auto value = node->value_exact<std::string>();
  if (!value) fail(*node, key, "expected a string, " + got(*node));
  return *value;
}

std::size_t ConfigFile::choice(const std::string& key, std::size_t fallback,
                               std::initializer_list<std::string_view> choices) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const auto value = node->value_exact<std::string>();
  if (!value) fail(*node, key, "expected a string, " + got(*node));
  std::string known;
  std::size_t i = 0;
  for (const auto c : choices) {
    if (*value == c) return i;
    known += (i++ ? ", " : "") + std::string(c);
  }
  fail(*node, key, "unknown value \"" + *value + "\" (known: " + known + ")");
}

void ConfigFile::refuse_unknown_keys() const {
  std::vector<std::pair<std::string, const toml::node*>> keys;
  collect_keys(table_, "", keys);
  for (const auto& [key, node] : keys) {
    if (asked_.count(key)) continue;
    // A plain value where the program reads keys inside it: "model = 3" for [model].
    const auto inside = asked_.lower_bound(key + ".");
    if (inside != asked_.end() && inside->starts_with(key + "."))
      fail(*node, key, "expected a table ([" + key + "]), " + got(*node));
    fail(*node, key, "unknown key");
  }
}

}  // namespace dama
