#include "table_file.hpp"

#include "../binary_io.hpp"
#include "../error.hpp"

namespace dama::egtb {

namespace {

constexpr std::uint32_t kVersion = 1;
constexpr std::string_view kFormat = "dama-egtb-wdl";
constexpr std::size_t kPrefixBytes = 8 + 4 + 4;
constexpr std::size_t kChecksumBytes = 8;
constexpr const char* kEncoding = "2 bits a position, lowest first: 0 hole, 1 win, 2 loss, 3 draw (side to move)";
constexpr const char* kDistanceEncoding =
    "a byte a position after the values: plies to a capture, a crowning or the end under best play (255: or more)";

[[noreturn]] void refuse(const std::string& origin, const std::string& field, const std::string& problem) {
  throw Error(origin + ": " + field + ": " + problem);
}

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

}  // namespace

WdlCounts PackedValues::counts() const {
  WdlCounts c;
  for (std::uint64_t i = 0; i < positions_; ++i) {
    const Wdl v = get(i);
    c.wins += v == Wdl::Win;
    c.losses += v == Wdl::Loss;
    c.draws += v == Wdl::Draw;
  }
  return c;
}

std::string render_table_file(const TableIdentity& id, const PackedValues& values,
                              const std::vector<std::uint8_t>& distances, const nlohmann::json& metadata) {
  if (distances.size() != values.positions()) throw Error("endgame table: distances and values differ in length");
  const WdlCounts c = values.counts();
  const nlohmann::json header = {{"format", kFormat},
                                 {"version", kVersion},
                                 {"variant", id.variant},
                                 {"rules", id.rules},
                                 {"material", id.material.code()},
                                 {"material_text", id.material.describe()},
                                 {"positions", values.positions()},
                                 {"encoding", kEncoding},
                                 {"distances", kDistanceEncoding},
                                 {"counters", "ignored: the 80-ply and tournament draw counts do not enter the values"},
                                 {"counts", {{"wins", c.wins}, {"draws", c.draws}, {"losses", c.losses}}},
                                 {"metadata", metadata.is_object() ? metadata : nlohmann::json::object()}};
  const std::string text = header.dump();
  std::string out(kTableFileMagic);
  append_le<std::uint32_t>(out, kVersion);
  append_le<std::uint32_t>(out, static_cast<std::uint32_t>(text.size()));
  out += text;
  out.append(reinterpret_cast<const char*>(values.bytes().data()), values.bytes().size());
  out.append(reinterpret_cast<const char*>(distances.data()), distances.size());
  append_le<std::uint64_t>(out, fnv1a(out));
  return out;
}

nlohmann::json table_file_header(std::string_view bytes, const std::string& origin) {
  if (bytes.substr(0, kTableFileMagic.size()) != kTableFileMagic)
    refuse(origin, "magic", "not a dama endgame table (it does not start with \"DAMAEGTB\")");
  if (bytes.size() < kPrefixBytes + kChecksumBytes) refuse(origin, "header", "the file is truncated");
  if (const auto version = read_le<std::uint32_t>(bytes, 8); version != kVersion)
    refuse(origin, "version", "unsupported version " + std::to_string(version) + " (this build reads version 1)");
  const auto header_size = read_le<std::uint32_t>(bytes, 12);
  if (header_size > bytes.size() - kPrefixBytes - kChecksumBytes) refuse(origin, "header", "the file is truncated");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(bytes.substr(kPrefixBytes, header_size));
  } catch (const nlohmann::json::exception&) {
    refuse(origin, "header", "not valid JSON");
  }
  if (!doc.is_object()) refuse(origin, "header", "expected a JSON object");
  return doc;
}

TableContents parse_table_file(std::string_view bytes, const std::string& origin, const TableIdentity& expected,
                               std::uint64_t expected_positions) {
  const nlohmann::json doc = table_file_header(bytes, origin);
  const auto text_field = [&](const char* name) -> std::string {
    const auto it = doc.find(name);
    if (it == doc.end() || !it->is_string()) refuse(origin, quoted(name), "missing or not a string");
    return it->get<std::string>();
  };
  if (text_field("format") != kFormat) refuse(origin, "\"format\"", "expected " + quoted(std::string(kFormat)));
  if (const auto v = text_field("variant"); v != expected.variant)
    refuse(origin, "\"variant\"", "the table is for " + quoted(v) + ", not " + quoted(expected.variant));
  if (const auto r = text_field("rules"); r != expected.rules)
    refuse(origin, "\"rules\"", "the table is for the rules " + quoted(r) + ", not " + quoted(expected.rules));
  if (const auto m = text_field("material"); m != expected.material.code())
    refuse(origin, "\"material\"", "the file holds slice " + quoted(m) + ", expected " + quoted(expected.material.code()));
  const auto positions = doc.find("positions");
  if (positions == doc.end() || !positions->is_number_unsigned() || positions->get<std::uint64_t>() != expected_positions)
    refuse(origin, "\"positions\"", "expected " + std::to_string(expected_positions) + " for this slice's index");
  const std::size_t payload_at = kPrefixBytes + read_le<std::uint32_t>(bytes, 12);
  const std::size_t value_bytes = (expected_positions + 3) / 4;
  const std::size_t expected_size = payload_at + value_bytes + expected_positions + kChecksumBytes;
  if (bytes.size() != expected_size)
    refuse(origin, "size", "the file has " + std::to_string(bytes.size()) + " bytes, its header promises " +
                               std::to_string(expected_size) + (bytes.size() < expected_size ? " (truncated)" : ""));
  if (read_le<std::uint64_t>(bytes, bytes.size() - kChecksumBytes) != fnv1a(bytes.substr(0, bytes.size() - kChecksumBytes)))
    refuse(origin, "checksum", "does not match the contents (the file is corrupt)");
  const auto* payload = reinterpret_cast<const std::uint8_t*>(bytes.data()) + payload_at;
  TableContents contents{PackedValues(expected_positions, std::vector<std::uint8_t>(payload, payload + value_bytes)),
                         std::vector<std::uint8_t>(payload + value_bytes, payload + value_bytes + expected_positions)};
  return contents;
}

std::string table_path(const std::string& dir, const Material& m) { return dir + "/" + m.code() + ".wdl"; }

}  // namespace dama::egtb
