// SPDX-License-Identifier: Apache-2.0
// Child processes for the phases of a run, and their stats files.
#include "systemc/app/phase_runner.h"

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "systemc/parallel/rank_world.h"

namespace lq::app {
namespace {

using Clock = std::chrono::steady_clock;

// A private directory for the children's stats files, removed with it.
class WorkDirectory {
 public:
  WorkDirectory() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
        "/lqemu-phases-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) {
      path_ = pattern;
    }
  }
  ~WorkDirectory() {
    if (!path_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(path_, ignored);
    }
  }
  WorkDirectory(const WorkDirectory&) = delete;
  WorkDirectory& operator=(const WorkDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Running {
  size_t index;
  std::string stats_path;
  Clock::time_point start;
};

// Forks the phase's child. Over MPI ranks, `relay` is the child's end of
// its line to this process (a phase over ranks), or -1 (a phase in one
// process, rank 0's).
pid_t Start(const PhaseJob& job, const std::string& stats_path,
            int relay = -1) {
  std::fflush(nullptr);  // Nothing buffered is written twice.
  const pid_t pid = fork();
  if (pid == 0) {
    parallel::RankWorld& world = parallel::RankWorld::Get();
    if (relay >= 0) {
      world.RelayTo(relay);
    } else if (world.parallel()) {
      world.Solo();
    }
    int status = 1;
    try {
      status = job.body(stats_path);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "lqemu run: phase %s: %s\n", job.name.c_str(),
                   error.what());
      std::fflush(nullptr);
      _exit(status);  // unfinished: over ranks, the parent ends the job
    }
    std::fflush(nullptr);
    world.Finish();
    _exit(status);
  }
  return pid;
}

// ordered_json's parser looks each key up in the object built so far, which
// is quadratic in a stats file's tens of thousands of counters (seconds per
// phase). Parsed as json (a sorted map) and moved over with each key
// appended, a file takes linear time; its keys come out sorted.
nlohmann::ordered_json Ordered(nlohmann::json&& json) {
  using Ordered = nlohmann::ordered_json;
  switch (json.type()) {
    case nlohmann::json::value_t::object: {
      Ordered out = Ordered::object();
      auto& entries = static_cast<Ordered::object_t::Container&>(
          out.get_ref<Ordered::object_t&>());
      for (auto& [key, value] : json.get_ref<nlohmann::json::object_t&>()) {
        entries.emplace_back(key, Ordered(std::move(value)));
      }
      return out;
    }
    case nlohmann::json::value_t::array: {
      Ordered out = Ordered::array();
      for (auto& value : json) {
        out.push_back(Ordered(std::move(value)));
      }
      return out;
    }
    case nlohmann::json::value_t::string:
      return std::move(json.get_ref<std::string&>());
    case nlohmann::json::value_t::boolean:
      return json.get<bool>();
    case nlohmann::json::value_t::number_integer:
      return json.get<int64_t>();
    case nlohmann::json::value_t::number_unsigned:
      return json.get<uint64_t>();
    case nlohmann::json::value_t::number_float:
      return json.get<double>();
    default:
      return nullptr;
  }
}

// The phase's outcome from its exit status and its stats file.
void Finish(const Running& running, int wait_status, PhaseResult& result) {
  result.wall_s =
      std::chrono::duration<double>(Clock::now() - running.start).count();
  if (WIFSIGNALED(wait_status)) {
    result.exit_status = 1;
    result.failure =
        "killed by signal " + std::to_string(WTERMSIG(wait_status));
    return;
  }
  result.exit_status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 1;
  std::ifstream file(running.stats_path);
  if (file) {
    try {
      result.stats = Ordered(nlohmann::json::parse(file));
    } catch (const nlohmann::json::exception& error) {
      result.failure = std::string("unreadable stats: ") + error.what();
    }
  }
  if (result.exit_status != 0) {
    result.failure = "exited with status " +
                     std::to_string(result.exit_status) +
                     (result.failure.empty() ? "" : "; " + result.failure);
  } else if (!result.stats && result.failure.empty()) {
    result.failure = "wrote no stats";
  }
}

// Over MPI ranks: each phase in turn, on every rank if it runs over ranks
// (its child's operations served here), else on rank 0 alone.
void RunPhasesOverRanks(const std::vector<PhaseJob>& jobs,
                        const std::string& directory,
                        std::vector<PhaseResult>& results,
                        const std::function<void(PhaseResult&)>& finished) {
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!jobs[i].over_ranks && !world.root()) {
      finished(results[i]);
      continue;
    }
    int line[2] = {-1, -1};
    if (jobs[i].over_ranks && socketpair(AF_UNIX, SOCK_STREAM, 0, line) != 0) {
      world.Complain(
          "phase " + jobs[i].name +
          ": cannot make a line to its process: " + std::strerror(errno));
      world.Abort(1);
    }
    const Running running{i, directory + "/" + std::to_string(i) + ".json",
                          Clock::now()};
    const pid_t pid = Start(jobs[i], running.stats_path, line[1]);
    if (line[1] >= 0) {
      close(line[1]);
    }
    const bool served = line[0] < 0 || world.Serve(line[0]);
    if (line[0] >= 0) {
      close(line[0]);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (pid < 0 || !served) {
      // The other ranks' children wait for this one's: end the job.
      world.Complain("phase " + jobs[i].name + ": its process " +
                     (pid < 0 ? "could not start" : "died"));
      world.Abort(1);
    }
    Finish(running, status, results[i]);
    finished(results[i]);
  }
}

}  // namespace

