// SPDX-License-Identifier: GPL-3.0-or-later
// RunLoop's part that takes in candidates others added to its run while it
// runs (a user's edit evaluated by the GUI or by `crucible-cli fork`, issue
// 17): they join the archive and may become parents; they are never
// evaluated again. Its own file so run_loop.cpp keeps to one responsibility.
#include <algorithm>
#include "core/engine/run_events.h"
#include "core/engine/run_loop.h"
#include "core/engine/user_evaluation.h"

namespace crucible::engine_detail {

void RunLoop::noticeOutsideCandidates() {
  std::vector<CandidateSummary> fresh = store_.candidateSummariesSince(run_.id, lastSeenCandidate_);
  if (fresh.empty()) return;
  lastSeenCandidate_ = fresh.back().id;
  bool adopted = false;
  for (const CandidateSummary& s : fresh) {
    // The loop's own candidates (and its reference) are committed by the loop itself.
    if (s.proposer != kUserProposer) continue;
    // Placed, counted and gated as restoreIndex (run_restore.cpp) places a
    // stored candidate, so a resumed run sees the same run as this one.
    int island = storedPerGeneration_[s.generation]++ % settings_.islands;
    lastGeneration_ = std::max(lastGeneration_, s.generation);
    tuning_->addCandidate(s.architectureKey, s.id);
    // user_evaluation.cpp stores only final candidates; one that is not
    // final was stored by something else and waits for a resume, as any would.
    if (s.status == CandidateStatus::Proposed || s.status == CandidateStatus::Compiled ||
        s.status == CandidateStatus::AwaitingReview || s.status == CandidateStatus::Rejected)
      continue;
    gate_.markAccepted(s.architectureKey);
    auto c = store_.candidate(s.id);
    if (!c) continue;
    log("info", "user candidate " + std::to_string(c->id) + " joined the run: " + toString(c->status) +
                    (c->status == CandidateStatus::Valid ? ", fitness " + std::to_string(c->fitness) : ""));
    adoptOutside(*c, island);
    adopted = true;
  }
  if (!adopted) return;
  // A user's kernel may have been sealed: the seal bar rises for the loop's next seal.
  for (const auto& seal : store_.seals(task_.id))
    if (seal.runId == run_.id) bestSealed_ = std::max(bestSealed_, seal.speedup);
}

void RunLoop::adoptOutside(const Candidate& c, int island) {
  if (c.status != CandidateStatus::Valid || c.fitness <= 0) return;
  std::string key;
  try {
    key = keyOf(c);
  } catch (const std::invalid_argument& e) {
    return log("warning", "user candidate " + std::to_string(c.id) + " cannot enter the archive: " + e.what());
  }
  Placement placement = archive_->insert(island, key, c.id, c.fitness);
  bool better = c.fitness > run_.bestSpeedup;
  store_.transaction([&] {
    if (placement != Placement::Rejected) store_.putArchiveCell(*archive_->cell(island, key));
    if (better) {
      run_.bestSpeedup = c.fitness;
      store_.updateRun(run_);
    }
  });
  if (placement == Placement::Rejected) return;
  cache_[c.id] = c;
  send(eliteImprovedEvent(counters(), c, placement, key));
}

}  // namespace crucible::engine_detail
