// SPDX-License-Identifier: GPL-3.0-or-later
// Claims a user writes in the knowledge browser (issue 19): checked before
// they are stored. A user's claim is a hypothesis with no evidence; it is
// used only once observations validate it, or when the user pins it. Its
// decision should read as the engine writes decisions ("vector: 1 -> 4") so
// that the observations of that decision reach it, or "gene=value" to state a
// preference; the user's wording of the claim is kept as userClaim, which the
// engine's updates never overwrite.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/model/knowledge.h"

namespace crucible {

struct UserClaimDraft {
  std::string arch;       // required: claims are about one GPU architecture
  std::string family;     // "" = any operator
  std::string shape;      // "" = any shape; else a shape class "M~2^13 N~2^12"
  std::string decision;   // required
  std::string text;       // required: the claim in the user's words
  bool pinned = false;
};

// Why the draft cannot be stored (the first problem, naming the field), or
// nullopt. `existing` is the project's knowledge: a claim with the same
// scope and decision (in either orientation) is refused.
std::optional<std::string> userClaimProblem(const UserClaimDraft& draft, const std::vector<KnowledgeEntry>& existing);

// The entry to store for a checked draft: a hypothesis, no observations,
// effect 1 (nothing measured), userAdded, the text as claim and userClaim.
KnowledgeEntry userClaimEntry(const UserClaimDraft& draft);

}  // namespace crucible
