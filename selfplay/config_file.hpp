// Reading a TOML config with every key checked: a value of the wrong type or
// out of range, and a key the program does not know (a typo), are errors
// naming the file, the line and the key.  Keys are dotted paths
// ("search.depth"); a key absent from the file takes the caller's default.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include <toml++/toml.h>  // Debian 12 ships the header under this name

namespace dama {

class ConfigFile {
 public:
  static ConfigFile read(const std::string& path);
  static ConfigFile parse(std::string_view text, const std::string& origin);

  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max);
  double number(const std::string& key, double fallback, double min, double max);
  bool boolean(const std::string& key, bool fallback);
  std::string text(const std::string& key, const std::string& fallback);
  bool has(const std::string& key) const;

  // Throws for any key of the file that no call above asked for.
  void refuse_unknown_keys() const;

 private:
  ConfigFile(toml::table table, std::string origin) : table_(std::move(table)), origin_(std::move(origin)) {}
  const toml::node* find(const std::string& key);
  [[noreturn]] void fail(const toml::node& node, const std::string& key, const std::string& what) const;

  toml::table table_;
  std::string origin_;
  std::set<std::string> asked_;
};

}  // namespace dama
