// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/knowledge_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include "core/model/saturating_count.h"

namespace crucible {

KnowledgeStatus classify(const std::vector<double>& logEffects, const KnowledgeRules& rules,
                         KnowledgeStatus previous) {
  const auto n = static_cast<int>(logEffects.size());
  if (n < rules.minObservations) return KnowledgeStatus::Hypothesis;
  double mean = std::accumulate(logEffects.begin(), logEffects.end(), 0.0) / n;
  int agreeing = 0;
  for (double l : logEffects)
    if ((mean > 0 && l > 0) || (mean < 0 && l < 0)) ++agreeing;
  bool strong = std::abs(mean) > std::log1p(rules.effectThreshold);
  bool consistent = agreeing >= rules.agreement * n;
  if (strong && consistent) return KnowledgeStatus::Validated;
  // Inconsistent or negligible: a claim that was validated is now refuted;
  // a hypothesis gets twice the observations before it is given up.
  if (previous == KnowledgeStatus::Validated || previous == KnowledgeStatus::Refuted ||
      n >= 2 * rules.minObservations)
    return KnowledgeStatus::Refuted;
  return KnowledgeStatus::Hypothesis;
}

std::string KnowledgeBook::canonicalDecision(const DecisionChange& change, bool& inverted) {
  inverted = change.to < change.from;
  const std::string& a = inverted ? change.to : change.from;
  const std::string& b = inverted ? change.from : change.to;
  return change.dimension + ": " + a + " -> " + b;
}

std::string describeClaim(const KnowledgeEntry& e) {
  char factor[32];
  double f = e.effect >= 1 ? e.effect : (e.effect > 0 ? 1.0 / e.effect : 0.0);
  std::snprintf(factor, sizeof factor, "%.3g", f);
  std::string family = e.scopeFamily.empty() ? "" : e.scopeFamily + " ";
  std::string shape = e.scopeShape.empty() ? "" : " of shape " + e.scopeShape;
  return "On " + e.scopeArch + ", " + e.decision + " makes " + family + "kernels" + shape + " " + factor + "x " +
         (e.effect >= 1 ? "faster" : "slower") + " (geometric mean of the latest " +
         std::to_string(e.evidence.size()) + " of " + std::to_string(e.observations) + " one-change observations)";
}

KnowledgeBook::KnowledgeBook(KnowledgeRules rules, EvidenceLoader loader)
    : rules_(rules), loader_(std::move(loader)) {}

std::optional<DecisionChange> parseDecisionChange(const std::string& decision) {
  const auto colon = decision.find(": ");
  const auto arrow = decision.find(" -> ");
  if (colon == std::string::npos || arrow == std::string::npos || arrow < colon || colon == 0) return std::nullopt;
  DecisionChange c{decision.substr(0, colon), decision.substr(colon + 2, arrow - colon - 2), decision.substr(arrow + 4)};
  if (c.from.empty() || c.to.empty()) return std::nullopt;
  return c;
}

// A user's claim may be written in either orientation: it is filed under the
// canonical one, so the observations of its decision reach it.
KnowledgeBook::Key KnowledgeBook::keyOf(const KnowledgeEntry& e) {
  std::string decision = e.decision;
  if (auto change = parseDecisionChange(e.decision)) {
    bool inverted = false;
    decision = canonicalDecision(*change, inverted);
  }
  return Key{e.scopeArch, e.scopeFamily, e.scopeShape, decision};
}

void KnowledgeBook::present(Accumulator& a) {
  a.presented = a.entry;
  a.presented.status = effectiveStatus(a.entry);
  if (!a.entry.userClaim.empty()) a.presented.claim = a.entry.userClaim;
}

void KnowledgeBook::load(const std::vector<KnowledgeEntry>& entries) {
  for (const auto& e : entries) {
    Accumulator a;
    a.entry = e;
    present(a);
    entries_[keyOf(e)] = std::move(a);
  }
}

void KnowledgeBook::rebuild(Accumulator& a) {
  a.rebuilt = true;
  a.logEffects.clear();
  std::vector<CandidateId> kept;
  for (CandidateId child : a.entry.evidence) {
    if (auto l = loader_ ? loader_(a.entry, child) : std::nullopt) {
      a.logEffects.push_back(*l);
      kept.push_back(child);
    }
  }
  a.entry.evidence = std::move(kept);
}

const KnowledgeEntry& KnowledgeBook::observe(const KnowledgeObservation& o) {
  bool inverted = false;
  std::string decision = canonicalDecision(o.change, inverted);
  Key key{o.arch, o.family, o.shape, decision};
  auto [it, inserted] = entries_.try_emplace(key);
  Accumulator& a = it->second;
  if (inserted) {
    a.entry.scopeArch = o.arch;
    a.entry.scopeFamily = o.family;
    a.entry.scopeShape = o.shape;
    a.rebuilt = true;
  } else if (!a.rebuilt) {
    rebuild(a);
  }
  a.entry.decision = decision;  // a user's claim written the other way round takes the measured orientation
  double l = std::log(o.effect);
  a.logEffects.push_back(inverted ? -l : l);
  a.entry.evidence.push_back(o.child);
  // An imported or damaged entry may already hold the largest count.
  a.entry.observations = saturatingAdd(a.entry.observations, 1);
  if (rules_.window > 0 && a.logEffects.size() > rules_.window) {
    a.logEffects.erase(a.logEffects.begin());
    a.entry.evidence.erase(a.entry.evidence.begin());
  }
  double mean = std::accumulate(a.logEffects.begin(), a.logEffects.end(), 0.0) /
                static_cast<double>(a.logEffects.size());
  a.entry.effect = std::exp(mean);
  a.entry.status = classify(a.logEffects, rules_, a.entry.status);
  a.entry.claim = describeClaim(a.entry);
  present(a);
  return a.entry;
}

const KnowledgeEntry& KnowledgeBook::put(const KnowledgeEntry& entry) {
  Accumulator& a = entries_[keyOf(entry)];
  const KnowledgeEntry previous = a.entry;
  a.entry = entry;
  // The store's identity and the user's word stay with the entry.
  if (previous.id != 0) {
    a.entry.id = previous.id;
    a.entry.pinned = previous.pinned;
    a.entry.disabled = previous.disabled;
    a.entry.userAdded = previous.userAdded;
    a.entry.userClaim = previous.userClaim;
  }
  a.rebuilt = true;
  a.logEffects.clear();
  present(a);
  return a.entry;
}

void KnowledgeBook::setId(const KnowledgeEntry& entry, KnowledgeId id) {
  auto it = entries_.find(keyOf(entry));
  if (it != entries_.end()) {
    it->second.entry.id = id;
    it->second.presented.id = id;
  }
}

std::vector<RankedClaim> KnowledgeBook::inScope(const ClaimScope& scope, const ScopeWeights& weights) const {
  std::vector<const KnowledgeEntry*> all;
  for (const auto& [key, a] : entries_) all.push_back(&a.presented);
  return rankClaims(all, scope, weights);
}

std::vector<const KnowledgeEntry*> KnowledgeBook::validatedInScope(const std::string& arch,
                                                                   const std::string& family) const {
  std::vector<const KnowledgeEntry*> out;
  for (const auto& [key, a] : entries_) {
    const auto& e = a.presented;
    if (claimUsable(e) && e.status == KnowledgeStatus::Validated && e.scopeArch == arch &&
        (e.scopeFamily.empty() || e.scopeFamily == family))
      out.push_back(&e);
  }
  std::stable_sort(out.begin(), out.end(), [](auto* x, auto* y) {
    return std::abs(std::log(x->effect)) > std::abs(std::log(y->effect));
  });
  return out;
}

}  // namespace crucible
