// SPDX-License-Identifier: GPL-3.0-or-later
// Knowledge shared between projects (issue 19, 21: `crucible-cli kb export`
// and `kb import`): a JSON file of claims with their scope, decision, effect,
// observation count and status. The evidence (candidate ids) belongs to the
// project that measured it and is not carried: an imported claim starts with
// the exporter's figures and no local evidence, and the first observations
// in the importing project replace its statistics with local ones (the
// engine rebuilds an entry from its evidence when a new observation arrives).
//
// The user's word on a claim (pinned, disabled, the user's wording) travels
// with it ("pinned": true, "disabled": true, "userClaim": text, each written
// only when set); a claim the user added arrives as any other claim.
//
// Text fields are printable text (tabs and line breaks allowed: a user's claim
// may have several lines): a file with another control character (an escape
// sequence, a NUL) is refused, since `kb import` and `kb list` print claims.
//
// Import never overwrites what a project learnt itself: a claim whose scope
// and decision the project already has is kept as the project has it.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>
#include "core/model/knowledge.h"

namespace crucible {

// What is wrong with a file given to import; the message names the field
// ("entries[3].effect: must be a finite number > 0, not -1").
struct KnowledgeExchangeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bounds on what import reads, so any file costs bounded work.
inline constexpr std::size_t kKnowledgeExchangeMaxBytes = 16u << 20;
inline constexpr std::size_t kKnowledgeExchangeMaxEntries = 100000;
inline constexpr std::size_t kKnowledgeExchangeMaxText = 4096;   // characters of one string field

struct KnowledgeExchange {
  std::string source;           // the exporting project's file name (no directories)
  std::int64_t exportedAt = 0;  // unix seconds
  std::vector<KnowledgeEntry> entries;  // ids 0, no evidence
};

std::string knowledgeExchangeJson(const KnowledgeExchange& exchange);
// Throws KnowledgeExchangeError for a malformed, oversized or unknown file.
KnowledgeExchange parseKnowledgeExchange(const std::string& text);

// Which incoming entries to add, and which the project already has (same
// arch, family, shape and decision) and keeps as they are.
struct KnowledgeImportPlan {
  std::vector<KnowledgeEntry> add;
  std::vector<KnowledgeEntry> alreadyKnown;  // the incoming entries left out
};
KnowledgeImportPlan planKnowledgeImport(const std::vector<KnowledgeEntry>& existing,
                                        const std::vector<KnowledgeEntry>& incoming);

}  // namespace crucible
