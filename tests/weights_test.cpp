// Weight files (core/weights.hpp): the shipped defaults load and cover the
// schema, every kind of bad file is refused with one line naming the file and
// the field, and save_weights/load_weights round-trip bit for bit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>

#include "evaluate.hpp"
#include "test_support.hpp"
#include "weights.hpp"

namespace dama {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kShippedDir = DAMA_TEST_DATA_DIR "/../../configs/weights/";

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "dama_weights_" + std::to_string(::getpid()) + "_" + name;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int weight_index(FeatureSchema board, const std::string& name, bool endgame) {
  const auto& names = feature_names(board);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::logic_error("no feature " + name);
  return 2 * static_cast<int>(it - names.begin()) + (endgame ? 1 : 0);
}

class DefaultWeightsTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Variant& variant() const { return find_variant(GetParam()); }
};

TEST_P(DefaultWeightsTest, TheBuiltInFileLoadsAndCoversTheSchema) {
  const Weights w = default_weights(variant());
  EXPECT_EQ(w.variant, GetParam());
  EXPECT_EQ(w.source, "built-in default");
  EXPECT_EQ(w.values.size(), 2 * static_cast<std::size_t>(feature_count(feature_schema(variant().rules))));
  for (const float v : w.values) EXPECT_TRUE(std::isfinite(v));
  EXPECT_TRUE(w.metadata.is_object());
  // Every variant ships what dama's own self-play and tuner made of the
  // hand-set start (docs/evaluation.md, "The built-in linear weights").
  EXPECT_EQ(w.metadata.value("source", ""), "dama tune");
  EXPECT_EQ(w.metadata.value("model", ""), "linear");
  EXPECT_GT(w.metadata["positions"].value("training", 0), 100000) << "fitted on a real amount of self-play";
}

TEST_P(DefaultWeightsTest, TheFileInTheSourceTreeIsTheOneBuiltIn) {
  const std::string path = kShippedDir + GetParam() + ".json";
  const Weights on_disk = load_weights(path, variant());
  EXPECT_EQ(on_disk.source, path);
  EXPECT_EQ(on_disk.values, default_weights(variant()).values) << "rebuild: configs/weights changed since the build";
}

TEST_P(DefaultWeightsTest, AreSensible) {
  const Weights w = default_weights(variant());
  const FeatureSchema size = feature_schema(variant().rules);
  auto weight = [&](const std::string& name, bool endgame) { return w.values[weight_index(size, name, endgame)]; };
  if (no_move_wins(variant().rules)) {
    // poddavki: pieces are what a player wants to be rid of, a king in the
    // opening most of all.
    EXPECT_LT(weight("material.man", false), -50);
    EXPECT_LT(weight("material.man", true), -50);
    EXPECT_LT(weight("material.king", false), weight("material.man", false));
    return;
  }
  // What any fit of the game must have learnt: a man is worth something, a
  // king more than a man, and a man with a free run to the crown is worth
  // more in the endgame than nothing.
  for (const bool endgame : {false, true}) {
    EXPECT_GT(weight("material.man", endgame), 50) << (endgame ? "endgame" : "opening");
    EXPECT_GT(weight("material.king", endgame), 1.3f * weight("material.man", endgame)) << (endgame ? "endgame" : "opening");
  }
  EXPECT_GT(weight("runaway.man", true), 0);
}

// The hand-set start every shipped file was tuned from, kept selectable
// (--weights configs/weights/handset/V.json) so gains are measured against it.
TEST_P(DefaultWeightsTest, TheHandSetStartLoadsAndIsSensible) {
  const std::string path = kShippedDir + "handset/" + GetParam() + ".json";
  const Weights w = load_weights(path, variant());
  EXPECT_EQ(w.metadata.value("source", ""), "hand-set defaults");
  EXPECT_NE(w.values, default_weights(variant()).values) << "the built-in weights are the tuned ones";
  if (no_move_wins(variant().rules)) return;
  const FeatureSchema size = feature_schema(variant().rules);
  auto weight = [&](const std::string& name, bool endgame) { return w.values[weight_index(size, name, endgame)]; };
  EXPECT_EQ(weight("material.man", false), 100);
  const float king = weight("material.king", false);
  if (variant().rules.flying_kings) {
    EXPECT_GE(king, 250);
    EXPECT_LE(king, 300);
  } else {
    EXPECT_GE(king, 140);
    EXPECT_LE(king, 180);
  }
  EXPECT_GE(weight("material.king", true), king) << "kings gain in the endgame";
  EXPECT_LT(weight("king.trapped", true), 0);
  EXPECT_GT(weight("runaway.man", true), 0);
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : kVariants) names.emplace_back(v.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, DefaultWeightsTest, ::testing::ValuesIn(variant_names()),
                         [](const ::testing::TestParamInfo<std::string>& variant) { return variant.param; });

