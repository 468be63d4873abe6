// The binary weights file of the pattern model (core/patterns/pattern_file):
// it round-trips, quantised exactly as documented, and every kind of bad
// file is refused with one line naming the file and the field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "error.hpp"
#include "patterns/pattern_file.hpp"
#include "patterns/regions.hpp"
#include "test_support.hpp"
#include "weights.hpp"

namespace dama {
namespace {

using ::testing::HasSubstr;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "dama_patterns_" + std::to_string(::getpid()) + "_" + name;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The built-in linear weights with pattern weights drawn at random, some of
// them fractional, up to +-40 centi-men.
Weights pattern_weights(const Variant& variant, std::uint64_t seed) {
  Weights w = with_model(default_weights(variant), variant, EvalModel::Patterns);
  test::Random random(seed);
  const std::size_t named = 2 * static_cast<std::size_t>(feature_count(variant.rules.board));
  for (std::size_t i = named; i < w.values.size(); ++i)
    if (random.below(3) == 0) w.values[i] = static_cast<float>(random.below(8001) - 4000) / 100.0f;
  w.metadata = {{"source", "test"}};
  return w;
}

std::string refusal(const std::string& bytes, const Variant& variant) {
  try {
    parse_pattern_file(bytes, "f.patterns", variant);
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(PatternFile, SizesAreWhatTheIssueAsks) {
  EXPECT_GE(2 * pattern_feature_count({8, 8}), 50000);
  EXPECT_GE(2 * pattern_feature_count({10, 10}), 200000);
}

TEST(PatternFile, RoundTripsWithinHalfAStepAndRereadsExactly) {
  for (const char* name : {"russian", "international"}) {
    const Variant& variant = find_variant(name);
    const Weights w = pattern_weights(variant, 3);
    const std::string path = temp_path(std::string(name) + ".patterns");
    save_weights(path, w, variant);
    const Weights back = load_weights(path, variant);
    ASSERT_EQ(back.model, EvalModel::Patterns);
    ASSERT_EQ(back.values.size(), w.values.size());
    const std::size_t named = 2 * static_cast<std::size_t>(feature_count(variant.rules.board));
    for (std::size_t i = 0; i < named; ++i) ASSERT_EQ(back.values[i], w.values[i]) << i;  // float32, exact
    // The largest |w| is 40, so the scale is 512: a step of 1/512 centi-man.
    for (std::size_t i = named; i < w.values.size(); ++i) ASSERT_LE(std::fabs(back.values[i] - w.values[i]), 0.5 / 512) << i;
    EXPECT_EQ(back.metadata.value("source", ""), "test");
    // What the loader gives is what the engine plays, and saving it again gives the same bytes.
    const std::string again = temp_path(std::string(name) + "-again.patterns");
    save_weights(again, back, variant);
    EXPECT_EQ(read_bytes(again), read_bytes(path));
    EXPECT_EQ(weights_hash(load_weights(again, variant)), weights_hash(back));
    std::remove(path.c_str());
    std::remove(again.c_str());
  }
}

class PatternRefusalTest : public ::testing::Test {
 protected:
  const Variant& russian = find_variant("russian");
  std::string good = render_pattern_file(pattern_weights(russian, 5), russian, "f.patterns");
};

TEST_F(PatternRefusalTest, TheGoodFileLoads) { EXPECT_EQ(refusal(good, russian), "(accepted)"); }

TEST_F(PatternRefusalTest, AFileForAnotherVariant) {
  EXPECT_EQ(refusal(good, find_variant("czech")), "f.patterns: \"variant\": the file is for \"russian\", not \"czech\"");
  // Another board size: the variant is named first.
  EXPECT_THAT(refusal(good, find_variant("international")), HasSubstr("\"variant\""));
}

TEST_F(PatternRefusalTest, TruncatedAnywhere) {
  for (const std::size_t keep : {std::size_t{12}, std::size_t{40}, good.size() / 2, good.size() - 1}) {
    const std::string message = refusal(good.substr(0, keep), russian);
    EXPECT_THAT(message, HasSubstr("truncated")) << keep;
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_EQ(message.rfind("f.patterns: ", 0), 0u) << message;
  }
}

TEST_F(PatternRefusalTest, ACorruptByteFailsTheChecksum) {
  for (const std::size_t at : {good.size() - 20, good.size() / 2, good.size() - 9}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    EXPECT_EQ(refusal(bad, russian), "f.patterns: checksum: does not match the contents (the file is corrupt)") << at;
  }
}

TEST_F(PatternRefusalTest, WrongMagicVersionAndTrailingBytes) {
  std::string bad = good;
  bad[8] = 7;  // version 7, little-endian
  EXPECT_EQ(refusal(bad, russian), "f.patterns: version: unsupported version 7 (this build reads version 1)");
  EXPECT_THAT(refusal("DAMAPATX" + good.substr(8), russian), HasSubstr("f.patterns: magic: not a dama pattern weights file"));
  EXPECT_THAT(refusal(good.substr(0, 4), russian), HasSubstr("f.patterns: magic:"));
  EXPECT_THAT(refusal(good + "x", russian), HasSubstr("f.patterns: size: the file has"));
}

TEST_F(PatternRefusalTest, AnotherPatternSchema) {
  // The header's pattern schema edited (same length, so only the field is wrong).
  std::string bad = good;
  const std::string hash = pattern_schema_hash({8, 8});
  const std::size_t at = bad.find(hash);
  ASSERT_NE(at, std::string::npos);
  bad[at] = bad[at] == '0' ? '1' : '0';
  EXPECT_THAT(refusal(bad, russian), HasSubstr("f.patterns: \"pattern_schema\": the file has pattern schema"));
}

TEST(PatternFile, TheLoaderTellsTheFormatsApartAndNamesBuiltIns) {
  const Variant& russian = find_variant("russian");
  const std::string path = temp_path("named.json");  // a pattern file, whatever its name
  save_weights(path, pattern_weights(russian, 9), russian);
  EXPECT_EQ(load_weights(path, russian).model, EvalModel::Patterns);
  EXPECT_EQ(variant_of_weights_file(path), "russian");
  std::remove(path.c_str());
  EXPECT_EQ(load_weights(std::string(kBuiltinLinear), russian).model, EvalModel::Linear);
  EXPECT_THROW(render_pattern_file(default_weights(russian), russian, "x"), Error);  // a linear model
  Weights huge = pattern_weights(russian, 1);
  huge.values.back() = 40000;
  EXPECT_THROW(render_pattern_file(huge, russian, "x"), Error);  // beyond int16 at scale 1
}


// The pattern weights shipped in configs/weights/ are compiled in and load as
// builtin:patterns for their variant; a variant without one is refused with
// the file it lacks named.
TEST(PatternFile, TheShippedPatternWeightsLoadForTheirVariants) {
  for (const char* name : {"russian", "czech", "international"}) {
    SCOPED_TRACE(name);
    const Variant& variant = find_variant(name);
    const Weights w = load_weights(std::string(kBuiltinPatterns), variant);
    EXPECT_EQ(w.model, EvalModel::Patterns);
    EXPECT_EQ(w.values.size(), 2 * static_cast<std::size_t>(model_feature_count(variant.rules.board, EvalModel::Patterns)));
    const auto linear_size = 2 * static_cast<std::size_t>(model_feature_count(variant.rules.board, EvalModel::Linear));
    EXPECT_TRUE(std::any_of(w.values.begin() + static_cast<std::ptrdiff_t>(linear_size), w.values.end(),
                            [](float v) { return v != 0; }));  // fitted, not the linear model padded with zeros
  }
  try {
    load_weights(std::string(kBuiltinPatterns), find_variant("italian"));
    ADD_FAILURE() << "italian has no shipped pattern weights";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("configs/weights/italian.patterns"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dama
