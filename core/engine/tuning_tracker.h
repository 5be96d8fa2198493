// SPDX-License-Identifier: GPL-3.0-or-later
// What parameter tuning knows per architecture: the configurations tried,
// the fastest time measured for each, and how many candidates tuning made,
// from which it proposes the next tuned candidate. An architecture's state
// is read from the store the first time tuning touches it: most
// architectures of a run are never tuned. Internal to core/engine.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"
#include "core/engine/run_settings.h"

namespace crucible::engine_detail {

struct TuningState {
  bool loaded = false;
  std::map<ParameterPoint, double> fastest;   // per configuration: best median (0 = it failed)
  std::set<ParameterPoint> tried;   // measured, in flight, illegal or in the project's tuning cache
  int tuned = 0;                    // candidates made by tuning this architecture
};

struct TuningLimits {
  TuningStrategy strategy = TuningStrategy::Random;
  int perArchitecture = 0;          // tuned candidates at most per architecture
  std::size_t pointsPerProposal = 8;   // configurations ranked per proposal (illegal ones are skipped)
};

class TuningTracker {
public:
  using LoadCandidate = std::function<std::optional<Candidate>(CandidateId)>;
  // True when the project measured (or admitted) this configuration key before.
  using KnownConfiguration = std::function<bool(const std::string& configKey)>;

  TuningTracker(Proposer& proposer, LoadCandidate load, TuningLimits limits);

  // Indexes a stored candidate of the run, so a later load finds it.
  void addCandidate(const std::string& architectureKey, CandidateId id);
  // The architecture's state, read from its indexed candidates on first use.
  TuningState& state(const std::string& architectureKey);
  bool loaded(const std::string& architectureKey) const;

  // A tuned variant of parent, or nullopt when its space is empty, its
  // architecture's tuning budget is spent or no configuration is left. The
  // candidate names parent as its only parent; the caller sets its generation.
  std::optional<Candidate> propose(const Task& task, const Candidate& parent, std::uint64_t seed,
                                   const KnownConfiguration& known);
  // An admitted candidate's configuration is tried (only when its architecture is loaded).
  void noteAdmitted(const Candidate& c);
  // A final candidate's result (only when its architecture is loaded).
  void recordResult(const Candidate& c);

  // Free rewrites share an architecture and parameters with their parent, so
  // one configuration can have many candidates: observe keeps its fastest.
  static void observe(TuningState& state, const ParameterPoint& point, double timeUs);

private:
  Proposer& proposer_;
  LoadCandidate load_;
  TuningLimits limits_;
  std::map<std::string, std::vector<CandidateId>> candidatesByArchitecture_;
  std::map<std::string, TuningState> states_;
};

}  // namespace crucible::engine_detail
