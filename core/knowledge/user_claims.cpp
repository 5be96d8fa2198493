// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/user_claims.h"

#include "core/knowledge/claim_scope.h"
#include "core/knowledge/knowledge_exchange.h"
#include "core/knowledge/knowledge_statistics.h"

namespace crucible {
namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string canonical(const std::string& decision) {
  if (auto change = parseDecisionChange(decision)) {
    bool inverted = false;
    return KnowledgeBook::canonicalDecision(*change, inverted);
  }
  return decision;
}

}  // namespace

std::optional<std::string> userClaimProblem(const UserClaimDraft& d, const std::vector<KnowledgeEntry>& existing) {
  const std::string arch = trimmed(d.arch), decision = trimmed(d.decision), text = trimmed(d.text);
  if (arch.empty()) return "architecture: required (the GPU architecture the claim is about, e.g. sm_90)";
  if (decision.empty()) return "decision: required (e.g. \"vector: 1 -> 4\" or \"vector=4\")";
  if (text.empty()) return "claim: required (the claim in your words)";
  for (const auto* field : {&arch, &decision, &text})
    if (field->size() > kKnowledgeExchangeMaxText)
      return "a field is longer than " + std::to_string(kKnowledgeExchangeMaxText) + " characters";
  const std::string shape = trimmed(d.shape);
  if (!shape.empty() && !shapeClassDistance(shape, shape))
    return "shape: \"" + shape + "\" is not a shape class (axes as powers of two, e.g. \"M~2^13 N~2^12\"), or leave it empty";
  for (const KnowledgeEntry& k : existing)
    if (k.scopeArch == arch && k.scopeFamily == trimmed(d.family) && k.scopeShape == shape &&
        canonical(k.decision) == canonical(decision))
      return "the project already has a claim for this scope and decision (#" + std::to_string(k.id) +
             "): pin or edit that one";
  return std::nullopt;
}

KnowledgeEntry userClaimEntry(const UserClaimDraft& d) {
  KnowledgeEntry k;
  k.scopeArch = trimmed(d.arch);
  k.scopeFamily = trimmed(d.family);
  k.scopeShape = trimmed(d.shape);
  k.decision = trimmed(d.decision);
  k.claim = trimmed(d.text);
  k.userClaim = k.claim;
  k.effect = 1;
  k.observations = 0;
  k.status = KnowledgeStatus::Hypothesis;
  k.userAdded = true;
  k.pinned = d.pinned;
  return k;
}

}  // namespace crucible
