// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/project_delta_tracker.h"

#include <algorithm>
#include <tuple>

namespace crucible {
namespace {

// Only the fields a store write can change are compared.
auto key(const Run& r) {
  return std::tie(r.id, r.name, r.status, r.referenceCandidate, r.evaluationsDone, r.wallSecondsUsed,
                  r.gpuSecondsUsed, r.bestSpeedup, r.settingsJson, r.gated);
}
auto key(const Task& t) { return std::tie(t.id, t.name); }
auto key(const Seal& s) { return std::tie(s.id); }  // seals are never edited
auto key(const ArchiveCell& c) {
  return std::tie(c.runId, c.island, c.key, c.elite, c.fitness, c.selections, c.improvements);
}
auto key(const ReviewVerdict& v) { return std::tie(v.runId, v.architectureKey, v.accepted, v.note, v.decidedAt); }
auto key(const KnowledgeEntry& k) {
  return std::tie(k.id, k.updatedAt, k.observations, k.status, k.effect, k.claim, k.decision, k.evidence, k.pinned,
                  k.disabled, k.userAdded, k.userClaim);
}
auto key(const Ceiling& c) { return std::tie(c.device, c.name, c.measured, c.datasheet, c.measuredAt); }

template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const T& x, const T& y) { return key(x) == key(y); });
}

// Replaces `shown` and fills `out` when `fresh` differs (always on the first look).
template <class T>
void compare(std::vector<T> fresh, std::vector<T>& shown, bool first, std::optional<std::vector<T>>& out) {
  if (!first && same(fresh, shown)) return;
  shown = fresh;
  out = std::move(fresh);
}

template <class A, class B>
bool sameSummary(const A& a, const B& b) {
  return a.status == b.status && a.medianUs == b.medianUs && a.speedup == b.speedup && a.fitness == b.fitness &&
         a.registers == b.registers && a.architectureKey == b.architectureKey && a.generation == b.generation;
}

bool canStillChange(CandidateStatus s) {
  return s == CandidateStatus::Proposed || s == CandidateStatus::AwaitingReview || s == CandidateStatus::Compiled ||
         s == CandidateStatus::Reference;
}

}  // namespace

void ProjectDeltaTracker::watch(RunId run) {
  if (run == run_) return;
  run_ = run;
  runSent_ = false;
}

void ProjectDeltaTracker::reset() {
  runSent_ = false;
  projectSent_ = false;
}

ProjectDelta ProjectDeltaTracker::look(const ProjectStore& store) {
  ProjectDelta d;
  d.run = run_;
  lookAtProject(store, d);
  lookAtCandidates(store, d);
  lookAtRunParts(store, d);
  runSent_ = true;
  projectSent_ = true;
  d.sequence = ++sequence_;
  return d;
}

void ProjectDeltaTracker::lookAtProject(const ProjectStore& store, ProjectDelta& d) {
  const bool first = !projectSent_;
  compare(store.runs(), runs_, first, d.runs);
  compare(store.tasks(), tasks_, first, d.tasks);
  compare(store.seals(), seals_, first, d.seals);
  compare(store.knowledge(), knowledge_, first, d.knowledge);
  compare(store.ceilings(), ceilings_, first, d.ceilings);
}

void ProjectDeltaTracker::lookAtCandidates(const ProjectStore& store, ProjectDelta& d) {
  // While a run is in progress only its engine writes candidates, and it
  // changes only those whose status can still change: reading those and the
  // new ones is enough. Otherwise (another process edited the project) the
  // whole run is compared, which is rare and bounded by one read of the run.
  bool running = false;
  for (const Run& r : runs_) running = running || r.status == RunStatus::Running;
  if (!runSent_) {
    d.runReset = true;
    unsettled_.clear();
    shown_.clear();
    lastId_ = 0;
    if (run_ != 0) d.candidates = store.candidateSummaries(run_);
  } else if (run_ != 0 && running) {
    // The ones sent while they could still change, then the new ones (ids above all sent).
    std::vector<CandidateId> watched;
    watched.reserve(unsettled_.size());
    for (const auto& [id, shown] : unsettled_) watched.push_back(id);
    for (CandidateSummary& s : store.candidateSummariesById(watched))
      if (!sameSummary(unsettled_.at(s.id), s)) d.candidates.push_back(std::move(s));
    for (CandidateSummary& s : store.candidateSummariesSince(run_, lastId_)) d.candidates.push_back(std::move(s));
  } else if (run_ != 0) {
    for (CandidateSummary& s : store.candidateSummaries(run_)) {
      const auto it = shown_.find(s.id);
      if (it == shown_.end() || !sameSummary(it->second, s)) d.candidates.push_back(std::move(s));
    }
  }
  for (const CandidateSummary& s : d.candidates) {
    lastId_ = std::max(lastId_, s.id);
    if (canStillChange(s.status)) unsettled_[s.id] = s;
    else unsettled_.erase(s.id);
    shown_[s.id] = Figures{s.status, s.medianUs, s.speedup, s.fitness, s.registers, s.generation, s.architectureKey};
  }
}

void ProjectDeltaTracker::lookAtRunParts(const ProjectStore& store, ProjectDelta& d) {
  const bool first = !runSent_;
  if (first) {
    lastLogId_ = 0;
    describedElites_.clear();
  }
  if (run_ == 0) {
    if (first) {
      archive_.clear();
      verdicts_.clear();
      d.archive.emplace();
      d.verdicts.emplace();
    }
    return;
  }
  if (first) {
    // The latest lines only: a long run's whole log is not read at once.
    std::vector<LogLine> all;
    for (std::int64_t after = 0;;) {
      auto page = store.log(run_, after, kLogTail);
      if (page.empty()) break;
      after = page.back().id;
      for (auto& l : page) all.push_back(std::move(l));
      if (all.size() > static_cast<std::size_t>(2 * kLogTail))
        all.erase(all.begin(), all.end() - kLogTail);
    }
    if (all.size() > static_cast<std::size_t>(kLogTail)) all.erase(all.begin(), all.end() - kLogTail);
    d.log = std::move(all);
  } else {
    d.log = store.log(run_, lastLogId_, kLogTail);
  }
  if (!d.log.empty()) lastLogId_ = d.log.back().id;

  compare(store.archive(run_), archive_, first, d.archive);
  if (d.archive) {
    for (const ArchiveCell& c : *d.archive) {
      if (c.elite == 0 || describedElites_.count(c.elite)) continue;
      if (auto cand = store.candidate(c.elite)) d.eliteDescriptors[c.elite] = cand->descriptor;
      describedElites_.insert(c.elite);
    }
  }
  compare(store.verdicts(run_), verdicts_, first, d.verdicts);
}

}  // namespace crucible
