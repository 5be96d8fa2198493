// SPDX-License-Identifier: GPL-3.0-or-later
// The seal policy: a Valid candidate that beats the run's reference by the
// margin (and any kernel this run already sealed) gets an extended validation
// (more seeds). If that finds it incorrect, the candidate is demoted; if it
// passes and still shows the speedup, the sanitizers run; only when they ran
// clean is it sealed, with its validation and performance reports, the
// sanitizers' summary and the evaluator's fingerprint.
#pragma once
#include <optional>
#include <string>
#include "core/engine/interfaces.h"
#include "core/model/candidate.h"
#include "core/model/seal.h"

namespace crucible {

// True when a candidate with this status and fitness (speedup vs the run's
// reference) earns an extended validation. bestSealedSpeedup: the best seal
// this run made so far (0 = none); a new seal must beat it by the margin too.
bool deservesExtendedValidation(CandidateStatus status, double fitness, double margin, double bestSealedSpeedup);

// Why an extended validation does not allow a seal (a failed trial, no
// timing, the speedup gone under the margin), or nullopt when it passed.
std::optional<std::string> extendedValidationFailure(const Evaluation& extended, double margin);

// A candidate that the extended validation found incorrect loses its status
// and fitness: what it is demoted to, and why.
struct Demotion {
  CandidateStatus status = CandidateStatus::Invalid;   // Invalid, Faulted, TimedOut or ResourceError
  std::string detail;                                  // "extended validation at seal time failed: ..."
};

// nullopt when the extended validation found nothing wrong with the
// candidate's results (a speedup under the margin, or no timing, only means
// "not sealed"); else the demotion its failure earns.
std::optional<Demotion> demotionFor(const Evaluation& extended);

// Applies a demotion: status, detail, fitness 0, and the extended trials
// appended to the candidate's validation so the failing seed is on record.
void demote(Candidate& candidate, const Demotion& demotion, const Evaluation& extended);

// Why the sanitizers do not allow a seal, in words for the log and the
// candidate ("racecheck found 3 hazards: ..."), or nullopt when they ran
// clean. nullptr (no sanitizer configured) always refuses.
std::optional<std::string> sanitizerRefusal(const SanitizerReport* report);

// The speedup a timing shows against the reference timed with it; falls back
// to referenceMedianUs when the timing has no interleaved reference. 0 when
// nothing usable was measured.
double speedupOf(const Timing& timing, double referenceMedianUs);

// The seal of a candidate whose extended validation passed; `sanitizer` (its
// clean report) goes into the validation report.
Seal makeSeal(TaskId task, RunId run, const Candidate& candidate, const Evaluation& extended,
              const Fingerprint& device, double referenceMedianUs, std::int64_t sealedAt,
              const SanitizerReport* sanitizer = nullptr);

}  // namespace crucible
