// SPDX-License-Identifier: GPL-3.0-or-later
// What one mutation changed: the single behavioural descriptor (or, when the
// descriptors are equal, the single genome leaf) in which a child differs
// from its parent. Knowledge is only learned from such one-change pairs, so
// the measured effect can be attributed to that decision.
//
// Candidates with no design genome (a model's kernel, a user's kernel, whose
// genome holds bookkeeping: the model's usage, the user's note) are compared
// by their descriptors only, which are computed from what the code is
// (backends/proposers/llm/kernel_descriptor.h). So that such a pair is
// attributed to one decision only when it is one, descriptors are compared
// only when both are known and, unless both candidates are of one design
// space (template genomes, where a gene may be absent), name the same
// dimensions; a pair whose "kernel" dimension (the identity of a user's
// tunable kernel) differs is two different kernels, not one decision.
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

// A genome with design genes or parameters ("genes" or "params" objects:
// template and tunable kernels), as opposed to bookkeeping only.
bool hasDesignGenome(const Candidate& c);

// nullopt when nothing or more than one thing differs.
std::optional<DecisionChange> singleDifference(const Candidate& parent, const Candidate& child);

// Flattens a JSON object into "a.b.c" -> scalar text. Non-object JSON (or
// malformed text) flattens to an empty map: such genomes carry no genes.
std::map<std::string, std::string> flattenGenome(const std::string& genomeJson);

}  // namespace crucible
