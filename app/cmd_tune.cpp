// dama tune: fits a variant's evaluation weights to position data (the
// train/ library does the fitting; this file reads, reports and saves).
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "dataset_io.hpp"
#include "error.hpp"
#include "samples.hpp"
#include "split.hpp"
#include "stop_request.hpp"
#include "trainer.hpp"
#include "training_log.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

struct TuneOptions {
  std::string variant;
  std::vector<std::string> data;
  std::string out;
  std::string config;   // empty: the built-in configs/train/<variant>.toml
  std::string weights;  // empty: the built-in weights
  bool resume = false;
  std::string log;      // empty: no log file
  int threads = 0;      // 0: OpenMP's default (every core)
};

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

train::TrainSettings settings_of(const TuneOptions& o, const Variant& variant, std::string& origin) {
  if (!o.config.empty()) {
    origin = o.config;
    return train::load_train_config(o.config);
  }
  origin = "built-in configs/train/" + std::string(variant.name) + ".toml";
  return train::parse_train_config(train::built_in_train_config(variant), origin);
}

// Each file's positions turned into samples as soon as it is read, so the
// rows of only one file are in memory at a time.
train::SampleSet read_samples(const std::vector<std::string>& files, const Variant& variant) {
  train::SampleSet samples;
  for (const std::string& file : files) {
    const std::vector<PositionRow> rows = read_positions(file, variant);
    try {
      train::append_samples(samples, train::make_samples(rows, variant));
    } catch (const Error& e) {
      throw Error(file + ": " + e.what());
    }
    std::printf("data      %s: %zu positions\n", file.c_str(), rows.size());
  }
  std::printf("samples   %zu positions, %.1f terms and %.1f bytes per position\n", samples.size(),
              samples.size() ? static_cast<double>(samples.term_count()) / static_cast<double>(samples.size()) : 0.0,
              samples.bytes_per_position());
  return samples;
}

Eigen::VectorXd vector_of(const Weights& w) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(w.values.size()));
  for (std::size_t i = 0; i < w.values.size(); ++i) v[static_cast<Eigen::Index>(i)] = w.values[i];
  return v;
}

nlohmann::json metadata_of(const TuneOptions& o, const std::string& config_origin, const Weights& start,
                           const train::TrainSettings& settings, const nlohmann::json& fingerprint,
                           const train::Split& split, const train::TrainerState& state) {
  return {{"source", "dama tune"},
          {"date", utc_now()},
          {"data", o.data},
          {"positions", {{"training", split.training.size()}, {"validation", split.validation.size()}}},
          {"games_held_out_share", settings.validation_share},
          {"config", config_origin},
          {"start_weights", start.source},
          {"loss", train::loss_name(settings.model.loss)},
          {"lambda", settings.model.lambda},
          {"k", state.k},
          {"train_loss", state.best_training_loss},
          {"validation_loss", split.validation.empty() ? nlohmann::json(nullptr) : nlohmann::json(state.best_loss)},
          {"best_epoch", state.best_epoch},
          {"epochs", state.epoch},
          {"data_digest", fingerprint.at("data_digest")}};
}

