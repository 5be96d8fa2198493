// SPDX-License-Identifier: GPL-3.0-or-later
// The MAP-Elites archive projected onto two descriptor dimensions: every
// elite lands in the cell of its values on those two; the dimensions not
// shown (and the islands) are folded, keeping the best elite. Pure.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "core/model/ids.h"

namespace crucible::views {

struct ArchiveElite {
  CandidateId elite = 0;
  double fitness = 0;
  std::map<std::string, std::string> descriptor;
};

struct ArchiveGridCell {
  CandidateId elite = 0;   // 0 = empty cell
  double fitness = 0;
  int folded = 0;          // archive cells that map here
};

struct ArchiveGrid {
  std::string xDimension, yDimension;
  std::vector<std::string> xValues, yValues;
  std::vector<std::vector<ArchiveGridCell>> cells;  // [y][x]
  double minFitness = 0, maxFitness = 0;            // over filled cells
  int filled = 0;
};

// The value shown for an elite that has no value on a dimension.
inline constexpr const char* kNoValue = "(none)";

// The descriptor dimensions present in any elite, sorted.
std::vector<std::string> descriptorDimensions(const std::vector<ArchiveElite>& elites);

// Sorts axis values: numerically when all are numbers, else as text; kNoValue last.
std::vector<std::string> sortAxisValues(std::vector<std::string> values);

ArchiveGrid buildArchiveGrid(const std::vector<ArchiveElite>& elites, const std::string& xDimension,
                             const std::string& yDimension);

}  // namespace crucible::views
