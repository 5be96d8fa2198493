// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the events of engine_events.h from the run's state: its counters,
// and what each candidate event says about its candidate. Events without a
// candidate (Log, Progress, RunFinished, ...) are made where they happen.
// Internal to core/engine.
#pragma once
#include <string>
#include "core/engine/archive.h"
#include "core/engine/engine_events.h"
#include "core/engine/interfaces.h"
#include "core/model/knowledge.h"

namespace crucible::engine_detail {

// The run's counters; generation is the last generation made (0 before the first).
RunCounters runCounters(const Run& run, double elapsedSeconds, int lastGeneration);

events::CandidateProposed proposedEvent(const RunCounters& counters, const Candidate& c);
events::AwaitingReview awaitingReviewEvent(const RunCounters& counters, const Candidate& c);
events::CandidateEvaluated evaluatedEvent(const RunCounters& counters, const Candidate& c);
events::EliteImproved eliteImprovedEvent(const RunCounters& counters, const Candidate& c, Placement placement,
                                         const std::string& cellKey);
events::KnowledgeUpdated knowledgeEvent(const RunCounters& counters, CandidateId child, const KnowledgeEntry& entry);

// Made on compile threads, which must not read the run's counters while the
// committing thread updates them: it carries none.
events::CandidateCompiled compiledEvent(const Candidate& c, const CompileResult& r);

}  // namespace crucible::engine_detail
