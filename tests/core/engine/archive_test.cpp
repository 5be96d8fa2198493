// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/archive.h"
#include "core/engine/binning.h"

namespace crucible {
namespace {

TEST(Archive, EmptyCellTakesTheFirstCandidate) {
  Archive a(7, 1);
  EXPECT_EQ(a.insert(0, "mem=smem", 11, 1.5), Placement::NewCell);
  const ArchiveCell* c = a.cell(0, "mem=smem");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->elite, 11);
  EXPECT_EQ(c->fitness, 1.5);
  EXPECT_EQ(c->runId, 7);
  EXPECT_EQ(a.size(), 1u);
}

TEST(Archive, BetterCandidateReplacesTheEliteWorseAndEqualOnesDoNot) {
  Archive a(1, 1);
  a.insert(0, "k", 1, 1.0);
  EXPECT_EQ(a.insert(0, "k", 2, 0.9), Placement::Rejected);
  EXPECT_EQ(a.insert(0, "k", 3, 1.0), Placement::Rejected) << "ties keep the older elite";
  EXPECT_EQ(a.cell(0, "k")->elite, 1);
  EXPECT_EQ(a.insert(0, "k", 4, 1.2), Placement::Replaced);
  EXPECT_EQ(a.cell(0, "k")->elite, 4);
  EXPECT_EQ(a.cell(0, "k")->fitness, 1.2);
  EXPECT_EQ(a.size(), 1u);
}

TEST(Archive, ReplacementKeepsTheCellsCuriosityCounters) {
  Archive a(1, 1);
  a.insert(0, "k", 1, 1.0);
  a.cell(0, "k")->selections = 5;
  a.cell(0, "k")->improvements = 2;
  a.insert(0, "k", 2, 2.0);
  EXPECT_EQ(a.cell(0, "k")->selections, 5);
  EXPECT_EQ(a.cell(0, "k")->improvements, 2);
}

TEST(Archive, IslandsAreSeparateAndBestLooksAcrossThem) {
  Archive a(1, 2);
  a.insert(0, "k", 1, 1.0);
  EXPECT_EQ(a.cell(1, "k"), nullptr);
  a.insert(1, "k", 2, 3.0);
  a.insert(1, "j", 3, 2.0);
  EXPECT_EQ(a.best(0)->elite, 1);
  EXPECT_EQ(a.best(1)->elite, 2);
  EXPECT_EQ(a.best()->elite, 2);
  EXPECT_EQ(a.cells(1).size(), 2u);
  EXPECT_EQ(a.cells(1).front()->key, "j") << "cells come in key order";
  EXPECT_THROW(a.insert(2, "k", 4, 1.0), std::invalid_argument);
}

TEST(Archive, CellOfFindsTheCellAnEliteHoldsOnAnyIsland) {
  Archive a(1, 2);
  a.insert(0, "k", 1, 1.0);
  a.insert(1, "j", 2, 2.0);
  a.insert(1, "j", 3, 2.5);   // 2 is no longer an elite
  ASSERT_NE(a.cellOf(3), nullptr);
  EXPECT_EQ(a.cellOf(3)->island, 1);
  EXPECT_EQ(a.cellOf(3)->key, "j");
  EXPECT_EQ(a.cellOf(1)->key, "k");
  EXPECT_EQ(a.cellOf(2), nullptr);
}

TEST(Archive, EraseEmptiesOneCellAndBestLooksPastIt) {
  Archive a(1, 2);
  a.insert(0, "k", 1, 3.0);
  a.insert(0, "j", 2, 2.0);
  a.insert(1, "k", 3, 1.0);
  a.erase(0, "k");
  EXPECT_EQ(a.cell(0, "k"), nullptr);
  EXPECT_NE(a.cell(1, "k"), nullptr) << "the same key on another island is another cell";
  EXPECT_EQ(a.best()->elite, 2);
  EXPECT_EQ(a.size(), 2u);
  a.erase(0, "k");   // already empty
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(a.insert(0, "k", 4, 0.5), Placement::NewCell) << "an emptied cell takes the next candidate";
  EXPECT_THROW(a.erase(2, "k"), std::invalid_argument);
}

TEST(Archive, LoadRestoresStoredCells) {
  Archive a(1, 2);
  ArchiveCell c{1, 1, "x", 42, 2.5, 3, 1};
  a.load({c});
  ASSERT_NE(a.cell(1, "x"), nullptr);
  EXPECT_EQ(a.cell(1, "x")->elite, 42);
  EXPECT_EQ(a.cell(1, "x")->selections, 3);
  ArchiveCell bad{1, 5, "x", 1, 1, 0, 0};
  EXPECT_THROW(a.load({bad}), std::invalid_argument);
}

TEST(Binning, WithoutBinningEveryDimensionIsUsedVerbatimInNameOrder) {
  EXPECT_EQ(cellKey({{"vec", "4"}, {"mem", "smem"}}, {}), "mem=smem;vec=4");
}

TEST(Binning, NumericEdgesMapValuesToRanges) {
  std::vector<DimensionBinning> b{{"vec", {2, 8}}, {"mem", {}}};
  EXPECT_EQ(cellKey({{"vec", "1"}, {"mem", "smem"}, {"other", "x"}}, b), "mem=smem;vec=[-inf,2)");
  EXPECT_EQ(cellKey({{"vec", "2"}, {"mem", "smem"}}, b), "mem=smem;vec=[2,8)") << "an edge opens its bin";
  EXPECT_EQ(cellKey({{"vec", "4"}, {"mem", "smem"}}, b), "mem=smem;vec=[2,8)");
  EXPECT_EQ(cellKey({{"vec", "16"}, {"mem", "smem"}}, b), "mem=smem;vec=[8,inf)");
}

TEST(Binning, MissingDimensionIsMarkedAndNonNumbersAreRejected) {
  std::vector<DimensionBinning> b{{"vec", {2, 8}}};
  EXPECT_EQ(cellKey({{"mem", "smem"}}, b), "vec=?");
  try {
    cellKey({{"vec", "wide"}}, b);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'vec'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crucible
