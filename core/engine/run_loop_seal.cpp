// SPDX-License-Identifier: GPL-3.0-or-later
// RunLoop's seal at the end of a run. The sanitizers take at most a share of
// a run's time (PipelineConfig::sanitizerShare), so a short run on a large
// task searches instead of waiting on compute-sanitizer, and a candidate
// that would have been sealed on the way may be left unsealed. Before the
// run is marked finished, its best candidate gets what it still lacks: the
// extended validation again (its binary is not kept, and a session killed
// before its end left only the stored candidate) and the sanitizers. A run
// that is stopped ends at once; its next session seals at its own end.
#include <algorithm>
#include <cstdio>
#include "core/engine/commit_outcome.h"
#include "core/engine/pipeline_items.h"
#include "core/engine/run_events.h"
#include "core/engine/run_loop.h"
#include "core/engine/unix_time.h"

namespace crucible::engine_detail {

namespace {

std::string speedupText(double speedup) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", speedup);
  return text;
}

}  // namespace

std::optional<Candidate> RunLoop::bestAwaitingSeal() {
  const ArchiveCell* best = archive_->best();
  if (!best || !sanitizer_ || evaluators_.empty()) return std::nullopt;
  const Candidate& c = candidateById(best->elite);
  // The reference (a seal's kernel in a run from it) and candidates under the bar need nothing.
  if (!deservesExtendedValidation(c.status, c.fitness, settings_.sealMargin, bestSealed_)) return std::nullopt;
  if (sealRefused(c)) return std::nullopt;   // its sanitizers objected once already
  // A seal made outside this loop (a user's kernel, sealed as it was stored) is not made twice.
  for (const Seal& s : store_.seals(task_.id))
    if (s.candidateId == c.id) return std::nullopt;
  return c;
}

void RunLoop::sealBestAtEnd() {
  std::optional<Candidate> best;
  try {
    best = bestAwaitingSeal();
  } catch (const std::exception& e) {
    log("warning", std::string("could not look for a candidate to seal at the end of the run: ") + e.what());
    return;
  }
  if (!best) return;
  const Candidate& c = *best;
  const std::string who = "candidate " + std::to_string(c.id);
  log("info", "sealing " + who + ", the run's best at " + speedupText(c.fitness) +
                  ": extended validation and sanitizers at the end of the run");
  send(events::SealingBest{counters(), c.id, c.fitness});
  PipelineResult r;
  try {
    r.compile = compiler_.compile(CompileRequest{c.source, c.launch.entry, compileArch_, {}});
    if (!r.compile.report.ok) {
      log("warning", who + " not sealed: it no longer compiles (" + firstError(r.compile.report) + ")");
      return;
    }
    // On the first evaluator's GPU (device 0), as the pipeline's first evaluator thread would.
    Evaluator& evaluator = *evaluators_.front();
    r.device = evaluator.device();
    const KernelBinary kernel{r.compile.cubin, c.launch};
    EvaluationRequest request;
    request.task = &task_;
    request.candidate = kernel;
    request.reference = KernelBinary{referenceCubin_, reference_.launch};
    runExtendedValidation(evaluator, request,
                          pipelineItemFor(c, nullptr, settings_, run_.seed, bestSealed_).extendedSeeds, r);
    if (!extendedValidationFailure(*r.extended, settings_.sealMargin)) runSanitizers(*sanitizer_, task_, kernel, 0, r);
  } catch (const std::exception& e) {
    log("warning", who + " not sealed: the seal at the end of the run failed: " + e.what());
    return;
  }
  const double gpuSeconds = r.extended->gpuSeconds + (r.sanitizer ? r.sanitizer->seconds : 0);
  endSeal_.extendedSeconds += r.extendedSeconds;
  endSeal_.sanitizeSeconds += r.sanitizeSeconds;
  endSeal_.gpuSeconds += gpuSeconds;

  CommitOutcome o;
  o.candidate = c;
  decideSeal(o, r, OutcomeRules{task_.id, run_.id, settings_.sealMargin, referenceMedianUs_, bestSealed_, unixSeconds()});
  const bool failedAtTheEnd = o.demotion.has_value();
  if (failedAtTheEnd) {
    // Its first extended validation, or a repeat of one it passed (then its
    // results change from run to run). It is in the run's archive, which
    // cannot drop an elite, so it is not demoted here: its detail and a
    // warning in the log say that it failed and has no seal.
    o.sealNote = "its extended validation at the end of the run failed: " + o.demotion->detail;
    o.candidate = c;
    o.candidate.statusDetail += (c.statusDetail.empty() ? "" : "; ") + std::string(kNotSealed) + o.sealNote;
    o.demotion.reset();
  }
  store_.transaction([&] {
    // Its detail changes with a refusal (sanitizers, or the failure above).
    if (o.candidate.statusDetail != c.statusDetail) store_.updateCandidate(o.candidate);
    if (o.seal) {
      o.seal->id = store_.addSeal(*o.seal);
      bestSealed_ = o.seal->speedup;
    }
    run_.gpuSecondsUsed += gpuSeconds;
    store_.updateRun(run_);
  });
  cache_.erase(c.id);
  for (const LogMessage& line : sealLog(o, r)) log(failedAtTheEnd ? "warning" : line.level, line.text);
  if (o.seal) send(events::Sealed{counters(), c.id, o.seal->speedup});
}

}  // namespace crucible::engine_detail
