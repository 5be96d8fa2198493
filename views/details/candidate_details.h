// SPDX-License-Identifier: GPL-3.0-or-later
// What the candidate details view and the comparison show, pure (no Qt): one
// stored candidate turned into groups of figures modelled on Nsight Compute's
// Details page (throughput, compute, occupancy, launch, compile, timing,
// validation, and every other counter the profile holds). Only figures the
// project holds are given; a figure that cannot be given says why (`missing`).
// The text of a figure is the views' (views/details/figure_text.h), so the
// details view and the comparison cannot show one figure two ways.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/task/task_spec.h"

namespace crucible::views {

// Why a row has no figure: a kind and its particulars. The core stays
// Qt-free and says no words; the views phrase it in the user's language
// (views/details/detail_notes.h).
enum class MissingKind {
  None,
  NotProfiled,             // the candidate has no profile
  ProfileLacks,            // name: the counter
  ProfileLacksEither,      // name, other: the two counters (read or written)
  NoSassFlopCounters,      // the profile lacks the SASS fadd/fmul/ffma counters
  NoTensorPathCounters,    // the profile has no bf16/fp16 tensor-path counters
  NotTimed,
  NoCeilings,              // no ceilings measured in the project
  SeveralGpus,             // ceilings of several GPUs and the candidate's is not stored
  NoCeilingOnDevice,       // name: the ceiling, other: the device
  SpecNotStored,
  SpecDoesNotParse,        // detail: the parser's error
  FormulaDoesNotEvaluate,  // name: the formula ("flops", "minBytes"), detail: the error
  NoFormula,               // name: the formula
  BlockDoesNotEvaluate,    // detail: the error
  DimsDoNotEvaluate,       // detail: the error (grid or block at the task's axes)
  ExpressionDoesNotEvaluate,  // name: the expression, detail: the error
  NotCompiled,
  CompileFailed,
  NotCompiledNoDescriptor,
  NotRecorded,
  NoCompileLog,
  NoneRecorded,
  NoTimingSamples,
  NoReferenceTimed,
  ClockNotRead,
  NotValidated,
  LimiterNotStored,        // the profile holds occupancy, not which resource limits it
  Roofline,                // detail: the roofline's reason (core/model/roofline_point.h), in its words
};
struct Missing {
  MissingKind kind = MissingKind::None;
  std::string name, other, detail;
  bool empty() const { return kind == MissingKind::None; }
  bool operator==(const Missing&) const = default;
};

// A figure that is not a number. Verbatim ones ("4096 × 1 × 1", "sm_90a", an
// entry's name) are shown as `text`; the others are words the views phrase.
enum class TextKind {
  Verbatim,
  Yes,
  No,
  NoLimiter,      // none (100 % theoretical)
  TaskEntry,      // (the task's entry)
  Compiled,
  CompileFailed,
  Diagnostics,    // counts: errors, warnings
  LogLines,       // counts: the log's lines
  Trial,          // trial: the validation trial
};

// Where a figure comes from, phrased by the views.
enum class SourceKind {
  None,
  Named,                  // name: a counter or a tool ("dram__bytes_read.sum", "ptxas", "NVRTC")
  ReadPlusWritten,
  PerMedianTime,          // name, other: the amount's key and label
  OfCeilingOnDevice,      // name: the ceiling, other: the device
  TaskFormula,            // name: the formula
  SassFlops,
  TensorUseEvidence,
  TaskIntensity,
  SassIntensity,
  LaunchRule,
  LaunchRuleExpression,   // name: the expression
  LaunchRuleAtAxes,       // name: the rule, other: the axes
  LaunchRuleProblem,      // name: the rule, other: why it does not evaluate
  Grid,
  Block,
  GridTimesBlock,
  BlockOverWarp,
  NvrtcPtxas,
  NvrtcLog,
  PtxFeatures,
  StoredWithTiming,
  IqrOverMedian,
  TimingSamples,
  ReferenceOverMedian,
  ReferenceSameWorker,
  ReadWhileTiming,
  Validation,
  OverTrials,
  SummedOverTrials,
  ProfileCounter,
};
struct Source {
  SourceKind kind = SourceKind::None;
  std::string name, other;
  bool empty() const { return kind == SourceKind::None; }
  bool operator==(const Source&) const = default;
};

struct DetailRow {
  std::string key;                 // stable across candidates ("throughput.dram_bytes"), for differences
  std::string label;               // "DRAM bytes" (English; the views show detailLabel(key, label))
  std::optional<double> value;     // a number, with `unit`
  std::string unit;                // "B", "B/s", "FLOP", "FLOP/s", "µs", "%", "×", "MHz", "s", "registers"...
  TextKind textKind = TextKind::Verbatim;  // a figure that is not a number
  std::string text;                // TextKind::Verbatim: the figure ("ceil_div(N, 256) = 4096", "sm_90a")
  std::vector<std::int64_t> counts;          // TextKind::Diagnostics, LogLines: the numbers
  std::optional<ValidationTrial> trial;      // TextKind::Trial
  std::vector<std::string> lines;  // a long text shown line by line (the ptxas log)
  std::size_t linesNotShown = 0;   // lines of that text left out (the views say how many)
  Missing missing;                 // why there is no figure (empty when there is one)
  Source source;                   // where it comes from
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
  Missing specProblem;             // why there is no spec (empty when there is one)
  std::string device;              // the ceilings' device ("" when none is usable)
  std::vector<Ceiling> ceilings;   // that device's
  Missing ceilingProblem;          // why there are no roofs (empty when there are)
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
