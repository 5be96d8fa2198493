// SPDX-License-Identifier: GPL-3.0-or-later
// The seal policy: a Valid candidate that beats the run's reference by the
// margin (and any kernel this run already sealed) gets an extended validation
// (more seeds); if that passes and still shows the speedup, it is sealed with
// its validation and performance reports and the evaluator's fingerprint.
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

// The speedup a timing shows against the reference timed with it; falls back
// to referenceMedianUs when the timing has no interleaved reference. 0 when
// nothing usable was measured.
double speedupOf(const Timing& timing, double referenceMedianUs);

// The seal of a candidate whose extended validation passed.
Seal makeSeal(TaskId task, RunId run, const Candidate& candidate, const Evaluation& extended,
              const Fingerprint& device, double referenceMedianUs, std::int64_t sealedAt);

}  // namespace crucible
