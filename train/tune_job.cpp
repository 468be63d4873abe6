// The whole of a `dama tune` run (tune_job.hpp): settings, data, memory
// plan, epochs with log and checkpoints, the weights written.
#include "tune_job.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "checkpoint.hpp"
#include "config.hpp"
#include "dataset_io.hpp"
#include "error.hpp"
#include "memory_plan.hpp"
#include "sample_source.hpp"
#include "samples.hpp"
#include "split.hpp"
#include "stop_signal.hpp"
#include "trainer.hpp"
#include "training_log.hpp"
#include "utc_time.hpp"
#include "variant.hpp"
#include "weights.hpp"

namespace dama::train {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

TrainSettings settings_of(const TuneJob& o, const Variant& variant, std::string& origin) {
  if (!o.config.empty()) {
    origin = o.config;
    return load_train_config(o.config);
  }
  origin = "built-in configs/train/" + std::string(variant.name) + ".toml";
  return parse_train_config(built_in_train_config(variant), origin);
}

// The files, cut into blocks (PositionReader::blocks), with a read function
// that holds the open readers.
PositionBlocks open_data(const std::vector<std::string>& files, const Variant& variant, std::uint64_t block_rows) {
  auto readers = std::make_shared<std::vector<PositionReader>>();
  PositionBlocks data;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const PositionReader& reader = readers->emplace_back(files[f], variant);
    data.files.push_back(files[f]);
    for (const RowRange& r : reader.blocks(block_rows))
      data.blocks.push_back({f, r.first, static_cast<std::size_t>(r.count)});
    std::printf("data      %s: %llu positions\n", files[f].c_str(), static_cast<unsigned long long>(reader.rows()));
  }
  data.read = [readers](const RowBlock& b, std::vector<PositionRow>& rows) {
    (*readers)[b.file].read(b.first, b.count, rows);
  };
  return data;
}

// Half the physical memory: the budget when none is given.
std::uint64_t half_the_physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) throw Error("cannot tell the physical memory: give --memory-mb");
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 2;
}

struct Budget {
  std::uint64_t bytes;
  std::string origin;  // for the report
};

Budget memory_budget(const TuneJob& o, const TrainSettings& settings, const std::string& config_origin) {
  const bool from_flag = o.memory_mb >= 0;
  const std::uint64_t mb = from_flag ? static_cast<std::uint64_t>(o.memory_mb) : settings.data.memory_mb;
  if (mb == 0) return {half_the_physical_memory(), "half the physical memory"};
  return {mb << 20, from_flag ? "--memory-mb" : config_origin + " data.memory_mb"};
}

std::size_t largest_block(const PositionBlocks& data) {
  std::size_t largest = 0;
  for (const auto& b : data.blocks) largest = std::max(largest, b.count);
  return largest;
}

// The estimate of train/memory_plan.hpp from the first block, and the decision, printed.
MemoryPlan choose_memory_plan(const TuneJob& o, const PositionBlocks& data, const Variant& variant,
                              const Budget& budget) {
  BlockBuffers buffers;
  SampleSet probe;
  if (!data.blocks.empty()) load_block(data, 0, variant, buffers, probe);
  MemoryPlan plan = plan_memory(data.rows(), largest_block(data), probe, budget.bytes);
  std::printf("memory    holding the samples takes about %.0f MiB (%.1f terms, %.0f bytes a position), streaming "
              "about %.0f MiB; budget %.0f MiB (%s)\n",
              plan.in_memory_bytes / kMiB, plan.terms_per_position, plan.bytes_per_position,
              plan.streamed_bytes / kMiB, budget.bytes / kMiB, budget.origin.c_str());
  if (o.stream) plan.stream = true;
  const char* why = o.stream ? "--stream" : plan.stream ? "over the budget" : "within the budget";
  if (plan.stream)
    std::printf("mode      streamed (%s): every pass reads the files again, %zu blocks of up to %zu rows\n", why,
                data.blocks.size(), largest_block(data));
  else
    std::printf("mode      in memory (%s)\n", why);
  if (plan.stream && plan.streamed_bytes > budget.bytes)
    std::printf("mode      even one block is over the budget: lower --block-rows\n");
  return plan;
}

