// SPDX-License-Identifier: GPL-3.0-or-later
// The searches of RunSettings::search (issue 19's search ablation): their
// settings, their slot plans, and whole runs with the deterministic doubles.
#include <gtest/gtest.h>
#include <algorithm>
#include <map>
#include "core/engine/engine.h"
#include "core/engine/run_settings.h"
#include "core/engine/search_slot_plan.h"
#include "core/engine/slot_plan.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using engine_detail::planHillClimbSlot;
using engine_detail::planRandomSlot;
using engine_detail::planSlot;
using engine_detail::SlotPlan;
namespace ev = events;

MetaPrompt strategy(MetaPromptId id, const std::string& name, std::int64_t uses = 0) {
  MetaPrompt m;
  m.id = id;
  m.name = name;
  m.uses = uses;
  return m;
}

RunSettings searching(SearchStrategy search) {
  RunSettings s = testing::smallSettings();
  s.search = search;
  return s;
}

// ------------------------------------------------------------------ settings

TEST(SearchSettings, DefaultIsMapElitesAndEachNameRoundTrips) {
  EXPECT_EQ(RunSettings{}.search, SearchStrategy::MapElites);
  EXPECT_EQ(runSettingsFromJson("{}").search, SearchStrategy::MapElites) << "runs stored before the field existed";
  EXPECT_EQ(runSettingsFromJson(R"({"search": null})").search, SearchStrategy::MapElites);
  // null is a missing field for every named value, as for numbers.
  const RunSettings nulls = runSettingsFromJson(R"({"tuningStrategy": null, "profile": null, "sealStart": null})");
  EXPECT_EQ(nulls.tuningStrategy, RunSettings{}.tuningStrategy);
  EXPECT_EQ(nulls.profile, RunSettings{}.profile);
  EXPECT_EQ(nulls.sealStart, RunSettings{}.sealStart);
  for (SearchStrategy s : {SearchStrategy::MapElites, SearchStrategy::HillClimb, SearchStrategy::Random}) {
    RunSettings settings;
    settings.search = s;
    const std::string json = toJson(settings);
    EXPECT_NE(json.find(std::string("\"search\":\"") + toString(s) + "\""), std::string::npos) << json;
    EXPECT_EQ(runSettingsFromJson(json).search, s);
    EXPECT_EQ(searchStrategyFromString(toString(s)), s);
  }
  EXPECT_STREQ(toString(SearchStrategy::HillClimb), "hill-climb");
  EXPECT_EQ(runSettingsFromJson(R"({"search": "random"})").search, SearchStrategy::Random);
}

TEST(SearchSettings, BadValuesAreRefusedWithTheirName) {
  auto message = [](const std::string& json) -> std::string {
    try {
      runSettingsFromJson(json);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(message(R"({"search": "annealing"})").find("'annealing'"), std::string::npos);
  EXPECT_NE(message(R"({"search": "annealing"})").find("hill-climb"), std::string::npos) << "lists what it may be";
  EXPECT_NE(message(R"({"search": 3})").find("'search'"), std::string::npos);
  EXPECT_NE(message(R"({"search": "hill-climb", "islands": 2})").find("islands"), std::string::npos);
  EXPECT_NO_THROW(runSettingsFromJson(R"({"search": "map-elites", "islands": 2})"));
  RunSettings s;
  s.search = SearchStrategy::Random;
  s.islands = 3;
  EXPECT_THROW(validate(s), std::invalid_argument);
}

// ------------------------------------------------------------------ slot plans

TEST(SearchSlotPlan, StrategyKindsAreReadFromTheirNames) {
  EXPECT_TRUE(engine_detail::isExplorationStrategy("explore:new-architecture"));
  EXPECT_TRUE(engine_detail::isExplorationStrategy("llm:explore"));
  EXPECT_FALSE(engine_detail::isExplorationStrategy("mutate:gene"));
  EXPECT_TRUE(engine_detail::isCrossoverStrategy("crossover"));
  EXPECT_FALSE(engine_detail::isCrossoverStrategy("mutate:param"));
}

TEST(SearchSlotPlan, HillClimbingAlwaysTakesTheBestEliteOfAnyIslandAndNoMate) {
  Archive archive(1, 2);
  archive.insert(0, "a", 10, 1.2);
  archive.insert(0, "b", 11, 1.9);   // the best
  archive.insert(1, "c", 12, 1.5);
  archive.insert(1, "d", 13, 0.4);
  RunSettings s = searching(SearchStrategy::HillClimb);
  s.crossoverRate = 1.0;   // MAP-Elites would cross over every untuned slot
  s.tuningShare = 0.3;
  int tuned = 0;
  for (int slot = 0; slot < 200; ++slot) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(slot));
    for (int island : {0, 1}) {
      SlotPlan plan = planSlot(archive, island, {}, s, rng);
      ASSERT_NE(plan.parent, nullptr);
      EXPECT_EQ(plan.parent->elite, 11);
      EXPECT_EQ(plan.mate, nullptr);
      EXPECT_EQ(plan.kind, "mutate");
      tuned += plan.tuneFirst;
    }
  }
  EXPECT_GT(tuned, 60) << "tuning keeps its share (30% of 400)";
  EXPECT_LT(tuned, 180);
}

