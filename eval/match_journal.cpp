#include "match_journal.hpp"

#include <cstdio>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "error.hpp"

namespace dama::eval {

namespace {

constexpr std::string_view kMagic = "# dama match journal 1";

[[noreturn]] void fail_io(const std::string& what, const std::string& path) {
  throw Error(what + " " + path + ": " + std::strerror(errno));
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::uint64_t file_size(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_io("cannot stat", path);
  return static_cast<std::uint64_t>(st.st_size);
}

int open_for_append(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail_io("cannot open", path);
  return fd;
}

// All of `text`, then fsync: the bytes are on disk when this returns.
void write_durably(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_io("cannot write", path);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) fail_io("cannot fsync", path);
}

// A new file's directory entry must reach the disk too.
void sync_directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: some file systems refuse
  ::fsync(fd);
  ::close(fd);
}

std::string identity_line(const std::string& key, const std::string& value) {
  return "identity " + key + " " + value + "\n";
}

constexpr std::string_view kClockTag = "clock=";
constexpr std::string_view kPonderTag = "ponder=";

std::string record_line(const GameRecord& r) {
  std::string tags;  // clock= and ponder=, each followed by a blank
  if (r.clocks) {
    char text[160];
    const auto& [a, b] = *r.clocks;
    std::snprintf(text, sizeof text, "%s%.3f,%.3f,%.3f,%.3f ", kClockTag.data(), a.used_seconds, a.budget_seconds,
                  b.used_seconds, b.budget_seconds);
    tags = text;
  }
  if (r.ponders) {
    const auto& [a, b] = *r.ponders;
    tags += std::string(kPonderTag) + std::to_string(a.hits) + "," + std::to_string(a.searches) + "," +
            std::to_string(b.hits) + "," + std::to_string(b.searches) + " ";
  }
  return "game " + std::to_string(r.index) + " " + r.result + " " + std::to_string(r.plies) + " " +
         std::to_string(r.pdn_end) + " " + tags + r.reason + "\n";
}

// "clock=9.1,10.4,8.7,10.4" (four numbers); nothing when malformed.
std::optional<std::array<ClockUse, 2>> parse_clocks(const std::string& token) {
  std::array<ClockUse, 2> c;
  char tail = 0;
  if (std::sscanf(token.c_str() + kClockTag.size(), "%lf,%lf,%lf,%lf%c", &c[0].used_seconds, &c[0].budget_seconds,
                  &c[1].used_seconds, &c[1].budget_seconds, &tail) != 4)
    return std::nullopt;
  return c;
}

// "ponder=21,38,0,0" (four whole numbers, hits no more than searches); nothing when malformed.
std::optional<std::array<PonderCount, 2>> parse_ponders(const std::string& token) {
  std::array<PonderCount, 2> p;
  char tail = 0;
  if (std::sscanf(token.c_str() + kPonderTag.size(), "%d,%d,%d,%d%c", &p[0].hits, &p[0].searches, &p[1].hits,
                  &p[1].searches, &tail) != 4)
    return std::nullopt;
  for (const auto& c : p)
    if (c.hits < 0 || c.hits > c.searches) return std::nullopt;
  return p;
}

// Splits the first word off `text`.
std::string first_word(std::string& text) {
  const std::size_t blank = std::min(text.find(' '), text.size());
  std::string word = text.substr(0, blank);
  text = blank < text.size() ? text.substr(blank + 1) : "";
  return word;
}

}  // namespace

bool a_moves_first(std::uint64_t index, Pairing pairing) {
  const std::uint64_t turn = pairing == Pairing::DoubleGame ? index / 2 : index;
  return turn % 2 == 0;
}

double score_of_a(const GameRecord& r, Pairing pairing) {
  const double first = r.result == "1-0" ? 1.0 : r.result == "0-1" ? 0.0 : 0.5;
  return a_moves_first(r.index, pairing) ? first : 1.0 - first;
}

MatchJournal::MatchJournal(std::string journal_path, std::string pdn_path, const JournalIdentity& identity, bool resume,
                           std::uint64_t max_games)
    : journal_path_(std::move(journal_path)), pdn_path_(std::move(pdn_path)) {
  if (!pdn_path_.empty()) {
    pdn_fd_ = open_for_append(pdn_path_);
    pdn_size_ = file_size(pdn_fd_, pdn_path_);
  }
  if (journal_path_.empty()) return;
  if (exists(journal_path_)) {
    if (!resume)
      throw Error("journal " + journal_path_ +
                  " exists from an earlier run: add --resume to continue that match, "
                  "or delete it" +
                  (pdn_path_.empty() ? "" : " (and " + pdn_path_ + ")") + " to start again");
    load(identity, max_games);
  } else {
    create(identity);
  }
}

MatchJournal::~MatchJournal() {
  if (journal_fd_ >= 0) ::close(journal_fd_);
  if (pdn_fd_ >= 0) ::close(pdn_fd_);
}

