// A whole fit as `dama tune` runs it: the settings and starting weights
// chosen, the data opened, the memory planned (samples held in memory or
// streamed), the epochs run with their log and checkpoints, and the best
// weights written.  app/cmd_tune.cpp parses the flags and calls run_tune_job,
// as every subcommand forwards to its library.
//
// The samples are held in memory when the estimate of their memory fits the
// budget (data.memory_mb of the config, TuneJob::memory_mb), else streamed
// from the files block by block (sample_source.hpp); `stream` forces it.  The
// files are read through selfplay/dataset_io's PositionReader, handed to the
// fitting code as a read function (PositionBlocks), so the fit itself knows
// nothing of HDF5.  Progress goes to standard output, a line per step and
// per epoch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dama::train {

struct TuneJob {
  std::string variant;
  std::vector<std::string> data;  // position files (.h5)
  std::string out;                // weights file; the checkpoint is <out>.checkpoint
  std::string config;             // empty: the built-in configs/train/<variant>.toml
  std::string weights;            // empty: the built-in weights
  std::string model;              // "linear" or "patterns"; empty: the starting weights' model
  bool resume = false;            // continue from <out>.checkpoint
  std::string log;                // training log CSV; empty: none
  int threads = 0;                // 0: OpenMP's default (every core)
  long long memory_mb = -1;       // -1: the config's data.memory_mb; 0: half the physical memory
  bool stream = false;            // stream whatever the memory
  std::uint64_t block_rows = 65536;  // rows per block read (part of a fit's identity)
};

struct TuneOutcome {
  int stop_signal = 0;  // the signal that stopped the fit (the checkpoint holds it); 0: finished, `out` written
  bool finished() const { return stop_signal == 0; }
};

// Runs the fit.  Bad input (files, config, weights, a checkpoint of another
// run) throws dama::Error with one line naming it; the outputs are checked
// writable before any work.  A SIGINT or SIGTERM ends it after the epoch in
// progress, with a checkpoint written and `out` left alone.
TuneOutcome run_tune_job(const TuneJob& job);

}  // namespace dama::train
