// SPDX-License-Identifier: GPL-3.0-or-later
// The memory-bound spaces' starting points: legal at the suite's shapes
// (the first one at every large shape), first among the seeds, and shaped as
// intended: a row cached in registers is read from global memory once.
#include <gtest/gtest.h>

#include <algorithm>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/starting_points.h"

namespace crucible {
namespace {

using templates::Genome;

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(TemplateStartingPoints, LegalAtEverySuiteShapeOfTheMemoryBoundFamilies) {
  const auto problems = testing_support::memoryBoundSuiteProblems();
  ASSERT_GE(problems.size(), 14u) << "the built-in suite (resources/tasks) was not found";
  int large = 0;
  for (const auto& p : problems) {
    const auto all = templates::designSpaceFor(p.family).startingPoints(p);
    ASSERT_FALSE(all.empty()) << p.taskName;
    for (const auto& g : all) EXPECT_EQ(g.family, p.family) << p.taskName;
    const auto legal = testing_support::legalStartingPoints(p);
    // The search starts from at least two known-good designs at every suite shape.
    EXPECT_GE(legal.size(), 2u) << p.taskName;
    if (testing_support::isLargeSuiteTask(p.taskName)) {
      ++large;
      // The first entry is the design meant for the large shapes: it must not be skipped there.
      const auto errors = templates::checkGenome(all.front(), p);
      EXPECT_TRUE(errors.empty()) << p.taskName << " " << all.front().toJson() << ": " << errors.at(0);
    }
  }
  EXPECT_EQ(large, 7);
}

TEST(TemplateStartingPoints, SeedsBeginWithTheLegalStartingPoints) {
  for (const auto& p : testing_support::memoryBoundSuiteProblems()) {
    const auto legal = testing_support::legalStartingPoints(p);
    const auto seeds = templates::seedGenomes(p, 5, 8);
    ASSERT_GE(seeds.size(), legal.size()) << p.taskName;
    for (std::size_t i = 0; i < legal.size(); ++i) EXPECT_EQ(seeds[i], legal[i]) << p.taskName << " seed " << i;
  }
}

TEST(TemplateStartingPoints, CachedRowsAreReadOnceAndWrittenOnce) {
  for (const auto& p : testing_support::memoryBoundSuiteProblems()) {
    for (const auto& g : testing_support::legalStartingPoints(p)) {
      const Candidate c = TemplateProposer::candidateFor(g, p);
      const std::string where = p.taskName + " " + g.toJson();
      if (p.family == "softmax" || p.family == "layernorm" || p.family == "rmsnorm" || p.family == "rowsum" ||
          p.family == "cross_entropy") {
        // One sweep reads x from global memory: the registers hold it (or it is consumed as it streams).
        // The L2 re-read design (torch.compile's) reads it twice: evict-last, then evict-first.
        const bool reread = g.genes.count("hint") && g.gene("hint") == "evict_last";
        EXPECT_EQ(occurrences(c.source, "row_in + col"), reread ? 2 : 1) << where << "\n" << c.source;
        if (reread) {
          EXPECT_EQ(occurrences(c.source, "hinted_load_keep<Pack>(row_in + col)"), 1) << where;
          EXPECT_EQ(occurrences(c.source, "hinted_load<Pack>(row_in + col)"), 1) << where;
        }
        EXPECT_EQ(c.source.find("row_cache"), std::string::npos) << where;
        if (p.family != "rowsum" && p.family != "cross_entropy")
          EXPECT_EQ(occurrences(c.source, reread ? "store_pack_hinted(row_out + col" : "store_pack(row_out + col"), 1)
              << where;
      }
      if (p.family == "softmax") {
        // One exponential per element: the write sweep only scales the cached exponentials.
        EXPECT_EQ(occurrences(c.source, "fast_exp(v[k]"), 1) << where << "\n" << c.source;
      }
    }
  }
}

}  // namespace
}  // namespace crucible
