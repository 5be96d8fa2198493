// SPDX-License-Identifier: GPL-3.0-or-later
// The line diff behind the side-by-side view: two texts aligned row by row
// (a line missing on one side becomes a padding row), with the changed
// character ranges inside each changed line. Pure: no widgets, no Qt.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace crucible::views {

enum class DiffRowKind {
  Same,     // the line is on both sides, unchanged
  Changed,  // a line on each side, paired inside one change block
  Removed,  // only on the left; the right side is padding
  Added,    // only on the right; the left side is padding
};

// A byte range inside one line.
struct CharRange {
  int start = 0;
  int length = 0;
  bool operator==(const CharRange&) const = default;
};

struct DiffRow {
  DiffRowKind kind = DiffRowKind::Same;
  std::optional<int> leftLine;    // 0-based line of the left text; nullopt = padding
  std::optional<int> rightLine;
  std::vector<CharRange> leftChanges;   // only for Changed rows
  std::vector<CharRange> rightChanges;
};

struct AlignedDiff {
  std::vector<std::string> leftLines;
  std::vector<std::string> rightLines;
  std::vector<DiffRow> rows;
  std::vector<int> hunkStarts;    // row of the first row of each block of changes

  bool identical() const { return hunkStarts.empty(); }
  // The text of one side, padded so that row i is line i on both sides.
  std::string paddedLeft() const;
  std::string paddedRight() const;
};

// Splits on '\n' (a trailing '\r' is dropped); "" has no lines.
std::vector<std::string> splitLines(const std::string& text);

// Changed bytes of two versions of one line (a character diff).
void diffLine(const std::string& left, const std::string& right,
              std::vector<CharRange>& leftChanges, std::vector<CharRange>& rightChanges);

AlignedDiff computeAlignedDiff(const std::string& left, const std::string& right);

// The first hunk starting after `row`, or -1; the last hunk starting before `row`, or -1.
int nextHunk(const AlignedDiff& diff, int row);
int previousHunk(const AlignedDiff& diff, int row);

}  // namespace crucible::views
