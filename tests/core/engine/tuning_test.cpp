// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <cmath>
#include <fstream>
#include <set>
#include "core/engine/engine.h"
#include "core/engine/tuning_cache.h"
#include "core/engine/tuning_strategy.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::TempProject;

const std::vector<TunableParameter> kSpace{{"A", {1, 2, 4, 8, 16, 32}}, {"B", {0, 1, 2, 3, 4}}};

// A smooth bowl with its minimum at A=8, B=3.
double bowl(const ParameterPoint& p) {
  double a = std::log2(static_cast<double>(p.at("A"))) - 3.0;
  double b = static_cast<double>(p.at("B")) - 3.0;
  return 10.0 * std::exp(0.3 * a * a + 0.2 * b * b);
}

TEST(ConfigKey, IsCanonicalAndSeparatesSources) {
  ParameterPoint p{{"B", 2}, {"A", 1}};
  EXPECT_EQ(configKey("arch", p, "src"), configKey("arch", ParameterPoint{{"A", 1}, {"B", 2}}, "src"));
  EXPECT_EQ(configKey("arch", p, "src").substr(0, 13), "arch|A=1,B=2|");
  EXPECT_NE(configKey("arch", p, "src"), configKey("arch", p, "src2"));
  EXPECT_NE(configKey("arch", p, "src"), configKey("arch2", p, "src"));
  // The same kernel with another header comment (a template genome reached by
  // another route) is one configuration; a change to its code is another.
  const std::string kernel = "// origin: seed\n__global__ void k() {  // body\n}\n";
  EXPECT_EQ(configKey("arch", p, kernel), configKey("arch", p, "  // origin: mutate:param (parents #57)\n" + kernel.substr(16)));
  EXPECT_NE(configKey("arch", p, kernel), configKey("arch", p, "// origin: seed\n__global__ void k() {  // body\n  ;\n}\n"));
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);  // the published FNV-1a test vector
}

class EveryStrategy : public ::testing::TestWithParam<TuningStrategy> {};

TEST_P(EveryStrategy, NeverProposesASeenPointAndCoversTheWholeSpace) {
  std::mt19937_64 rng(3);
  std::vector<TuningObservation> observed;
  std::set<ParameterPoint> excluded{{{"A", 1}, {"B", 0}}};
  std::set<ParameterPoint> proposed;
  for (int step = 0; step < 100; ++step) {
    auto next = rankTuningPoints(GetParam(), kSpace, {{"A", 4}, {"B", 1}}, observed, excluded, rng, 2);
    if (next.empty()) break;
    EXPECT_LE(next.size(), 2u);
    for (const auto& p : next) {
      EXPECT_FALSE(excluded.count(p)) << "an excluded point came back";
      EXPECT_TRUE(proposed.insert(p).second) << "a point came back twice";
      observed.push_back({p, bowl(p)});
    }
  }
  EXPECT_EQ(proposed.size(), spaceSize(kSpace) - 1) << "every point but the excluded one, each once";
}

INSTANTIATE_TEST_SUITE_P(Tuning, EveryStrategy,
                         ::testing::Values(TuningStrategy::Random, TuningStrategy::GreedyLocal,
                                           TuningStrategy::ModelBased));

TEST(GreedyTuning, ProposesNeighboursOfTheBestPoint) {
  std::mt19937_64 rng(1);
  std::vector<TuningObservation> observed{{{{"A", 4}, {"B", 2}}, 5.0}, {{{"A", 32}, {"B", 0}}, 50.0}};
  auto next = rankTuningPoints(TuningStrategy::GreedyLocal, kSpace, {}, observed, {}, rng, 4);
  ASSERT_EQ(next.size(), 4u);
  std::set<ParameterPoint> expected{{{"A", 2}, {"B", 2}}, {{"A", 8}, {"B", 2}}, {{"A", 4}, {"B", 1}},
                                    {{"A", 4}, {"B", 3}}};
  EXPECT_EQ(std::set<ParameterPoint>(next.begin(), next.end()), expected);
}

