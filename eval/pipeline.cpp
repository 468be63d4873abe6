#include "pipeline.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "atomic_file.hpp"
#include "config.hpp"
#include "config_file.hpp"
#include "error.hpp"
#include "openings.hpp"
#include "player_spec.hpp"
#include "selfplay.hpp"
#include "variant.hpp"
#include "weights.hpp"

namespace fs = std::filesystem;

namespace dama {

namespace {

// "baseline": the best after the generation against the weights the run
// started from (generation 0), in a match of its own, so that the summary
// reports measured gains rather than a sum of the promoted ones (which
// selection biases upwards).
constexpr const char* kSteps[] = {"selfplay", "tune", "match", "decide", "baseline"};

PipelineConfig read_config(ConfigFile file) {
  PipelineConfig c;
  c.variant = file.text("variant", c.variant);
  c.run_dir = file.text("run_dir", c.run_dir);
  c.generations = file.integer("generations", c.generations, 1, 10000);
  c.deadline_hours = file.number("deadline_hours", c.deadline_hours, 0, 24 * 365);
  c.threads = file.integer("threads", c.threads, 0, 1024);
  c.selfplay_config = file.text("selfplay.config", c.selfplay_config);
  c.selfplay_games = file.integer("selfplay.games", c.selfplay_games, 2, 1'000'000'000);
  c.tune_config = file.text("tune.config", c.tune_config);
  c.tune_generations = file.integer("tune.generations", c.tune_generations, 1, 10000);
  c.tune_model = file.text("tune.model", c.tune_model);
  c.match_games = file.integer("match.games", c.match_games, 2, 1'000'000);
  c.match_limit = file.text("match.limit", c.match_limit);
  c.match_random_plies = file.integer("match.random_plies", c.match_random_plies, 0, 100);
  c.match_openings = file.text("match.openings", c.match_openings);
  c.promote = file.text("match.promote", c.promote);
  c.sprt = file.text("match.sprt", c.sprt);
  file.refuse_unknown_keys();
  return c;
}

std::string generation_dir(const PipelineConfig& c, std::int64_t g) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%03lld", static_cast<long long>(g));
  return (fs::path(c.run_dir) / name).string();
}

// The state file: {"generations": [{"done": ["selfplay", ...], "elo": .., "promoted": ..}, ...]}
class State {
 public:
  explicit State(std::string path) : path_(std::move(path)) {
    if (fs::exists(path_)) {
      try {
        json_ = nlohmann::json::parse(read_whole_file(path_));
      } catch (const nlohmann::json::exception& e) {
        throw Error(path_ + ": not a pipeline state file: " + e.what());
      }
    }
    if (!json_.is_object()) json_ = nlohmann::json::object();
    if (!json_.contains("generations")) json_["generations"] = nlohmann::json::array();
  }
  nlohmann::json& generation(std::int64_t g) {
    auto& all = json_["generations"];
    while (static_cast<std::int64_t>(all.size()) < g) all.push_back({{"done", nlohmann::json::array()}});
    return all[static_cast<std::size_t>(g - 1)];
  }
  bool done(std::int64_t g, const std::string& step) {
    for (const auto& s : generation(g)["done"])
      if (s == step) return true;
    return false;
  }
  void mark(std::int64_t g, const std::string& step) {
    generation(g)["done"].push_back(step);
    save();
  }
  void save() { write_file_atomically(path_, json_.dump(2) + "\n"); }
  const nlohmann::json& json() const { return json_; }
  void check_variant(const std::string& variant) {
    if (json_.contains("variant") && json_["variant"] != variant)
      throw Error(path_ + ": a run of " + json_["variant"].get<std::string>() + ", not " + variant);
    json_["variant"] = variant;
  }

