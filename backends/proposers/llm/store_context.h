// SPDX-License-Identifier: GPL-3.0-or-later
// The language-model proposer's context read from the project: the run's
// reference, its best kernel, up to 3 elites of other archive cells and up to
// 5 recent failures with their reasons. Each call opens its own read-only
// connection (proposals run on several threads while the engine writes), so
// the provider is thread-safe. Bounded: at most 10 candidates are loaded in
// full per call, the recent failures are looked for among the last 200.
#pragma once
#include <string>
#include "backends/proposers/llm/llm_proposer.h"
#include "core/model/ids.h"

namespace crucible::llm {

// A project that cannot be read leaves the prompt without these sections
// (the proposal still goes ahead with the task and its parent).
LlmProposer::OwningContextProvider storeContextProvider(std::string projectPath, RunId run);

// How the model's children in the run ended, for the model bandit: each call
// returns the candidates of proposer "llm:<model>" that reached a final
// status since the previous call (reward 1 when Valid and fitter than their
// first parent, or than nothing when they have none; 0 otherwise: failed or
// slower). Rejected candidates are left out: a reviewer's verdict is about an
// architecture, and a gated run's accepted plans are retired as Rejected. Its own read-only connection per call;
// bounded: one query for new candidates, one for those still pending (at
// most 4096 remembered). An unreadable project yields nothing this time.
LlmProposer::OutcomeSource storeOutcomeSource(std::string projectPath, RunId run);

}  // namespace crucible::llm
