// SPDX-License-Identifier: GPL-3.0-or-later
// Knowledge statistics: when a valid child differs from its valid parent in
// one decision, the effect (parent time / child time) is recorded on the
// KnowledgeEntry of (device arch, operator family, decision). An entry is a
// hypothesis until enough consistent observations validate it, and refuted
// when the observations show no consistent effect.
//
// Decisions are oriented canonically ("dim: a -> b" with a < b as text), so
// the observations of a -> b and b -> a accumulate on one entry (the second
// as the inverse ratio).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>
#include "core/knowledge/claim_scope.h"
#include "core/knowledge/decision_diff.h"
#include "core/model/knowledge.h"

namespace crucible {

struct KnowledgeRules {
  int minObservations = 5;
  double effectThreshold = 0.03;   // |geomean effect - 1| must exceed this (in log space)
  double agreement = 0.75;         // share of observations whose sign agrees with the mean
  // The statistics use the most recent observations only: knowledge follows
  // current evidence, and storing an entry costs the same at 10 or 10^5
  // observations (KnowledgeEntry::observations still counts them all).
  std::size_t window = 32;
};

// The status that observations (log of effect, canonical orientation) support.
KnowledgeStatus classify(const std::vector<double>& logEffects, const KnowledgeRules& rules,
                         KnowledgeStatus previous);

struct KnowledgeObservation {
  std::string arch;          // the evaluator's device arch, "sm_90"
  std::string family;        // the task's operator family
  DecisionChange change;     // as observed (any orientation)
  double effect = 0;         // parent median / child median; > 1 = the change helped
  CandidateId child = 0;     // the evidence
  std::string shape;         // the task's shape class (claim_scope.h); "" = any
};

class KnowledgeBook {
public:
  // Rebuilds one piece of evidence: the log effect of that child in the
  // entry's canonical orientation, or nullopt when it cannot be recomputed.
  using EvidenceLoader = std::function<std::optional<double>(const KnowledgeEntry&, CandidateId child)>;

  KnowledgeBook(KnowledgeRules rules, EvidenceLoader loader);

  // Entries from the store. Their observations are rebuilt from evidence
  // lazily, the first time a new observation touches them.
  void load(const std::vector<KnowledgeEntry>& entries);

  // Records one observation (its evidence joins the entry's window of recent
  // observations); returns the entry after the update (id 0 when
  // it is new and must be added to the store; the caller then calls setId).
  const KnowledgeEntry& observe(const KnowledgeObservation& observation);
  void setId(const KnowledgeEntry& entry, KnowledgeId id);

  // Validated entries for this device arch whose family is the task's or
  // any ("" scope), strongest effect first.
  std::vector<const KnowledgeEntry*> validatedInScope(const std::string& arch, const std::string& family) const;
  // The claims a run with this scope uses, ranked and weighted (claim_scope.h).
  // The entries are as a run reads them: a pinned claim's status reads
  // validated, and the user's wording replaces the measured claim's.
  std::vector<RankedClaim> inScope(const ClaimScope& scope, const ScopeWeights& weights = {}) const;
  // Adds or replaces an entry that is not learnt from one-change pairs (a
  // reference analysis); returns it (id 0 when it must be added to the store).
  const KnowledgeEntry& put(const KnowledgeEntry& entry);
  std::size_t size() const { return entries_.size(); }

  // "dim: a -> b" with a <= b; flips effect orientation when needed.
  static std::string canonicalDecision(const DecisionChange& change, bool& inverted);

private:
  using Key = std::tuple<std::string, std::string, std::string, std::string>;  // arch, family, shape, decision
  struct Accumulator {
    KnowledgeEntry entry;
    KnowledgeEntry presented;  // entry as a run reads it (see inScope)
    std::vector<double> logEffects;
    bool rebuilt = false;
  };
  static Key keyOf(const KnowledgeEntry& e);
  static void present(Accumulator& a);
  void rebuild(Accumulator& a);
  KnowledgeRules rules_;
  EvidenceLoader loader_;
  std::map<Key, Accumulator> entries_;
};

// The human-readable claim of an entry.
std::string describeClaim(const KnowledgeEntry& entry);

// "dim: a -> b" (as canonicalDecision writes it, or as a user types it) back
// into its parts; nullopt for any other text.
std::optional<DecisionChange> parseDecisionChange(const std::string& decision);

}  // namespace crucible
