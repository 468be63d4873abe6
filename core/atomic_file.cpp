#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "error.hpp"

namespace dama {

namespace {

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

void check_can_write(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string where = what + " " + path + ": ";
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw Error(where + "is a directory");
  if (!fs::is_directory(dir, ec)) throw Error(where + "no directory " + dir.string());
  const std::string probe = (dir / (".dama-write-check-" + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw Error(where + "cannot write in " + dir.string() + " (" + std::strerror(errno) + ")");
  ::close(fd);
  ::unlink(probe.c_str());
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path + ": cannot write " + temporary + ": " + std::strerror(errno));
  try {
    write_all(fd, text);
    if (::fsync(fd) != 0) throw Error(std::strerror(errno));
  } catch (const Error& e) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw Error(path + ": cannot write " + temporary + ": " + e.what());
  }
  ::close(fd);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw Error(path + ": cannot rename " + temporary + " to it: " + std::strerror(error));
  }
  std::string directory = std::filesystem::path(path).parent_path().string();
  if (directory.empty()) directory = ".";
  if (const int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

std::string read_whole_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw Error(path + ": cannot open: is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(path + ": cannot read");
  return text.str();
}

}  // namespace dama
