// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluation on a Slurm cluster. Each evaluator call becomes a job folder
// under the shared directory; a submitter thread gathers the pending folders
// into job arrays (one `crucible-worker --job DIR` per array task), watches
// them with squeue, takes each result once from the shared filesystem, and
// requeues the requests of jobs that failed, were cancelled, preempted, timed
// out or lost their node, up to maxAttempts runs. No Qt; no accounting database.
#pragma once
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/dispatch/slurm/job_folder.h"
#include "backends/dispatch/slurm/job_ledger.h"
#include "backends/dispatch/slurm/slurm_commands.h"
#include "backends/dispatch/slurm/slurm_settings.h"
#include "core/engine/interfaces.h"

namespace crucible {

class SlurmEvaluator;

class SlurmDispatcher : public Dispatcher {
public:
  using LogFn = std::function<void(const std::string& level, const std::string& text)>;
  // Throws SlurmSettingsError for bad settings and SlurmError when the shared
  // directory cannot be created. The cluster is first contacted by the first call.
  explicit SlurmDispatcher(SlurmSettings settings, LogFn log = {});
  // Cancels the jobs still queued or running and removes their folders
  // (unless keepJobFolders). Calls still waiting end with a SlurmError.
  ~SlurmDispatcher() override;

  std::string name() const override { return "slurm"; }
  // settings.concurrentJobs evaluators; each call blocks until its job's result.
  std::vector<Evaluator*> evaluators() override;

  // One request through the cluster: blocks until a result is taken for it.
  // Throws SlurmError naming every failed attempt when it is given up.
  JobResult call(JobRequest request);

  LedgerCounts counts() const;
  // The device of the latest result any job delivered.
  std::optional<Fingerprint> lastDevice() const;
  const SlurmSettings& settings() const { return settings_; }
  const SlurmCommands& commands() const { return commands_; }
  // The folder of this dispatcher's job arrays.
  const std::string& batchRoot() const { return batchRoot_; }

private:
  struct Batch {
    std::int64_t jobId = 0;
    std::string dir;
    std::size_t open = 0;   // attempts not yet ended
  };
  using AttemptKey = std::pair<Ticket, std::size_t>;

  void loop();
  void submitWaiting(std::unique_lock<std::mutex>& lock);
  void collectResults(std::unique_lock<std::mutex>& lock);
  void watchQueue(std::unique_lock<std::mutex>& lock);
  // Attempt bookkeeping; the lock is held.
  void attemptEnded(const AttemptPlace& place);
  void recordFailure(const AttemptRef& a, const std::string& why);
  void cancel(std::unique_lock<std::mutex>& lock, const std::vector<AttemptRef>& attempts);
  std::string failureDetail(const AttemptRef& a, const std::string& what) const;
  void log(const std::string& level, const std::string& text) const;

  SlurmSettings settings_;
  LogFn log_;
  SlurmCommands commands_;
  std::string workerExecutable_;
  std::string batchRoot_;
  std::vector<std::unique_ptr<SlurmEvaluator>> evaluators_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;      // the submitter: a new request, or stop
  std::condition_variable ended_;     // callers: a ticket ended
  bool stopping_ = false;
  bool woken_ = false;
  JobLedger ledger_;
  std::chrono::steady_clock::time_point firstWaiting_{};
  std::map<AttemptKey, std::chrono::steady_clock::time_point> endSeen_;  // out of the queue, no result yet
  std::map<AttemptKey, std::string> endState_;
  std::map<std::string, Batch> batches_;                                  // by folder
  std::optional<std::chrono::steady_clock::time_point> queueFailingSince_;
  int batchCount_ = 0;
  std::optional<Fingerprint> lastDevice_;
  std::thread submitter_;
};

// One evaluator of a Slurm dispatcher: every call is a job on the cluster.
class SlurmEvaluator : public Evaluator {
public:
  explicit SlurmEvaluator(SlurmDispatcher& dispatcher) : dispatcher_(dispatcher) {}
  // The device of the last result this evaluator received; before any, a
  // device-only job asks a node. Throws SlurmError when that job fails.
  Fingerprint device() const override;
  // Throws SlurmError when the request was given up (not the candidate's fault).
  Evaluation evaluate(const EvaluationRequest& request) override;
  ProfileResult profile(const Task& task, const KernelBinary& kernel) override;
  std::vector<Ceiling> measureCeilings() override;
  // The device the last result came from: each result carries the
  // fingerprint its worker reported (nodes may differ).
  std::optional<Fingerprint> lastResultDevice() const;

private:
  JobResult call(WorkerMessage type, std::string payload, WorkerMessage expected) const;
  SlurmDispatcher& dispatcher_;
  mutable std::mutex mutex_;
  mutable std::optional<Fingerprint> last_;
};

}  // namespace crucible
