// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/detail_notes.h"

#include "views/common/locale_numbers.h"
#include "views/details/detail_labels.h"
#include "views/roofline/roofline_labels.h"

namespace crucible::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QString DetailNotes::missing(const Missing& m) {
  switch (m.kind) {
    case MissingKind::None: return {};
    case MissingKind::NotProfiled: return tr("not profiled");
    case MissingKind::ProfileLacks: return tr("the profile lacks %1").arg(q(m.name));
    case MissingKind::ProfileLacksEither: return tr("the profile lacks %1 or %2").arg(q(m.name), q(m.other));
    case MissingKind::NoSassFlopCounters: return tr("the profile lacks the SASS fadd/fmul/ffma counters");
    case MissingKind::NoTensorPathCounters: return tr("not stored: the profile has no bf16/fp16 tensor-path counters");
    case MissingKind::NotTimed: return tr("not timed");
    case MissingKind::NoCeilings: return tr("no ceilings measured in this project");
    case MissingKind::SeveralGpus:
      return tr("ceilings of several GPUs are stored and the GPU this candidate ran on is not");
    case MissingKind::NoCeilingOnDevice: return tr("no %1 ceiling measured on %2").arg(q(m.name), q(m.other));
    case MissingKind::SpecNotStored: return tr("the task's spec is not stored");
    case MissingKind::SpecDoesNotParse: return tr("the task's spec does not parse: %1").arg(q(m.detail));
    case MissingKind::FormulaDoesNotEvaluate:
      return tr("the task's %1 formula does not evaluate: %2").arg(q(m.name), q(m.detail));
    case MissingKind::NoFormula: return tr("the task has no %1 formula").arg(q(m.name));
    case MissingKind::BlockDoesNotEvaluate: return tr("the block size does not evaluate: %1").arg(q(m.detail));
    case MissingKind::DimsDoNotEvaluate: return tr("does not evaluate at the task's axes: %1").arg(q(m.detail));
    case MissingKind::ExpressionDoesNotEvaluate: return tr("%1 does not evaluate: %2").arg(q(m.name), q(m.detail));
    case MissingKind::NotCompiled: return tr("not compiled");
    case MissingKind::CompileFailed: return tr("the compile failed");
    case MissingKind::NotCompiledNoDescriptor: return tr("not compiled and no descriptor");
    case MissingKind::NotRecorded: return tr("not recorded");
    case MissingKind::NoCompileLog: return tr("the compile report has no log");
    case MissingKind::NoneRecorded: return tr("none recorded");
    case MissingKind::NoTimingSamples: return tr("no timing samples stored");
    case MissingKind::NoReferenceTimed: return tr("no reference timed beside it");
    case MissingKind::ClockNotRead: return tr("not read while timing");
    case MissingKind::NotValidated: return tr("not validated");
    case MissingKind::LimiterNotStored:
      return tr("not stored: the profile holds the theoretical occupancy and blocks per SM, not which resource "
                "(registers, shared memory, block size) limits them");
    case MissingKind::Roofline: return RooflineReasons::of(m.detail);
  }
  return {};
}

QString DetailNotes::source(const Source& s) {
  switch (s.kind) {
    case SourceKind::None: return {};
    case SourceKind::Named: return q(s.name);
    case SourceKind::ReadPlusWritten: return tr("read + written");
    case SourceKind::PerMedianTime: return tr("%1 / median time").arg(detailLabel(s.name, s.other));
    case SourceKind::OfCeilingOnDevice: return tr("of %1 measured on %2").arg(q(s.name), q(s.other));
    case SourceKind::TaskFormula: return tr("the task's %1 formula").arg(q(s.name));
    case SourceKind::SassFlops: return tr("SASS fadd + fmul + 2 × ffma");
    case SourceKind::TensorUseEvidence: return tr("mma/wgmma in the PTX features, or the descriptor");
    case SourceKind::TaskIntensity: return tr("task FLOPs / DRAM bytes (roofline)");
    case SourceKind::SassIntensity: return tr("SASS FLOPs / DRAM bytes (roofline)");
    case SourceKind::LaunchRule: return tr("launch rule");
    case SourceKind::LaunchRuleExpression: return tr("launch rule: %1").arg(q(s.name));
    case SourceKind::LaunchRuleAtAxes: return tr("launch rule %1 at %2").arg(q(s.name), q(s.other));
    case SourceKind::LaunchRuleProblem:
      return tr("launch rule %1 (does not evaluate at the task's axes: %2)").arg(q(s.name), q(s.other));
    case SourceKind::Grid: return tr("grid");
    case SourceKind::Block: return tr("block");
    case SourceKind::GridTimesBlock: return tr("grid × block");
    case SourceKind::BlockOverWarp: return tr("block size / 32");
    case SourceKind::NvrtcPtxas: return tr("NVRTC + ptxas");
    case SourceKind::NvrtcLog: return tr("NVRTC log");
    case SourceKind::PtxFeatures: return tr("PTX features");
    case SourceKind::StoredWithTiming: return tr("stored with the timing");
    case SourceKind::IqrOverMedian: return tr("IQR / median");
    case SourceKind::TimingSamples: return tr("timing samples");
    case SourceKind::ReferenceOverMedian: return tr("reference median / median");
    case SourceKind::ReferenceSameWorker: return tr("the reference timed in the same worker");
    case SourceKind::ReadWhileTiming: return tr("read while timing");
    case SourceKind::Validation: return tr("validation");
    case SourceKind::OverTrials: return tr("over the trials");
    case SourceKind::SummedOverTrials: return tr("summed over the trials");
    case SourceKind::ProfileCounter: return tr("profile counter");
  }
  return {};
}

QString DetailNotes::text(const DetailRow& row) {
  const auto count = [&row](std::size_t i) { return static_cast<int>(i < row.counts.size() ? row.counts[i] : 0); };
  switch (row.textKind) {
    case TextKind::Verbatim: return q(row.text);
    case TextKind::Yes: return detailText("yes");
    case TextKind::No: return detailText("no");
    case TextKind::NoLimiter: return tr("none (100 % theoretical)");
    case TextKind::TaskEntry: return tr("(the task's entry)");
    case TextKind::Compiled: return tr("compiled");
    case TextKind::CompileFailed: return tr("failed");
    case TextKind::Diagnostics:
      return tr("%n error(s)", nullptr, count(0)) + tr(", ") + tr("%n warning(s)", nullptr, count(1));
    case TextKind::LogLines: return tr("%n line(s)", nullptr, count(0));
    case TextKind::Trial: {
      if (!row.trial) return {};
      const ValidationTrial& t = *row.trial;
      QString text = (t.passed ? tr("seed %1: passed, max abs error %2, max rel error %3")
                               : tr("seed %1: failed, max abs error %2, max rel error %3"))
                         .arg(QString::number(t.seed), localNumber(t.maxAbsError), localNumber(t.maxRelError));
      if (t.mismatches) text += tr(", ") + tr("%n mismatched", nullptr, static_cast<int>(t.mismatches));
      // What failed is the evaluator's own account (a count of unwritten elements...), shown as it is.
      if (!t.reason.empty()) text += tr(" (%1)").arg(q(t.reason));
      return text;
    }
  }
  return {};
}

QString DetailNotes::linesNotShown(std::size_t count) {
  return tr("… %n more line(s) not shown", nullptr, static_cast<int>(count));
}

}  // namespace crucible::views
