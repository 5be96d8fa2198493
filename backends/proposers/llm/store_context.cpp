// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/store_context.h"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <memory>
#include <optional>

#include "core/store/project_store.h"

namespace crucible::llm {
namespace {

constexpr std::size_t kInspirations = 3;
constexpr std::size_t kFailures = 5;
constexpr std::size_t kFailureWindow = 200;

bool isFailure(CandidateStatus s) {
  return s == CandidateStatus::CompileFailed || s == CandidateStatus::Invalid || s == CandidateStatus::Faulted ||
         s == CandidateStatus::TimedOut || s == CandidateStatus::ResourceError;
}

// Owns the candidates the PromptContext points to (a deque: pointers stay valid).
struct Shown {
  std::deque<Candidate> candidates;
  const Candidate* keep(std::optional<Candidate> c) {
    if (!c) return nullptr;
    candidates.push_back(std::move(*c));
    return &candidates.back();
  }
};

}  // namespace

LlmProposer::OwningContextProvider storeContextProvider(std::string projectPath, RunId run) {
  return [projectPath = std::move(projectPath), run](const ProposalContext& ctx,
                                                      PromptContext& pc) -> std::shared_ptr<const void> {
    auto shown = std::make_shared<Shown>();
    try {
      auto store = ProjectStore::open(projectPath, ProjectStore::Mode::ReadOnly);
      const std::optional<Run> r = store->run(run);
      if (!r) return shown;
      if (r->referenceCandidate) pc.reference = shown->keep(store->candidate(r->referenceCandidate));

      const Candidate* parent = ctx.parents.empty() ? nullptr : ctx.parents.front();
      std::vector<CandidateId> already;
      for (const Candidate* p : ctx.parents)
        if (p) already.push_back(p->id);
      // Elites of the archive, best first: the best, then other cells' elites.
      std::vector<ArchiveCell> cells = store->archive(run);
      std::sort(cells.begin(), cells.end(), [](const ArchiveCell& a, const ArchiveCell& b) {
        return a.fitness != b.fitness ? a.fitness > b.fitness : a.elite < b.elite;
      });
      for (const ArchiveCell& cell : cells) {
        if (pc.best && pc.inspirations.size() >= kInspirations) break;
        if (!pc.best && parent && cell.elite == parent->id) {
          pc.best = parent;  // the parent is the best: the prompt shows it once
          continue;
        }
        if (!cell.elite || std::find(already.begin(), already.end(), cell.elite) != already.end()) continue;
        already.push_back(cell.elite);
        const Candidate* c = shown->keep(store->candidate(cell.elite));
        if (!c) continue;
        if (!pc.best) pc.best = c;
        else pc.inspirations.push_back(c);
      }
      // Recent failures, newest first, among the run's last candidates.
      const std::vector<CandidateSummary> all = store->candidateSummaries(run);
      const std::size_t from = all.size() > kFailureWindow ? all.size() - kFailureWindow : 0;
      for (std::size_t i = all.size(); i-- > from && pc.recentFailures.size() < kFailures;)
        if (isFailure(all[i].status))
          if (const Candidate* c = shown->keep(store->candidate(all[i].id))) pc.recentFailures.push_back(c);
    } catch (const std::exception&) {
      // An unreadable project: the prompt goes without these sections.
    }
    return shown;
  };
}

namespace {

constexpr std::size_t kMaxPending = 4096;

bool isFinal(CandidateStatus s) {
  return s != CandidateStatus::Proposed && s != CandidateStatus::AwaitingReview && s != CandidateStatus::Compiled;
}

struct OutcomeState {
  std::mutex mutex;
  CandidateId lastSeen = 0;
  std::set<CandidateId> pending;  // the model's candidates not final yet
};

}  // namespace

LlmProposer::OutcomeSource storeOutcomeSource(std::string projectPath, RunId run) {
  auto state = std::make_shared<OutcomeState>();
  return [projectPath = std::move(projectPath), run, state]() {
    std::vector<LlmProposer::ModelOutcome> out;
    std::lock_guard lock(state->mutex);
    try {
      auto store = ProjectStore::open(projectPath, ProjectStore::Mode::ReadOnly);
      std::vector<CandidateSummary> ended;
      for (CandidateSummary& s : store->candidateSummariesSince(run, state->lastSeen)) {
        state->lastSeen = std::max(state->lastSeen, s.id);
        // A reviewer's rejection (or a plan retired for its implementation) says nothing of a model's kernels.
        if (s.proposer.rfind("llm:", 0) != 0 || s.status == CandidateStatus::Rejected) continue;
        if (isFinal(s.status)) ended.push_back(std::move(s));
        else if (state->pending.size() < kMaxPending) state->pending.insert(s.id);
      }
      if (!state->pending.empty()) {
        const std::vector<CandidateId> ids(state->pending.begin(), state->pending.end());
        for (CandidateSummary& s : store->candidateSummariesById(ids))
          if (isFinal(s.status)) {
            state->pending.erase(s.id);
            if (s.status != CandidateStatus::Rejected) ended.push_back(std::move(s));
          }
      }
      std::vector<CandidateId> parentIds;
      for (const CandidateSummary& s : ended)
        if (!s.parents.empty()) parentIds.push_back(s.parents.front());
      std::map<CandidateId, double> parentFitness;
      if (!parentIds.empty())
        for (const CandidateSummary& p : store->candidateSummariesById(parentIds)) parentFitness[p.id] = p.fitness;
      for (const CandidateSummary& s : ended) {
        const double baseline = s.parents.empty() ? 0.0 : parentFitness[s.parents.front()];
        const bool improved = s.status == CandidateStatus::Valid && s.fitness > 0 && s.fitness > baseline;
        out.push_back({s.proposer.substr(4), improved ? 1.0 : 0.0});
      }
    } catch (const std::exception&) {
      // An unreadable project: nothing learnt this time; what was pending stays pending.
    }
    return out;
  };
}

}  // namespace crucible::llm