std::vector<PhaseResult> RunPhases(
    const std::vector<PhaseJob>& jobs, unsigned parallel,
    const std::function<void(const PhaseResult&, size_t done)>& on_done) {
  std::vector<PhaseResult> results(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    results[i].name = jobs[i].name;
  }
  WorkDirectory directory;
  if (directory.path().empty()) {
    for (auto& result : results) {
      result.exit_status = 1;
      result.failure = "cannot create a directory for the phases' stats";
    }
    return results;
  }
  // Children must be waited for: an inherited SIG_IGN for SIGCHLD would
  // have the kernel reap them unseen.
  struct sigaction child_action {
  }, inherited{};
  child_action.sa_handler = SIG_DFL;
  sigemptyset(&child_action.sa_mask);
  sigaction(SIGCHLD, &child_action, &inherited);

  std::map<pid_t, Running> running;
  size_t next = 0, done = 0;
  const auto finished = [&](PhaseResult& result) {
    ++done;
    if (on_done) {
      on_done(result, done);
    }
  };
  if (parallel::RankWorld::Get().parallel()) {
    RunPhasesOverRanks(jobs, directory.path(), results, finished);
    sigaction(SIGCHLD, &inherited, nullptr);
    return results;
  }
  while (done < jobs.size()) {
    while (next < jobs.size() && running.size() < std::max(parallel, 1u)) {
      const std::string path =
          directory.path() + "/" + std::to_string(next) + ".json";
      const pid_t pid = Start(jobs[next], path);
      if (pid < 0) {
        results[next].exit_status = 1;
        results[next].failure =
            std::string("cannot start a process: ") + std::strerror(errno);
        finished(results[next]);
      } else {
        running[pid] = {next, path, Clock::now()};
      }
      ++next;
    }
    if (running.empty()) {
      continue;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno != EINTR) {
      // The children are out of reach: fail them rather than wait forever.
      const std::string why =
          std::string("lost track of the process: ") + std::strerror(errno);
      for (auto& [lost, phase] : running) {
        results[phase.index].exit_status = 1;
        results[phase.index].failure = why;
        finished(results[phase.index]);
      }
      running.clear();
      continue;
    }
    const auto it = running.find(pid);
    if (it == running.end()) {
      continue;  // Interrupted, or not one of ours: wait again.
    }
    PhaseResult& result = results[it->second.index];
    Finish(it->second, status, result);
    running.erase(it);
    finished(result);
  }
  sigaction(SIGCHLD, &inherited, nullptr);
  return results;
}

}  // namespace lq::app
