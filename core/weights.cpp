#include "weights.hpp"

#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include "error.hpp"
#include "features.hpp"
#include "patterns/pattern_file.hpp"
#include "patterns/regions.hpp"

namespace dama {

namespace detail {
// Defined in the embedded_weights.cpp CMake generates from configs/weights/*.json;
// the list ends with an entry whose name is empty.
struct EmbeddedFile {
  std::string_view name;  // the variant
  std::string_view text;
};
extern const EmbeddedFile kEmbeddedWeightFiles[];
// Defined in the embedded_pattern_weights.cpp CMake generates from
// configs/weights/*.patterns (binary, the bytes as an array).
extern const EmbeddedFile kEmbeddedPatternFiles[];
}  // namespace detail

namespace {

constexpr std::string_view kFormat = "dama-weights";
constexpr int kVersion = 1;
constexpr std::string_view kOpening = "opening", kEndgame = "endgame";

std::string json_quoted(std::string_view s) { return nlohmann::json(std::string(s)).dump(); }
std::string weight_field(std::string_view feature) { return "weights[" + json_quoted(feature) + "]"; }

// The one-line error every refusal raises: "<origin>: <field>: <problem>".
struct Refusal {
  const std::string& origin;
  [[noreturn]] void operator()(const std::string& field, const std::string& problem) const {
    throw Error(origin + ": " + field + ": " + problem);
  }
};

// What a JSON value is, for messages: its text, cut short.
std::string shown(const nlohmann::json& j) {
  std::string text = j.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

const nlohmann::json& required(const nlohmann::json& doc, const char* field, const Refusal& refuse) {
  const auto it = doc.find(field);
  if (it == doc.end()) refuse(json_quoted(field), "missing");
  return *it;
}

void check_header(const nlohmann::json& doc, const Variant& variant, const Refusal& refuse) {
  if (!doc.is_object()) refuse("the document", "expected a JSON object, got " + shown(doc));
  static const std::set<std::string> kKnown = {"format", "version", "variant", "schema", "weights", "metadata"};
  for (const auto& [key, value] : doc.items())
    if (!kKnown.count(key)) refuse(json_quoted(key), "unknown field (known: format, version, variant, schema, weights, metadata)");
  const auto& format = required(doc, "format", refuse);
  if (!format.is_string() || format.get<std::string>() != kFormat) refuse("\"format\"", "expected \"dama-weights\", got " + shown(format));
  const auto& version = required(doc, "version", refuse);
  if (!version.is_number_integer() || version.get<long long>() != kVersion)
    refuse("\"version\"", "unsupported version " + shown(version) + " (this build reads version 1)");
  const auto& file_variant = required(doc, "variant", refuse);
  if (!file_variant.is_string() || file_variant.get<std::string>() != variant.name)
    refuse("\"variant\"", "the file is for " + shown(file_variant) + ", not " + json_quoted(variant.name));
  if (const auto it = doc.find("metadata"); it != doc.end() && !it->is_object())
    refuse("\"metadata\"", "expected an object, got " + shown(*it));
}

// The first feature the file lacks and the first it has that the schema does
// not, to explain a schema mismatch.
std::string schema_difference(const nlohmann::json& weights, const std::vector<std::string>& names) {
  if (!weights.is_object()) return "";
  std::string detail;
  for (const auto& name : names)
    if (!weights.contains(name)) {
      detail += "; lacks " + weight_field(name);
      break;
    }
  const std::set<std::string> known(names.begin(), names.end());
  for (const auto& [key, value] : weights.items())
    if (!known.count(key)) {
      detail += "; has unknown " + weight_field(key);
      break;
    }
  return detail;
}

float read_weight(const nlohmann::json& entry, std::string_view phase, const std::string& field, const Refusal& refuse) {
  const std::string where = field + "." + std::string(phase);
  const auto it = entry.find(std::string(phase));
  if (it == entry.end()) refuse(where, "missing");
  if (!it->is_number()) refuse(where, "expected a number, got " + shown(*it));
  // Doubles from here up round to infinity as floats (halfway to 2^128 rounds up).
  constexpr double kFloatOverflow = 0x1.ffffffp127;
  const double value = it->get<double>();
  if (!std::isfinite(value) || std::fabs(value) >= kFloatOverflow)
    refuse(where, "expected a finite number within float range, got " + shown(*it));
  return static_cast<float>(value);
}

std::vector<float> read_values(const nlohmann::json& weights, const std::vector<std::string>& names, const Refusal& refuse) {
  if (!weights.is_object()) refuse("\"weights\"", "expected an object of feature weights, got " + shown(weights));
  std::vector<float> values(2 * names.size());
  for (std::size_t f = 0; f < names.size(); ++f) {
    const std::string field = weight_field(names[f]);
    const auto it = weights.find(names[f]);
    if (it == weights.end()) refuse(field, "missing weight (every feature of the schema needs one)");
    if (!it->is_object()) refuse(field, "expected {\"opening\": number, \"endgame\": number}, got " + shown(*it));
    for (const auto& [key, value] : it->items())
      if (key != kOpening && key != kEndgame) refuse(field + "." + key, "unknown field (expected opening and endgame)");
    values[2 * f] = read_weight(*it, kOpening, field, refuse);
    values[2 * f + 1] = read_weight(*it, kEndgame, field, refuse);
  }
  if (weights.size() != names.size()) {
    const std::set<std::string> known(names.begin(), names.end());
    for (const auto& [key, value] : weights.items())
      if (!known.count(key)) refuse(weight_field(key), "unknown feature (not in this build's schema)");
  }
  return values;
}

std::string read_text_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw Error(path + ": cannot open: " + std::strerror(errno));
  std::string text;
  char buffer[1 << 14];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  const bool failed = std::ferror(file);
  const int error = errno;
  std::fclose(file);
  if (failed) throw Error(path + ": cannot read: " + std::strerror(error));
  return text;
}

// The shortest decimal that reads back as exactly this float, as a JSON number
// (an integer when it is one), so files stay readable and round-trip exactly.
nlohmann::json json_number(float value) {
  if (std::trunc(value) == value && std::fabs(value) < 1e15f && !(value == 0 && std::signbit(value)))
    return static_cast<long long>(value);
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  double shortest = 0;
  std::from_chars(text, end, shortest);
  // Read back through a double, as the loader does; in the rare case where
  // that rounds differently, keep the float's exact value instead.
  return static_cast<float>(shortest) == value ? shortest : static_cast<double>(value);
}

std::string render(const Weights& w, const Variant& variant) {
  const auto& names = feature_names(feature_schema(variant.rules));
  std::string out = "{\n";
  out += "  \"format\": " + json_quoted(kFormat) + ",\n";
  out += "  \"version\": " + std::to_string(kVersion) + ",\n";
  out += "  \"variant\": " + json_quoted(variant.name) + ",\n";
  out += "  \"schema\": " + json_quoted(schema_hash(feature_schema(variant.rules))) + ",\n";
  out += "  \"weights\": {\n";
  for (std::size_t f = 0; f < names.size(); ++f) {
    out += "    " + json_quoted(names[f]) + ": {\"opening\": " + json_number(w.values[2 * f]).dump() +
           ", \"endgame\": " + json_number(w.values[2 * f + 1]).dump() + "}";
    out += f + 1 < names.size() ? ",\n" : "\n";
  }
  out += "  },\n";
  std::string metadata = (w.metadata.is_object() ? w.metadata : nlohmann::json::object()).dump(2);
  for (std::size_t at = metadata.find('\n'); at != std::string::npos; at = metadata.find('\n', at + 1))
    metadata.insert(at + 1, "  ");
  out += "  \"metadata\": " + metadata + "\n}\n";
  return out;
}

}  // namespace

std::string_view model_name(EvalModel model) { return model == EvalModel::Patterns ? "patterns" : "linear"; }

int model_feature_count(FeatureSchema schema, EvalModel model) {
  return feature_count(schema) + (model == EvalModel::Patterns ? pattern_feature_count(schema.board) : 0);
}

Weights parse_weights(std::string_view text, const std::string& origin, const Variant& variant) {
  if (is_pattern_file(text)) return parse_pattern_file(text, origin, variant);
  const Refusal refuse{origin};
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // what() is "[json.exception.parse_error.101] parse error at line L, column C: ...",
    // or out_of_range.406 for a number beyond a double.
    std::string why = e.what();
    if (const auto end = why.find("] "); why.rfind("[json.exception", 0) == 0 && end != std::string::npos)
      why.erase(0, end + 2);
    throw Error(origin + ": not valid JSON: " + why);
  }
  check_header(doc, variant, refuse);
  const FeatureSchema board = feature_schema(variant.rules);
  const auto& names = feature_names(board);
  const auto& weights = required(doc, "weights", refuse);
  const auto& schema = required(doc, "schema", refuse);
  if (!schema.is_string() || schema.get<std::string>() != schema_hash(board))
    refuse("\"schema\"", "the file has schema " + shown(schema) + ", this build's " + shape_name(board.board) + (board.towers ? " tower" : "") +
                             " schema is " + json_quoted(schema_hash(board)) +
                             schema_difference(weights, names));
  Weights w;
  w.variant = std::string(variant.name);
  w.values = read_values(weights, names, refuse);
  w.source = origin;
  w.metadata = doc.value("metadata", nlohmann::json::object());
  return w;
}