TEST(DefaultWeights, AreTheSameFromAnyWorkingDirectory) {
  const auto here = std::filesystem::current_path();
  std::filesystem::current_path(::testing::TempDir());
  const Weights w = default_weights(find_variant("international"));
  std::filesystem::current_path(here);
  EXPECT_EQ(w.values, default_weights(find_variant("international")).values);
  EXPECT_EQ(w.values.size(), 2 * static_cast<std::size_t>(feature_count({10, 10})));
}

// ---------------------------------------------------------------------------
// Refusals: a good file (the shipped russian one) with one thing broken.

class RefusalTest : public ::testing::Test {
 protected:
  const Variant& russian = find_variant("russian");
  const std::string path = temp_path("refused.json");

  // Whatever a test wrote there goes, even when an assertion ended it early.
  void TearDown() override { std::remove(path.c_str()); }

  nlohmann::json good() const { return nlohmann::json::parse(read_text(kShippedDir + "russian.json")); }

  // Loads `text` from a file; expects a one-line dama::Error naming the file
  // and containing every one of `parts`.
  void expect_text_refused(const std::string& text, std::initializer_list<std::string> parts,
                           const Variant* as = nullptr) const {
    write_text(path, text);
    try {
      load_weights(path, as ? *as : russian);
      ADD_FAILURE() << "loaded: " << text.substr(0, 200);
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_THAT(message, ::testing::StartsWith(path + ": "));
      EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
      for (const auto& part : parts) EXPECT_THAT(message, HasSubstr(part));
    }
    std::remove(path.c_str());
  }
  void expect_refused(const nlohmann::json& doc, std::initializer_list<std::string> parts,
                      const Variant* as = nullptr) const {
    expect_text_refused(doc.dump(2), parts, as);
  }
};

TEST_F(RefusalTest, TheGoodFileLoads) {
  write_text(path, good().dump());
  EXPECT_NO_THROW(load_weights(path, russian));
}

TEST_F(RefusalTest, AnUnreadableFile) {
  const std::string missing = temp_path("no_such_file.json");
  try {
    load_weights(missing, russian);
    ADD_FAILURE() << "loaded a missing file";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing));
    EXPECT_THAT(e.what(), HasSubstr("cannot open"));
  }
  try {
    load_weights(::testing::TempDir(), russian);  // a directory
    ADD_FAILURE() << "loaded a directory";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(::testing::TempDir()));
  }
}

TEST_F(RefusalTest, BadJson) {
  expect_text_refused("{\"format\": \"dama-weights\",\n \"version\": 1,,}", {"not valid JSON", "line 2, column"});
  expect_text_refused("", {"not valid JSON"});
  expect_text_refused("[1, 2]", {"the document", "expected a JSON object"});
}

TEST_F(RefusalTest, WrongFormat) {
  auto doc = good();
  doc["format"] = "dama-weights-2";
  expect_refused(doc, {"\"format\"", "dama-weights-2"});
  doc.erase("format");
  expect_refused(doc, {"\"format\"", "missing"});
}

TEST_F(RefusalTest, UnsupportedVersion) {
  auto doc = good();
  doc["version"] = 2;
  expect_refused(doc, {"\"version\"", "unsupported version 2"});
  doc["version"] = "1";
  expect_refused(doc, {"\"version\""});
}

