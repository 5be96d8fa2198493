// SPDX-License-Identifier: GPL-3.0-or-later
// Tidy layout of a lineage: every candidate hangs under its first parent
// (its primary edge); further parents (crossover) become secondary edges
// drawn over the tree. Roots (seeds, references, candidates whose parents
// are outside the set) sit side by side under a virtual super-root.
// The tidy tree is Walker's algorithm in Buchheim, Jünger and Leipert's
// linear-time form, written without recursion so that deep lineages
// cannot exhaust the stack. Pure functions on plain structs: no Qt, safe to
// run off the GUI thread.
#pragma once
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include "core/model/ids.h"

namespace crucible::views {

struct LineageInput {
  CandidateId id = 0;
  std::vector<CandidateId> parents;  // first = primary
};

struct NodePlacement {
  CandidateId id = 0;
  double x = 0;        // in sibling distances, leftmost node at 0
  int depth = 0;       // 0 = root
  int treeParent = -1; // index into nodes, -1 = root
};

struct LineageEdge {
  int child = 0;       // indices into LineageLayout::nodes
  int parent = 0;
  bool primary = true; // false: a further parent (crossover)
};

struct LineageLayout {
  std::vector<NodePlacement> nodes;  // in the order of the input
  std::vector<LineageEdge> edges;
  double width = 0;                  // max x
  int maxDepth = 0;
};

// Lays out the lineage; distance is the minimum gap between neighbours on one depth.
LineageLayout layoutLineage(const std::vector<LineageInput>& input, double distance = 1.0);

// Keeps the nodes `keep` accepts; each kept node's parents become its nearest
// kept ancestors (so a filtered lineage is still a lineage).
std::vector<LineageInput> filterLineage(const std::vector<LineageInput>& input,
                                        const std::function<bool(CandidateId)>& keep);

// The descendants (through first parents, as the tree is drawn) of each
// collapsed node: the ids a collapsed sub-tree hides, with, for every collapsed
// node, how many it hides. Collapsed nodes themselves stay visible.
struct CollapsedSubtrees {
  std::unordered_set<CandidateId> hidden;
  std::unordered_map<CandidateId, int> hiddenBelow;
};
CollapsedSubtrees collapseSubtrees(const std::vector<LineageInput>& input, const std::set<CandidateId>& collapsed);

// id, its first parent, that one's first parent... up to a root of the set.
std::vector<CandidateId> primaryPathToRoot(const std::vector<LineageInput>& input, CandidateId id);

}  // namespace crucible::views
