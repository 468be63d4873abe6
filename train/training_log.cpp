#include "training_log.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "atomic_file.hpp"
#include "error.hpp"

namespace dama::train {

namespace {

// The rows of an existing log for epochs 1..last_epoch, header included.
std::string rows_up_to(const std::string& path, int last_epoch) {
  std::istringstream in(read_whole_file(path));
  std::string kept = std::string(TrainingLog::kHeader) + "\n", line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (std::atoi(line.c_str()) <= last_epoch) kept += line + "\n";
  }
  return kept;
}

}  // namespace

TrainingLog::TrainingLog(const std::string& path, bool resume, int resumed_epoch) : path_(path) {
  const bool continuing = resume && std::filesystem::exists(path);
  write_file_atomically(path, continuing ? rows_up_to(path, resumed_epoch) : std::string(kHeader) + "\n");
  out_.open(path, std::ios::app);
  if (!out_) throw Error(path + ": cannot write the training log");
}

void TrainingLog::write(const EpochReport& report) {
  char line[256];
  std::snprintf(line, sizeof line, "%d,%.9g,%.9g,%.6g,%.3f\n", report.epoch, report.training_loss,
                report.validation_loss, report.learning_rate, report.seconds);
  out_ << line;
  out_.flush();
  if (!out_) throw Error(path_ + ": cannot write the training log");
}

}  // namespace dama::train