void MatchJournal::create(const JournalIdentity& identity) {
  std::string header = std::string(kMagic) + "\n";
  for (const auto& [key, value] : identity) header += identity_line(key, value);
  header += "pdn-start " + std::to_string(pdn_size_) + "\n";
  journal_fd_ = open_for_append(journal_path_);
  write_durably(journal_fd_, header, journal_path_);
  sync_directory_of(journal_path_);
}

void MatchJournal::load(const JournalIdentity& identity, std::uint64_t max_games) {
  resumed_ = true;
  std::ifstream in(journal_path_, std::ios::binary);
  if (!in) fail_io("cannot read journal", journal_path_);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string text = bytes.str();
  // A last line without its newline was torn by a crash: drop it.
  const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  const bool torn = complete < text.size();
  text.resize(complete);

  std::istringstream lines(text);
  std::string line;
  int number = 0;
  auto where = [&] { return journal_path_ + ":" + std::to_string(number); };
  auto next_line = [&] { return ++number, static_cast<bool>(std::getline(lines, line)); };
  if (!next_line() || line != kMagic) throw Error(where() + ": not a dama match journal");
  for (const auto& [key, value] : identity) {
    if (!next_line() || line.rfind("identity ", 0) != 0)
      throw Error(where() + ": the journal ends before its identity does (it is damaged: delete it to start again)");
    std::istringstream fields(line.substr(9));
    std::string old_key, old_value;
    fields >> old_key;
    std::getline(fields >> std::ws, old_value);
    if (old_key != key || old_value != value)
      throw Error("journal " + journal_path_ + " belongs to a different match: " + key + " was '" +
                  (old_key == key ? old_value : "(" + old_key + ")") + "', now '" + value +
                  "'; run with the same arguments, or delete the journal to start again");
  }
  std::uint64_t pdn_start = 0;
  if (!next_line() || line.rfind("identity ", 0) == 0)
    throw Error("journal " + journal_path_ + " belongs to a different match (it records more settings than this one)");
  std::string tag;
  if (!(std::istringstream(line) >> tag >> pdn_start) || tag != "pdn-start")
    throw Error(where() + ": expected pdn-start");
  while (next_line()) {
    std::istringstream fields(line);
    GameRecord r;
    if (!(fields >> tag >> r.index >> r.result >> r.plies >> r.pdn_end) || tag != "game" ||
        (r.result != "1-0" && r.result != "0-1" && r.result != "1/2-1/2"))
      throw Error(where() + ": unreadable game record '" + line + "'");
    std::getline(fields >> std::ws, r.reason);
    if (r.reason.rfind(kClockTag, 0) == 0) {
      r.clocks = parse_clocks(first_word(r.reason));
      if (!r.clocks) throw Error(where() + ": unreadable clock times in '" + line + "'");
    }
    if (r.reason.rfind(kPonderTag, 0) == 0) {
      r.ponders = parse_ponders(first_word(r.reason));
      if (!r.ponders) throw Error(where() + ": unreadable ponder counts in '" + line + "'");
    }
    if (r.index != finished_.size())
      throw Error(where() + ": game " + std::to_string(r.index) + " where game " + std::to_string(finished_.size()) +
                  " was expected (the journal is damaged: delete it to start again)");
    finished_.push_back(r);
  }
  if (finished_.size() > max_games)
    throw Error("journal " + journal_path_ + " holds " + std::to_string(finished_.size()) +
                " games, more than --games " + std::to_string(max_games));

  journal_fd_ = ::open(journal_path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (journal_fd_ < 0) fail_io("cannot open", journal_path_);
  if (torn && ::ftruncate(journal_fd_, static_cast<off_t>(complete)) != 0) fail_io("cannot repair", journal_path_);
  if (pdn_fd_ >= 0) reconcile_pdn(finished_.empty() ? pdn_start : finished_.back().pdn_end);
}

// The PDN file must end where the journal's last game does: a longer file
// holds a game committed to the PDN but not to the journal (cut off, to be
// played again); a shorter one was edited behind the journal's back.
void MatchJournal::reconcile_pdn(std::uint64_t expected_size) {
  if (pdn_size_ < expected_size)
    throw Error(pdn_path_ + " is shorter (" + std::to_string(pdn_size_) + " bytes) than journal " + journal_path_ +
                " records (" + std::to_string(expected_size) + "): was it edited? delete both to start again");
  if (pdn_size_ > expected_size) {
    if (::ftruncate(pdn_fd_, static_cast<off_t>(expected_size)) != 0) fail_io("cannot truncate", pdn_path_);
    if (::fsync(pdn_fd_) != 0) fail_io("cannot fsync", pdn_path_);
    pdn_bytes_dropped_ = pdn_size_ - expected_size;
    pdn_size_ = expected_size;
  }
}

void MatchJournal::commit(GameRecord record, const std::string& pdn_text) {
  if (record.index != finished_.size()) throw Error("internal: games must be committed in order");
  if (pdn_fd_ >= 0) {
    write_durably(pdn_fd_, pdn_text, pdn_path_);
    pdn_size_ += pdn_text.size();
    record.pdn_end = pdn_size_;
  }
  if (journal_fd_ >= 0) write_durably(journal_fd_, record_line(record), journal_path_);
  finished_.push_back(std::move(record));
}

}  // namespace dama::eval