TEST(SearchSlotPlan, HillClimbingUsesOnlyOneParentStrategies) {
  Archive archive(1, 1);
  archive.insert(0, "a", 10, 1.5);
  archive.insert(0, "b", 11, 1.2);
  std::vector<MetaPrompt> strategies{strategy(1, "crossover"), strategy(2, "explore:new-architecture"),
                                     strategy(3, "mutate:gene", 5), strategy(4, "mutate:param", 1)};
  std::mt19937_64 rng(7);
  SlotPlan plan = planHillClimbSlot(archive, strategies, searching(SearchStrategy::HillClimb), rng);
  ASSERT_TRUE(plan.strategy);
  EXPECT_EQ(*plan.strategy, 3u) << "UCB1 among the one-parent strategies: the less used mutate:param";
  strategies[3].uses = 50;
  strategies[2].uses = 1;
  plan = planHillClimbSlot(archive, strategies, searching(SearchStrategy::HillClimb), rng);
  ASSERT_TRUE(plan.strategy);
  EXPECT_EQ(*plan.strategy, 2u);
  // Only strategies a single lineage cannot use: the proposer's one-parent default.
  plan = planHillClimbSlot(archive, {strategy(1, "crossover"), strategy(2, "llm:explore")},
                           searching(SearchStrategy::HillClimb), rng);
  EXPECT_FALSE(plan.strategy);
  EXPECT_EQ(plan.parent->elite, 10);
}

TEST(SearchSlotPlan, HillClimbingWithoutAValidCandidateMakesAFreshOne) {
  Archive empty(1, 1);
  std::mt19937_64 rng(1);
  SlotPlan plan = planHillClimbSlot(empty, {strategy(1, "mutate:gene")}, searching(SearchStrategy::HillClimb), rng);
  EXPECT_EQ(plan.parent, nullptr);
  EXPECT_FALSE(plan.tuneFirst);
  EXPECT_EQ(plan.kind, "fresh");
  EXPECT_FALSE(plan.strategy) << "a mutation needs a parent";
}

TEST(SearchSlotPlan, RandomSamplingNeverPassesAParentAndExplores) {
  Archive archive(1, 1);
  archive.insert(0, "a", 10, 3.0);
  RunSettings s = searching(SearchStrategy::Random);
  s.tuningShare = 1.0;
  s.crossoverRate = 1.0;
  std::vector<MetaPrompt> strategies{strategy(1, "mutate:gene"), strategy(2, "crossover"),
                                     strategy(3, "explore:new-architecture"), strategy(4, "explore:new-architecture")};
  for (int slot = 0; slot < 50; ++slot) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(slot));
    SlotPlan plan = planSlot(archive, 0, strategies, s, rng);
    EXPECT_EQ(plan.parent, nullptr);
    EXPECT_EQ(plan.mate, nullptr);
    EXPECT_FALSE(plan.tuneFirst);
    EXPECT_EQ(plan.kind, "fresh");
    ASSERT_TRUE(plan.strategy);
    EXPECT_EQ(*plan.strategy, 2u) << "the first exploration strategy";
  }
  EXPECT_FALSE(planRandomSlot({strategy(1, "mutate:gene")}).strategy) << "the proposer's no-parent default";
}

TEST(SearchSlotPlan, MapElitesPlansAreUnchangedByTheField) {
  Archive archive(1, 1);
  for (int i = 0; i < 6; ++i) archive.insert(0, "k" + std::to_string(i), 10 + i, 1.0 + i * 0.1);
  std::vector<MetaPrompt> strategies{strategy(1, "mutate:memory"), strategy(2, "crossover")};
  RunSettings plain;   // as before the field existed
  plain.tuningShare = plain.crossoverRate = 0.25;
  RunSettings explicitMapElites = runSettingsFromJson(toJson(plain));
  ASSERT_EQ(explicitMapElites.search, SearchStrategy::MapElites);
  std::mt19937_64 a(11), b(11);
  std::map<CandidateId, int> parents;
  for (int slot = 0; slot < 40; ++slot) {
    SlotPlan x = planSlot(archive, 0, strategies, plain, a);
    SlotPlan y = planSlot(archive, 0, strategies, explicitMapElites, b);
    ASSERT_NE(x.parent, nullptr);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.mate, y.mate);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.strategy, y.strategy);
    ++parents[x.parent->elite];
  }
  EXPECT_GT(parents.size(), 2u) << "MAP-Elites draws parents from several cells";
}

// ------------------------------------------------------------------ whole runs

