// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/commit_outcome.h"

#include <algorithm>
#include "core/io/utf8_text.h"

namespace crucible::engine_detail {

std::string firstError(const CompileReport& report) {
  for (const auto& d : report.diagnostics)
    if (d.severity == "error")
      return "line " + std::to_string(d.line) + ": " + d.message;
  if (!report.log.empty()) return utf8Prefix(report.log, 400);
  return "compilation failed without a diagnostic";
}

CommitOutcome outcomeOf(const Candidate& candidate, const PipelineResult& r, const OutcomeRules& rules) {
  CommitOutcome o;
  Candidate& c = o.candidate;
  c = candidate;
  c.compile = r.compile.report;
  if (!r.compile.report.ok || !r.evaluation) {
    c.status = CandidateStatus::CompileFailed;
    c.statusDetail = firstError(r.compile.report);
    c.fitness = 0;
  } else {
    const Evaluation& e = *r.evaluation;
    o.gpuSeconds += e.gpuSeconds;
    c.status = e.status;
    c.statusDetail = e.detail;
    c.validation = e.trials;
    c.timing = e.timing;
    c.fitness = r.fitness;
    if (c.status == CandidateStatus::Valid && r.fitness <= 0)
      c.statusDetail += r.speedupRefusal.empty() ? " (valid but not timed: fitness 0)"
                                                 : " (valid, but " + r.speedupRefusal + ": fitness 0)";
    if (r.profile && r.profile->permitted) c.profile = r.profile->metrics;
  }
  if (r.extended) o.gpuSeconds += r.extended->gpuSeconds;
  if (r.sanitizer) o.gpuSeconds += r.sanitizer->seconds;   // the GPU was held for the tools

  // Extended validation runs in this candidate's own pipeline item, before its
  // first commit: a demoted candidate never reached the archive, the run's best
  // or parent selection, so demoting it here is all there is to undo.
  if (r.extended) decideSeal(o, r, rules);
  return o;
}

bool sealRefused(const Candidate& c) { return c.statusDetail.find(kNotSealed) != std::string::npos; }

void decideSeal(CommitOutcome& o, const PipelineResult& r, const OutcomeRules& rules) {
  Candidate& c = o.candidate;
  o.demotion = demotionFor(*r.extended);
  if (o.demotion) {
    demote(c, *o.demotion, *r.extended);
  } else if (auto why = extendedValidationFailure(*r.extended, rules.sealMargin)) {
    o.sealNote = *why;
  } else if (!r.sanitizeDeferred.empty()) {
    // Not a refusal: the candidate's detail stays as it is, and the run seals its best when it ends.
    o.sealNote = r.sanitizeDeferred;
  } else if (auto refused = sanitizerRefusal(r.sanitizer ? &*r.sanitizer : nullptr)) {
    o.sealNote = *refused;
    c.statusDetail += (c.statusDetail.empty() ? "" : "; ") + std::string(kNotSealed) + o.sealNote;
  } else {
    // sanitizerRefusal refuses a missing report, so r.sanitizer is present here.
    // The seal's figures are the extended validation's: so is its fingerprint (on a
    // cluster that job may have run on another node than the first evaluation).
    const Fingerprint& measuredOn =
        r.extended->timing && recorded(r.extended->timing->device) ? r.extended->timing->device : r.device;
    Seal s = makeSeal(rules.task, rules.run, c, *r.extended, measuredOn, rules.referenceMedianUs, rules.now,
                      &*r.sanitizer);
    // The pipeline's bar was the best seal when the generation started; an
    // earlier commit of this batch may have raised it since.
    if (s.speedup >= (1.0 + rules.sealMargin) * std::max(1.0, rules.bestSealedSpeedup))
      o.seal = s;
    else
      o.sealNote = "a better seal was made earlier in this batch";
  }
}

std::vector<LogMessage> sealLog(const CommitOutcome& o, const PipelineResult& r) {
  const Candidate& c = o.candidate;
  std::string who = "candidate " + std::to_string(c.id);
  if (o.seal)
    return {{"info", "sealed " + who + ": " + std::to_string(o.seal->speedup) +
                         "x faster than the reference, extended validation passed"}};
  if (o.demotion) return {{"warning", who + " demoted to " + toString(c.status) + ": " + c.statusDetail}};
  if (o.sealNote.empty()) return {};
  bool dirty = r.sanitizer && !r.sanitizer->clean;
  std::vector<LogMessage> lines{{dirty ? "warning" : "info", who + " not sealed: " + o.sealNote}};
  if (dirty && !r.sanitizer->log.empty())
    lines.push_back({"info", "sanitizer report of " + who + ":\n" + utf8Prefix(r.sanitizer->log, 8192)});
  return lines;
}

}  // namespace crucible::engine_detail
