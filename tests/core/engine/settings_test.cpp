// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <limits>
#include "core/engine/budget.h"
#include "core/engine/run_settings.h"

namespace crucible {
namespace {

TEST(RunSettings, RoundTripsThroughJson) {
  RunSettings s;
  s.binning = {{"vector_width", {2, 4, 8}}, {"memory", {}}};
  s.batchSize = 12;
  s.islands = 3;
  s.migrationInterval = 4;
  s.tuningStrategy = TuningStrategy::GreedyLocal;
  s.profile = ProfileMode::All;
  s.sealStart = SealStart::AwayFromSeal;
  s.sealMargin = 0.1;
  s.compileArch = "sm_90a";
  RunSettings r = runSettingsFromJson(toJson(s));
  EXPECT_EQ(r.binning.size(), 2u);
  EXPECT_EQ(r.binning[0].dimension, "vector_width");
  EXPECT_EQ(r.binning[0].edges, (std::vector<double>{2, 4, 8}));
  EXPECT_EQ(r.batchSize, 12);
  EXPECT_EQ(r.islands, 3);
  EXPECT_EQ(r.migrationInterval, 4);
  EXPECT_EQ(r.tuningStrategy, TuningStrategy::GreedyLocal);
  EXPECT_EQ(r.profile, ProfileMode::All);
  EXPECT_EQ(r.sealStart, SealStart::AwayFromSeal);
  EXPECT_DOUBLE_EQ(r.sealMargin, 0.1);
  EXPECT_EQ(r.compileArch, "sm_90a");
  EXPECT_EQ(toJson(r), toJson(s));
}

TEST(RunSettings, MissingFieldsKeepDefaults) {
  RunSettings r = runSettingsFromJson("{\"batchSize\": 3}");
  EXPECT_EQ(r.batchSize, 3);
  EXPECT_EQ(r.islands, RunSettings{}.islands);
  EXPECT_EQ(runSettingsFromJson("").batchSize, RunSettings{}.batchSize);
}

void expectError(const std::string& json, const std::string& mentions) {
  try {
    runSettingsFromJson(json);
    FAIL() << "accepted " << json;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

TEST(RunSettings, BadInputNamesTheField) {
  expectError("{\"batchSize\": 0}", "batchSize");
  expectError("{\"batchSize\": \"many\"}", "batchSize");
  expectError("{\"tuningStrategy\": \"psychic\"}", "psychic");
  expectError("{\"binning\": [{\"dimension\": \"v\", \"edges\": [4, 2]}]}", "ascending");
  expectError("{\"crossoverRate\": 2}", "crossoverRate");
  expectError("[1,2]", "object");
  expectError("{oops", "JSON");
}

TEST(Budget, EachDimensionEndsTheRunAndZeroMeansUnlimited) {
  EXPECT_FALSE(budgetExhausted(Budget{}, Usage{1000000, 1e9, 1e9}));
  EXPECT_TRUE(budgetExhausted(Budget{10, 0, 0}, Usage{10, 0, 0}));
  EXPECT_FALSE(budgetExhausted(Budget{10, 0, 0}, Usage{9, 0, 0}));
  EXPECT_TRUE(budgetExhausted(Budget{0, 5, 0}, Usage{0, 5.5, 0}));
  EXPECT_TRUE(budgetExhausted(Budget{0, 0, 2}, Usage{0, 0, 2}));
  EXPECT_EQ(evaluationsLeft(Budget{10, 0, 0}, Usage{7, 0, 0}), 3);
  EXPECT_EQ(evaluationsLeft(Budget{10, 0, 0}, Usage{12, 0, 0}), 0);
  EXPECT_GT(evaluationsLeft(Budget{}, Usage{12, 0, 0}), 1000000);
}

TEST(Budget, ModelMoneyAndTokensEndTheRunWithWhatWasSpent) {
  Usage used{3, 1, 1, ModelSpend{12000, 1.0249}};
  EXPECT_FALSE(budgetExhausted(Budget{}, used));                       // no model budget: unlimited
  EXPECT_FALSE(budgetExhausted(Budget{}, used, ModelBudget{1.5, 0}));
  EXPECT_EQ(budgetExhausted(Budget{}, used, ModelBudget{1.0, 0}), "model budget spent: $1.02 of $1.00");
  EXPECT_EQ(budgetExhausted(Budget{}, Usage{0, 0, 0, ModelSpend{10, 0.0123}}, ModelBudget{0.01, 0}),
            "model budget spent: $0.0123 of $0.0100");
  EXPECT_EQ(budgetExhausted(Budget{}, used, ModelBudget{0, 12000}), "model token budget spent: 12000 of 12000 tokens");
  EXPECT_FALSE(budgetExhausted(Budget{}, used, ModelBudget{0, 12001}));
  // The evaluation budget still comes first.
  EXPECT_EQ(budgetExhausted(Budget{3, 0, 0}, used, ModelBudget{1.0, 0}), "evaluation budget of 3 reached");
}

TEST(Budget, ModelSpendIsReadFromWhatProposalsRecorded) {
  const ModelSpend s = modelSpendOfGenome(
      R"({"llm": {"tokensIn": 2000, "tokensOut": 400, "costUsd": 0.0072, "requests": 2},
          "llmStrategy": {"tokensIn": 1000, "tokensOut": 200, "costUsd": 0.0036}, "plan": {}})");
  EXPECT_EQ(s.tokens, 3600);
  EXPECT_NEAR(s.costUsd, 0.0108, 1e-12);
  for (const char* none : {"", "{}", "not json", "[1]", R"({"genes": {"BLOCK": 128}})",
                           R"({"llm": "text"})", R"({"llm": {"tokensIn": -5, "costUsd": "free"}})"}) {
    const ModelSpend z = modelSpendOfGenome(none);
    EXPECT_EQ(z.tokens, 0) << none;
    EXPECT_EQ(z.costUsd, 0) << none;
  }
  // A project file may record any figure: a sum past int64 stays at its largest value.
  const ModelSpend most = modelSpendOfGenome(
      R"({"llm": {"tokensIn": 9223372036854775807, "tokensOut": 9223372036854775807},
          "llmStrategy": {"tokensIn": 9223372036854775807}})");
  EXPECT_EQ(most.tokens, std::numeric_limits<std::int64_t>::max());
  ModelSpend sum = most;
  sum += most;
  EXPECT_EQ(sum.tokens, std::numeric_limits<std::int64_t>::max());
}

TEST(RunSettings, ModelBudgetRoundTripsAndIsChecked) {
  RunSettings s;
  s.maxModelCostUsd = 2.5;
  s.maxModelTokens = 1000000;
  const RunSettings back = runSettingsFromJson(toJson(s));
  EXPECT_EQ(back.maxModelCostUsd, 2.5);
  EXPECT_EQ(back.maxModelTokens, 1000000);
  EXPECT_EQ(runSettingsFromJson("{}").maxModelCostUsd, 0);
  EXPECT_THROW(runSettingsFromJson(R"({"maxModelCostUsd": -1})"), std::invalid_argument);
  EXPECT_THROW(runSettingsFromJson(R"({"maxModelTokens": -1})"), std::invalid_argument);
  EXPECT_THROW(runSettingsFromJson(R"({"maxModelTokens": "many"})"), std::invalid_argument);
  EXPECT_THROW(runSettingsFromJson(R"({"maxModelCostUsd": 1e999})"), std::invalid_argument);  // nlohmann: out_of_range
}

}  // namespace
}  // namespace crucible
