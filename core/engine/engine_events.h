// SPDX-License-Identifier: GPL-3.0-or-later
// What the engine tells its front ends (GUI, CLI progress, tests): a closed
// set of typed events, one struct per kind holding only what that kind
// means, combined in a std::variant. Visit it with Overloaded (overloaded.h)
// and one lambda per kind where every kind must be handled, so that a new
// kind does not compile until each such front end says what it does with it.
// Plain C++ (no Qt): the GUI copies events across threads.
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include "core/engine/phase_times.h"
#include "core/model/candidate.h"
#include "core/model/ids.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"

namespace crucible {

// The run's counters when an event was made.
struct RunCounters {
  std::int64_t evaluationsDone = 0;
  Budget budget;
  double bestSpeedup = 0;
  double elapsedSeconds = 0;   // wall time used by the run (all sessions)
  double gpuSeconds = 0;       // GPU time used by the run (all sessions)
  int generation = 0;          // the last generation made (0 before the first)
};

namespace events {

struct RunStarted {
  static constexpr const char* kName = "run-started";
  RunCounters counters;
};

// A candidate was stored (Proposed, AwaitingReview, or, for a failed proposal
// the proposer asked to keep, the failure status it gave).
struct CandidateProposed {
  static constexpr const char* kName = "candidate-proposed";
  RunCounters counters;
  CandidateId candidate = 0;
  int generation = 0;              // the candidate's
  std::string architectureKey;
  CandidateStatus status = CandidateStatus::Proposed;
  std::string mutation;            // how it was made ("seed", "mutate", ...)
};

// A new architecture waits for a human verdict (gated runs).
struct AwaitingReview {
  static constexpr const char* kName = "awaiting-review";
  RunCounters counters;
  CandidateId candidate = 0;
  int generation = 0;              // the candidate's
  std::string architectureKey;
};

// Made on compile threads, which must not read the run's counters while the
// committing thread updates them: it carries none.
struct CandidateCompiled {
  static constexpr const char* kName = "candidate-compiled";
  CandidateId candidate = 0;
  int generation = 0;              // the candidate's
  std::string architectureKey;
  CandidateStatus status = CandidateStatus::Compiled;   // Compiled or CompileFailed
};

// A candidate reached its final status (an evaluation of the budget).
struct CandidateEvaluated {
  static constexpr const char* kName = "candidate-evaluated";
  RunCounters counters;
  CandidateId candidate = 0;
  int generation = 0;              // the candidate's
  std::string architectureKey;
  CandidateStatus status = CandidateStatus::Valid;
  double fitness = 0;
  std::string detail;              // the candidate's status detail
};

// A cell of the archive got a better elite (or was filled for the first time).
struct EliteImproved {
  static constexpr const char* kName = "elite-improved";
  RunCounters counters;            // generation: the run's (the cell changed now)
  CandidateId candidate = 0;       // the new elite
  std::string architectureKey;
  double fitness = 0;
  std::string cellKey;
  bool newCell = false;            // false: it replaced a worse elite
};

struct Sealed {
  static constexpr const char* kName = "sealed";
  RunCounters counters;
  CandidateId candidate = 0;
  double speedup = 0;
};

// The run's search is over and its best candidate, whose seal was deferred
// (or never tried in an interrupted session), gets its extended validation
// and sanitizers: seconds to minutes before RunFinished (run_loop_seal.cpp).
struct SealingBest {
  static constexpr const char* kName = "sealing-best";
  RunCounters counters;
  CandidateId candidate = 0;
  double fitness = 0;              // its speedup as the run measured it
};

struct KnowledgeUpdated {
  static constexpr const char* kName = "knowledge-updated";
  RunCounters counters;
  CandidateId candidate = 0;       // the child whose result changed the entry
  KnowledgeStatus status = KnowledgeStatus::Hypothesis;
  std::string claim;
};

// A line of the run's log (also stored in the project).
struct Log {
  static constexpr const char* kName = "log";
  RunCounters counters;
  std::string level;               // "info" | "warning" | "error"
  std::string text;
};

// The counters changed (a result was committed, the budget was changed).
struct Progress {
  static constexpr const char* kName = "progress";
  RunCounters counters;
};

struct RunPaused {
  static constexpr const char* kName = "run-paused";
  RunCounters counters;
};

struct RunResumed {
  static constexpr const char* kName = "run-resumed";
  RunCounters counters;
};

// Stopped on request; the run can be resumed.
struct RunStopped {
  static constexpr const char* kName = "run-stopped";
  RunCounters counters;
  PhaseTimes phases;               // where this session's wall time went (phase_times.h)
};

struct RunFinished {
  static constexpr const char* kName = "run-finished";
  RunCounters counters;
  std::string reason;              // which limit was reached
  PhaseTimes phases;               // where this session's wall time went (phase_times.h)
};

struct RunFailed {
  static constexpr const char* kName = "run-failed";
  RunCounters counters;
  std::string reason;
  PhaseTimes phases;               // where this session's wall time went (phase_times.h)
};

}  // namespace events

using EngineEventKind =
    std::variant<events::RunStarted, events::CandidateProposed, events::AwaitingReview, events::CandidateCompiled,
                 events::CandidateEvaluated, events::EliteImproved, events::Sealed, events::SealingBest,
                 events::KnowledgeUpdated,
                 events::Log, events::Progress, events::RunPaused, events::RunResumed, events::RunStopped,
                 events::RunFinished, events::RunFailed>;

struct EngineEvent {
  RunId run = 0;
  EngineEventKind what;   // what happened, with what that kind carries
};

// The kind's name, as the CLI prints it ("run-started", "candidate-evaluated", ...).
const char* kindName(const EngineEvent& event);
const char* kindName(const EngineEventKind& kind);

// The run's counters the event carries; nullptr for CandidateCompiled.
const RunCounters* countersOf(const EngineEvent& event);

// The event's payload when it is of kind K, else nullptr.
template <class K>
const K* as(const EngineEvent& event) {
  return std::get_if<K>(&event.what);
}
template <class K>
bool is(const EngineEvent& event) {
  return std::holds_alternative<K>(event.what);
}

}  // namespace crucible
