// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/lineage/lineage_layout.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>

using namespace crucible;
using namespace crucible::views;

namespace {

// The tidy-tree properties: neighbours on one depth at least `distance` apart,
// siblings left to right in input order, every parent centred over its children.
void expectTidy(const std::vector<LineageInput>& input, const LineageLayout& l, double distance = 1.0) {
  ASSERT_EQ(l.nodes.size(), input.size());
  std::map<int, std::vector<double>> byDepth;
  std::map<int, std::vector<int>> children;
  for (int i = 0; i < static_cast<int>(l.nodes.size()); ++i) {
    byDepth[l.nodes[i].depth].push_back(l.nodes[i].x);
    if (l.nodes[i].treeParent >= 0) {
      children[l.nodes[i].treeParent].push_back(i);
      EXPECT_EQ(l.nodes[i].depth, l.nodes[l.nodes[i].treeParent].depth + 1);
    } else {
      EXPECT_EQ(l.nodes[i].depth, 0);
    }
    EXPECT_GE(l.nodes[i].x, 0.0);
  }
  for (auto& [depth, xs] : byDepth) {
    std::sort(xs.begin(), xs.end());
    for (std::size_t k = 1; k < xs.size(); ++k)
      ASSERT_GE(xs[k] - xs[k - 1], distance - 1e-6) << "overlap at depth " << depth;
  }
  for (const auto& [p, ks] : children) {
    for (std::size_t k = 1; k < ks.size(); ++k) EXPECT_LT(l.nodes[ks[k - 1]].x, l.nodes[ks[k]].x);
    const double mid = (l.nodes[ks.front()].x + l.nodes[ks.back()].x) / 2;
    EXPECT_NEAR(l.nodes[p].x, mid, 1e-6) << "parent " << l.nodes[p].id << " not centred";
  }
}

}  // namespace

TEST(LineageLayout, EmptyAndSingle) {
  EXPECT_TRUE(layoutLineage({}).nodes.empty());
  const auto l = layoutLineage({{7, {}}});
  ASSERT_EQ(l.nodes.size(), 1u);
  EXPECT_EQ(l.nodes[0].id, 7);
  EXPECT_EQ(l.nodes[0].depth, 0);
  EXPECT_DOUBLE_EQ(l.nodes[0].x, 0.0);
}

TEST(LineageLayout, ChainIsVertical) {
  std::vector<LineageInput> in{{1, {}}, {2, {1}}, {3, {2}}, {4, {3}}};
  const auto l = layoutLineage(in);
  expectTidy(in, l);
  for (const auto& n : l.nodes) EXPECT_DOUBLE_EQ(n.x, 0.0);
  EXPECT_EQ(l.maxDepth, 3);
}

TEST(LineageLayout, BinaryTreeIsSymmetric) {
  std::vector<LineageInput> in{{1, {}}, {2, {1}}, {3, {1}}, {4, {2}}, {5, {2}}, {6, {3}}, {7, {3}}};
  const auto l = layoutLineage(in);
  expectTidy(in, l);
  EXPECT_DOUBLE_EQ(l.nodes[3].x, 0.0);
  EXPECT_DOUBLE_EQ(l.nodes[6].x, 3.0);
  EXPECT_DOUBLE_EQ(l.nodes[0].x, 1.5);
  EXPECT_DOUBLE_EQ(l.width, 3.0);
}

TEST(LineageLayout, UnbalancedSubtreesDoNotOverlap) {
  // A wide left subtree and a deep right one: the contours must be compared at every depth.
  std::vector<LineageInput> in{{1, {}}, {2, {1}}, {3, {1}}, {4, {1}}};
  CandidateId id = 5;
  for (int k = 0; k < 6; ++k) in.push_back({id++, {2}});
  CandidateId prev = 4;
  for (int k = 0; k < 5; ++k) { in.push_back({id, {prev}}); in.push_back({id + 1, {prev}}); prev = id; id += 2; }
  const auto l = layoutLineage(in);
  expectTidy(in, l);
}

