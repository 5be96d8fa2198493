// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <utility>
#include <vector>
#include "core/engine/engine_events.h"
#include "core/engine/overloaded.h"

namespace crucible {
namespace {

// Each alternative of the variant, default-made, in declaration order.
template <std::size_t... I>
std::vector<EngineEventKind> everyKind(std::index_sequence<I...>) {
  return {EngineEventKind{std::in_place_index<I>}...};
}
std::vector<EngineEventKind> everyKind() {
  return everyKind(std::make_index_sequence<std::variant_size_v<EngineEventKind>>{});
}

TEST(EngineEvents, TheVariantHoldsEachKindWithItsName) {
  const std::vector<std::string> expected{
      "run-started",   "candidate-proposed", "awaiting-review", "candidate-compiled", "candidate-evaluated",
      "elite-improved", "sealed",            "sealing-best",    "knowledge-updated", "log",
      "progress",
      "run-paused",    "run-resumed",        "run-stopped",     "run-finished",       "run-failed"};
  std::vector<std::string> names;
  for (const EngineEventKind& kind : everyKind()) names.push_back(kindName(EngineEvent{1, kind}));
  EXPECT_EQ(names, expected);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "names are unique";
}

TEST(EngineEvents, EveryKindButACompileThreadsCarriesTheRunsCounters) {
  for (const EngineEventKind& kind : everyKind()) {
    const EngineEvent e{1, kind};
    EXPECT_EQ(countersOf(e) == nullptr, is<events::CandidateCompiled>(e)) << kindName(e);
  }
  RunCounters counters;
  counters.evaluationsDone = 9;
  const EngineEvent progress{3, events::Progress{counters}};
  ASSERT_NE(countersOf(progress), nullptr);
  EXPECT_EQ(countersOf(progress)->evaluationsDone, 9);
}

TEST(EngineEvents, AsGivesThePayloadOfItsKindOnly) {
  const EngineEvent e{5, events::RunFailed{RunCounters{}, "no evaluator"}};
  ASSERT_NE(as<events::RunFailed>(e), nullptr);
  EXPECT_EQ(as<events::RunFailed>(e)->reason, "no evaluator");
  EXPECT_EQ(as<events::RunFinished>(e), nullptr);
  EXPECT_TRUE(is<events::RunFailed>(e));
  EXPECT_EQ(std::visit(Overloaded{[](const events::RunFailed&) { return 1; }, [](const auto&) { return 0; }}, e.what),
            1);
}

}  // namespace
}  // namespace crucible