TEST_F(RefusalTest, AFileForAnotherVariant) {
  expect_refused(good(), {"\"variant\"", "russian", "czech"}, &find_variant("czech"));
  expect_refused(good(), {"\"variant\"", "international"}, &find_variant("international"));
}

TEST_F(RefusalTest, AnotherSchema) {
  auto doc = good();
  doc["schema"] = "0123456789abcdef";
  expect_refused(doc, {"\"schema\"", "0123456789abcdef", schema_hash({8, 8})});
  // The message names what differs.
  doc["weights"].erase("tempo.man");
  doc["weights"]["pattern.corner.17"] = {{"opening", 1}, {"endgame", 1}};
  expect_refused(doc, {"\"schema\"", "lacks weights[\"tempo.man\"]", "unknown weights[\"pattern.corner.17\"]"});
}

TEST_F(RefusalTest, AMissingWeight) {
  auto doc = good();
  doc["weights"].erase("tempo.man");
  expect_refused(doc, {"weights[\"tempo.man\"]", "missing"});
  doc = good();
  doc["weights"]["pst.king.7"].erase("endgame");
  expect_refused(doc, {"weights[\"pst.king.7\"].endgame", "missing"});
  doc = good();
  doc.erase("weights");
  expect_refused(doc, {"\"weights\"", "missing"});
}

TEST_F(RefusalTest, ANonNumericWeight) {
  auto doc = good();
  doc["weights"]["material.man"]["opening"] = "100";
  expect_refused(doc, {"weights[\"material.man\"].opening", "expected a number"});
  doc = good();
  doc["weights"]["material.man"]["endgame"] = nullptr;
  expect_refused(doc, {"weights[\"material.man\"].endgame"});
  doc = good();
  doc["weights"]["material.king"] = 250;
  expect_refused(doc, {"weights[\"material.king\"]", "\"opening\""});
  doc = good();
  doc["weights"] = nlohmann::json::array();
  expect_refused(doc, {"\"weights\"", "expected an object"});
}

TEST_F(RefusalTest, ANonFiniteWeight) {
  // JSON has no inf or nan; a number too large for a float is the way in.
  auto doc = good();
  doc["weights"]["material.man"]["endgame"] = 100;
  std::string text = doc.dump(2);
  const std::string from = "\"material.man\": {\n      \"endgame\": 100";
  ASSERT_NE(text.find(from), std::string::npos) << text.substr(0, 300);
  auto with_endgame_man = [&](const std::string& number) {
    std::string broken = text;
    return broken.replace(broken.find(from), from.size(), "\"material.man\": {\n      \"endgame\": " + number);
  };
  for (const std::string huge : {"1e39", "-3.5e38", "3.4028236e38"})
    expect_text_refused(with_endgame_man(huge), {"weights[\"material.man\"].endgame", "finite"});
  // Beyond a double the JSON parser itself gives up, naming the number.
  expect_text_refused(with_endgame_man("1e400"), {"not valid JSON", "1e400"});
  // The largest float is fine.
  write_text(path, with_endgame_man("3.4028234e38"));
  EXPECT_EQ(load_weights(path, russian).values[1], std::numeric_limits<float>::max());
}

TEST_F(RefusalTest, AnUnknownFeature) {
  auto doc = good();
  doc["weights"]["material.queen"] = {{"opening", 900}, {"endgame", 900}};
  expect_refused(doc, {"weights[\"material.queen\"]", "unknown feature"});
  doc = good();
  doc["weights"]["material.man"]["middlegame"] = 100;
  expect_refused(doc, {"weights[\"material.man\"].middlegame", "unknown field"});
  doc = good();
  doc["wieghts"] = doc["weights"];
  expect_refused(doc, {"\"wieghts\"", "unknown field"});
}

// ---------------------------------------------------------------------------
// Saving