TEST(ModelBasedTuning, PredictsTheOptimumOfASmoothSurfaceFromAFewPoints) {
  std::mt19937_64 rng(2);
  std::vector<TuningObservation> observed;
  for (ParameterPoint p : std::vector<ParameterPoint>{{{"A", 1}, {"B", 0}}, {{"A", 32}, {"B", 0}},
                                                      {{"A", 1}, {"B", 4}}, {{"A", 32}, {"B", 4}},
                                                      {{"A", 4}, {"B", 1}}, {{"A", 16}, {"B", 2}}})
    observed.push_back({p, bowl(p)});
  auto next = rankTuningPoints(TuningStrategy::ModelBased, kSpace, {}, observed, {}, rng, 1);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0], (ParameterPoint{{"A", 8}, {"B", 3}})) << "the quadratic fit finds the bowl's bottom";
}

TEST(ModelBasedTuning, FindsTheOptimumWithFewerMeasurementsThanRandomOnAverage) {
  auto measurementsToOptimum = [](TuningStrategy s, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<TuningObservation> observed;
    for (int n = 1; n <= 30; ++n) {
      auto next = rankTuningPoints(s, kSpace, {{"A", 1}, {"B", 0}}, observed, {}, rng, 1);
      observed.push_back({next.at(0), bowl(next[0])});
      if (next[0] == ParameterPoint{{"A", 8}, {"B", 3}}) return n;
    }
    return 31;
  };
  int model = 0, random = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    model += measurementsToOptimum(TuningStrategy::ModelBased, seed);
    random += measurementsToOptimum(TuningStrategy::Random, seed);
  }
  EXPECT_LT(model, random);
}

TEST(ModelBasedTuning, RejectsPointsOutsideTheValueLists) {
  std::mt19937_64 rng(1);
  EXPECT_THROW(rankTuningPoints(TuningStrategy::ModelBased, kSpace, {}, {{{{"A", 3}, {"B", 0}}, 1.0}}, {}, rng, 1),
               std::invalid_argument);
}

// The project's tuning cache: no configuration is measured twice, within a
// run or across runs of the same task.
TEST(TuningCache, NoConfigurationIsMeasuredTwiceInAProject) {
  TempProject project;
  FakeProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher(1);
  std::string record = (project.dir() / "evaluations.log").string();
  dispatcher.evaluator(0).recordPath = record;
  Engine engine(project.path(), proposer, compiler, dispatcher);
  RunSettings settings = testing::smallSettings();
  settings.tuningShare = 0.5;
  RunId first = engine.createRun(project.task(), "first", 1, Budget{60, 0, 0}, false, settings);
  engine.run(first);
  RunId second = engine.createRun(project.task(), "second", 1, Budget{40, 0, 0}, false, settings);
  engine.run(second);

  auto store = project.open();
  EXPECT_EQ(store->run(first)->status, RunStatus::Finished);
  EXPECT_GT(proposer.tunings.load(), 0) << "tuning took part";
  std::set<std::string> keys;
  int candidates = 0;
  for (RunId run : {first, second}) {
    for (const auto& s : store->candidateSummaries(run)) {
      if (s.status == CandidateStatus::Reference) continue;
      auto c = store->candidate(s.id);
      std::string key = configKey(c->architectureKey, proposer.parametersOf(*c), c->source);
      EXPECT_TRUE(keys.insert(key).second) << "configuration measured twice: " << key;
      EXPECT_EQ(store->lookupTuning(project.task(), key), c->id);
      ++candidates;
    }
  }
  EXPECT_GT(candidates, 60);
  std::ifstream in(record);
  std::set<std::string> ends;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("end ", 0) == 0) {
      EXPECT_TRUE(ends.insert(line).second) << "evaluated twice: " << line;
    }
  EXPECT_EQ(static_cast<int>(ends.size()), dispatcher.totalEvaluations());
}

}  // namespace
}  // namespace crucible
