// The binary weights file of the pattern model (docs/evaluation.md has the
// layout byte by byte).  JSON holds the ~150 weights of the linear model
// well; the pattern model has 118 098 (8x8) or 209 952 (10x10), so it is
// stored as little-endian binary:
//
//   "DAMAPATW"                    8 bytes, the format's magic
//   version                       uint32, 1
//   header size H                 uint32
//   header                        H bytes of JSON: format, version, variant,
//                                 schema (the named features' hash),
//                                 pattern_schema (the regions' hash), the
//                                 families with their sizes, encodings and
//                                 quantisation scale, and metadata
//   named family                  float32 values, exact
//   patterns family               int16 values, value = stored / scale
//   checksum                      uint64, FNV-1a of every byte before it
//
// The loader refuses a file for another variant or schema, of another size
// than its header promises, or with a wrong checksum, with one line naming
// the file and the field; nothing runs on half-read weights.
#pragma once

#include <string>
#include <string_view>

#include "../variant.hpp"
#include "../weights.hpp"

namespace dama {

inline constexpr std::string_view kPatternFileMagic = "DAMAPATW";

// Whether `bytes` starts like a pattern weights file.
bool is_pattern_file(std::string_view bytes);

// Reads the file's bytes (`origin` names it in errors).  Throws dama::Error.
Weights parse_pattern_file(std::string_view bytes, const std::string& origin, const Variant& variant);

// The bytes of w (a pattern model for `variant`), the pattern weights
// quantised to int16 with the largest power-of-two scale (at most 1024) that
// holds the largest of them: what the loader reads back is exactly what the
// engine plays, within half a step of w.  Throws dama::Error for weights
// that do not fit the schema or are not finite.
std::string render_pattern_file(const Weights& w, const Variant& variant, const std::string& origin);

// The JSON header of a pattern weights file, unchecked beyond its framing
// (for `dama weights info FILE`, which learns the variant from it).
// Throws dama::Error for a file too short for its header or not JSON.
std::string pattern_file_header_text(std::string_view bytes, const std::string& origin);

}  // namespace dama