Weights load_weights(const std::string& path, const Variant& variant) {
  if (path == kBuiltinLinear) return default_weights(variant, EvalModel::Linear);
  if (path == kBuiltinPatterns) return default_weights(variant, EvalModel::Patterns);
  return parse_weights(read_text_file(path), path, variant);
}

// The embedded file of the variant in a list that ends with an empty name, or null.
static const detail::EmbeddedFile* embedded_file(const detail::EmbeddedFile* files, std::string_view variant) {
  for (const auto* file = files; !file->name.empty(); ++file)
    if (file->name == variant) return file;
  return nullptr;
}

Weights default_weights(const Variant& variant, EvalModel model) {
  const bool patterns = model == EvalModel::Patterns;
  const std::string name(variant.name), file_name = name + (patterns ? ".patterns" : ".json");
  const auto* file = embedded_file(patterns ? detail::kEmbeddedPatternFiles : detail::kEmbeddedWeightFiles, name);
  if (!file)
    throw Error("no built-in " + std::string(patterns ? "pattern " : "") + "weights for variant " + json_quoted(name) +
                " (configs/weights/" + file_name +
                (patterns ? " is not shipped; train one with dama tune --model patterns)" : " was missing when dama was built)"));
  Weights w = parse_weights(file->text, "built-in configs/weights/" + file_name, variant);
  w.source = patterns ? "built-in patterns" : "built-in default";
  return w;
}

