#include "config_file.hpp"

#include <sstream>

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

}  // namespace

ConfigFile ConfigFile::read(const std::string& path) {
  try {
    return ConfigFile(toml::parse_file(path), path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source();
    if (where.begin.line == 0) throw Error(path + ": cannot read the file");
    throw Error(path + line_of(where) + ": " + std::string(e.description()));
  }
}

ConfigFile ConfigFile::parse(std::string_view text, const std::string& origin) {
  try {
    return ConfigFile(toml::parse(text, origin), origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + line_of(e.source()) + ": " + std::string(e.description()));
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
  if (!value) fail(*node, key, "expected an integer");
  if (*value < min || *value > max)
    fail(*node, key, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
                         std::to_string(*value));
  return *value;
}

double ConfigFile::number(const std::string& key, double fallback, double min, double max) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  std::optional<double> value;
  if (node->is_integer()) value = static_cast<double>(*node->value_exact<std::int64_t>());
  else value = node->value_exact<double>();
  if (!value) fail(*node, key, "expected a number");
  if (!(*value >= min && *value <= max)) {
    std::ostringstream range;
    range << "expected a number from " << min << " to " << max << ", got " << *value;
    fail(*node, key, range.str());
  }
  return *value;
}

bool ConfigFile::boolean(const std::string& key, bool fallback) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const auto value = node->value_exact<bool>();
  if (!value) fail(*node, key, "expected true or false");
  return *value;
}

std::string ConfigFile::text(const std::string& key, const std::string& fallback) {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const auto value = node->value_exact<std::string>();
  if (!value) fail(*node, key, "expected a string");
  return *value;
}

void ConfigFile::refuse_unknown_keys() const {
  std::vector<std::pair<std::string, const toml::node*>> keys;
  collect_keys(table_, "", keys);
  for (const auto& [key, node] : keys)
    if (!asked_.count(key)) fail(*node, key, "unknown key");
}

}  // namespace dama