TEST(LineageLayout, ForestAndCrossoverEdges) {
  // Two seeds; 5 is a crossover of 3 (primary) and 4.
  std::vector<LineageInput> in{{1, {}}, {2, {}}, {3, {1}}, {4, {2}}, {5, {3, 4}}, {6, {99}}};
  const auto l = layoutLineage(in);
  expectTidy(in, l);
  EXPECT_EQ(l.nodes[5].depth, 0) << "a parent outside the set makes a root";
  int secondary = 0;
  for (const auto& e : l.edges) {
    if (!e.primary) {
      ++secondary;
      EXPECT_EQ(l.nodes[e.child].id, 5);
      EXPECT_EQ(l.nodes[e.parent].id, 4);
    }
  }
  EXPECT_EQ(secondary, 1);
  EXPECT_EQ(l.edges.size(), 4u);
}

TEST(LineageLayout, CycleIsCutNotLooped) {
  std::vector<LineageInput> in{{1, {3}}, {2, {1}}, {3, {2}}, {4, {}}};
  const auto l = layoutLineage(in);
  expectTidy(in, l);
}

TEST(LineageLayout, TenThousandNodesQuickly) {
  std::mt19937 rng(42);
  std::vector<LineageInput> in;
  in.push_back({1, {}});
  for (CandidateId id = 2; id <= 10000; ++id) {
    // Prefer recent parents (evolution-like: deep and bushy), sometimes a crossover.
    std::uniform_int_distribution<CandidateId> recent(std::max<CandidateId>(1, id - 200), id - 1);
    LineageInput n{id, {recent(rng)}};
    if (id % 17 == 0) n.parents.push_back(recent(rng));
    in.push_back(n);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto l = layoutLineage(in);
  const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("layout of %zu nodes: %.1f ms, width %.0f, depth %d\n", in.size(), ms, l.width, l.maxDepth);
  EXPECT_LT(ms, 500.0);
  expectTidy(in, l);
}

TEST(LineageLayout, DeepChainNeedsNoRecursion) {
  std::vector<LineageInput> in{{1, {}}};
  for (CandidateId id = 2; id <= 200000; ++id) in.push_back({id, {id - 1}});
  const auto l = layoutLineage(in);
  EXPECT_EQ(l.maxDepth, 199999);
}

TEST(FilterLineage, ReparentsToNearestKeptAncestor) {
  std::vector<LineageInput> in{{1, {}}, {2, {1}}, {3, {2}}, {4, {3}}, {5, {4, 2}}};
  const auto f = filterLineage(in, [](CandidateId id) { return id != 2 && id != 4; });
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].id, 1);
  EXPECT_TRUE(f[0].parents.empty());
  EXPECT_EQ(f[1].id, 3);
  EXPECT_EQ(f[1].parents, std::vector<CandidateId>{1});
  EXPECT_EQ(f[2].id, 5);
  EXPECT_EQ(f[2].parents, (std::vector<CandidateId>{3, 1}));
}

TEST(FilterLineage, PathToRoot) {
  std::vector<LineageInput> in{{1, {}}, {2, {1}}, {3, {2}}, {4, {1}}};
  EXPECT_EQ(primaryPathToRoot(in, 3), (std::vector<CandidateId>{3, 2, 1}));
  EXPECT_TRUE(primaryPathToRoot(in, 42).empty());
}

TEST(CollapseSubtrees, HidesFirstParentDescendantsAndCountsThem) {
  // 1 -> 2 -> 3, 2 -> 4, 1 -> 5; 6 is a crossover child of 5 and 3 (first parent 5).
  const std::vector<LineageInput> in = {{1, {}}, {2, {1}}, {3, {2}}, {4, {2}}, {5, {1}}, {6, {5, 3}}};
  const auto none = collapseSubtrees(in, {});
  EXPECT_TRUE(none.hidden.empty());
  const auto two = collapseSubtrees(in, {2});
  EXPECT_EQ(two.hidden, (std::unordered_set<CandidateId>{3, 4}));
  EXPECT_EQ(two.hiddenBelow.at(2), 2);
  const auto root = collapseSubtrees(in, {1, 2});
  EXPECT_EQ(root.hidden, (std::unordered_set<CandidateId>{2, 3, 4, 5, 6}));
  EXPECT_EQ(root.hiddenBelow.at(1), 5);
  EXPECT_EQ(root.hiddenBelow.at(2), 2);
}
