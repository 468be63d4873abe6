#include "pattern_file.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "../binary_io.hpp"
#include "../error.hpp"
#include "../features.hpp"
#include "regions.hpp"

namespace dama {

namespace {

constexpr std::uint32_t kVersion = 1;
constexpr std::string_view kFormat = "dama-pattern-weights";
constexpr std::size_t kPrefixBytes = 8 + 4 + 4;  // magic, version, header size
constexpr std::size_t kChecksumBytes = 8;
constexpr double kMaxScale = 1024;

struct Refusal {
  const std::string& origin;
  [[noreturn]] void operator()(const std::string& field, const std::string& problem) const {
    throw Error(origin + ": " + field + ": " + problem);
  }
};

std::string as_json_text(std::string_view s) { return nlohmann::json(std::string(s)).dump(); }

struct Layout {
  std::size_t named_values;
  std::size_t pattern_values;
};

Layout layout_of(const Variant& variant) {
  const FeatureSchema size = feature_schema(variant.rules);
  return {2 * static_cast<std::size_t>(feature_count(size)), 2 * static_cast<std::size_t>(pattern_feature_count(size.board))};
}

// The checked header, and where the payload starts.
struct Header {
  nlohmann::json doc;
  std::size_t payload_at;
  double scale;
};

Header check_file(std::string_view bytes, const std::string& origin, const Variant& variant) {
  const Refusal refuse{origin};
  if (!is_pattern_file(bytes)) refuse("magic", "not a dama pattern weights file (it does not start with \"DAMAPATW\")");
  if (bytes.size() < kPrefixBytes + kChecksumBytes)
    refuse("header", "the file is truncated (" + std::to_string(bytes.size()) + " bytes)");
  const auto version = read_le<std::uint32_t>(bytes, 8);
  if (version != kVersion)
    refuse("version", "unsupported version " + std::to_string(version) + " (this build reads version 1)");
  const auto header_size = read_le<std::uint32_t>(bytes, 12);
  if (header_size > bytes.size() - kPrefixBytes - kChecksumBytes)
    refuse("header", "the file is truncated: a header of " + std::to_string(header_size) + " bytes does not fit in " +
                         std::to_string(bytes.size()) + " bytes");
  const Layout layout = layout_of(variant);
  const std::size_t expected = kPrefixBytes + header_size + 4 * layout.named_values + 2 * layout.pattern_values + kChecksumBytes;
  Header h;
  try {
    h.doc = nlohmann::json::parse(bytes.substr(kPrefixBytes, header_size));
  } catch (const nlohmann::json::exception&) {
    refuse("header", bytes.size() < expected ? "the file is truncated" : "not valid JSON");
  }
  if (!h.doc.is_object()) refuse("header", "expected a JSON object");
  auto text_field = [&](const char* name) -> std::string {
    const auto it = h.doc.find(name);
    if (it == h.doc.end()) refuse(as_json_text(name), "missing");
    if (!it->is_string()) refuse(as_json_text(name), "expected a string");
    return it->get<std::string>();
  };
  if (text_field("format") != kFormat) refuse("\"format\"", "expected \"dama-pattern-weights\"");
  if (const std::string v = text_field("variant"); v != variant.name)
    refuse("\"variant\"", "the file is for " + as_json_text(v) + ", not " + as_json_text(variant.name));
  const FeatureSchema size = feature_schema(variant.rules);
  if (const std::string s = text_field("schema"); s != schema_hash(size))
    refuse("\"schema\"", "the file has named-feature schema " + as_json_text(s) + ", this build's is " + as_json_text(schema_hash(size)));
  if (const std::string s = text_field("pattern_schema"); s != pattern_schema_hash(size.board))
    refuse("\"pattern_schema\"", "the file has pattern schema " + as_json_text(s) + ", this build's is " +
                                     as_json_text(pattern_schema_hash(size.board)) + " (other regions)");
  const auto families = h.doc.find("families");
  if (families == h.doc.end() || !families->is_array() || families->size() != 2)
    refuse("\"families\"", "expected the two families named and patterns");
  auto check_family = [&](const nlohmann::json& f, const char* name, std::size_t values, const char* encoding) {
    const std::string field = std::string("\"families\".") + name;
    if (!f.is_object() || f.value("name", "") != name) refuse(field, "missing or out of order");
    if (!f.contains("values") || !f["values"].is_number_unsigned() || f["values"].get<std::size_t>() != values)
      refuse(field + ".values", "expected " + std::to_string(values) + " values for this build's schema");
    if (f.value("encoding", "") != encoding) refuse(field + ".encoding", std::string("expected ") + as_json_text(encoding));
  };
  check_family((*families)[0], "named", layout.named_values, "float32");
  check_family((*families)[1], "patterns", layout.pattern_values, "int16");
  const auto& scale = (*families)[1]["scale"];
  if (!scale.is_number() || !(scale.get<double>() >= 1 && scale.get<double>() <= kMaxScale))
    refuse("\"families\".patterns.scale", "expected a number from 1 to 1024");
  h.scale = scale.get<double>();
  if (const auto it = h.doc.find("metadata"); it != h.doc.end() && !it->is_object())
    refuse("\"metadata\"", "expected an object");
  if (bytes.size() != expected)
    refuse("size", "the file has " + std::to_string(bytes.size()) + " bytes, its header promises " +
                       std::to_string(expected) + (bytes.size() < expected ? " (truncated)" : ""));
  const std::uint64_t stored = read_le<std::uint64_t>(bytes, bytes.size() - kChecksumBytes);
  if (stored != fnv1a(bytes.substr(0, bytes.size() - kChecksumBytes)))
    refuse("checksum", "does not match the contents (the file is corrupt)");
  h.payload_at = kPrefixBytes + header_size;
  return h;
}

}  // namespace

bool is_pattern_file(std::string_view bytes) { return bytes.substr(0, kPatternFileMagic.size()) == kPatternFileMagic; }

Weights parse_pattern_file(std::string_view bytes, const std::string& origin, const Variant& variant) {
  const Header h = check_file(bytes, origin, variant);
  const Layout layout = layout_of(variant);
  Weights w;
  w.variant = variant.name;
  w.model = EvalModel::Patterns;
  w.values.resize(layout.named_values + layout.pattern_values);
  std::size_t at = h.payload_at;
  for (std::size_t i = 0; i < layout.named_values; ++i, at += 4) {
    const auto bits = read_le<std::uint32_t>(bytes, at);
    float value;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value))
      throw Error(origin + ": named weight " + std::to_string(i) + ": not a finite number");
    w.values[i] = value;
  }
  const float inverse = static_cast<float>(1.0 / h.scale);
  for (std::size_t i = 0; i < layout.pattern_values; ++i, at += 2)
    w.values[layout.named_values + i] = static_cast<float>(static_cast<std::int16_t>(read_le<std::uint16_t>(bytes, at))) * inverse;
  w.source = origin;
  w.metadata = h.doc.value("metadata", nlohmann::json::object());
  return w;
}

