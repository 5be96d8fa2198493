// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/diff_model.h"

#include <algorithm>
#include <dtl/dtl.hpp>

namespace crucible::views {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  if (text.empty()) return lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (end == std::string::npos) {
      // A final newline does not start another (empty) line.
      if (start < text.size()) lines.push_back(std::move(line));
      break;
    }
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

namespace {

// Sorted byte indices -> ranges of consecutive indices.
std::vector<CharRange> toRanges(const std::vector<int>& indices) {
  std::vector<CharRange> ranges;
  for (int i : indices) {
    if (!ranges.empty() && ranges.back().start + ranges.back().length == i)
      ++ranges.back().length;
    else
      ranges.push_back({i, 1});
  }
  return ranges;
}

std::string joinPadded(const std::vector<DiffRow>& rows, const std::vector<std::string>& lines, bool left) {
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& line = left ? rows[r].leftLine : rows[r].rightLine;
    if (line) out += lines[static_cast<std::size_t>(*line)];
    if (r + 1 < rows.size()) out += '\n';
  }
  return out;
}

}  // namespace

std::string AlignedDiff::paddedLeft() const { return joinPadded(rows, leftLines, true); }
std::string AlignedDiff::paddedRight() const { return joinPadded(rows, rightLines, false); }

void diffLine(const std::string& left, const std::string& right,
              std::vector<CharRange>& leftChanges, std::vector<CharRange>& rightChanges) {
  dtl::Diff<char, std::string> d(left, right);
  d.compose();
  std::vector<int> removed, added;
  for (const auto& [ch, info] : d.getSes().getSequence()) {
    if (info.type == dtl::SES_DELETE) removed.push_back(static_cast<int>(info.beforeIdx - 1));
    else if (info.type == dtl::SES_ADD) added.push_back(static_cast<int>(info.afterIdx - 1));
  }
  std::sort(removed.begin(), removed.end());
  std::sort(added.begin(), added.end());
  leftChanges = toRanges(removed);
  rightChanges = toRanges(added);
}

AlignedDiff computeAlignedDiff(const std::string& left, const std::string& right) {
  AlignedDiff out;
  out.leftLines = splitLines(left);
  out.rightLines = splitLines(right);

  dtl::Diff<std::string, std::vector<std::string>> d(out.leftLines, out.rightLines);
  d.compose();
  const auto ses = d.getSes().getSequence();

  // Deleted and added lines of the current change block, in order.
  std::vector<int> removed, added;
  auto flushBlock = [&] {
    if (removed.empty() && added.empty()) return;
    out.hunkStarts.push_back(static_cast<int>(out.rows.size()));
    const std::size_t paired = std::min(removed.size(), added.size());
    for (std::size_t i = 0; i < std::max(removed.size(), added.size()); ++i) {
      DiffRow row;
      if (i < paired) {
        row.kind = DiffRowKind::Changed;
        row.leftLine = removed[i];
        row.rightLine = added[i];
        diffLine(out.leftLines[static_cast<std::size_t>(removed[i])],
                 out.rightLines[static_cast<std::size_t>(added[i])], row.leftChanges, row.rightChanges);
      } else if (i < removed.size()) {
        row.kind = DiffRowKind::Removed;
        row.leftLine = removed[i];
      } else {
        row.kind = DiffRowKind::Added;
        row.rightLine = added[i];
      }
      out.rows.push_back(std::move(row));
    }
    removed.clear();
    added.clear();
  };

  for (const auto& [line, info] : ses) {
    switch (info.type) {
      case dtl::SES_DELETE: removed.push_back(static_cast<int>(info.beforeIdx - 1)); break;
      case dtl::SES_ADD: added.push_back(static_cast<int>(info.afterIdx - 1)); break;
      default: {
        flushBlock();
        DiffRow row;
        row.leftLine = static_cast<int>(info.beforeIdx - 1);
        row.rightLine = static_cast<int>(info.afterIdx - 1);
        out.rows.push_back(std::move(row));
      }
    }
  }
  flushBlock();
  return out;
}

int nextHunk(const AlignedDiff& diff, int row) {
  auto it = std::upper_bound(diff.hunkStarts.begin(), diff.hunkStarts.end(), row);
  return it == diff.hunkStarts.end() ? -1 : *it;
}

int previousHunk(const AlignedDiff& diff, int row) {
  auto it = std::lower_bound(diff.hunkStarts.begin(), diff.hunkStarts.end(), row);
  return it == diff.hunkStarts.begin() ? -1 : *std::prev(it);
}

}  // namespace crucible::views
