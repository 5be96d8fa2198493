// SPDX-License-Identifier: GPL-3.0-or-later
// sbatch, squeue, scancel and scontrol, each run with a deadline (the bounded
// process runner): a hung slurmctld costs a poll, never the run.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/dispatch/slurm/slurm_queue.h"

namespace crucible {

// A Slurm command that could not be run, timed out, or failed; the message
// says which command and what it printed.
class SlurmError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class SlurmCommands {
public:
  // binDirectory empty: the tools are looked up in PATH.
  SlurmCommands(std::string binDirectory, double timeoutSeconds);

  // sbatch --parsable ARGS...; returns the job id.
  std::int64_t sbatch(const std::vector<std::string>& args) const;
  // squeue of these jobs, every state, array tasks one per line. Jobs Slurm
  // has forgotten are simply absent.
  std::vector<QueueEntry> squeue(const std::vector<std::int64_t>& jobIds) const;
  // scancel of "JOB" or "JOB_TASK" ids; throws SlurmError if scancel fails.
  void scancel(const std::vector<std::string>& jobSpecs) const;
  // `scontrol -o show job SPEC` records; empty when Slurm no longer knows the job.
  std::vector<std::map<std::string, std::string>> showJob(const std::string& jobSpec) const;
  // sinfo answers (the cluster is reachable); the message says why not.
  bool reachable(std::string* why = nullptr) const;

  // The full path of a tool: in binDirectory, or found in PATH. Throws SlurmError.
  std::string tool(const std::string& name) const;

private:
  struct Output {
    int exitCode = -1;
    std::string text;
  };
  // Runs the tool; throws SlurmError when it cannot start or times out.
  Output run(const std::string& name, const std::vector<std::string>& args) const;

  std::string binDirectory_;
  double timeoutSeconds_;
};

}  // namespace crucible