TEST(SaveWeights, RoundTripsExactly) {
  for (const auto& v : kVariants) {
    SCOPED_TRACE(v.name);
    test::Random random(static_cast<std::uint64_t>(v.pdn_game_type));
    Weights w = default_weights(v);
    for (float& x : w.values) {
      // Integers, fractions with long expansions, tiny and huge magnitudes.
      const int kind = random.below(4);
      const float r = static_cast<float>(random.below(2000001) - 1000000);
      x = kind == 0 ? r : kind == 1 ? r / 7.0f : kind == 2 ? r * 1e-30f : r * 1e30f;
    }
    w.values[0] = -0.0f;
    w.values[1] = std::numeric_limits<float>::denorm_min();
    w.values[2] = std::numeric_limits<float>::max();
    w.values[3] = 0.1f;
    w.metadata = {{"source", "tuner"}, {"loss", 0.123456789}, {"games", {{"count", 1000}}}};
    const std::string path = temp_path(std::string(v.name) + ".json");
    save_weights(path, w, v);
    const Weights back = load_weights(path, v);
    ASSERT_EQ(back.values.size(), w.values.size());
    for (std::size_t i = 0; i < w.values.size(); ++i)
      EXPECT_EQ(std::memcmp(&back.values[i], &w.values[i], sizeof(float)), 0)
          << "value " << i << ": saved " << w.values[i] << ", read " << back.values[i];
    EXPECT_EQ(back.metadata, w.metadata);
    EXPECT_EQ(back.variant, w.variant);
    EXPECT_EQ(weights_hash(back), weights_hash(w));
    // Readable: one line per feature, plain numbers where they are integers.
    const std::string text = read_text(path);
    EXPECT_THAT(text, HasSubstr("\"pst.king.1\": {\"opening\": "));
    std::remove(path.c_str());
  }
}

TEST(SaveWeights, TheShippedFilesAreWhatSaveWrites) {
  // Saving a default back writes the same bytes: the generator script and
  // save_weights agree, so a tuner's output diffs cleanly against them.
  const Variant& v = find_variant("italian");
  const std::string path = temp_path("italian.json");
  save_weights(path, default_weights(v), v);
  EXPECT_EQ(read_text(path), read_text(kShippedDir + "italian.json"));
  std::remove(path.c_str());
}

TEST(SaveWeights, LeavesNoTemporaryFileAndReplacesTheOldOne) {
  const Variant& v = find_variant("american");
  const std::string directory = temp_path("save_dir");
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  const std::string path = directory + "/american.json";
  write_text(path, "old and broken");
  Weights w = default_weights(v);
  w.values[0] = 123.5f;
  save_weights(path, w, v);
  EXPECT_EQ(load_weights(path, v).values[0], 123.5f);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "american.json");
  }
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(directory);
}

TEST(SaveWeights, RefusesWhatDoesNotFit) {
  const Variant& v = find_variant("russian");
  const std::string path = temp_path("unfit.json");
  Weights w = default_weights(v);
  w.values.pop_back();
  EXPECT_THROW(save_weights(path, w, v), Error);
  w = default_weights(v);
  w.values[5] = std::numeric_limits<float>::infinity();
  EXPECT_THROW(save_weights(path, w, v), Error);
  EXPECT_THROW(save_weights(path, default_weights(v), find_variant("czech")), Error) << "russian weights as czech";
  EXPECT_FALSE(std::filesystem::exists(path));
  try {
    save_weights(temp_path("no/such/dir/w.json"), default_weights(v), v);
    ADD_FAILURE() << "saved into a missing directory";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("no/such/dir/w.json"));
  }
}

TEST(WeightsHash, IsStableAndFollowsTheValues) {
  Weights w;
  EXPECT_EQ(weights_hash(w), "cbf29ce484222325") << "FNV-1a of nothing";
  w.values = {1.0f, -2.5f};
  const std::string h = weights_hash(w);
  EXPECT_TRUE(std::regex_match(h, std::regex("[0-9a-f]{16}")));
  EXPECT_EQ(weights_hash(w), h);
  w.values[1] = -2.5000002f;
  EXPECT_NE(weights_hash(w), h);
  w.values = {0.0f};
  const std::string zero = weights_hash(w);
  w.values = {-0.0f};
  EXPECT_EQ(weights_hash(w), zero) << "equal values, equal digests";
  EXPECT_NE(weights_hash(default_weights(find_variant("russian"))), weights_hash(default_weights(find_variant("italian"))));
}

}  // namespace
}  // namespace dama
