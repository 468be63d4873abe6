// The one reader of dama's TOML configs (self-play, tuner, pipeline), with
// every key checked: a value of the wrong type or out of range, a key the
// program does not know (a typo), a value where a table belongs and a file
// that is not TOML are errors of one line naming the file, the line and the
// key.  Keys are dotted paths ("search.depth"); a key absent from the file
// takes the caller's default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>

#if __has_include(<toml++/toml.hpp>)
#include <toml++/toml.hpp>
#else
#include <toml++/toml.h>  // Debian 12's libtomlplusplus-dev ships the header only under its older name
#endif

namespace dama {

class ConfigFile {
 public:
  static ConfigFile read(const std::string& path);
  static ConfigFile parse(std::string_view text, const std::string& origin);

  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max);
  double number(const std::string& key, double fallback, double min, double max);
  bool boolean(const std::string& key, bool fallback);
  std::string text(const std::string& key, const std::string& fallback);
  // One of `choices`: its position in the list (`fallback` when the key is absent).
  std::size_t choice(const std::string& key, std::size_t fallback, std::initializer_list<std::string_view> choices);
  bool has(const std::string& key) const;

  // Throws for any key of the file that no call above asked for, and for a
  // plain value where the calls asked for keys inside it (a table).
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
