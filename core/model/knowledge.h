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
};

}  // namespace crucible
