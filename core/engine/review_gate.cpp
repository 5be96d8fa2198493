// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/review_gate.h"

namespace crucible {

void ReviewGate::markAccepted(const std::string& architectureKey) {
  accepted_.insert(architectureKey);
  rejected_.erase(architectureKey);
}

void ReviewGate::markRejected(const std::string& architectureKey) {
  rejected_.insert(architectureKey);
  accepted_.erase(architectureKey);
}

ReviewGate::Decision ReviewGate::decide(const std::string& architectureKey) const {
  if (rejected_.count(architectureKey)) return Decision::Discard;
  if (!gated_ || accepted_.count(architectureKey)) return Decision::Proceed;
  return Decision::Wait;
}

void ReviewGate::enqueue(const std::string& architectureKey, CandidateId candidate) {
  waiting_[architectureKey].push_back(candidate);
}

std::vector<CandidateId> ReviewGate::applyVerdict(const std::string& architectureKey, bool accepted) {
  if (accepted)
    markAccepted(architectureKey);
  else
    markRejected(architectureKey);
  std::vector<CandidateId> released;
  if (auto it = waiting_.find(architectureKey); it != waiting_.end()) {
    released = std::move(it->second);
    waiting_.erase(it);
  }
  return released;
}

std::vector<std::string> ReviewGate::waitingArchitectures() const {
  std::vector<std::string> out;
  for (const auto& [key, ids] : waiting_) out.push_back(key);
  return out;
}

std::size_t ReviewGate::waitingCount() const {
  std::size_t n = 0;
  for (const auto& [key, ids] : waiting_) n += ids.size();
  return n;
}

}  // namespace crucible
