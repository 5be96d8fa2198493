// SPDX-License-Identifier: GPL-3.0-or-later
// Roofline arithmetic, once for every front end: a kernel's FLOPs, DRAM bytes,
// arithmetic intensity (FLOP per DRAM byte) and achieved rates from its task,
// its timing and its profile. The roofline view plots rooflinePoint();
// `crucible-cli eval` prints taskRoofline(). Nothing is estimated: a figure
// whose counters are missing is reported missing, with the reason.
#pragma once
#include <map>
#include <optional>
#include <string>
#include "core/model/candidate.h"

namespace crucible {

struct TaskSpec;

// CUPTI metric names the roofline reads.
inline constexpr const char* kDramBytesRead = "dram__bytes_read.sum";
inline constexpr const char* kDramBytesWrite = "dram__bytes_write.sum";
inline constexpr const char* kSassFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* kSassFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* kSassFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";

using ProfileMetrics = std::map<std::string, double>;

// fadd + fmul + 2 * ffma; nullopt when any of the three counters is absent.
std::optional<double> sassFlops(const ProfileMetrics& profile);
// read + write; nullopt when either is absent.
std::optional<double> dramBytes(const ProfileMetrics& profile);
// Tensor-core kernels: the SASS FP32 counters miss their work.
bool usesTensorCores(const Candidate& c);

// The task's formulas at its shapes. Throws what evalExpression throws for a
// formula that does not evaluate; nullopt for an empty formula.
std::optional<double> taskFlops(const TaskSpec& spec);
std::optional<double> taskMinBytes(const TaskSpec& spec);

enum class FlopSource { SassCounters, TaskFormula };

struct RooflinePoint {
  CandidateId id = 0;
  int generation = 0;
  double flops = 0;           // per launch
  double dramBytes = 0;       // per launch
  double seconds = 0;         // median launch time
  double intensity = 0;       // FLOP per DRAM byte
  double flopsPerSecond = 0;  // achieved
  FlopSource flopSource = FlopSource::SassCounters;
};

struct RooflineOutcome {
  std::optional<RooflinePoint> point;
  std::string missing;        // why there is no point ("" when there is one)
};

// The point of one timed, profiled kernel: FLOPs from the SASS counters, or
// from the task's formula (taskFlops, nullopt when it has none) for a
// tensor-core kernel; DRAM bytes from the counters.
RooflineOutcome rooflinePoint(const Candidate& c, std::optional<double> taskFlops);

// The figures of one evaluation counted with the task's formulas (what
// `crucible-cli eval` reports): the task's FLOPs and minimum bytes per launch
// and their rates at the median time, and, when the profile has the DRAM
// counters, the measured DRAM bytes, their rate and the intensity
// task FLOPs / DRAM bytes (nullopt when DRAM bytes are 0).
struct TaskRoofline {
  double flops = 0;
  double minBytes = 0;
  double seconds = 0;
  double flopsPerSecond = 0;
  double minBytesPerSecond = 0;
  std::optional<double> dramBytes;
  std::optional<double> dramBytesPerSecond;
  std::optional<double> intensity;
};
// medianUs > 0; profile null when the kernel was not profiled. Throws as taskFlops.
TaskRoofline taskRoofline(const TaskSpec& spec, double medianUs, const ProfileMetrics* profile);

}  // namespace crucible
