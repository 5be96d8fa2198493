// SPDX-License-Identifier: GPL-3.0-or-later
// What the candidate details view and the comparison show, pure (no Qt): one
// stored candidate turned into groups of figures modelled on Nsight Compute's
// Details page (throughput, compute, occupancy, launch, compile, timing,
// validation, and every other counter the profile holds). Only figures the
// project holds are given; a figure that cannot be given says why (`missing`).
// The text of a figure is the views' (views/details/figure_text.h), so the
// details view and the comparison cannot show one figure two ways.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/task/task_spec.h"

namespace crucible::views {

struct DetailRow {
  std::string key;                 // stable across candidates ("throughput.dram_bytes"), for differences
  std::string label;               // "DRAM bytes"
  std::optional<double> value;     // a number, with `unit`
  std::string unit;                // "B", "B/s", "FLOP", "FLOP/s", "µs", "%", "×", "MHz", "s", "registers"...
  std::string text;                // a figure that is not a number ("ceil_div(N, 256) = 4096", "yes")
  std::vector<std::string> lines;  // a long text shown line by line (the ptxas log)
  std::string missing;             // why there is no figure ("" when there is one)
  std::string source;              // where it comes from ("dram__bytes_read.sum", "ptxas", "timing samples")
  bool numeric() const { return value.has_value(); }
};

struct DetailGroup {
  std::string name;                // "Throughput"
  std::vector<DetailRow> rows;
};

// What a candidate's figures are measured against: its task's spec (launch
// geometry, task formulas) and the device ceilings (the roofs).
struct DetailsContext {
  std::optional<TaskSpec> spec;
  std::string specProblem;         // why there is no spec ("" when there is one)
  std::string device;              // the ceilings' device ("" when none is usable)
  std::vector<Ceiling> ceilings;   // that device's
  std::string ceilingProblem;      // why there are no roofs ("" when there are)
};

// The context from a task's stored spec text and the project's ceilings. The
// GPU a candidate ran on is not stored with it: the roofs are those of the
// one device the project has ceilings for, or of `preferredDevice` when
// several have; otherwise the percentages of roofs say why they are missing.
DetailsContext detailsContext(const std::string& specJson, const std::vector<Ceiling>& ceilings,
                              const std::string& preferredDevice = {});

// The groups, in Nsight Compute's order: Throughput, Compute, Occupancy,
// Launch, Compile, Timing, Validation, Other counters.
std::vector<DetailGroup> candidateDetails(const Candidate& c, const DetailsContext& context);

// The row with `key`, or nullptr.
const DetailRow* findDetail(const std::vector<DetailGroup>& groups, const std::string& key);

// A numeric figure against the same figure of a baseline.
struct FigureDifference {
  double absolute = 0;             // value - baseline, in the row's unit
  std::optional<double> percent;   // relative to the baseline; nullopt when the baseline is 0
};
// nullopt unless both rows hold a number in the same unit.
std::optional<FigureDifference> figureDifference(const DetailRow& row, const DetailRow& baseline);

// The spread of a candidate's timing samples: what the box of the timing plot
// draws. Quantiles interpolate linearly between order statistics, as the
// worker's interleaved timer computes the stored median and IQR
// (backends/cuda/worker/interleaved_timer.cpp), so the box's median is the
// stored median.
struct SampleSpread {
  std::size_t count = 0;
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0;
};
std::optional<SampleSpread> sampleSpread(std::vector<double> samplesUs);  // nullopt for no samples

}  // namespace crucible::views