std::string pattern_file_header_text(std::string_view bytes, const std::string& origin) {
  if (bytes.size() < kPrefixBytes || read_le<std::uint32_t>(bytes, 12) > bytes.size() - kPrefixBytes)
    throw Error(origin + ": header: the file is truncated");
  return std::string(bytes.substr(kPrefixBytes, read_le<std::uint32_t>(bytes, 12)));
}

std::string render_pattern_file(const Weights& w, const Variant& variant, const std::string& origin) {
  const Layout layout = layout_of(variant);
  if (w.model != EvalModel::Patterns || w.values.size() != layout.named_values + layout.pattern_values)
    throw Error(origin + ": refusing to save " + std::to_string(w.values.size()) + " weight values as a pattern model of " +
                std::to_string(layout.named_values + layout.pattern_values));
  float largest = 0;
  for (const float v : w.values) {
    if (!std::isfinite(v)) throw Error(origin + ": refusing to save a weight that is not finite");
  }
  for (std::size_t i = layout.named_values; i < w.values.size(); ++i) largest = std::max(largest, std::fabs(w.values[i]));
  double scale = kMaxScale;
  while (scale > 1 && std::nearbyint(largest * scale) > 32767) scale /= 2;
  if (std::nearbyint(largest * scale) > 32767)
    throw Error(origin + ": refusing to save a pattern weight of " + std::to_string(largest) + " (beyond int16)");
  nlohmann::json header = {
      {"format", kFormat},
      {"version", kVersion},
      {"variant", variant.name},
      {"schema", schema_hash(feature_schema(variant.rules))},
      {"pattern_schema", pattern_schema_hash(variant.rules.board)},
      {"families",
       nlohmann::json::array({{{"name", "named"}, {"values", layout.named_values}, {"encoding", "float32"}},
                              {{"name", "patterns"},
                               {"values", layout.pattern_values},
                               {"encoding", "int16"},
                               {"scale", scale}}})},
      {"metadata", w.metadata.is_object() ? w.metadata : nlohmann::json::object()}};
  const std::string text = header.dump();
  std::string out(kPatternFileMagic);
  append_le<std::uint32_t>(out, kVersion);
  append_le<std::uint32_t>(out, static_cast<std::uint32_t>(text.size()));
  out += text;
  for (std::size_t i = 0; i < layout.named_values; ++i) {
    std::uint32_t bits;
    const float v = w.values[i] == 0 ? 0.0f : w.values[i];
    std::memcpy(&bits, &v, sizeof bits);
    append_le<std::uint32_t>(out, bits);
  }
  for (std::size_t i = layout.named_values; i < w.values.size(); ++i)
    append_le<std::int16_t>(out, static_cast<std::int16_t>(std::nearbyint(w.values[i] * scale)));
  append_le<std::uint64_t>(out, fnv1a(out));
  return out;
}

}  // namespace dama
