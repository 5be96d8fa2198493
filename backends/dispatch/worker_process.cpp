// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/worker_process.h"
#include "backends/dispatch/spawn_signals.h"

#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include "backends/dispatch/frame.h"
#include "backends/dispatch/worker_environment.h"

extern char** environ;

namespace crucible {
namespace {

using Clock = std::chrono::steady_clock;

// Keep crash reports short: the end of the worker's stderr is what explains a crash.
constexpr std::size_t kStderrTailBytes = 2000;
// A worker that closed its channel gets this long to finish exiting (core dumps take a moment).
constexpr std::chrono::milliseconds kExitGrace{5000};

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::string signalName(int signal) {
  static constexpr std::array<std::pair<int, const char*>, 12> kNames{{{SIGABRT, "SIGABRT"},
                                                                        {SIGSEGV, "SIGSEGV"},
                                                                        {SIGBUS, "SIGBUS"},
                                                                        {SIGFPE, "SIGFPE"},
                                                                        {SIGILL, "SIGILL"},
                                                                        {SIGKILL, "SIGKILL"},
                                                                        {SIGTERM, "SIGTERM"},
                                                                        {SIGINT, "SIGINT"},
                                                                        {SIGTRAP, "SIGTRAP"},
                                                                        {SIGPIPE, "SIGPIPE"},
                                                                        {SIGHUP, "SIGHUP"},
                                                                        {SIGQUIT, "SIGQUIT"}}};
  for (const auto& [number, name] : kNames)
    if (number == signal) return name;
  return "signal " + std::to_string(signal);
}

std::string describeWaitStatus(int status) {
  if (WIFSIGNALED(status)) return "worker died: " + signalName(WTERMSIG(status));
  if (WIFEXITED(status)) return "worker exited with code " + std::to_string(WEXITSTATUS(status));
  return "worker stopped with wait status " + std::to_string(status);
}

WorkerProcess::WorkerProcess(WorkerProcessOptions options) : options_(std::move(options)) {}

WorkerProcess::~WorkerProcess() { stop(); }

void WorkerProcess::spawn() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw WorkerError(std::string("cannot create the worker channel: ") + std::strerror(errno));
  const int errFd = ::memfd_create("crucible-worker-stderr", MFD_CLOEXEC);
  if (errFd < 0) {
    const int e = errno;
    ::close(sv[0]);
    ::close(sv[1]);
    throw WorkerError(std::string("cannot create the worker's stderr file: ") + std::strerror(e));
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sv[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, sv[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errFd, STDERR_FILENO);
  // The worker starts with default signal handling whatever the engine ignores or blocks.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, defaultSignalsOnSpawn(attr));

  std::vector<std::string> argv{options_.executable};
  argv.insert(argv.end(), options_.arguments.begin(), options_.arguments.end());
  // Only what a CUDA program needs: the candidate code it runs must not see our credentials.
  auto env = workerEnvironment(environ, options_.environment);
  auto argvp = pointers(argv);
  auto envp = pointers(env);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, options_.executable.c_str(), &actions, &attr, argvp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(sv[1]);
  if (rc != 0) {
    ::close(sv[0]);
    ::close(errFd);
    throw WorkerError("cannot start worker '" + options_.executable + "': " + std::strerror(rc));
  }
  pid_ = pid;
  channel_ = sv[0];
  stderrFd_ = errFd;
  ++starts_;
}

const Hello& WorkerProcess::start() {
  if (running()) return hello_;
  spawn();
  const std::string who = "worker '" + options_.executable + "'";
  auto fail = [&](const std::string& why, bool kill) -> WorkerError {
    const auto [status, killed] = reap(kill ? std::chrono::milliseconds(0) : kExitGrace);
    std::string message = who + " " + why;
    if (!killed) message += " (" + describeWaitStatus(status) + ")";
    if (auto tail = stderrTail(); !tail.empty()) message += "; stderr: " + tail;
    closeChannel();
    return WorkerError(message);
  };
  std::optional<Frame> frame;
  try {
    frame = readFrame(channel_, Clock::now() + options_.startTimeout);
  } catch (const FrameTimeout&) {
    throw fail("sent no hello within " + std::to_string(options_.startTimeout.count()) + " ms", true);
  } catch (const FrameError& e) {
    throw fail(std::string("broke its channel before its hello: ") + e.what(), false);
  }
  if (!frame) throw fail("ended before its hello", false);
  if (frame->type != static_cast<std::uint32_t>(WorkerMessage::Hello))
    throw fail("opened with message type " + std::to_string(frame->type) + " instead of a hello", true);
  try {
    hello_ = decodeHello(frame->payload);
  } catch (const MessageError& e) {
    throw fail(std::string("sent a malformed hello: ") + e.what(), true);
  }
  if (hello_.protocol != kWorkerProtocolVersion)
    throw fail("speaks protocol " + std::to_string(hello_.protocol) + ", this engine speaks " +
                   std::to_string(kWorkerProtocolVersion),
               true);
  if (!hello_.error.empty()) throw fail("cannot use its device: " + hello_.error, true);
  return hello_;
}

void WorkerProcess::reapIfExited() {
  if (!running()) return;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    closeChannel();
  }
}

WorkerCall WorkerProcess::died(std::pair<int, bool> reaped) {
  WorkerCall result;
  result.outcome = WorkerCall::Outcome::Died;
  result.detail = reaped.second ? "worker closed its channel and was killed" : describeWaitStatus(reaped.first);
  if (auto tail = stderrTail(); !tail.empty()) result.detail += "; stderr: " + tail;
  closeChannel();
  return result;
}

WorkerCall WorkerProcess::call(WorkerMessage type, const std::string& payload, std::chrono::milliseconds timeout) {
  Clock::time_point deadline;
  // A worker may exit after its previous reply (a CUDA context lost to a fault
  // ends the process): that is found here, or when the request cannot be
  // written, and a fresh worker takes the request. Once a worker has taken a
  // request, its death is this request's outcome.
  for (int attempt = 0;; ++attempt) {
    reapIfExited();
    start();
    deadline = Clock::now() + timeout;  // a worker's start-up is not the request's time
    try {
      writeFrame(channel_, static_cast<std::uint32_t>(type), payload, deadline);
      break;
    } catch (const FrameTimeout&) {
      return timedOut(timeout);
    } catch (const FrameError&) {
      auto reaped = reap(kExitGrace);
      if (attempt > 0) return died(reaped);
      closeChannel();
    }
  }
  try {
    auto frame = readFrame(channel_, deadline);
    if (!frame) return died(reap(kExitGrace));  // end of stream: the worker is exiting or gone
    WorkerCall result;
    result.replyType = static_cast<WorkerMessage>(frame->type);
    result.payload = std::move(frame->payload);
    return result;
  } catch (const FrameTimeout&) {
    return timedOut(timeout);
  } catch (const FrameError& e) {
    // A worker that crashed mid-frame truncates it; a live worker that writes garbage is broken.
    const auto reaped = reap(kExitGrace);
    if (reaped.second) {
      closeChannel();
      throw WorkerError("worker '" + options_.executable + "' broke the protocol: " + e.what());
    }
    return died(reaped);
  }
}

WorkerCall WorkerProcess::timedOut(std::chrono::milliseconds timeout) {
  reap(std::chrono::milliseconds(0));
  WorkerCall result;
  result.outcome = WorkerCall::Outcome::TimedOut;
  result.detail = "no reply within " + std::to_string(timeout.count()) + " ms: worker killed";
  if (auto tail = stderrTail(); !tail.empty()) result.detail += "; stderr: " + tail;
  closeChannel();
  return result;
}

void WorkerProcess::stop() {
  if (!running()) return;
  try {
    writeFrame(channel_, static_cast<std::uint32_t>(WorkerMessage::Shutdown), {},
               Clock::now() + std::chrono::milliseconds(200));
  } catch (const FrameError&) {
    // Already gone or not reading: reap() below settles it.
  }
  ::shutdown(channel_, SHUT_RDWR);
  reap(std::chrono::milliseconds(1000));
  closeChannel();
}

std::pair<int, bool> WorkerProcess::reap(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return {0, false};
  int status = 0;
  bool killed = false;
  const auto until = Clock::now() + grace;
  for (;;) {
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) break;  // not our child any more: nothing to reap
    if (r == 0 && Clock::now() >= until && !killed) {
      ::kill(pid_, SIGKILL);
      killed = true;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (r == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  return {status, killed};
}

void WorkerProcess::closeChannel() {
  if (channel_ >= 0) ::close(channel_);
  channel_ = -1;
  // Callers read stderrTail() before closing: the file goes with its process.
  if (stderrFd_ >= 0) ::close(stderrFd_);
  stderrFd_ = -1;
}

std::string WorkerProcess::stderrTail() const {
  if (stderrFd_ < 0) return {};
  struct stat st {};
  if (::fstat(stderrFd_, &st) != 0 || st.st_size <= 0) return {};
  const std::size_t size = static_cast<std::size_t>(st.st_size);
  const std::size_t take = std::min(size, kStderrTailBytes);
  std::string tail(take, '\0');
  const ssize_t n = ::pread(stderrFd_, tail.data(), take, static_cast<off_t>(size - take));
  if (n <= 0) return {};
  tail.resize(static_cast<std::size_t>(n));
  if (take < size) {  // start at a line boundary
    if (auto nl = tail.find('\n'); nl != std::string::npos) tail.erase(0, nl + 1);
  }
  return trim(tail);
}

}  // namespace crucible
