// SPDX-License-Identifier: GPL-3.0-or-later
// Which claims a run uses, and how much it trusts each (issue 19, "Reuse"):
// claims measured on the run's GPU architecture for its operator family and
// shape class first, then those of neighbouring shape classes, then those of
// other families, each level weighted lower. Claims of another architecture
// are never used: they are about other hardware.
//
// A shape class names the order of magnitude of each axis of a task
// ("M~2^13 N~2^12"): tasks of the same operator whose axes are within a few
// powers of two of each other are neighbours; tasks with other axes are not
// comparable (no neighbour, only the "other family" level reaches them).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "core/model/knowledge.h"

namespace crucible {

// "M~2^13 N~2^12": each axis (by name) with its value rounded to the nearest
// power of two. Axes of value < 1 read as 2^0. An empty map gives "".
std::string shapeClassOf(const std::map<std::string, std::int64_t>& axes);

// The summed distance, in powers of two, between two shape classes with the
// same axes; nullopt when their axes differ or either is not a shape class.
std::optional<int> shapeClassDistance(const std::string& a, const std::string& b);

enum class ScopeLevel { Exact, NeighbourShape, OtherFamily };
const char* toString(ScopeLevel level);

struct ScopeWeights {
  double exact = 1.0;
  double neighbourShape = 0.5;        // at distance 1; x0.9 per further power of two
  int maxShapeDistance = 4;           // farther shape classes are not neighbours
  double otherFamily = 0.25;
};

struct ClaimScope {
  std::string arch;         // the evaluator's device arch
  std::string family;       // the task's operator family
  std::string shapeClass;   // shapeClassOf(the task's axes); "" = unknown
};

struct RankedClaim {
  const KnowledgeEntry* entry = nullptr;
  ScopeLevel level = ScopeLevel::Exact;
  double weight = 0;        // in (0, 1]
};

// How a claim applies to a scope; nullopt when it does not (another arch, a
// same-family shape class that is neither equal nor a neighbour). A claim
// scoped to any family ("") or any shape ("") matches that part exactly.
std::optional<RankedClaim> matchClaim(const KnowledgeEntry& entry, const ClaimScope& scope,
                                      const ScopeWeights& weights = {});

// The claim as a run uses it: a disabled claim never; a pinned one as
// validated; otherwise its measured status.
bool claimUsable(const KnowledgeEntry& entry);
KnowledgeStatus effectiveStatus(const KnowledgeEntry& entry);

// The usable validated (or pinned) and refuted claims that match the scope,
// best first: by level, then weight, then strength of effect, then id.
// Hypotheses are left out: they are not evidence yet.
std::vector<RankedClaim> rankClaims(const std::vector<const KnowledgeEntry*>& entries, const ClaimScope& scope,
                                    const ScopeWeights& weights = {});

// The ranked claims a proposer takes as facts (validated or pinned), in order.
std::vector<const KnowledgeEntry*> factsOf(const std::vector<RankedClaim>& ranked);
// All ranked claims with their weights (validated, pinned and refuted).
std::vector<WeightedClaim> weightedOf(const std::vector<RankedClaim>& ranked);

}  // namespace crucible
