// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/sanitize/bounded_process.h"
#include "backends/dispatch/spawn_signals.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace crucible {
namespace {

using Clock = std::chrono::steady_clock;

// How long to go on reading after the child ended: a grandchild that left
// the group may hold the pipe open, and must not keep us waiting.
constexpr auto kDrainAfterExit = std::chrono::milliseconds(500);

// The first half of the cap as it came, the last half as a moving window.
class CappedOutput {
public:
  explicit CappedOutput(std::size_t cap) : headCap_(cap / 2), tailCap_(cap - cap / 2) {}
  void append(const char* data, std::size_t n) {
    total_ += n;
    const std::size_t toHead = std::min(n, headCap_ - head_.size());
    head_.append(data, toHead);
    tail_.append(data + toHead, n - toHead);
    if (tail_.size() > 2 * tailCap_ + 4096) tail_.erase(0, tail_.size() - tailCap_);
  }
  std::size_t total() const { return total_; }
  std::string text() const {
    std::string tail = tail_.size() > tailCap_ ? tail_.substr(tail_.size() - tailCap_) : tail_;
    const std::size_t left = total_ - head_.size() - tail.size();
    if (left == 0) return head_ + tail;
    return head_ + "\n[... " + std::to_string(left) + " bytes of output left out ...]\n" + tail;
  }

private:
  std::size_t headCap_, tailCap_;
  std::string head_, tail_;
  std::size_t total_ = 0;
};

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (auto& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

}  // namespace

BoundedProcessResult runBounded(const BoundedProcessOptions& options) {
  BoundedProcessResult r;
  if (options.argv.empty()) {
    r.startError = "no program to run";
    return r;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.startError = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  const short flags = defaultSignalsOnSpawn(attr);
  posix_spawnattr_setpgroup(&attr, 0);   // its own group: a timeout kills it and everything it started
  posix_spawnattr_setflags(&attr, flags | POSIX_SPAWN_SETPGROUP);

  std::vector<std::string> argv = options.argv;
  std::vector<std::string> env;
  for (const auto& [k, v] : options.environment) env.push_back(k + "=" + v);
  auto argvp = pointers(argv);
  auto envp = pointers(env);
  const auto start = Clock::now();
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attr, argvp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    r.startError = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;

  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(std::max(0.0, options.timeoutSeconds)));
  CappedOutput output(options.outputCap);
  std::vector<char> buffer(64 * 1024);
  bool open = true, exited = false;
  int status = 0;
  Clock::time_point drainUntil{};
  for (;;) {
    if (!exited && Clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      r.timedOut = true;
      ::waitpid(pid, &status, 0);
      exited = true;
      drainUntil = Clock::now() + kDrainAfterExit;
    }
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      drainUntil = Clock::now() + kDrainAfterExit;
    }
    if (exited && (!open || Clock::now() >= drainUntil)) break;
    if (!open) {   // it closed its output but runs on: wait for its end or the deadline
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto limit = exited ? drainUntil : std::min(deadline, Clock::now() + std::chrono::milliseconds(100));
    const int waitMs = static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(limit - Clock::now()).count()));
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, waitMs);
    if (ready < 0 && errno != EINTR) open = false;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fds[0], buffer.data(), buffer.size());
    if (n > 0)
      output.append(buffer.data(), static_cast<std::size_t>(n));
    else if (n == 0 || (errno != EINTR && errno != EAGAIN))
      open = false;
  }
  ::close(fds[0]);
  ::kill(-pid, SIGKILL);   // whatever it left behind in its group
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.output = output.text();
  r.outputBytes = output.total();
  return r;
}

}  // namespace crucible
