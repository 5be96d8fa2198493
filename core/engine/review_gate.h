// SPDX-License-Identifier: GPL-3.0-or-later
// The review gate of a gated run: a proposal that opens an architecture with
// no verdict and no accepted candidate yet waits for a human. Accepted
// architectures pass from then on; rejected ones are discarded at once.
// Pure bookkeeping: the engine stores statuses and verdicts.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>
#include "core/model/ids.h"

namespace crucible {

class ReviewGate {
public:
  enum class Decision { Proceed, Wait, Discard };

  explicit ReviewGate(bool gated) : gated_(gated) {}

  // Architectures that passed already (a candidate of it was evaluated, or it
  // is the reference's): they never wait.
  void markAccepted(const std::string& architectureKey);
  void markRejected(const std::string& architectureKey);

  // What to do with a new proposal of this architecture. Ungated runs always proceed.
  Decision decide(const std::string& architectureKey) const;

  // A proposal that waits: remembered until its architecture's verdict.
  void enqueue(const std::string& architectureKey, CandidateId candidate);

  // Applies a verdict; returns the candidates that were waiting on it (in the
  // order they were enqueued), now released (accepted) or to be rejected.
  std::vector<CandidateId> applyVerdict(const std::string& architectureKey, bool accepted);

  bool gated() const { return gated_; }
  bool isWaiting() const { return !waiting_.empty(); }
  std::vector<std::string> waitingArchitectures() const;
  std::size_t waitingCount() const;

private:
  bool gated_;
  std::set<std::string> accepted_;
  std::set<std::string> rejected_;
  std::map<std::string, std::vector<CandidateId>> waiting_;
};

}  // namespace crucible
