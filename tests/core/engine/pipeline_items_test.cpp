// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include "core/engine/pipeline_items.h"

namespace crucible::engine_detail {
namespace {

Candidate withSource(CandidateId id, const std::string& source) {
  Candidate c;
  c.id = id;
  c.source = source;
  return c;
}

RunSettings settings(ProfileMode profile) {
  RunSettings s;
  s.profile = profile;
  s.validationSeeds = 3;
  s.extendedValidationSeeds = 5;
  return s;
}

TEST(PipelineItems, SeedsDependOnTheSourceAndTheRunSeedOnly) {
  RunSettings s = settings(ProfileMode::None);
  PipelineItem a = pipelineItemFor(withSource(1, "kernel A"), nullptr, s, 42, 0);
  PipelineItem sameSource = pipelineItemFor(withSource(2, "kernel A"), nullptr, s, 42, 0);
  PipelineItem otherSource = pipelineItemFor(withSource(1, "kernel B"), nullptr, s, 42, 0);
  PipelineItem otherRun = pipelineItemFor(withSource(1, "kernel A"), nullptr, s, 43, 0);
  ASSERT_EQ(a.seeds.size(), 3u);
  ASSERT_EQ(a.extendedSeeds.size(), 5u);
  EXPECT_EQ(a.seeds, sameSource.seeds) << "row ids do not matter";
  EXPECT_EQ(a.extendedSeeds, sameSource.extendedSeeds);
  EXPECT_NE(a.seeds, otherSource.seeds);
  EXPECT_NE(a.seeds, otherRun.seeds);
  for (auto seed : a.seeds)
    EXPECT_EQ(std::count(a.extendedSeeds.begin(), a.extendedSeeds.end(), seed), 0) << "extended seeds are new";
  EXPECT_EQ(a.candidate.source, "kernel A");
}

TEST(PipelineItems, TheProfileThresholdFollowsTheProfileMode) {
  ArchiveCell elite;
  elite.fitness = 1.7;
  EXPECT_TRUE(std::isinf(pipelineItemFor(withSource(1, "k"), &elite, settings(ProfileMode::All), 1, 0).profileAbove));
  EXPECT_LT(pipelineItemFor(withSource(1, "k"), &elite, settings(ProfileMode::All), 1, 0).profileAbove, 0);
  EXPECT_GT(pipelineItemFor(withSource(1, "k"), &elite, settings(ProfileMode::None), 1, 0).profileAbove, 1e300);
  EXPECT_DOUBLE_EQ(pipelineItemFor(withSource(1, "k"), &elite, settings(ProfileMode::Elites), 1, 0).profileAbove, 1.7);
  EXPECT_DOUBLE_EQ(pipelineItemFor(withSource(1, "k"), nullptr, settings(ProfileMode::Elites), 1, 0).profileAbove, 0)
      << "an empty cell: any valid result is profiled";
}

TEST(PipelineItems, CarriesTheSealBarOfTheGeneration) {
  EXPECT_DOUBLE_EQ(pipelineItemFor(withSource(1, "k"), nullptr, settings(ProfileMode::None), 1, 1.4).bestSealedSpeedup,
                   1.4);
}

}  // namespace
}  // namespace crucible::engine_detail