 private:
  std::string path_;
  nlohmann::json json_;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Pipeline {
 public:
  Pipeline(const PipelineConfig& c, const PipelineHooks& h)
      : c_(c), h_(h), state_((fs::path(c.run_dir) / "state.json").string()),
        extension_(c.tune_model == "patterns" ? ".patterns" : ".json"),
        best_((fs::path(c.run_dir) / ("best" + extension_)).string()),
        start_weights_((fs::path(c.run_dir) / ("start" + extension_)).string()),
        start_(std::chrono::steady_clock::now()) {}

  PipelineOutcome run() {
    fs::create_directories(c_.run_dir);
    state_.check_variant(c_.variant);
    state_.save();
    const Variant& v = find_variant(c_.variant);
    if (!fs::exists(best_)) save_weights(best_, default_weights(v), v);
    // A run begun before the baseline step started from the built-in weights too.
    if (!fs::exists(start_weights_)) save_weights(start_weights_, default_weights(v), v);
    PipelineOutcome out;
    out.summary = (fs::path(c_.run_dir) / "summary.csv").string();
    for (std::int64_t g = 1; g <= c_.generations; ++g) {
      for (const char* step : kSteps) {
        if (state_.done(g, step)) continue;
        if (const auto why = reason_to_stop()) {
          out.reason = *why;
          write_summary(out.summary);
          return out;
        }
        run_step(g, step);
        state_.mark(g, step);
      }
    }
    write_summary(out.summary);
    out.finished = true;
    return out;
  }

 private:
  std::optional<std::string> reason_to_stop() const {
    if (h_.stop_requested && h_.stop_requested()) return "interrupted";
    const double hours = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() / 3600;
    if (c_.deadline_hours > 0 && hours >= c_.deadline_hours) return "deadline reached";
    return std::nullopt;
  }

  std::string file(std::int64_t g, const std::string& name) const {
    return (fs::path(generation_dir(c_, g)) / name).string();
  }

  void run_step(std::int64_t g, const std::string& step) {
    fs::create_directories(generation_dir(c_, g));
    if (h_.say) h_.say("generation " + std::to_string(g) + ": " + step);
    if (step == "selfplay") selfplay(g);
    else if (step == "tune") tune(g);
    else if (step == "match") match(g);
    else if (step == "decide") decide(g);
    else baseline(g);
  }

  void check(int code, const std::string& step, const std::string& log) {
    if (code == 0) return;
    if (code == 130 || (h_.stop_requested && h_.stop_requested()))
      throw Error(step + " was interrupted; run the same command again to continue (log: " + log + ")");
    if (code != 0) throw Error(step + " failed with exit code " + std::to_string(code) + "; see " + log);
  }

  // The weights a generation's games are played with: a copy of the best
  // when the generation began, so that a resumed self-play sees the same file.
  std::string generation_weights(std::int64_t g) {
    const std::string copy = file(g, "played-with" + extension_);
    if (!fs::exists(copy)) write_file_atomically(copy, read_whole_file(best_));
    return copy;
  }

  void selfplay(std::int64_t g) {
    std::vector<std::string> args = {"selfplay", "--variant", c_.variant, "--weights", generation_weights(g),
                                     "--games", std::to_string(c_.selfplay_games), "--out", file(g, "data.h5"),
                                     "--seed", std::to_string(1000 + g), "--resume"};
    if (!c_.selfplay_config.empty()) args.insert(args.begin() + 1, {"--config", c_.selfplay_config});
    if (c_.threads > 0) args.insert(args.end(), {"--threads", std::to_string(c_.threads)});
    const std::string log = file(g, "selfplay.log");
    check(h_.run(args, log), "selfplay", log);
  }

  void tune(std::int64_t g) {
    std::vector<std::string> args = {"tune", "--variant", c_.variant, "--out", file(g, "weights" + extension_),
                                     "--weights", generation_weights(g), "--log", file(g, "training.csv"), "--data"};
    for (std::int64_t k = std::max<std::int64_t>(1, g - c_.tune_generations + 1); k <= g; ++k)
      args.push_back(file(k, "data.h5"));
    if (!c_.tune_config.empty()) args.insert(args.end(), {"--config", c_.tune_config});
    if (c_.tune_model == "patterns") args.insert(args.end(), {"--model", "patterns"});
    if (c_.threads > 0) args.insert(args.end(), {"--threads", std::to_string(c_.threads)});
    if (fs::exists(file(g, "weights" + extension_ + ".checkpoint"))) args.push_back("--resume");
    const std::string log = file(g, "tune.log");
    check(h_.run(args, log), "tune", log);
  }

  // A file of openings (a path or builtin:NAME) when the config names one, else random ones.
  void add_opening_args(std::vector<std::string>& args) const {
    if (!c_.match_openings.empty())
      args.insert(args.end(), {"--openings", c_.match_openings});
    else
      args.insert(args.end(), {"--random-plies", std::to_string(c_.match_random_plies)});
  }

  void match(std::int64_t g) {
    std::vector<std::string> args = {"match", "--variant", c_.variant,
                                     "--a", "weights=" + file(g, "weights" + extension_) + "," + c_.match_limit,
                                     "--b", "weights=" + generation_weights(g) + "," + c_.match_limit,
                                     "--games", std::to_string(c_.match_games),
                                     "--seed", std::to_string(2000 + g),
                                     "--pgn-out", file(g, "match.pdn")};
    add_opening_args(args);
    if (c_.promote == "sprt") args.insert(args.end(), {"--sprt", c_.sprt});
    if (c_.threads > 0) args.insert(args.end(), {"--concurrency", std::to_string(c_.threads)});
    if (fs::exists(file(g, "match.pdn") + ".journal")) args.push_back("--resume");
    const std::string log = file(g, "match.log");
    check(h_.run(args, log), "match", log);
  }

  void decide(std::int64_t g) {
    const std::string log = file(g, "match.log");
    const auto summary = parse_match_table(read_text(log));
    if (!summary) throw Error(log + ": no result table from the match");
    const bool better = c_.promote == "sprt" ? summary->sprt_accepted_h1 : summary->elo - summary->elo_error95 > 0;
    auto& gen = state_.generation(g);
    gen["elo"] = summary->elo;
    gen["elo_error95"] = summary->elo_error95;
    gen["los"] = summary->los;
    gen["games"] = summary->games;
    gen["promoted"] = better;
    if (better) write_file_atomically(best_, read_whole_file(file(g, "weights" + extension_)));
    if (h_.say) {
      char line[160];
      std::snprintf(line, sizeof line, "generation %lld: new weights %+.1f +- %.1f Elo over %lld games: %s",
                    static_cast<long long>(g), summary->elo, summary->elo_error95,
                    static_cast<long long>(summary->games), better ? "promoted" : "kept the current best");
      h_.say(line);
    }
  }

  // The best after generation g against the start weights.  Played only
  // when the best changed: else the previous generation's result stands (and
  // before any promotion the best is the start, 0 by definition).
  void baseline(std::int64_t g) {
    auto& gen = state_.generation(g);
    const bool promoted = gen.value("promoted", false);
    if (!promoted) {
      const nlohmann::json* before = g > 1 ? &state_.generation(g - 1) : nullptr;
      gen["vs_start_elo"] = before && before->contains("vs_start_elo") ? (*before)["vs_start_elo"] : nlohmann::json(0.0);
      gen["vs_start_error95"] =
          before && before->contains("vs_start_error95") ? (*before)["vs_start_error95"] : nlohmann::json(0.0);
      return;
    }
    const std::string log = file(g, "baseline.log");
    std::vector<std::string> args = {"match", "--variant", c_.variant,
                                     "--a", "weights=" + file(g, "weights" + extension_) + "," + c_.match_limit,
                                     "--b", "weights=" + start_weights_ + "," + c_.match_limit,
                                     "--games", std::to_string(c_.match_games),
                                     "--seed", std::to_string(3000 + g),
                                     "--pgn-out", file(g, "baseline.pdn")};
    add_opening_args(args);
    if (c_.threads > 0) args.insert(args.end(), {"--concurrency", std::to_string(c_.threads)});
    if (fs::exists(file(g, "baseline.pdn") + ".journal")) args.push_back("--resume");
    check(h_.run(args, log), "baseline match", log);
    const auto summary = parse_match_table(read_text(log));
    if (!summary) throw Error(log + ": no result table from the baseline match");
    gen["vs_start_elo"] = summary->elo;
    gen["vs_start_error95"] = summary->elo_error95;
    if (h_.say) {
      char line[160];
      std::snprintf(line, sizeof line, "generation %lld: the best %+.1f +- %.1f Elo against the start weights",
                    static_cast<long long>(g), summary->elo, summary->elo_error95);
      h_.say(line);
    }
  }

  // Elo by generation: the generation's match, the sum of the promoted
  // gains ("total", biased upwards by the selection), and the measured match
  // of the best against the start weights ("vs_start").
  void write_summary(const std::string& path) {
    std::ostringstream csv;
    csv << "generation,elo,elo_error95,los,games,promoted,total_elo,vs_start_elo,vs_start_error95\n";
    double total = 0;
    const auto& all = state_.json()["generations"];
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& gen = all[i];
      if (!gen.contains("elo")) continue;
      const bool promoted = gen["promoted"].get<bool>();
      if (promoted) total += gen["elo"].get<double>();
      csv << i + 1 << "," << gen["elo"].get<double>() << "," << gen["elo_error95"].get<double>() << ","
          << gen["los"].get<double>() << "," << gen["games"].get<std::int64_t>() << "," << (promoted ? 1 : 0) << ","
          << total << ",";
      if (gen.contains("vs_start_elo")) csv << gen["vs_start_elo"].get<double>() << "," << gen["vs_start_error95"].get<double>();
      else csv << ",";
      csv << "\n";
    }
    write_file_atomically(path, csv.str());
  }

