// SPDX-License-Identifier: GPL-3.0-or-later
// Roofline arithmetic, pure: a candidate's arithmetic intensity (FLOPs per
// DRAM byte) and achieved FLOP/s from its profile and timing, and the roofs
// from a device's measured ceilings. Nothing is estimated: a figure whose
// counters are missing is reported missing, with the reason.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/seal.h"

namespace crucible::views {

// CUPTI metric names the roofline reads.
inline constexpr const char* kDramBytesRead = "dram__bytes_read.sum";
inline constexpr const char* kDramBytesWrite = "dram__bytes_write.sum";
inline constexpr const char* kSassFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* kSassFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* kSassFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";

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

// fadd + fmul + 2 * ffma; nullopt when any of the three counters is absent.
std::optional<double> sassFlops(const std::map<std::string, double>& profile);
// read + write; nullopt when either is absent.
std::optional<double> dramBytes(const std::map<std::string, double>& profile);
// Tensor-core kernels: the SASS FP32 counters miss their work.
bool usesTensorCores(const Candidate& c);

// taskFlops: the task's flops formula evaluated at its shapes (used for
// tensor-core kernels only); nullopt when the task has none.
RooflineOutcome rooflinePoint(const Candidate& c, std::optional<double> taskFlops);

struct Roof {
  std::string name;           // the ceiling's name, e.g. "dram_bw"
  bool bandwidth = false;     // B/s (a slope) or FLOP/s (flat)
  double measured = 0;
  double datasheet = 0;
};

// The roofs of one device, bandwidths first, each sorted by measured value.
// Ceilings with unknown units or non-positive values are skipped.
std::vector<Roof> roofsOf(const std::vector<Ceiling>& ceilings, const std::string& device);

// Attainable FLOP/s at an intensity under one bandwidth and one compute roof.
double attainable(double intensity, double bandwidth, double peakFlops);
// Where a bandwidth roof meets a compute roof (FLOP/B).
double ridgeIntensity(double bandwidth, double peakFlops);

// "3.35 TB/s", "66.9 TFLOP/s", "120 GFLOP/s": SI prefixes.
std::string formatRate(double value, const std::string& unit);

}  // namespace crucible::views
