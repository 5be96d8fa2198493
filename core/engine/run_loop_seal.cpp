// SPDX-License-Identifier: GPL-3.0-or-later
// RunLoop's seal at the end of a run. The sanitizers take at most a share of
// a run's time (PipelineConfig::sanitizerShare), so a short run on a large
// task searches instead of waiting on compute-sanitizer, and a candidate
// that would have been sealed on the way may be left unsealed. Before the
// run is marked finished, its best candidate gets what it still lacks: the
// extended validation again (its binary is not kept, and a session killed
// before its end left only the stored candidate) and the sanitizers. A best
// that fails the extended validation now is demoted, and the next best is
// tried (kEndSealAttempts). A run that is stopped ends at once; its next
// session seals at its own end.
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
  for (int attempt = 0; attempt < kEndSealAttempts; ++attempt) {
    std::optional<Candidate> best;
    try {
      best = bestAwaitingSeal();
    } catch (const std::exception& e) {
      log("warning", std::string("could not look for a candidate to seal at the end of the run: ") + e.what());
      return;
    }
    if (!best || !sealAtEnd(*best)) return;
  }
  // Each of those bests passed an extended validation while the run searched
  // and failed it here: the kernels' results change from run to run. The
  // next one is left as it is, unsealed, rather than lengthening the wait.
  try {
    if (std::optional<Candidate> next = bestAwaitingSeal())
      log("warning", "candidate " + std::to_string(next->id) + ", now the run's best at " +
                         speedupText(next->fitness) + ", is not sealed: the " + std::to_string(kEndSealAttempts) +
                         " bests before it failed their extended validation at the end of the run");
  } catch (const std::exception&) {
    // Nothing more to say than the lines above.
  }
}

bool RunLoop::sealAtEnd(const Candidate& c) {
  const std::string who = "candidate " + std::to_string(c.id);
  log("info", "sealing " + who + ", the run's best at " + speedupText(c.fitness) +
                  ": extended validation and sanitizers at the end of the run");
  send(events::SealingBest{counters(), c.id, c.fitness});
  PipelineResult r;
  try {
    r.compile = compiler_.compile(CompileRequest{c.source, c.launch.entry, compileArch_, {}});
    if (!r.compile.report.ok) {
      log("warning", who + " not sealed: it no longer compiles (" + firstError(r.compile.report) + ")");
      return false;
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
    return false;
  }
  const double gpuSeconds = r.extended->gpuSeconds + (r.sanitizer ? r.sanitizer->seconds : 0);
  endSeal_.extendedSeconds += r.extendedSeconds;
  endSeal_.sanitizeSeconds += r.sanitizeSeconds;
  endSeal_.gpuSeconds += gpuSeconds;

  CommitOutcome o;
  o.candidate = c;
  decideSeal(o, r, OutcomeRules{task_.id, run_.id, settings_.sealMargin, referenceMedianUs_, bestSealed_, unixSeconds()});
  // A demotion here is rarer than in the pipeline: the candidate passed an
  // extended validation when it was measured (a best always earned one) and
  // fails this one, so its results change from run to run. It is demoted as
  // the pipeline demotes, and since it was committed long ago it also leaves
  // the archive it had entered.
  std::string cellFate;
  store_.transaction([&] {
    // Its detail changes with a refusal (sanitizers), its status with a demotion.
    if (o.candidate.statusDetail != c.statusDetail || o.demotion) store_.updateCandidate(o.candidate);
    if (o.demotion) cellFate = dropFromArchive(c);
    if (o.seal) {
      o.seal->id = store_.addSeal(*o.seal);
      bestSealed_ = o.seal->speedup;
    }
    run_.gpuSecondsUsed += gpuSeconds;
    store_.updateRun(run_);
  });
  cache_.erase(c.id);
  if (o.demotion) {
    log("warning", who + " demoted to " + toString(o.candidate.status) + " at the end of the run, not sealed: " +
                       o.candidate.statusDetail + "; " + cellFate);
    return true;
  }
  for (const LogMessage& line : sealLog(o, r)) log(line.level, line.text);
  if (o.seal) send(events::Sealed{counters(), c.id, o.seal->speedup});
  return false;
}

std::string RunLoop::dropFromArchive(const Candidate& demoted) {
  // Migration copies an island's best to the next island under the same key,
  // so the demoted candidate may hold a cell on several islands, all of one
  // key. Each passes to the best other valid candidate of the run measured
  // with that key: the elite the cell would have kept. Candidates do not
  // record their island, and migration shares elites between islands anyway,
  // so one runner-up serves every island.
  const ArchiveCell* held = archive_->cellOf(demoted.id);
  if (!held) return "it held no archive cell";
  const std::string key = held->key;
  std::vector<CandidateSummary> valid;
  for (CandidateSummary& s : store_.candidateSummaries(run_.id))
    if (s.status == CandidateStatus::Valid && s.fitness > 0 && s.id != demoted.id) valid.push_back(std::move(s));
  std::stable_sort(valid.begin(), valid.end(),
                   [](const CandidateSummary& a, const CandidateSummary& b) { return a.fitness > b.fitness; });
  std::optional<CandidateSummary> next;
  for (const CandidateSummary& s : valid)
    if (const std::optional<Candidate> full = store_.candidate(s.id); full && keyOf(*full) == key) {
      next = s;
      break;
    }
  std::string fates;
  while (ArchiveCell* cell = archive_->cellOf(demoted.id)) {
    std::string fate =
        archive_->islands() > 1 ? "its archive cell on island " + std::to_string(cell->island) : "its archive cell";
    if (next) {
      cell->elite = next->id;
      cell->fitness = next->fitness;
      store_.putArchiveCell(*cell);
      fate += " passes to candidate " + std::to_string(next->id) + " (" + speedupText(next->fitness) + ")";
    } else {
      const int island = cell->island;
      const std::string cellKey = cell->key;   // erase() frees the cell
      archive_->erase(island, cellKey);
      store_.removeArchiveCell(run_.id, island, cellKey);
      fate += " is empty now";
    }
    fates += (fates.empty() ? "" : "; ") + fate;
  }
  const ArchiveCell* best = archive_->best();
  run_.bestSpeedup = best ? best->fitness : 0;
  return fates;
}

}  // namespace crucible::engine_detail
