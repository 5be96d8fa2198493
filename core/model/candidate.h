// SPDX-License-Identifier: GPL-3.0-or-later
// One kernel and everything measured about it.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "core/model/fingerprint.h"
#include "core/model/ids.h"

namespace crucible {

enum class CandidateStatus {
  Proposed,        // made by a proposer, not compiled yet
  AwaitingReview,  // a new architecture in a gated run, waiting for a verdict
  Rejected,        // a human rejected its architecture
  Compiled,
  CompileFailed,
  Invalid,         // ran but computed the wrong thing (see validation)
  Faulted,         // illegal address, trap, misaligned access...
  TimedOut,        // hung: the watchdog stopped it
  ResourceError,   // asked for impossible resources (smem, registers, block size)
  Valid,           // correct and timed
  Reference,       // the run's reference kernel
};
const char* toString(CandidateStatus s);
CandidateStatus candidateStatusFromString(const std::string& s);  // throws std::invalid_argument

// A TMA tensor map (CUtensorMap) the worker encodes on the host for one of the
// task's tensors and passes by value after the task's parameters, as
// `const __grid_constant__ CUtensorMap tmap_<tensor>`. The tensor is seen as a
// row-major matrix: cols = its last axis, rows = the product of the others.
struct TensorMapRule {
  std::string tensor;            // an input or output of the task
  int boxRows = 0;               // box extent along the rows, 1..256
  int boxCols = 0;               // box extent along the last axis, 1..256
  std::string swizzle = "none";  // "none" | "32B" | "64B" | "128B"
  bool operator==(const TensorMapRule&) const = default;
};

// How to launch the kernel: grid and block as expressions over the task's
// named axes (e.g. "ceil_div(M, 128)"), evaluated by core/task.
struct LaunchRule {
  std::string entry;        // the __global__ function's name
  std::string grid[3] = {"1", "1", "1"};
  std::string block[3] = {"1", "1", "1"};
  std::string dynamicSmemBytes = "0";
  std::vector<TensorMapRule> tensorMaps;  // extra kernel parameters, in this order
};

struct CompileDiagnostic {
  int line = 0;             // line in the candidate source (1-based), 0 if unknown
  int column = 0;
  std::string severity;     // "error" | "warning"
  std::string message;
};

struct CompileReport {
  bool ok = false;
  std::string arch;         // e.g. "sm_90a"
  std::vector<CompileDiagnostic> diagnostics;
  std::string log;          // the raw NVRTC log
  int registers = 0;
  int staticSmemBytes = 0;
  int localBytes = 0;       // local memory per thread
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
  int maxThreadsPerBlock = 0;
  // PTX/SASS features: "ld.global.v4"->count, "mma"->count, "cp.async"...
  std::map<std::string, int> features;
  double seconds = 0;
};

// One validation trial: one seed of fresh inputs.
struct ValidationTrial {
  std::uint64_t seed = 0;
  bool passed = false;
  std::string reason;       // empty when passed; else what failed, e.g. "unwritten output elements: 4096"
  double maxAbsError = 0;
  double maxRelError = 0;
  std::int64_t mismatches = 0;
};

struct Timing {
  std::vector<double> samplesUs;   // per-launch times in microseconds
  double medianUs = 0;
  double iqrUs = 0;
  double referenceMedianUs = 0;    // the reference timed interleaved in the same worker
  double referenceIqrUs = 0;
  double speedup = 0;              // referenceMedianUs / medianUs
  double smClockMHz = 0;           // SM clock read with the result
  // The GPU of the worker that took these samples, the interleaved reference's
  // included (one worker times both). Not recorded (empty gpu) in rows from
  // before it was kept.
  Fingerprint device;
};

struct Candidate {
  CandidateId id = 0;
  RunId runId = 0;
  int generation = 0;
  std::string source;              // CUDA C++ device source
  LaunchRule launch;
  std::vector<CandidateId> parents;
  std::string proposer;            // "template", "llm:<model>", "human", "seal"
  std::string mutation;            // "seed", "mutate:gene", "crossover", "rewrite", "tune"...
  MetaPromptId metaPrompt = 0;     // the strategy/meta-prompt that produced it
  std::string genomeJson = "{}";   // proposer-specific architecture genes + parameters
  std::string architectureKey;     // genes only (no tunables): identifies an architecture
  std::map<std::string, std::string> descriptor;  // behavioural descriptors for the archive
  CandidateStatus status = CandidateStatus::Proposed;
  std::string statusDetail;        // human-readable reason for the status
  std::optional<CompileReport> compile;
  std::vector<ValidationTrial> validation;
  std::optional<Timing> timing;
  std::map<std::string, double> profile;  // CUPTI metrics by name
  double fitness = 0;              // higher is better (speedup vs reference)
  std::int64_t createdAt = 0;
};

// A light row for lists and views: no source, no samples.
struct CandidateSummary {
  CandidateId id = 0;
  RunId runId = 0;
  int generation = 0;
  std::vector<CandidateId> parents;
  std::string proposer;
  std::string mutation;
  std::string architectureKey;
  CandidateStatus status = CandidateStatus::Proposed;
  double medianUs = 0;
  double speedup = 0;
  double fitness = 0;
  int registers = 0;
};

}  // namespace crucible