Weights weights_of(const Eigen::VectorXd& v, const Variant& variant, nlohmann::json metadata) {
  Weights w;
  w.variant = std::string(variant.name);
  w.values.resize(static_cast<std::size_t>(v.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i) w.values[static_cast<std::size_t>(i)] = static_cast<float>(v[i]);
  w.metadata = std::move(metadata);
  return w;
}

void print_epoch(const train::EpochReport& r) {
  std::printf("epoch %4d  train %.6f  validation %.6f  lr %.4g  %.2f s%s\n", r.epoch, r.training_loss,
              r.validation_loss, r.learning_rate, r.seconds, r.improved ? "  *" : "");
  std::fflush(stdout);
}

// Runs the epochs, logging each and checkpointing every checkpoint_every
// epochs, at the end, and when a signal asks the fit to stop (then the
// program ends here, see below).
void run_epochs(const TuneOptions& o, const train::TrainSettings& settings, const train::SampleSet& samples,
                const train::Split& split, const nlohmann::json& fingerprint, train::TrainerState& state) {
  const std::string checkpoint = o.out + ".checkpoint";
  std::optional<train::TrainingLog> log;
  if (!o.log.empty()) log.emplace(o.log, o.resume, state.epoch);
  const train::StopRequest stop;
  auto after_epoch = [&](const train::EpochReport& r, const train::TrainerState& s) {
    print_epoch(r);
    if (log) log->write(r);
    const bool stopping = stop.requested();
    if (stopping || s.finished || s.epoch % settings.checkpoint_every == 0)
      train::save_checkpoint(checkpoint, s, fingerprint);
    return !stopping;
  };
  if (train::train(samples, split, settings, state, after_epoch)) return;
  // Stopped on request: the checkpoint holds the fit, --out is not written
  // (it stands for a finished fit), and the exit code is the shell's for a
  // signal (128 + its number) so that a caller does not take it for success.
  std::fprintf(stderr, "dama tune: stopped by signal %d after epoch %d; checkpoint %s (continue with --resume)\n",
               stop.signal_number(), state.epoch, checkpoint.c_str());
  std::fflush(stdout);
  std::exit(128 + stop.signal_number());
}

void run_tune(const TuneOptions& o) {
  const Variant& variant = find_variant(o.variant);
  std::string config_origin;
  const train::TrainSettings settings = settings_of(o, variant, config_origin);
  if (o.threads > 0) omp_set_num_threads(o.threads);
  const Weights start = o.weights.empty() ? default_weights(variant) : load_weights(o.weights, variant);
  const train::SampleSet samples = read_samples(o.data, variant);
  const train::Split split = train::split_by_game(samples, settings.validation_share, settings.seed);
  std::printf("split     %zu training, %zu validation positions (games held out by hash, seed %llu)\n",
              split.training.size(), split.validation.size(), static_cast<unsigned long long>(settings.seed));
  const Eigen::VectorXd start_vector = vector_of(start);
  const nlohmann::json fingerprint = train::run_fingerprint(settings, samples, split, start_vector);

  train::TrainerState state = o.resume ? train::load_checkpoint(o.out + ".checkpoint", fingerprint)
                                       : train::start_training(samples, split, settings, start_vector);
  std::printf("%s k %.6f (logits per man), config %s, %d threads\n", o.resume ? "resumed  " : "start    ", state.k,
              config_origin.c_str(), omp_get_max_threads());
  if (o.resume) std::printf("resumed   at epoch %d (best %d)\n", state.epoch, state.best_epoch);
  run_epochs(o, settings, samples, split, fingerprint, state);

  const nlohmann::json metadata = metadata_of(o, config_origin, start, settings, fingerprint, split, state);
  save_weights(o.out, weights_of(state.best_weights, variant, metadata), variant);
  std::printf("best      epoch %d: train %.6f, validation %.6f; wrote %s\n", state.best_epoch, state.best_training_loss,
              state.best_loss, o.out.c_str());
}

}  // namespace

void register_tune(CLI::App& app) {
  auto* cmd = app.add_subcommand("tune", "fit a variant's evaluation weights to self-play positions");
  static TuneOptions options;
  cmd->add_option("--variant,-v", options.variant, "variant whose weights are fitted")->required();
  cmd->add_option("--data", options.data, "position files (.h5) written by dama selfplay")->required()->expected(1, -1);
  cmd->add_option("--out", options.out, "weights file to write (the checkpoint is <out>.checkpoint)")->required();
  cmd->add_option("--config", options.config, "tuner settings (default: the built-in configs/train/<variant>.toml)");
  cmd->add_option("--weights", options.weights, "starting weights (default: the variant's built-in weights)");
  cmd->add_flag("--resume", options.resume, "continue from <out>.checkpoint");
  cmd->add_option("--log", options.log, "training log CSV: epoch,train_loss,validation_loss,learning_rate,seconds");
  cmd->add_option("--threads", options.threads, "OpenMP threads (default: every core)")->check(CLI::Range(1, 1024));
  cmd->callback([] { run_tune(options); });
}

}  // namespace dama::cli
