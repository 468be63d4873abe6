// dama tune: fits a variant's evaluation weights to position data.  The
// flags become a train::TuneJob; train/tune_job.hpp runs the whole fit.
#include <cstdint>
#include <cstdlib>

#include "commands.hpp"
#include "tune_job.hpp"

namespace dama::cli {

void register_tune(CLI::App& app) {
  auto* cmd = app.add_subcommand("tune", "fit a variant's evaluation weights to self-play positions");
  static train::TuneJob options;
  cmd->add_option("--variant,-v", options.variant, "variant whose weights are fitted")->required();
  cmd->add_option("--data", options.data, "position files (.h5) written by dama selfplay")->required()->expected(1, -1);
  cmd->add_option("--out", options.out, "weights file to write (the checkpoint is <out>.checkpoint)")->required();
  cmd->add_option("--config", options.config, "tuner settings (default: the built-in configs/train/<variant>.toml)");
  cmd->add_option("--weights", options.weights, "starting weights (default: the variant's built-in weights)");
  cmd->add_option("--model", options.model,
                  "linear or patterns (default: the starting weights' model; patterns from linear weights start "
                  "every pattern weight at 0)")
      ->check(CLI::IsMember({"linear", "patterns"}));
  cmd->add_flag("--resume", options.resume, "continue from <out>.checkpoint");
  cmd->add_option("--log", options.log, "training log CSV: epoch,train_loss,validation_loss,learning_rate,seconds");
  cmd->add_option("--threads", options.threads, "OpenMP threads (default: every core)")->check(CLI::Range(1, 1024));
  cmd->add_option("--memory-mb", options.memory_mb,
                  "memory the samples may take, MiB (0: half the physical memory; default: the config's "
                  "data.memory_mb); past it they are streamed from the files")
      ->check(CLI::Range(0LL, 1LL << 30));
  cmd->add_flag("--stream", options.stream, "stream the samples from the files whatever the memory");
  cmd->add_option("--block-rows", options.block_rows,
                  "rows per block read from the files (default 65536; cut at whole HDF5 chunks and parts). "
                  "Mini-batches are drawn block by block, so this is part of a fit's identity: "
                  "the same value gives the same weights in memory and streamed")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 24));
  cmd->callback([] {
    const train::TuneOutcome outcome = train::run_tune_job(options);
    // Stopped by a signal: the exit code is the shell's for it (128 + its
    // number), so that a caller does not take the fit for finished.
    if (!outcome.finished()) std::exit(128 + outcome.stop_signal);
  });
}

}  // namespace dama::cli