void print_samples(const SampleSet& samples) {
  std::printf("samples   %zu positions, %.1f terms and %.1f bytes per position\n", samples.size(),
              samples.size() ? static_cast<double>(samples.term_count()) / static_cast<double>(samples.size()) : 0.0,
              samples.bytes_per_position());
}

Eigen::VectorXd vector_of(const Weights& w) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(w.values.size()));
  for (std::size_t i = 0; i < w.values.size(); ++i) v[static_cast<Eigen::Index>(i)] = w.values[i];
  return v;
}

nlohmann::json metadata_of(const TuneJob& o, const std::string& config_origin, const Weights& start,
                           const TrainSettings& settings, const nlohmann::json& fingerprint,
                           const SampleSource& source, const TrainerState& state) {
  const bool held_out = source.validation_size() > 0;
  return {{"source", "dama tune"},
          {"dama_version", build_version()},
          {"git_commit", build_commit()},
          {"date", utc_timestamp_now()},
          {"data", o.data},
          {"positions", {{"training", source.training_size()}, {"validation", source.validation_size()}}},
          {"games_held_out_share", settings.validation_share},
          {"config", config_origin},
          {"start_weights", start.source},
          {"loss", loss_name(settings.model.loss)},
          {"lambda", settings.model.lambda},
          {"k", state.k},
          {"train_loss", state.best_training_loss},
          {"validation_loss", held_out ? nlohmann::json(state.best_loss) : nlohmann::json(nullptr)},
          {"best_epoch", state.best_epoch},
          {"epochs", state.epoch},
          {"data_digest", fingerprint.at("data_digest")}};
}

