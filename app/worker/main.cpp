// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-worker: one process per GPU that runs candidate code for the engine
// (frames on stdin/stdout, or on the descriptors given). It starts on a
// machine without a driver or GPU and says so (in --self-test, and in its
// Hello to the engine).
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>
#include "app/worker/fault_exit_relay.h"
#include "backends/backends_info.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/cuda_evaluator.h"
#include "backends/cuda/worker/sanitize_run.h"
#include "backends/dispatch/slurm/job_folder.h"
#include "backends/dispatch/worker_server.h"
#include "crucible/version.h"

namespace {

// Stands in for the GPU when none can be used: every call says why, so the
// engine's Hello carries the reason instead of a crash.
class UnusableDevice : public crucible::Evaluator {
public:
  explicit UnusableDevice(std::string why) : why_(std::move(why)) {}
  crucible::Fingerprint device() const override { throw std::runtime_error(why_); }
  crucible::Evaluation evaluate(const crucible::EvaluationRequest&) override { throw std::runtime_error(why_); }
  crucible::ProfileResult profile(const crucible::Task&, const crucible::KernelBinary&) override {
    throw std::runtime_error(why_);
  }
  std::vector<crucible::Ceiling> measureCeilings() override { throw std::runtime_error(why_); }
private:
  std::string why_;
};

int usage(std::ostream& out) {
  out << "usage: crucible-worker [--device N] [--in-fd FD] [--out-fd FD] [--launch-timeout SECONDS]\n"
         "       crucible-worker --sanitize-run DIR\n"
         "       crucible-worker [--device N] [--launch-timeout SECONDS] --job DIR\n"
         "       crucible-worker --version | --self-test | --help\n"
         "Serves one GPU to the Crucible engine over framed messages (stdin/stdout by default).\n"
         "  --self-test       print the device fingerprint (or why there is none) and exit\n"
         "  --launch-timeout  seconds one validation launch may run before it counts as hung (default 10)\n"
         "  --sanitize-run    launch the kernel of a sanitize job folder twice, for compute-sanitizer, and exit\n"
         "  --job             answer the request in DIR/request into DIR/result (a batch scheduler's job) and exit\n";
  return 2;
}

bool parseNumber(const std::string& s, double& out) {
  try {
    std::size_t used = 0;
    out = std::stod(s, &used);
    return used == s.size();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  crucible::cuda::CudaEvaluatorOptions options;
  int inFd = STDIN_FILENO, outFd = STDOUT_FILENO;
  bool selfTest = false;
  std::string sanitizeJob;
  std::string jobFolder;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](double& v) {
      if (i + 1 >= args.size() || !parseNumber(args[i + 1], v)) {
        std::cerr << "crucible-worker: " << a << " needs a number\n";
        return false;
      }
      ++i;
      return true;
    };
    double v = 0;
    if (a == "--version") {
      std::cout << "crucible-worker " << CRUCIBLE_VERSION << "\n" << crucible::backendsBuildInfo() << "\n";
      return 0;
    } else if (a == "--help" || a == "-h") {
      usage(std::cout);
      return 0;
    } else if (a == "--self-test") {
      selfTest = true;
    } else if (a == "--sanitize-run") {
      if (i + 1 >= args.size()) {
        std::cerr << "crucible-worker: --sanitize-run needs a folder\n";
        return 2;
      }
      sanitizeJob = args[++i];
    } else if (a == "--job") {
      if (i + 1 >= args.size()) {
        std::cerr << "crucible-worker: --job needs a folder\n";
        return 2;
      }
      jobFolder = args[++i];
    } else if (a == "--device") {
      if (!value(v)) return 2;
      options.deviceOrdinal = static_cast<int>(v);
    } else if (a == "--in-fd") {
      if (!value(v)) return 2;
      inFd = static_cast<int>(v);
    } else if (a == "--out-fd") {
      if (!value(v)) return 2;
      outFd = static_cast<int>(v);
    } else if (a == "--launch-timeout") {
      if (!value(v) || v <= 0) return 2;
      options.launchTimeoutSeconds = v;
    } else {
      std::cerr << "crucible-worker: unknown option '" << a << "'\n";
      return usage(std::cerr);
    }
  }