Weights with_model(const Weights& w, const Variant& variant, EvalModel model) {
  Weights out = w;
  out.model = model;
  out.values.resize(2 * static_cast<std::size_t>(model_feature_count(feature_schema(variant.rules), model)), 0.0f);
  return out;
}

Weights default_weights(const Variant& variant) { return default_weights(variant, EvalModel::Linear); }

void save_weights(const std::string& path, const Weights& w, const Variant& variant) {
  if (w.variant != variant.name)
    throw Error(path + ": refusing to save weights of variant " + json_quoted(w.variant) + " as " + json_quoted(variant.name));
  if (w.model == EvalModel::Patterns) {
    write_file_atomically(path, render_pattern_file(w, variant, path));
    return;
  }
  const std::size_t expected = 2 * static_cast<std::size_t>(feature_count(feature_schema(variant.rules)));
  if (w.values.size() != expected)
    throw Error(path + ": refusing to save " + std::to_string(w.values.size()) + " weight values, the schema has " +
                std::to_string(expected));
  for (const float v : w.values)
    if (!std::isfinite(v)) throw Error(path + ": refusing to save a weight that is not finite");
  write_file_atomically(path, render(w, variant));
}

std::string describe_weights(const Weights& w, const Variant& variant) {
  const FeatureSchema size = feature_schema(variant.rules);
  const std::size_t named = 2 * static_cast<std::size_t>(feature_count(size));
  std::size_t set = 0;
  for (std::size_t i = named; i < w.values.size(); ++i) set += w.values[i] != 0;
  std::string out = "file       " + w.source + "\n";
  out += "variant    " + w.variant + "\n";
  out += "model      " + std::string(model_name(w.model)) + "\n";
  out += "schema     " + schema_hash(size) + " (" + std::to_string(feature_count(size)) + " named features, " +
         std::to_string(named) + " weights)\n";
  if (w.model == EvalModel::Patterns)
    out += "patterns   " + pattern_schema_hash(size.board) + " (" + std::to_string(pattern_feature_count(size.board)) +
           " features, " + std::to_string(w.values.size() - named) + " weights, " + std::to_string(set) + " not zero)\n";
  out += "values     " + weights_hash(w) + "\n";
  out += "metadata   " + (w.metadata.is_object() ? w.metadata : nlohmann::json::object()).dump(2) + "\n";
  return out;
}

std::string list_weights(const Weights& w, const Variant& variant) {
  const FeatureSchema size = feature_schema(variant.rules);
  const int named = feature_count(size);
  std::string out;
  char numbers[64];
  for (std::size_t f = 0; 2 * f + 1 < w.values.size(); ++f) {
    const float opening = w.values[2 * f], endgame = w.values[2 * f + 1];
    if (static_cast<int>(f) >= named && opening == 0 && endgame == 0) continue;
    std::snprintf(numbers, sizeof numbers, " %.9g %.9g\n", static_cast<double>(opening), static_cast<double>(endgame));
    out += feature_name(size, static_cast<int>(f)) + numbers;
  }
  return out;
}

std::string variant_of_weights_file(const std::string& path) {
  if (path.rfind("builtin:", 0) == 0) throw Error(path + ": built-in weights name no variant: give --variant");
  const std::string bytes = read_text_file(path);
  const nlohmann::json doc =
      nlohmann::json::parse(is_pattern_file(bytes) ? pattern_file_header_text(bytes, path) : bytes, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw Error(path + ": not a weights file (neither dama JSON weights nor a pattern file)");
  const auto it = doc.find("variant");
  if (it == doc.end() || !it->is_string()) throw Error(path + ": \"variant\": missing");
  return it->get<std::string>();
}

std::string weights_hash(const Weights& w) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the values' bits, little-endian
  for (const float v : w.values) {
    std::uint32_t bits = 0;
    const float canonical = v == 0 ? 0.0f : v;  // -0 and +0 are the same weight
    std::memcpy(&bits, &canonical, sizeof bits);
    for (int byte = 0; byte < 4; ++byte) {
      h ^= (bits >> (8 * byte)) & 0xffu;
      h *= 0x100000001b3ULL;
    }
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace dama
