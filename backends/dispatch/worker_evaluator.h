// SPDX-License-Identifier: GPL-3.0-or-later
// An Evaluator that runs in a crucible-worker process: candidate code never
// runs in the engine's process. A kernel that crashes or hangs its worker
// costs one candidate (Faulted / TimedOut); the next call starts a new worker.
#pragma once
#include <chrono>
#include <mutex>

#include "backends/dispatch/worker_process.h"
#include "core/engine/interfaces.h"

namespace crucible {

struct WorkerEvaluatorOptions {
  // Base deadlines; an evaluation's deadline adds evaluateDeadline()'s term
  // for the task's size.
  std::chrono::milliseconds evaluateTimeout{60000};
  std::chrono::milliseconds extendedEvaluateTimeout{300000};  // the seal's extended validation
  std::chrono::milliseconds profileTimeout{300000};
  std::chrono::milliseconds ceilingsTimeout{600000};
  // Added per GiB of the task's data (inputs and outputs in their dtypes, plus
  // the oracle's outputs in double) for every validation seed, and once more
  // for timing: the worker draws, uploads, reads back and checks all of it
  // for each seed. 0 disables the scaling.
  std::chrono::milliseconds perSeedPerGiB{20000};
  // The seed counts the worker uses when a request names none (its
  // CudaEvaluatorOptions defaults), for requests that leave them to it.
  int assumedDefaultSeeds = 3;
  int assumedExtendedExtraSeeds = 8;
};

// The deadline for one evaluation: the base (extended or not) plus
// perSeedPerGiB * GiB of task data * (seeds + 1 if timed). A task whose spec
// does not parse gets the base: the worker rejects it at once.
std::chrono::milliseconds evaluateDeadline(const EvaluationRequest& request, const WorkerEvaluatorOptions& options);

class WorkerEvaluator : public Evaluator {
public:
  WorkerEvaluator(WorkerProcessOptions process, WorkerEvaluatorOptions options = {});

  // The worker's device, from its hello (starts the worker). Throws WorkerError
  // when no worker can be started.
  Fingerprint device() const override;
  // Faulted with "worker died: SIGSEGV ..." when the worker crashes, TimedOut
  // when it passes its deadline. Throws WorkerError when the worker cannot be
  // started or breaks the protocol (not the candidate's fault).
  Evaluation evaluate(const EvaluationRequest& request) override;
  // A crash or timeout while profiling comes back as detail with no metrics.
  ProfileResult profile(const Task& task, const KernelBinary& kernel) override;
  // Throws WorkerError if the worker dies or times out: no ceiling is invented.
  std::vector<Ceiling> measureCeilings() override;

  int workerStarts() const;
  const WorkerEvaluatorOptions& options() const { return options_; }

private:
  // One request to the worker, serialised with the other calls.
  WorkerCall request(WorkerMessage type, const std::string& payload, std::chrono::milliseconds timeout) const;

  WorkerEvaluatorOptions options_;
  mutable std::mutex mutex_;           // calls are serialised per worker
  mutable WorkerProcess process_;
};

}  // namespace crucible
