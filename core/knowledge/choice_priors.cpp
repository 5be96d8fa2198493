// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/choice_priors.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include "core/knowledge/claim_scope.h"
#include "core/knowledge/knowledge_statistics.h"

namespace crucible {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

struct Preference {
  std::string dimension, value;
};

// The value a claim's decision favours (and the one it moves away from).
std::optional<Preference> favoured(const KnowledgeEntry& k) {
  if (auto change = parseDecisionChange(k.decision)) {
    const bool towards = !(k.effect > 0 && k.effect < 1);
    const std::string& value = towards ? change->to : change->from;
    if (value == "(none)") return std::nullopt;
    return Preference{normalisedDimension(change->dimension), value};
  }
  const auto eq = k.decision.find('=');
  const auto colon = k.decision.find(':');
  std::string dimension, value;
  if (eq != std::string::npos && (colon == std::string::npos || eq < colon)) {
    dimension = trim(k.decision.substr(0, eq));
    value = trim(k.decision.substr(eq + 1));
  } else if (colon != std::string::npos) {
    dimension = trim(k.decision.substr(0, colon));
    value = trim(k.decision.substr(colon + 1));
  }
  if (dimension.empty() || value.empty()) return std::nullopt;
  return Preference{normalisedDimension(dimension), value};
}

std::optional<std::int64_t> integer(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::size_t used = 0;
  try {
    const long long v = std::stoll(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool covers(const std::string& pattern, const std::string& value, const std::int64_t* number) {
  if (pattern == value) return true;
  const auto dots = pattern.find("..");
  if (dots == std::string::npos) return false;
  const auto lo = integer(pattern.substr(0, dots)), hi = integer(pattern.substr(dots + 2));
  std::optional<std::int64_t> v = number ? std::optional<std::int64_t>(*number) : integer(value);
  return lo && hi && v && *lo <= *v && *v <= *hi;
}

}  // namespace

std::string normalisedDimension(const std::string& dimension) {
  std::string d = dimension;
  for (const char* prefix : {"genes.", "params.", "tune.", "point."})
    if (d.rfind(prefix, 0) == 0) {
      d = d.substr(std::string(prefix).size());
      break;
    }
  if (d == "vec" || d == "vector_width") d = "vector";
  return d;
}

ChoicePriors ChoicePriors::fromClaims(const std::vector<WeightedClaim>& claims, const ChoicePriorRules& rules) {
  ChoicePriors p;
  p.rules_ = rules;
  for (const WeightedClaim& c : claims) {
    if (!c.entry || !claimUsable(*c.entry) || !(c.weight > 0)) continue;
    const KnowledgeEntry& k = *c.entry;
    const auto pref = favoured(k);
    if (!pref) continue;
    double logFactor = 0;
    switch (effectiveStatus(k)) {
      case KnowledgeStatus::Validated: {
        const double measured = k.observations > 0 && k.effect > 0 ? std::abs(std::log(k.effect)) : 0.0;
        logFactor = measured > 0 ? std::min(std::log(rules.maxBoost), rules.gain * measured)
                                 : std::log(rules.unmeasuredBoost);  // pinned, not measured yet
        break;
      }
      case KnowledgeStatus::Refuted: logFactor = std::log(rules.refutedFactor); break;
      case KnowledgeStatus::Hypothesis: continue;
    }
    p.terms_[pref->dimension].push_back(Term{pref->value, c.weight * logFactor});
  }
  return p;
}

ChoicePriors ChoicePriors::fromContext(const std::vector<WeightedClaim>& claims,
                                       const std::vector<const KnowledgeEntry*>& facts) {
  if (!claims.empty()) return fromClaims(claims);
  std::vector<WeightedClaim> full;
  for (const KnowledgeEntry* k : facts) full.push_back({k, 1.0});
  return fromClaims(full);
}

double ChoicePriors::logFactor(const std::string& dimension, const std::string& value, const std::int64_t* number) const {
  const auto it = terms_.find(normalisedDimension(dimension));
  if (it == terms_.end()) return 0;
  double sum = 0;
  for (const Term& t : it->second)
    if (covers(t.value, value, number)) sum += t.logFactor;
  return sum;
}

double ChoicePriors::factor(const std::string& dimension, const std::string& value) const {
  return std::clamp(std::exp(logFactor(dimension, value, nullptr)), rules_.minFactor, rules_.maxBoost);
}

double ChoicePriors::factor(const std::string& dimension, std::int64_t value) const {
  return std::clamp(std::exp(logFactor(dimension, std::to_string(value), &value)), rules_.minFactor, rules_.maxBoost);
}

double ChoicePriors::factorOf(const std::map<std::string, std::string>& choices) const {
  double sum = 0;
  for (const auto& [d, v] : choices) sum += logFactor(d, v, nullptr);
  return std::clamp(std::exp(sum), rules_.minFactor, rules_.maxBoost);
}

double ChoicePriors::factorOf(const std::map<std::string, std::int64_t>& choices) const {
  double sum = 0;
  for (const auto& [d, v] : choices) sum += logFactor(d, std::to_string(v), &v);
  return std::clamp(std::exp(sum), rules_.minFactor, rules_.maxBoost);
}

std::size_t drawWeighted(const std::vector<double>& weights, std::mt19937_64& rng) {
  double total = 0;
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) throw std::invalid_argument("drawWeighted: a weight is negative or not finite");
    total += w;
  }
  if (weights.empty() || !(total > 0)) throw std::invalid_argument("drawWeighted: no positive weight");
  double x = std::uniform_real_distribution<double>(0, total)(rng);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  for (std::size_t i = weights.size(); i-- > 0;)
    if (weights[i] > 0) return i;
  return 0;
}

}  // namespace crucible
