// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/claim_scope.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace crucible {
namespace {

// "M~2^13 N~2^12" -> {M: 13, N: 12}; nullopt for anything else.
std::optional<std::map<std::string, int>> parseShapeClass(const std::string& text) {
  std::map<std::string, int> out;
  std::istringstream in(text);
  std::string part;
  while (in >> part) {
    const auto at = part.find("~2^");
    if (at == std::string::npos || at == 0 || at + 3 >= part.size()) return std::nullopt;
    const std::string digits = part.substr(at + 3);
    if (digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    if (!out.emplace(part.substr(0, at), std::stoi(digits)).second) return std::nullopt;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

double strength(const KnowledgeEntry& e) { return e.effect > 0 ? std::abs(std::log(e.effect)) : 0.0; }

}  // namespace

std::string shapeClassOf(const std::map<std::string, std::int64_t>& axes) {
  std::string out;
  for (const auto& [name, value] : axes) {
    const int exponent = value < 1 ? 0 : static_cast<int>(std::lround(std::log2(static_cast<double>(value))));
    out += (out.empty() ? "" : " ") + name + "~2^" + std::to_string(exponent);
  }
  return out;
}

std::optional<int> shapeClassDistance(const std::string& a, const std::string& b) {
  const auto x = parseShapeClass(a), y = parseShapeClass(b);
  if (!x || !y || x->size() != y->size()) return std::nullopt;
  int distance = 0;
  for (const auto& [axis, exponent] : *x) {
    const auto it = y->find(axis);
    if (it == y->end()) return std::nullopt;
    distance += std::abs(exponent - it->second);
  }
  return distance;
}

const char* toString(ScopeLevel level) {
  switch (level) {
    case ScopeLevel::Exact: return "exact";
    case ScopeLevel::NeighbourShape: return "neighbouring shape";
    case ScopeLevel::OtherFamily: return "other family";
  }
  return "?";
}

std::optional<RankedClaim> matchClaim(const KnowledgeEntry& e, const ClaimScope& scope, const ScopeWeights& w) {
  if (e.scopeArch != scope.arch) return std::nullopt;
  if (!e.scopeFamily.empty() && e.scopeFamily != scope.family)
    return RankedClaim{&e, ScopeLevel::OtherFamily, w.otherFamily};
  if (e.scopeShape.empty() || e.scopeShape == scope.shapeClass) return RankedClaim{&e, ScopeLevel::Exact, w.exact};
  const auto d = shapeClassDistance(e.scopeShape, scope.shapeClass);
  if (!d || *d > w.maxShapeDistance) return std::nullopt;
  return RankedClaim{&e, ScopeLevel::NeighbourShape, w.neighbourShape * std::pow(0.9, std::max(0, *d - 1))};
}

bool claimUsable(const KnowledgeEntry& e) { return !e.disabled; }

KnowledgeStatus effectiveStatus(const KnowledgeEntry& e) { return e.pinned ? KnowledgeStatus::Validated : e.status; }

std::vector<RankedClaim> rankClaims(const std::vector<const KnowledgeEntry*>& entries, const ClaimScope& scope,
                                    const ScopeWeights& weights) {
  std::vector<RankedClaim> out;
  for (const KnowledgeEntry* e : entries) {
    if (!e || !claimUsable(*e) || effectiveStatus(*e) == KnowledgeStatus::Hypothesis) continue;
    if (auto m = matchClaim(*e, scope, weights)) out.push_back(*m);
  }
  std::stable_sort(out.begin(), out.end(), [](const RankedClaim& x, const RankedClaim& y) {
    if (x.level != y.level) return x.level < y.level;
    if (x.weight != y.weight) return x.weight > y.weight;
    if (strength(*x.entry) != strength(*y.entry)) return strength(*x.entry) > strength(*y.entry);
    return x.entry->id < y.entry->id;
  });
  return out;
}

std::vector<const KnowledgeEntry*> factsOf(const std::vector<RankedClaim>& ranked) {
  std::vector<const KnowledgeEntry*> out;
  for (const RankedClaim& r : ranked)
    if (effectiveStatus(*r.entry) == KnowledgeStatus::Validated) out.push_back(r.entry);
  return out;
}

std::vector<WeightedClaim> weightedOf(const std::vector<RankedClaim>& ranked) {
  std::vector<WeightedClaim> out;
  for (const RankedClaim& r : ranked) out.push_back({r.entry, r.weight});
  return out;
}

}  // namespace crucible
