// SPDX-License-Identifier: GPL-3.0-or-later
// What Slurm's commands print, parsed: sbatch --parsable, squeue lines in the
// format the dispatcher asks for, and `scontrol -o show job` records. No
// accounting database is assumed: the queue itself is the only witness.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace crucible {

class SlurmOutputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The squeue format the parser reads: array job id, array task id, state, reason.
inline constexpr const char* kSqueueFormat = "%F|%K|%T|%r";

struct QueueEntry {
  std::int64_t jobId = 0;   // the array's job id (the job's own id when it is no array)
  int taskId = -1;          // the array task, -1 when it is no array task
  std::string state;        // "PENDING", "RUNNING", "CANCELLED", ...
  std::string reason;       // "None", "Resources", "NonZeroExitCode", ...
};

// Lines of `squeue --noheader --array --format=kSqueueFormat`. Throws
// SlurmOutputError quoting a line that does not fit. A task range ("3-7" of a
// pending array squeue did not split) gives one entry per task.
std::vector<QueueEntry> parseSqueue(const std::string& text);

// `sbatch --parsable` prints "JOBID" or "JOBID;CLUSTER". Throws SlurmOutputError.
std::int64_t parseSbatchJobId(const std::string& text);

// `scontrol -o show job ...`: one record per line, "Key=Value" words.
std::vector<std::map<std::string, std::string>> parseScontrolRecords(const std::string& text);

// Where a job stands for the dispatcher.
enum class QueuePhase {
  Waiting,   // pending, requeued, held: it may still run
  Running,   // running, completing, suspended: its result may still come
  Ended,     // finished, for good or ill: a result comes now or never
};
QueuePhase phaseOf(const std::string& state);

// Why an ended job (or one missing from the queue: state empty) left no
// result, in words for a log and an error message.
std::string describeEnd(const std::string& state, const std::string& reason);

// squeue's exit for jobs it no longer knows ("Invalid job id specified"): an
// empty queue, not an error.
bool isUnknownJobMessage(const std::string& output);

}  // namespace crucible
