// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/local_gpu_dispatcher.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace crucible {

std::string LocalGpuDispatcher::defaultWorkerExecutable() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "crucible-worker";
  return (self.parent_path() / "crucible-worker").string();
}

std::string LocalGpuDispatcher::visibleDeviceFor(int ordinal) {
  // Under CUDA_VISIBLE_DEVICES=2,3 this process's GPU 0 is the machine's GPU 2.
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible) {
    std::vector<std::string> ids;
    std::stringstream list(visible);
    for (std::string id; std::getline(list, id, ',');) ids.push_back(id);
    if (ordinal >= 0 && static_cast<std::size_t>(ordinal) < ids.size()) return ids[ordinal];
  }
  return std::to_string(ordinal);
}

LocalGpuDispatcher::LocalGpuDispatcher(LocalGpuDispatcherOptions options)
    : LocalGpuDispatcher(probeGpus(), std::move(options)) {}

LocalGpuDispatcher::LocalGpuDispatcher(const GpuProbe& probe, LocalGpuDispatcherOptions options)
    : workerExecutable_(options.workerExecutable.empty() ? defaultWorkerExecutable() : options.workerExecutable) {
  if (probe.gpus.empty()) {
    status_ = "Nothing can be evaluated here: " +
              (probe.message.empty() ? std::string("no GPU found.") : probe.message);
    return;
  }
  if (::access(workerExecutable_.c_str(), X_OK) != 0) {
    status_ = "Nothing can be evaluated here: the worker executable '" + workerExecutable_ +
              "' is missing or not executable.";
    return;
  }
  // One model per pool: the first visible GPU's. Timings of other models
  // would share the run's archive and its one compile architecture.
  const GpuInfo& first = probe.gpus.front();
  std::string leftOut;
  for (const GpuInfo& gpu : probe.gpus) {
    if (gpu.name != first.name || gpu.arch() != first.arch()) {
      leftOut += (leftOut.empty() ? "" : ", ") + ("GPU " + std::to_string(gpu.ordinal) + " (" + gpu.name + ", " +
                                                  gpu.arch() + ")");
      continue;
    }
    WorkerProcessOptions process;
    process.executable = workerExecutable_;
    process.arguments = options.workerArguments;
    process.environment["CUDA_VISIBLE_DEVICES"] = visibleDeviceFor(gpu.ordinal);
    process.startTimeout = options.workerStartTimeout;
    workerDevices_.push_back(process.environment["CUDA_VISIBLE_DEVICES"]);
    evaluators_.push_back(std::make_unique<WorkerEvaluator>(std::move(process), options.evaluator));
  }
  status_ = std::to_string(evaluators_.size()) + " GPU worker(s): " + probe.message;
  if (!leftOut.empty())
    status_ += std::string(status_.back() == '.' ? " " : ". ") + "Left out, as not a " + first.name + " (" + first.arch() +
               "): " + leftOut + "; one run's speedups are all measured on one GPU model.";
}

std::vector<Evaluator*> LocalGpuDispatcher::evaluators() {
  std::vector<Evaluator*> out;
  for (auto& e : evaluators_) out.push_back(e.get());
  return out;
}

}  // namespace crucible
