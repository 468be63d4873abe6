// Writing a file so that a reader (or a resumed run after a crash) sees the
// old contents or the new, whole: a temporary file in the same directory,
// fsync, rename over the target, fsync of the directory.  Weight files,
// checkpoints, logs, reports and pipeline state are all written this way.
#pragma once

#include <string>

namespace dama {

// Throws dama::Error naming path when the file cannot be written.
void write_file_atomically(const std::string& path, const std::string& text);

// Checks, before any long work, that `path` can be written later: its
// directory exists and a file can be created in it, and `path` is not a
// directory.  Throws dama::Error as "<what> <path>: <why>" otherwise.
void check_can_write(const std::string& path, const std::string& what);

// The whole file; throws dama::Error naming path when it cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace dama
