// SPDX-License-Identifier: GPL-3.0-or-later
// Which search a run does (RunSettings::search). MAP-Elites is the engine's
// own; the other two exist to measure it against simpler searches over the
// same proposer and budget (issue 19's search ablation):
//   map-elites  parents drawn from the archive's cells (fitness and curiosity),
//               tuning, crossover and every strategy
//   hill-climb  one lineage: the parent is always the best valid candidate so
//               far; a child that does not beat it is never a parent; tuning
//               and one-parent strategies only (no crossover, no exploration)
//   random      every child is a fresh point of the proposer's space: no
//               parent, no tuning, the proposer's exploration strategy
#pragma once
#include <string>

namespace crucible {

enum class SearchStrategy { MapElites, HillClimb, Random };
const char* toString(SearchStrategy s);
SearchStrategy searchStrategyFromString(const std::string& s);  // throws std::invalid_argument

}  // namespace crucible