struct Bench {
  testing::TempProject project;
  testing::FakeProposer proposer;
  testing::FakeCompiler compiler;
  testing::FakeDispatcher dispatcher;
  testing::RecordingObserver observer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer};
};

// The best fitness among the run's valid candidates of generations before g.
double bestBefore(const std::vector<CandidateSummary>& all, int generation) {
  double best = 0;
  for (const auto& c : all)
    if (c.generation < generation && c.status == CandidateStatus::Valid) best = std::max(best, c.fitness);
  return best;
}

TEST(SearchRun, HillClimbingBreedsOnlyFromTheBestSoFarAndKeepsItsSearchOnResume) {
  Bench b;
  RunSettings s = searching(SearchStrategy::HillClimb);
  s.tuningShare = 0.3;
  s.crossoverRate = 0.5;   // ignored by hill climbing
  // Hill climbing's rule on an archive that holds every earlier generation
  // (look-ahead breeds generation g from the archive as g-2 left it).
  s.lookAhead = false;
  RunId run = b.engine.createRun(b.project.task(), "hill", 21, Budget{40, 0, 0}, false, s);
  // Stopped part-way and resumed: the resumed loop reads the search from the stored settings.
  b.observer.setHook([&](const EngineEvent& e) {
    const auto* evaluated = as<ev::CandidateEvaluated>(e);
    if (evaluated && evaluated->counters.evaluationsDone == 12) b.engine.stop();
  });
  b.engine.run(run);
  auto store = b.project.open();
  ASSERT_EQ(store->run(run)->status, RunStatus::Stopped);
  EXPECT_EQ(runSettingsFromJson(store->run(run)->settingsJson).search, SearchStrategy::HillClimb);
  int stoppedAt = 0;
  for (const auto& c : store->candidateSummaries(run)) stoppedAt = std::max(stoppedAt, c.generation);
  b.observer.setHook(nullptr);
  b.engine.run(run);
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);

  const auto all = store->candidateSummaries(run);
  std::map<CandidateId, const CandidateSummary*> byId;
  for (const auto& c : all) byId[c.id] = &c;
  int children = 0, afterResume = 0;
  for (const auto& c : all) {
    if (c.generation == 0 || c.status == CandidateStatus::Reference) continue;
    const double best = bestBefore(all, c.generation);
    if (best <= 0) continue;   // no valid candidate yet: a fresh one is allowed
    ASSERT_EQ(c.parents.size(), 1u) << "candidate " << c.id << " (" << c.mutation << "): one lineage, no mate";
    const CandidateSummary* parent = byId.at(c.parents.front());
    EXPECT_EQ(parent->status, CandidateStatus::Valid);
    EXPECT_DOUBLE_EQ(parent->fitness, best) << "candidate " << c.id << " of generation " << c.generation
                                            << " was bred from #" << parent->id << ", not the best so far";
    ++children;
    afterResume += c.generation > stoppedAt;
  }
  EXPECT_GT(children, 10);
  EXPECT_GT(afterResume, 0);
  EXPECT_EQ(b.proposer.crossovers.load(), 0);
}

TEST(SearchRun, RandomSamplingPassesNoParentAndTunesNothing) {
  Bench b;
  RunSettings s = searching(SearchStrategy::Random);
  s.tuningShare = 0.5;
  s.crossoverRate = 0.5;
  RunId run = b.engine.createRun(b.project.task(), "random", 5, Budget{20, 0, 0}, false, s);
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  int fresh = 0;
  for (const auto& c : store->candidateSummaries(run)) {
    if (c.generation == 0 || c.status == CandidateStatus::Reference) continue;
    EXPECT_TRUE(c.parents.empty()) << "candidate " << c.id << " has a parent";
    EXPECT_EQ(c.mutation, "fresh");
    ++fresh;
  }
  EXPECT_GT(fresh, 5);
  EXPECT_EQ(b.proposer.tunings.load(), 0);
  EXPECT_EQ(b.proposer.crossovers.load(), 0);
}

TEST(SearchRun, MapElitesStaysTheDefaultAndDrawsFromSeveralCells) {
  Bench b;
  RunSettings s = testing::smallSettings();
  s.tuningShare = 0;
  RunId run = b.engine.createRun(b.project.task(), "default", 8, Budget{40, 0, 0}, false, s);
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(runSettingsFromJson(store->run(run)->settingsJson).search, SearchStrategy::MapElites);
  const auto all = store->candidateSummaries(run);
  std::map<CandidateId, const CandidateSummary*> byId;
  for (const auto& c : all) byId[c.id] = &c;
  int notFromTheBest = 0;
  for (const auto& c : all) {
    if (c.generation == 0 || c.parents.empty()) continue;
    notFromTheBest += byId.at(c.parents.front())->fitness < bestBefore(all, c.generation);
  }
  EXPECT_GT(notFromTheBest, 0) << "MAP-Elites also breeds from elites other than the best";
}

}  // namespace
}  // namespace crucible
