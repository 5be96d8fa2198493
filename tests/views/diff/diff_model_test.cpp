// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/diff_model.h"
#include "views/diff/candidate_figures.h"

#include <gtest/gtest.h>

using namespace crucible::views;

TEST(SplitLines, HandlesTrailingNewlineAndCarriageReturn) {
  EXPECT_TRUE(splitLines("").empty());
  EXPECT_EQ(splitLines("a\nb"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(splitLines("a\r\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(splitLines("\n\n"), (std::vector<std::string>{"", ""}));
}

TEST(AlignedDiff, IdenticalTextsHaveNoHunks) {
  const auto d = computeAlignedDiff("x\ny\n", "x\ny\n");
  EXPECT_TRUE(d.identical());
  ASSERT_EQ(d.rows.size(), 2u);
  for (const auto& r : d.rows) EXPECT_EQ(r.kind, DiffRowKind::Same);
}

TEST(AlignedDiff, ChangedLinePairsWithIntraLineRanges) {
  const auto d = computeAlignedDiff("int a;\nfloat x = v.x;\nreturn;\n", "int a;\nfloat4 x = v.y;\nreturn;\n");
  ASSERT_EQ(d.rows.size(), 3u);
  EXPECT_EQ(d.rows[1].kind, DiffRowKind::Changed);
  EXPECT_EQ(d.rows[1].leftLine, 1);
  EXPECT_EQ(d.rows[1].rightLine, 1);
  // "float x = v.x;" -> "float4 x = v.y;": '4' inserted at 5, 'x'->'y' at the end.
  ASSERT_EQ(d.rows[1].rightChanges.size(), 2u);
  EXPECT_EQ(d.rows[1].rightChanges[0], (CharRange{5, 1}));
  EXPECT_EQ(d.rows[1].rightChanges[1], (CharRange{13, 1}));
  ASSERT_EQ(d.rows[1].leftChanges.size(), 1u);
  EXPECT_EQ(d.rows[1].leftChanges[0], (CharRange{12, 1}));
  EXPECT_EQ(d.hunkStarts, std::vector<int>{1});
}

TEST(AlignedDiff, InsertionsArePaddedOnTheLeft) {
  const auto d = computeAlignedDiff("a\nd\n", "a\nb\nc\nd\n");
  ASSERT_EQ(d.rows.size(), 4u);
  EXPECT_EQ(d.rows[1].kind, DiffRowKind::Added);
  EXPECT_EQ(d.rows[2].kind, DiffRowKind::Added);
  EXPECT_FALSE(d.rows[1].leftLine.has_value());
  EXPECT_EQ(d.rows[3].leftLine, 1);
  EXPECT_EQ(d.rows[3].rightLine, 3);
  EXPECT_EQ(d.paddedLeft(), "a\n\n\nd");
  EXPECT_EQ(d.paddedRight(), "a\nb\nc\nd");
}

TEST(AlignedDiff, DeletionsArePaddedOnTheRightWhateverTheLengths) {
  // Left longer than right: dtl swaps the sequences internally; the sides must not.
  const auto d = computeAlignedDiff("a\nb\nc\nd\ne\n", "a\ne\n");
  ASSERT_EQ(d.rows.size(), 5u);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(d.rows[i].kind, DiffRowKind::Removed);
    EXPECT_EQ(d.rows[i].leftLine, i);
    EXPECT_FALSE(d.rows[i].rightLine.has_value());
  }
  EXPECT_EQ(d.paddedRight(), "a\n\n\n\ne");
}

TEST(AlignedDiff, BlockWithMoreRemovalsThanAdditions) {
  const auto d = computeAlignedDiff("k\nx1\nx2\nx3\nk2\n", "k\ny1\nk2\n");
  ASSERT_EQ(d.rows.size(), 5u);
  EXPECT_EQ(d.rows[1].kind, DiffRowKind::Changed);
  EXPECT_EQ(d.rows[2].kind, DiffRowKind::Removed);
  EXPECT_EQ(d.rows[3].kind, DiffRowKind::Removed);
  EXPECT_EQ(d.rows[4].leftLine, 4);
  EXPECT_EQ(d.rows[4].rightLine, 2);
}

TEST(AlignedDiff, HunkNavigation) {
  const auto d = computeAlignedDiff("a\nb\nc\nd\ne\nf\n", "a\nB\nc\nd\nE\nf\ng\n");
  EXPECT_EQ(d.hunkStarts, (std::vector<int>{1, 4, 6}));
  EXPECT_EQ(nextHunk(d, -1), 1);
  EXPECT_EQ(nextHunk(d, 1), 4);
  EXPECT_EQ(nextHunk(d, 4), 6);
  EXPECT_EQ(nextHunk(d, 6), -1);
  EXPECT_EQ(previousHunk(d, 6), 4);
  EXPECT_EQ(previousHunk(d, 1), -1);
}

TEST(AlignedDiff, EmptySides) {
  const auto added = computeAlignedDiff("", "x\ny\n");
  ASSERT_EQ(added.rows.size(), 2u);
  EXPECT_EQ(added.rows[0].kind, DiffRowKind::Added);
  const auto removed = computeAlignedDiff("x\n", "");
  ASSERT_EQ(removed.rows.size(), 1u);
  EXPECT_EQ(removed.rows[0].kind, DiffRowKind::Removed);
  EXPECT_TRUE(computeAlignedDiff("", "").rows.empty());
}

// ---------------------------------------------------------------- candidate figures

TEST(CandidateFigures, TensorMapsAreShownWithTheirBoxesAndSwizzle) {
  crucible::Candidate c;
  EXPECT_FALSE(candidateFigures(c).contains(QStringLiteral("TMA"))) << candidateFigures(c).toStdString();
  c.launch.tensorMaps = {{"A", 128, 64, "128B"}, {"B", 64, 128, "none"}};
  EXPECT_EQ(formatTensorMaps(c.launch.tensorMaps), QStringLiteral("TMA maps A 128×64 128B, B 64×128"));
  // Uncompiled: the maps are part of the launch rule, shown all the same.
  EXPECT_TRUE(candidateFigures(c).contains(QStringLiteral("TMA maps A 128×64 128B, B 64×128")))
      << candidateFigures(c).toStdString();
}