Weights weights_of(const Eigen::VectorXd& v, const Variant& variant, EvalModel model, nlohmann::json metadata) {
  Weights w;
  w.variant = std::string(variant.name);
  w.model = model;
  w.values.resize(static_cast<std::size_t>(v.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i) w.values[static_cast<std::size_t>(i)] = static_cast<float>(v[i]);
  w.metadata = std::move(metadata);
  return w;
}

void print_epoch(const EpochReport& r) {
  std::printf("epoch %4d  train %.6f  validation %.6f  lr %.4g  %.2f s  %.2f M positions/s%s\n", r.epoch,
              r.training_loss, r.validation_loss, r.learning_rate, r.seconds, r.positions_per_second / 1e6,
              r.improved ? "  *" : "");
  std::fflush(stdout);
}

// Runs the epochs, logging each and checkpointing every checkpoint_every
// epochs, at the end, and when a signal asks the fit to stop.  Returns 0 when
// the fit finished, else the number of the signal that stopped it.
int run_epochs(const TuneJob& o, const TrainSettings& settings, SampleSource& source,
                const nlohmann::json& fingerprint, TrainerState& state) {
  const std::string checkpoint = o.out + ".checkpoint";
  std::optional<TrainingLog> log;
  if (!o.log.empty()) log.emplace(o.log, o.resume, state.epoch);
  const StopSignal stop;
  auto after_epoch = [&](const EpochReport& r, const TrainerState& s) {
    print_epoch(r);
    if (log) log->write(r);
    const bool stopping = stop.requested();
    if (stopping || s.finished || s.epoch % settings.checkpoint_every == 0)
      save_checkpoint(checkpoint, s, fingerprint);
    return !stopping;
  };
  if (train(source, settings, state, after_epoch)) return 0;
  // Stopped on request: the checkpoint holds the fit, and --out is not
  // written (it stands for a finished fit).
  std::fprintf(stderr, "dama tune: stopped by signal %d after epoch %d; checkpoint %s (continue with --resume)\n",
               stop.signal_number(), state.epoch, checkpoint.c_str());
  std::fflush(stdout);
  return stop.signal_number();
}

// The samples of a fit: held in memory (then `samples` and `split` hold
// them) or streamed from the files.
struct FitData {
  SampleSet samples;
  Split split;
  std::unique_ptr<SampleSource> source;
};

void hold_or_stream(FitData& fit, PositionBlocks data, bool stream, const Variant& variant,
                    const TrainSettings& settings) {
  const auto started = std::chrono::steady_clock::now();
  if (stream) {
    fit.source = std::make_unique<StreamedSamples>(std::move(data), variant, settings.validation_share,
                                                   settings.seed, settings.quiet_only);
    std::printf("samples   %zu positions read and checked in %.1f s\n",
                fit.source->training_size() + fit.source->validation_size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  } else {
    fit.samples = load_all(data, variant);
    fit.split = split_by_game(fit.samples, settings.validation_share, settings.seed, settings.quiet_only);
    fit.source = std::make_unique<InMemorySamples>(fit.samples, fit.split, data.block_sizes());
    print_samples(fit.samples);
  }
  std::printf("split     %zu training, %zu validation positions (games held out by hash, seed %llu)\n",
              fit.source->training_size(), fit.source->validation_size(),
              static_cast<unsigned long long>(settings.seed));
}

}  // namespace

TuneOutcome run_tune_job(const TuneJob& o) {
  const Variant& variant = find_variant(o.variant);
  check_can_write(o.out, "--out");  // now, not after the first epoch
  if (!o.log.empty()) check_can_write(o.log, "--log");
  std::string config_origin;
  const TrainSettings settings = settings_of(o, variant, config_origin);
  if (o.threads > 0) omp_set_num_threads(o.threads);
  Weights start = o.weights.empty() ? default_weights(variant) : load_weights(o.weights, variant);
  if (!o.model.empty()) start = with_model(start, variant, o.model == "patterns" ? EvalModel::Patterns : EvalModel::Linear);
  std::printf("model     %s, %zu weights (start: %s)\n", std::string(model_name(start.model)).c_str(),
              start.values.size(), start.source.c_str());
  PositionBlocks data = open_data(o.data, variant, o.block_rows);
  data.model = start.model;
  const MemoryPlan plan = choose_memory_plan(o, data, variant, memory_budget(o, settings, config_origin));
  FitData fit;
  hold_or_stream(fit, std::move(data), plan.stream, variant, settings);
  SampleSource& source = *fit.source;
  const Eigen::VectorXd start_vector = vector_of(start);
  const nlohmann::json fingerprint = run_fingerprint(settings, source, start_vector);

  TrainerState state = o.resume ? load_checkpoint(o.out + ".checkpoint", fingerprint)
                                : start_training(source, settings, start_vector);
  std::printf("%s k %.6f (logits per man), config %s, %d threads\n", o.resume ? "resumed  " : "start    ", state.k,
              config_origin.c_str(), omp_get_max_threads());
  if (o.resume) std::printf("resumed   at epoch %d (best %d)\n", state.epoch, state.best_epoch);
  if (const int stopped_by = run_epochs(o, settings, source, fingerprint, state)) return {stopped_by};

  nlohmann::json metadata = metadata_of(o, config_origin, start, settings, fingerprint, source, state);
  metadata["streamed"] = plan.stream;
  metadata["model"] = model_name(start.model);
  Eigen::VectorXd best = state.best_weights;
  if (settings.man_value > 0) {
    const double factor = man_value_factor(best, settings.man_value);
    best *= factor;
    metadata["k"] = state.k / factor;
    metadata["scaled_by"] = factor;
    std::printf("scaled    by %.6f: material.man opening %.4f -> %g\n", factor, state.best_weights[0], settings.man_value);
  }
  save_weights(o.out, weights_of(best, variant, start.model, metadata), variant);
  std::printf("best      epoch %d: train %.6f, validation %.6f; wrote %s\n", state.best_epoch, state.best_training_loss,
              state.best_loss, o.out.c_str());
  return {};
}

}  // namespace dama::train
