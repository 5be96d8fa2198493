// SPDX-License-Identifier: GPL-3.0-or-later
// What the roofline view draws, pure: the roofs from a device's measured
// ceilings, where they meet, rates as text; the bandwidth view of a task with
// no FLOPs (each kernel as % of the DRAM and L2 roofs); and the plot's
// arithmetic: SI scales for the axes, zoom and pan of a log axis, spreading
// points that coincide, and finding the points under the pointer. A kernel's
// roofline point (intensity, achieved FLOP/s) is core's: core/model/roofline_point.h.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "core/model/roofline_point.h"
#include "core/model/seal.h"

namespace crucible::views {

struct Roof {
  std::string name;           // the ceiling's name, e.g. "dram_bw"
  bool bandwidth = false;     // B/s (a slope) or FLOP/s (flat)
  double measured = 0;
  double datasheet = 0;
};

// The roofs of one device, bandwidths first, each sorted by measured value.
// Ceilings with unknown units or non-positive values are skipped.
std::vector<Roof> roofsOf(const std::vector<Ceiling>& ceilings, const std::string& device);
// The measured value of the roof named name (0 when there is none).
double roofValue(const std::vector<Roof>& roofs, const std::string& name);

// Attainable FLOP/s at an intensity under one bandwidth and one compute roof.
double attainable(double intensity, double bandwidth, double peakFlops);
// Where a bandwidth roof meets a compute roof (FLOP/B).
double ridgeIntensity(double bandwidth, double peakFlops);

// "3.35 TB/s", "66.9 TFLOP/s", "120 GFLOP/s": SI prefixes.
std::string formatRate(double value, const std::string& unit);

// An axis in SI units: values are divided by factor and the unit reads
// prefix + unit ("TFLOP/s"). The prefix is the largest whose factor does not
// exceed largest (1 for values below 1000).
struct SiScale {
  double factor = 1;
  std::string prefix;
};
SiScale siScale(double largest);

// --- Tasks with no FLOPs (transpose, copies): the bandwidth view.

// The L2 traffic counter the profiler records.
inline constexpr const char* kL2Bytes = "lts__t_bytes.sum";

// A task is FLOP-free when its flops formula is missing or evaluates to 0:
// a roofline (FLOP/s over FLOP/B) has nothing to plot for it.
bool flopFree(std::optional<double> taskFlops);

struct BandwidthPoint {
  CandidateId id = 0;
  int generation = 0;
  double seconds = 0;                    // median launch time
  std::optional<double> dramBytes;       // per launch, from the counters
  std::optional<double> l2Bytes;
  std::optional<double> dramPerSecond;   // achieved
  std::optional<double> l2PerSecond;
  std::optional<double> dramPercent;     // of the measured DRAM roof (needs the roof)
  std::optional<double> l2Percent;       // of the measured L2 roof
};

// Why a candidate has no bandwidth point; the views phrase it (roofline_labels.h).
enum class BandwidthMissing {
  None,
  NotTimed,
  NotProfiled,
  NoByteCounters,  // the profile lacks the DRAM and L2 byte counters (kDramBytesRead, kL2Bytes)
};

struct BandwidthOutcome {
  std::optional<BandwidthPoint> point;
  BandwidthMissing missing = BandwidthMissing::None;  // why there is no point (None when there is one)
};

// A timed, profiled kernel's DRAM and L2 traffic against the roofs (0: that
// roof was not measured, so no percentage). A kernel whose profile has
// neither counter has no point, and says so.
BandwidthOutcome bandwidthPoint(const Candidate& c, double dramRoof, double l2Roof);

// --- The plot's arithmetic.

// A log axis [lo, hi] zoomed by factor (> 1 zooms in) about anchor, which
// keeps its place on the axis. All values > 0.
std::pair<double, double> zoomLogRange(double lo, double hi, double anchor, double factor);
// A log axis [lo, hi] moved by fraction of its length (positive: towards larger values).
std::pair<double, double> panLogRange(double lo, double hi, double fraction);

// Positions (in pixels) nudged apart where several coincide: the k-th point
// within radius of an earlier one moves onto a small spiral around it, the
// same way for the same input (deterministic), so a clump reads as a count.
std::vector<std::pair<double, double>> spreadCoincident(const std::vector<std::pair<double, double>>& pixels,
                                                        double radius);

// The indices of the positions within radius (pixels) of target, nearest first.
std::vector<int> pointsNear(const std::vector<std::pair<double, double>>& pixels, std::pair<double, double> target,
                            double radius);

}  // namespace crucible::views
