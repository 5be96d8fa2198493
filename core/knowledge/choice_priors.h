// SPDX-License-Identifier: GPL-3.0-or-later
// Claims as priors (issue 19, "Reuse"): the validated (or pinned) claims in a
// run's scope raise the probability of the value their decision favours, a
// refuted claim lowers the value it had favoured, each in proportion to the
// claim's scope weight (claim_scope.h) and measured effect. Proposers multiply
// the probability of a choice (a gene value, a parameter value) by factor().
//
// The factors are bounded on both sides: a choice no claim favours keeps at
// least minFactor of its weight, so exploration never stops, and no claim
// makes a choice more than maxBoost times as likely.
//
// Decisions read: "dim: a -> b" (the engine's canonical form: b is favoured
// when the effect is > 1, a when it is < 1), "dim=value" and "dim: value" (a
// user's claim: value is favoured). Dimensions are compared after
// normalisedDimension(), so a descriptor change ("vector"), a genome leaf
// ("genes.vector", "params.BLOCK") and a tunable kernel's parameter
// ("tune.BLOCK", "point.BLOCK") all speak about the choice of that name. A
// value "16..32" (a tunable descriptor's bin) covers the integers in it.
#pragma once
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>
#include "core/model/knowledge.h"

namespace crucible {

// At weight 1, a validated effect of 1.05 makes its value 1.5x as likely,
// 1.1: 2.1x, 1.3 or more: 8x (the bound).
struct ChoicePriorRules {
  double minFactor = 0.125;         // the least a choice keeps of its weight
  double maxBoost = 8.0;            // the most a choice gains
  double gain = 8.0;                // log factor per unit of |log effect|, at weight 1
  double unmeasuredBoost = 8.0;     // a pinned (user's) claim with no observations yet: the user's word
  double refutedFactor = 0.5;       // a refuted claim's value, at weight 1
};

// "genes.vector" -> "vector", "params.BLOCK_M" -> "BLOCK_M", "tune.X" -> "X",
// "point.X" -> "X"; "vec" and "vector_width" -> "vector".
std::string normalisedDimension(const std::string& dimension);

class ChoicePriors {
public:
  ChoicePriors() = default;
  static ChoicePriors fromClaims(const std::vector<WeightedClaim>& claims, const ChoicePriorRules& rules = {});
  // A proposal context's: its weighted claims, or, when it has none (a caller
  // that lists facts only), its facts at full weight.
  static ChoicePriors fromContext(const std::vector<WeightedClaim>& claims,
                                  const std::vector<const KnowledgeEntry*>& facts);

  // The multiplier of the choice `value` for `dimension`, in [minFactor, maxBoost];
  // 1 when no claim speaks about it.
  double factor(const std::string& dimension, const std::string& value) const;
  double factor(const std::string& dimension, std::int64_t value) const;
  // The product of the factors of several choices, bounded like one factor.
  double factorOf(const std::map<std::string, std::string>& choices) const;
  double factorOf(const std::map<std::string, std::int64_t>& choices) const;

  bool empty() const { return terms_.empty(); }
  // True when a claim speaks about any of these dimensions.
  template <class Map>
  bool speaksAbout(const Map& choices) const {
    for (const auto& [dimension, value] : choices)
      if (terms_.count(normalisedDimension(dimension))) return true;
    return false;
  }

private:
  struct Term {
    std::string value;     // exact text, or "lo..hi"
    double logFactor = 0;
  };
  double logFactor(const std::string& dimension, const std::string& value, const std::int64_t* number) const;
  ChoicePriorRules rules_;
  std::map<std::string, std::vector<Term>> terms_;  // by normalised dimension
};

// An index drawn with probability proportional to weights (all >= 0, not all 0).
std::size_t drawWeighted(const std::vector<double>& weights, std::mt19937_64& rng);

}  // namespace crucible