  // Under compute-sanitizer: no evaluator, no oracle, only the kernel's launches.
  if (!sanitizeJob.empty()) return crucible::cuda::sanitizeRun(sanitizeJob, std::cout, std::cerr);

  // A scheduler's job: the request is checked before a GPU is opened, so a
  // malformed job fails fast and says why.
  crucible::JobRequest jobRequest;
  if (!jobFolder.empty()) {
    try {
      jobRequest = crucible::validateJobFolder(jobFolder);
    } catch (const crucible::JobFolderError& e) {
      std::cerr << "crucible-worker: malformed job: " << e.what() << "\n";
      return 2;
    }
  }

  std::unique_ptr<crucible::cuda::CudaEvaluator> gpu;
  std::string unusable;
  try {
    gpu = std::make_unique<crucible::cuda::CudaEvaluator>(std::make_shared<crucible::NvrtcCompiler>(), options);
  } catch (const std::exception& e) {
    unusable = e.what();
  }

  if (selfTest) {
    if (!gpu) {
      std::cout << "crucible-worker: no usable GPU: " << unusable << "\n";
      return 1;
    }
    const crucible::Fingerprint f = gpu->device();
    const auto& d = gpu->deviceInfo();
    std::cout << "gpu:          " << f.gpu << " (" << f.arch << ", " << d.smCount << " SMs, "
              << d.l2Bytes / (1024 * 1024) << " MiB L2, " << d.totalMemory / (1024 * 1024) << " MiB)\n"
              << "driver:       " << f.driver << " (CUDA " << d.driverCudaVersion / 1000 << "."
              << (d.driverCudaVersion % 1000) / 10 << ")\n"
              << "toolkit:      CUDA " << f.cudaRuntime << ", NVRTC " << f.nvrtc << "\n"
              << "clocks:       SM " << f.smClockMHz << " MHz, memory " << f.memClockMHz << " MHz\n"
              << "host:         " << f.host << "\n";
    return 0;
  }

  if (!jobFolder.empty()) {
    // One request, answered into DIR/result. Without a usable GPU on this node
    // the result says why (an ErrorReply), and the dispatcher runs it again.
    // A kernel fault or hang is the evaluator's to report (Faulted, TimedOut),
    // as in the served mode; the process exits after this one request anyway.
    UnusableDevice none(unusable);
    if (gpu) {
      try {
        gpu->captureDeviceOutput();
      } catch (const std::exception& e) {
        std::cerr << "crucible-worker: device printf output is not captured: " << e.what() << "\n";
      }
    }
    return crucible::answerJob(jobFolder, jobRequest, gpu ? static_cast<crucible::Evaluator&>(*gpu) : none, std::cerr);
  }

  if (!gpu) {
    UnusableDevice none(unusable);
    return crucible::serveWorker(inFd, outFd, none);
  }
  // The engine's channel on its own descriptor; stray prints from CUDA
  // libraries to stdout go to stderr instead of into the frames.
  int channel = outFd;
  if (outFd == STDOUT_FILENO) {
    std::fflush(stdout);
    channel = ::fcntl(outFd, F_DUPFD_CLOEXEC, 3);
    if (channel < 0) {
      std::perror("crucible-worker: dup");
      return 2;
    }
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  // What kernels print from the device goes to stdout: capture it, bounded,
  // and report it with the candidate that printed (instead of an unbounded
  // stream into the engine's copy of our stderr).
  try {
    gpu->captureDeviceOutput();
  } catch (const std::exception& e) {
    std::cerr << "crucible-worker: device printf output is not captured: " << e.what() << "\n";
  }
  return crucible::worker::serveWithFaultExit(
      channel, [&](int pipeFd) { return crucible::serveWorker(inFd, pipeFd, *gpu); },
      [&] { return gpu->contextLost(); });
}
