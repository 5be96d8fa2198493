// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "core/model/ids.h"

namespace crucible {

enum class KnowledgeStatus { Hypothesis, Validated, Refuted };
const char* toString(KnowledgeStatus s);
KnowledgeStatus knowledgeStatusFromString(const std::string& s);

// A claim about a hardware mechanism, with its scope and evidence.
struct KnowledgeEntry {
  KnowledgeId id = 0;
  std::string scopeArch;       // e.g. "sm_90"
  std::string scopeFamily;     // operator family, "" = any
  std::string scopeShape;      // shape class, "" = any
  std::string claim;           // "16-byte global loads beat 4-byte loads for row reductions"
  std::string decision;        // the gene/decision it supports, e.g. "vec=4"
  double effect = 0;           // measured effect (ratio, >1 = the decision helps)
  std::int64_t observations = 0;
  KnowledgeStatus status = KnowledgeStatus::Hypothesis;
  std::string probe;           // the hardware probe that certified it, if any
  std::vector<CandidateId> evidence;
  std::int64_t updatedAt = 0;
  // The user's word on the claim (the knowledge browser), kept apart from
  // the statistics so the engine's updates never overwrite it:
  bool pinned = false;         // used as validated whatever the statistics say
  bool disabled = false;       // never used (shown, still updated by observations)
  bool userAdded = false;      // written by the user; evidence arrives like any claim's
  std::string userClaim;       // the user's wording, shown instead of `claim` when set
};

// A claim as a run uses it: how closely its scope matches the run's
// (core/knowledge/claim_scope.h) as a weight in (0, 1].
struct WeightedClaim {
  const KnowledgeEntry* entry = nullptr;
  double weight = 1;
};

}  // namespace crucible
