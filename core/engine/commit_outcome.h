// SPDX-License-Identifier: GPL-3.0-or-later
// What one pipeline result makes of its candidate before it is committed:
// its final status, detail, reports and fitness, the GPU time it held, and
// the seal decision (sealed, demoted by the extended validation, or not
// sealed and why). Pure: the run loop writes the outcome to the store and
// sends its events and log lines. Internal to core/engine.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "core/engine/batch_pipeline.h"
#include "core/engine/seal_policy.h"

namespace crucible::engine_detail {

struct OutcomeRules {
  TaskId task = 0;
  RunId run = 0;
  double sealMargin = 0;
  double referenceMedianUs = 0;
  double bestSealedSpeedup = 0;   // the run's best seal before this commit (0 = none)
  std::int64_t now = 0;           // unix seconds, the seal's time
};

struct CommitOutcome {
  Candidate candidate;              // with its final status, reports and fitness
  double gpuSeconds = 0;            // evaluation, extended validation and sanitizers
  std::optional<Seal> seal;         // earned a seal
  std::optional<Demotion> demotion; // the extended validation found it incorrect
  std::string sealNote;             // validated further but not sealed: why
};

CommitOutcome outcomeOf(const Candidate& candidate, const PipelineResult& r, const OutcomeRules& rules);

// The seal decision once r.extended (and r.sanitizer, unless deferred) ran:
// sets o's demotion (and demotes o.candidate), seal or sealNote. outcomeOf
// calls it; so does the seal of a run's best at its end (run_loop_seal.cpp).
void decideSeal(CommitOutcome& o, const PipelineResult& r, const OutcomeRules& rules);

// What a candidate's status detail carries when its sanitizers refused its
// seal: trying again would only repeat them.
inline constexpr const char* kNotSealed = "not sealed: ";
bool sealRefused(const Candidate& c);

struct LogMessage {
  std::string level;
  std::string text;
};
// What the run's log says about an outcome's seal decision (nothing when the
// candidate was not considered for a seal).
std::vector<LogMessage> sealLog(const CommitOutcome& outcome, const PipelineResult& r);

// The first error of a failed compile, for the candidate's status detail.
std::string firstError(const CompileReport& report);

}  // namespace crucible::engine_detail
