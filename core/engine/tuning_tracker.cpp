// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/tuning_tracker.h"

#include <random>
#include "core/engine/tuning_cache.h"
#include "core/engine/tuning_strategy.h"

namespace crucible::engine_detail {

namespace {
bool isFinal(CandidateStatus s) {
  return s != CandidateStatus::Proposed && s != CandidateStatus::Compiled && s != CandidateStatus::AwaitingReview;
}

double measuredTime(const Candidate& c) {
  return c.status == CandidateStatus::Valid && c.timing ? c.timing->medianUs : 0;
}
}  // namespace

TuningTracker::TuningTracker(Proposer& proposer, LoadCandidate load, TuningLimits limits)
    : proposer_(proposer), load_(std::move(load)), limits_(limits) {}

void TuningTracker::addCandidate(const std::string& architectureKey, CandidateId id) {
  candidatesByArchitecture_[architectureKey].push_back(id);
}

bool TuningTracker::loaded(const std::string& architectureKey) const {
  auto it = states_.find(architectureKey);
  return it != states_.end() && it->second.loaded;
}

TuningState& TuningTracker::state(const std::string& architectureKey) {
  TuningState& state = states_[architectureKey];
  if (state.loaded) return state;
  state.loaded = true;
  for (CandidateId id : candidatesByArchitecture_[architectureKey]) {
    auto c = load_(id);
    if (!c) continue;
    ParameterPoint point = proposer_.parametersOf(*c);
    state.tried.insert(point);
    if (c->mutation == "tune") ++state.tuned;
    if (isFinal(c->status)) observe(state, point, measuredTime(*c));
  }
  return state;
}

void TuningTracker::observe(TuningState& state, const ParameterPoint& point, double timeUs) {
  auto [it, inserted] = state.fastest.try_emplace(point, timeUs);
  if (!inserted && timeUs > 0 && (it->second <= 0 || timeUs < it->second)) it->second = timeUs;
}

std::optional<Candidate> TuningTracker::propose(const Task& task, const Candidate& parent, std::uint64_t seed,
                                                const KnownConfiguration& known) {
  std::vector<TunableParameter> space = proposer_.tunables(parent);
  if (space.empty()) return std::nullopt;
  TuningState& st = state(parent.architectureKey);
  if (st.tuned >= limits_.perArchitecture) return std::nullopt;
  if (st.tried.size() >= spaceSize(space)) return std::nullopt;   // every configuration seen
  std::mt19937_64 rng(seed);
  std::vector<TuningObservation> observations;
  for (const auto& [point, timeUs] : st.fastest) observations.push_back({point, timeUs});
  auto points = rankTuningPoints(limits_.strategy, space, proposer_.parametersOf(parent), observations, st.tried,
                                 rng, limits_.pointsPerProposal);
  for (const ParameterPoint& point : points) {
    st.tried.insert(point);
    Proposal p = proposer_.withParameters(task, parent, point);
    if (!p.ok) continue;   // an illegal combination: never measured, never retried
    Candidate c = std::move(p.candidate);
    if (known(configKey(c.architectureKey, point, c.source))) continue;
    c.parents = {parent.id};
    c.mutation = "tune";
    c.metaPrompt = 0;
    ++st.tuned;
    return c;
  }
  return std::nullopt;
}

void TuningTracker::noteAdmitted(const Candidate& c) {
  auto it = states_.find(c.architectureKey);
  if (it != states_.end() && it->second.loaded) it->second.tried.insert(proposer_.parametersOf(c));
}

void TuningTracker::recordResult(const Candidate& c) {
  auto it = states_.find(c.architectureKey);
  if (it == states_.end() || !it->second.loaded) return;
  observe(it->second, proposer_.parametersOf(c), measuredTime(c));
}

}  // namespace crucible::engine_detail
