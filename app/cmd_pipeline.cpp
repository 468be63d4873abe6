// dama pipeline: the overnight loop (eval/pipeline.cpp), its steps run as
// child processes of this same program.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "stop_signal.hpp"
#include "error.hpp"
#include "pipeline.hpp"

extern char** environ;

namespace dama::cli {

namespace {

std::string self_path() {
  std::error_code error;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw Error("cannot find the dama program itself (/proc/self/exe)");
  return path.string();
}

int run_child(const std::vector<std::string>& args, const std::string& log) {
  const std::string program = self_path();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int status = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (status != 0) throw Error("cannot start " + program + " for " + args.front());
  // SIGTERM goes on to the step (Ctrl-C reaches it through the terminal's process group).
  StopSignal::forward_terminate_to(pid);
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  StopSignal::forward_terminate_to(0);
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  return 128 + WTERMSIG(wait_status);
}

void plot_summary(const std::string& summary) {
  const std::string script = "scripts/plot_pipeline.py";
  if (!std::filesystem::exists(script) || !std::filesystem::exists("/usr/bin/python3")) return;
  const std::string png = std::filesystem::path(summary).replace_extension(".png").string();
  const std::string command = "/usr/bin/python3 " + script + " '" + summary + "' '" + png + "' >/dev/null 2>&1";
  if (std::system(command.c_str()) == 0) std::cout << "plot:    " << png << "\n";
}

struct PipelineOptions {
  std::string config;
  std::string variant;
  std::int64_t generations = 0;
  std::string run_dir;
};

void run(const PipelineOptions& o) {
  PipelineConfig c = o.config.empty() ? PipelineConfig{} : load_pipeline_config(o.config);
  if (!o.variant.empty()) c.variant = o.variant;
  if (o.generations > 0) c.generations = o.generations;
  if (!o.run_dir.empty()) c.run_dir = o.run_dir;
  validate(c);
  check_step_configs(c);
  const StopSignal stop({SecondSignal::Counted});
  PipelineHooks hooks;
  hooks.run = run_child;
  hooks.say = [](const std::string& line) { std::cout << "pipeline: " << line << std::endl; };
  hooks.stop_requested = [&stop] { return stop.requested(); };
  const PipelineOutcome outcome = run_pipeline(c, hooks);
  std::cout << "summary: " << outcome.summary << "\n";
  plot_summary(outcome.summary);
  if (!outcome.finished) {
    std::cerr << "dama: pipeline stopped (" << outcome.reason << "); run the same command again to continue\n";
    throw ExitCode{130};
  }
  std::cout << "run:     " << c.run_dir << " (best weights: " << c.run_dir << "/best" << (c.tune_model == "patterns" ? ".patterns" : ".json") << ")\n";
}

}  // namespace

void register_pipeline(CLI::App& app) {
  auto o = std::make_shared<PipelineOptions>();
  CLI::App* cmd = app.add_subcommand("pipeline", "generations of self-play, tuning and a match; promote what wins");
  cmd->add_option("-c,--config", o->config, "pipeline config (configs/pipeline/<variant>.toml)");
  cmd->add_option("-v,--variant", o->variant, "variant (overrides the config)");
  cmd->add_option("-g,--generations", o->generations, "generations (overrides the config)")->check(CLI::PositiveNumber);
  cmd->add_option("--run-dir", o->run_dir, "run directory (overrides the config)");
  cmd->callback([o] { run(*o); });
}

}  // namespace dama::cli
