// SPDX-License-Identifier: GPL-3.0-or-later
// How evaluations go out to a Slurm cluster: where the job folders live,
// what each job asks of the scheduler, how failures are retried. Read from
// and written to JSON (the GUI's and the CLI's settings file).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace crucible {

// A settings document that does not fit; the message names the field.
class SlurmSettingsError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct SlurmSettings {
  // A folder every node sees at the same path: job folders go under it.
  std::string sharedDirectory;
  // crucible-worker as the nodes see it (empty: the one next to this program).
  std::string workerExecutable;
  std::vector<std::string> workerArguments;   // before `--job DIR`
  int concurrentJobs = 4;                     // evaluators = jobs in flight at once (GPUs wanted)
  std::string partition;                      // empty: the cluster's default
  std::string account;                        // empty: the user's default
  std::string gpuType;                        // "h200": --gres=gpu:h200:N; empty: --gres=gpu:N
  int gpusPerJob = 1;
  std::string timeLimit = "00:30:00";         // sbatch --time, per array task
  std::vector<std::string> extraSbatchOptions;  // passed to sbatch as they are
  int maxAttempts = 3;                        // runs of one request before it is given up
  double pollSeconds = 2;                     // between two looks at the queue
  double batchWindowSeconds = 1;              // how long requests gather into one array
  int maxArraySize = 1000;                    // tasks per sbatch --array
  double resultGraceSeconds = 30;             // after a job ends, how long its result may take to show (NFS)
  double commandTimeoutSeconds = 60;          // deadline of each sbatch/squeue/scancel/scontrol
  std::string slurmBinDirectory;              // empty: sbatch & co. from PATH
  bool keepJobFolders = false;                // leave job folders behind for inspection
};

// Throws SlurmSettingsError naming the field that is wrong.
void validate(const SlurmSettings& s);
nlohmann::json toJson(const SlurmSettings& s);
// Unknown fields are refused (a typo must not silently fall back to a default).
SlurmSettings slurmSettingsFromJson(const nlohmann::json& j);
SlurmSettings readSlurmSettings(const std::string& file);
void writeSlurmSettings(const std::string& file, const SlurmSettings& s);

}  // namespace crucible
