// SPDX-License-Identifier: GPL-3.0-or-later
// What one mutation changed: the single behavioural descriptor (or, when the
// descriptors are equal, the single genome leaf) in which a child differs
// from its parent. Knowledge is only learned from such one-change pairs, so
// the measured effect can be attributed to that decision.
#pragma once
#include <map>
#include <optional>
#include <string>
#include "core/model/candidate.h"

namespace crucible {

struct DecisionChange {
  std::string dimension;   // "vector_width" or a genome path "params.BLOCK"
  std::string from;
  std::string to;
};

// nullopt when nothing or more than one thing differs.
std::optional<DecisionChange> singleDifference(const Candidate& parent, const Candidate& child);

// Flattens a JSON object into "a.b.c" -> scalar text. Non-object JSON (or
// malformed text) flattens to an empty map: such genomes carry no genes.
std::map<std::string, std::string> flattenGenome(const std::string& genomeJson);

}  // namespace crucible