  const PipelineConfig& c_;
  const PipelineHooks& h_;
  State state_;
  std::string extension_;  // of the weights files: ".json" (linear model) or ".patterns"
  std::string best_;
  std::string start_weights_;  // the weights generation 1 played with, kept for the baseline matches
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

PipelineConfig load_pipeline_config(const std::string& path) { return read_config(ConfigFile::read(path)); }

void validate(PipelineConfig& c) {
  const Variant& v = find_variant(c.variant);
  c.variant = std::string(v.name);
  if (c.run_dir.empty()) c.run_dir = "runs/" + c.variant;
  if (c.promote != "elo" && c.promote != "sprt") throw Error("match.promote: expected \"elo\" or \"sprt\", got \"" + c.promote + "\"");
  if (c.tune_model != "linear" && c.tune_model != "patterns")
    throw Error("tune.model: expected \"linear\" or \"patterns\", got \"" + c.tune_model + "\"");
  if (c.match_games % 2 != 0) throw Error("match.games: must be even (each opening is played twice)");
  static const std::regex limit(R"((depth|nodes|movetime)=\d+|tc=(\d+/)?[0-9.]+(\+[0-9.]+)?)");
  if (!std::regex_match(c.match_limit, limit))
    throw Error("match.limit: expected depth=N, nodes=N, movetime=MS or tc=BASE+INC, got \"" + c.match_limit + "\"");
  eval::parse_player_spec(c.match_limit, "match.limit");  // the numbers, checked now rather than at the first match
  if (!c.match_openings.empty()) {  // readable now, not after the first generation's self-play
    try {
      read_openings(c.match_openings);
    } catch (const Error& e) {
      throw Error(std::string("match.openings: ") + e.what());
    }
  }
  if (c.selfplay_config.empty()) {
    const std::string shipped = "configs/selfplay/" + c.variant + ".toml";
    if (fs::exists(shipped)) c.selfplay_config = shipped;
  }
}

void check_step_configs(const PipelineConfig& c) {
  if (!c.selfplay_config.empty()) {
    try {
      load_selfplay_config(c.selfplay_config);
    } catch (const Error& e) {
      throw Error(std::string("selfplay.config: ") + e.what());
    }
  }
  if (!c.tune_config.empty()) {
    try {
      train::load_train_config(c.tune_config);
    } catch (const Error& e) {
      throw Error(std::string("tune.config: ") + e.what());
    }
  }
}

std::optional<MatchSummary> parse_match_table(const std::string& text) {
  static const std::regex elo_line(R"(Elo A-B\s+([-+]?[0-9.]+|[-+]?inf)\s+±\s+([0-9.]+|inf))");
  static const std::regex los_line(R"(LOS\s+([0-9.]+)%)");
  static const std::regex games_line(R"(games\s+(\d+) of)");
  std::smatch m;
  MatchSummary s;
  if (!std::regex_search(text, m, elo_line)) return std::nullopt;
  s.elo = std::stod(m[1]);
  s.elo_error95 = std::stod(m[2]);
  if (std::regex_search(text, m, los_line)) s.los = std::stod(m[1]) / 100;
  if (std::regex_search(text, m, games_line)) s.games = std::stoll(m[1]);
  s.sprt_accepted_h1 = text.find("H1 accepted") != std::string::npos;
  return s;
}

PipelineOutcome run_pipeline(const PipelineConfig& config, const PipelineHooks& hooks) {
  return Pipeline(config, hooks).run();
}

}  // namespace dama
