// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/engine_events.h"

#include "core/engine/overloaded.h"

namespace crucible {

const char* kindName(const EngineEventKind& kind) {
  return std::visit([](const auto& e) { return std::decay_t<decltype(e)>::kName; }, kind);
}

const char* kindName(const EngineEvent& event) { return kindName(event.what); }

const RunCounters* countersOf(const EngineEvent& event) {
  // Every kind but CandidateCompiled has counters: a new kind without them
  // does not compile here until it is listed.
  return std::visit(Overloaded{[](const events::CandidateCompiled&) -> const RunCounters* { return nullptr; },
                               [](const auto& e) -> const RunCounters* { return &e.counters; }},
                    event.what);
}

}  // namespace crucible
