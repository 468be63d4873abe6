// core/config_file: the one checked reader of the TOML configs.  The tuner,
// self-play and pipeline configs have tests of their own keys
// (train_test.cpp, selfplay_test.cpp, pipeline_test.cpp); these check the
// reader's own rules, the same for all three.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "config_file.hpp"
#include "error.hpp"

namespace dama {
namespace {

using ::testing::HasSubstr;

// The one-line message of the error `read` throws.
template <class Read>
std::string refusal(const std::string& text, Read read) {
  ConfigFile file = ConfigFile::parse(text, "c.toml");
  try {
    read(file);
    file.refuse_unknown_keys();
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

TEST(ConfigFile, AbsentKeysTakeTheDefaultAndPresentOnesAreRead) {
  ConfigFile file = ConfigFile::parse("n = 3\n[a]\nx = 0.5\nflag = true\nname = \"b\"\nkind = \"step\"\n", "c.toml");
  EXPECT_EQ(file.integer("n", 7, 0, 10), 3);
  EXPECT_EQ(file.integer("missing", 7, 0, 10), 7);
  EXPECT_DOUBLE_EQ(file.number("a.x", 1.0, 0, 1), 0.5);
  EXPECT_TRUE(file.boolean("a.flag", false));
  EXPECT_EQ(file.text("a.name", ""), "b");
  EXPECT_EQ(file.choice("a.kind", 0, {"constant", "step", "cosine"}), 1u);
  EXPECT_EQ(file.choice("a.other", 2, {"constant", "step", "cosine"}), 2u);
  EXPECT_NO_THROW(file.refuse_unknown_keys());
}

TEST(ConfigFile, RefusesWithTheFileTheLineTheKeyAndWhatWasFound) {
  const auto integer = [](ConfigFile& f) { f.integer("s.n", 1, 1, 64); };
  EXPECT_EQ(refusal("[s]\nn = 65\n", integer), "c.toml:2: s.n: must be between 1 and 64, got 65");
  EXPECT_EQ(refusal("[s]\nn = 1.5\n", integer), "c.toml:2: s.n: expected an integer, got a number");
  EXPECT_EQ(refusal("[s]\nn = \"4\"\n", integer), "c.toml:2: s.n: expected an integer, got a string");
  EXPECT_EQ(refusal("x = 2.5\n", [](ConfigFile& f) { f.number("x", 0, 0, 1); }),
            "c.toml:1: x: must be between 0 and 1, got 2.5");
  EXPECT_EQ(refusal("x = nan\n", [](ConfigFile& f) { f.number("x", 0, 0, 1); }),
            "c.toml:1: x: must be between 0 and 1, got nan");
  EXPECT_EQ(refusal("b = 1\n", [](ConfigFile& f) { f.boolean("b", false); }),
            "c.toml:1: b: expected true or false, got an integer");
  EXPECT_EQ(refusal("k = \"hinge\"\n", [](ConfigFile& f) { f.choice("k", 0, {"mse", "cross_entropy"}); }),
            "c.toml:1: k: unknown value \"hinge\" (known: mse, cross_entropy)");
}

TEST(ConfigFile, RefusesUnknownKeysAndAValueWhereATableBelongs) {
  const auto reads_section = [](ConfigFile& f) { f.integer("search.depth", 6, 1, 64); };
  EXPECT_EQ(refusal("[search]\ndepht = 4\n", reads_section), "c.toml:2: search.depht: unknown key");
  EXPECT_EQ(refusal("[serch]\ndepth = 4\n", reads_section), "c.toml:2: serch.depth: unknown key");
  EXPECT_EQ(refusal("search = 4\n", reads_section), "c.toml:1: search: expected a table ([search]), got an integer");
  // "search" is not a prefix of "searching": that one is simply unknown.
  EXPECT_EQ(refusal("searching = 4\n", reads_section), "c.toml:1: searching: unknown key");
}

TEST(ConfigFile, ANonTomlFileIsOneLineWithItsLine) {
  try {
    ConfigFile::parse("a = 1\n[b\n", "c.toml");
    ADD_FAILURE() << "parsed";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("c.toml:2: not valid TOML: "));
  }
  EXPECT_THROW(ConfigFile::read("/no/such/dir/c.toml"), Error);
}

}  // namespace
}  // namespace dama
