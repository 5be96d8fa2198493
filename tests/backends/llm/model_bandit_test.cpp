// SPDX-License-Identifier: GPL-3.0-or-later
// The model bandit (model_bandit.h): learning from the children's outcomes,
// weighing cost, and LlmProposer choosing between two replayed models.
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>

#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/llm_proposer.h"
#include "backends/proposers/llm/model_bandit.h"
#include "tests/backends/llm/llm_test_task.h"
#include "tests/backends/llm/replay_server.h"

namespace crucible::llm {
namespace {

using nlohmann::json;
using testing::recordedReply;
using testing::ReplayServer;
using testing::say;

LlmUsage spent(std::int64_t in, std::int64_t out, const LlmModelSettings& m) {
  LlmUsage u;
  u.tokensIn = in;
  u.tokensOut = out;
  u.costUsd = (m.priceInPerMTok * static_cast<double>(in) + m.priceOutPerMTok * static_cast<double>(out)) / 1e6;
  u.requests = 2;
  return u;
}

// Runs n proposals: each starts, is billed, and ends with the reward `rewardOf` gives its model.
std::vector<std::size_t> play(ModelBandit& b, int n, const std::function<double(std::size_t)>& rewardOf) {
  std::vector<std::size_t> chosen;
  for (int i = 0; i < n; ++i) {
    const std::size_t arm = b.start();
    b.bill(arm, spent(2000, 400, b.models()[arm]));
    b.reward(arm, rewardOf(arm));
    chosen.push_back(arm);
  }
  return chosen;
}

long countOf(const std::vector<std::size_t>& v, std::size_t arm, std::size_t from = 0) {
  return std::count(v.begin() + static_cast<long>(from), v.end(), arm);
}

TEST(ModelBandit, ShiftsToTheModelWhoseChildrenImprove) {
  ModelBandit b({{"bad", 1, 1}, {"good", 1, 1}}, 0.5);
  const auto chosen = play(b, 60, [](std::size_t arm) { return arm == 1 ? 1.0 : 0.0; });
  EXPECT_EQ(chosen[0], 0u);  // each is tried first, in settings order
  EXPECT_EQ(chosen[1], 1u);
  EXPECT_GE(countOf(chosen, 1, 40), 17) << "the last 20 proposals should nearly all go to the good model";
  EXPECT_GT(b.stats(1).outcomes, 4 * b.stats(0).outcomes);
  EXPECT_GT(b.score(1), b.score(0));
}

TEST(ModelBandit, WithEqualImprovementTheCheaperIsPreferred) {
  ModelBandit b({{"dear", 10, 30}, {"cheap", 1, 3}}, 0.5);
  const auto chosen = play(b, 60, [](std::size_t) { return 1.0; });
  EXPECT_GT(countOf(chosen, 1), 2 * countOf(chosen, 0));
  EXPECT_NEAR(b.costPerProposal(0), (10 * 2000 + 30 * 400) / 1e6, 1e-12);
  // Without the cost weight the two are equal and take turns.
  ModelBandit blind({{"dear", 10, 30}, {"cheap", 1, 3}}, 0.0);
  const auto even = play(blind, 60, [](std::size_t) { return 1.0; });
  EXPECT_NEAR(static_cast<double>(countOf(even, 1)), 30.0, 2.0);
}

TEST(ModelBandit, MeasuredTokensCountAsWellAsPrices) {
  // A model at half the price that writes four times as much costs more per proposal.
  ModelBandit b({{"terse", 2, 8}, {"verbose", 1, 4}}, 1.0);
  b.start();
  b.bill(0, spent(1000, 200, b.models()[0]));
  b.start();
  b.bill(1, spent(4000, 800, b.models()[1]));
  EXPECT_GT(b.costPerProposal(1), b.costPerProposal(0));
  b.reward(0, 1);
  b.reward(1, 1);
  EXPECT_GT(b.score(0), b.score(1));
  // Before a model has measured tokens, the average over the others prices it.
  ModelBandit c({{"a", 1, 1}, {"b", 2, 2}}, 1.0);
  c.start();
  c.bill(0, spent(1000, 1000, c.models()[0]));
  EXPECT_NEAR(c.costPerProposal(1), 2 * c.costPerProposal(0), 1e-12);
}

TEST(ModelBandit, UntriedModelsTakeTurnsWhileOutcomesAreOutstanding) {
  ModelBandit b({{"a", 0, 0}, {"b", 0, 0}, {"c", 0, 0}}, 0.5);
  // Six proposals in flight, no outcome known yet: two each, not six of the first.
  std::vector<std::size_t> chosen;
  for (int i = 0; i < 6; ++i) chosen.push_back(b.start());
  EXPECT_EQ(countOf(chosen, 0), 2);
  EXPECT_EQ(countOf(chosen, 1), 2);
  EXPECT_EQ(countOf(chosen, 2), 2);
}

TEST(ModelBandit, RefusesNoModelsAndANegativeWeight) {
  EXPECT_THROW(ModelBandit({}, 0.5), std::invalid_argument);
  EXPECT_THROW(ModelBandit({{"a", 0, 0}}, -1), std::invalid_argument);
  ModelBandit b({{"a", 0, 0}}, 0.5);
  EXPECT_EQ(b.indexOf("nope"), 1u);
  b.reward(7, 1);  // an unknown model's outcome is ignored
  EXPECT_EQ(b.stats(0).outcomes, 0);
}

// ---- LlmProposer with two models behind one replay server.

class TwoModels : public ::testing::Test {
protected:
  void SetUp() override {
    task.id = 1;
    task.name = "rowabsmax_f32_1024x2048";
    task.family = "rowabsmax";
    task.specJson = testing::kRowAbsMaxSpec;
    // Every kernel reply differs (rows per block), so none is refused as a duplicate.
    server.script([this](const json& req, int) {
      std::lock_guard lock(mutex);
      models.push_back(req["model"].get<std::string>());
      const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
      if (last.find("WITHOUT code") != std::string::npos) return say(recordedReply("plan_warp_per_row.md"));
      const int rows = ++kernels;
      std::string kernel = testing::kWarpPerRowKernel;
      kernel.replace(kernel.find("blockIdx.x * 4"), 14, "blockIdx.x * " + std::to_string(rows));
      return say("```cuda\n" + kernel + "```\n```json\n{\"grid\": [\"ceil_div(M, " + std::to_string(rows) +
                 ")\"], \"block\": [\"" + std::to_string(32 * rows) + "\"]}\n```\n");
    });
  }
  std::unique_ptr<LlmProposer> proposer(std::vector<LlmModelSettings> ms) {
    LlmSettings s;
    s.endpoint = server.endpoint();
    s.models = std::move(ms);
    return std::make_unique<LlmProposer>(s, std::shared_ptr<ChatClient>(makeChatClient(s.api, clientSettings(s))));
  }
  ProposalContext context() {
    ProposalContext ctx;
    ctx.task = &task;
    return ctx;
  }
  Task task;
  ReplayServer server;
  std::mutex mutex;
  std::vector<std::string> models;
  int kernels = 0;
};

TEST_F(TwoModels, ProposerLearnsFromTheOutcomeSourceWhichModelImproves) {
  auto p = proposer({{"bad-model", 1, 1}, {"good-model", 1, 1}});
  // The run's outcomes arrive through the source, one proposal late (as a store shows them).
  std::deque<LlmProposer::ModelOutcome> ended;
  int sourceCalls = 0;
  p->setOutcomeSource([&] {
    ++sourceCalls;
    std::vector<LlmProposer::ModelOutcome> out(ended.begin(), ended.end());
    ended.clear();
    return out;
  });
  std::vector<std::string> chosen;
  for (int i = 0; i < 30; ++i) {
    const Proposal prop = p->propose(context());
    ASSERT_TRUE(prop.ok) << prop.error;
    const std::string model = prop.candidate.proposer.substr(4);
    chosen.push_back(model);
    ended.push_back({model, model == "good-model" ? 1.0 : 0.0});
  }
  EXPECT_EQ(sourceCalls, 30);
  EXPECT_EQ(chosen[0], "bad-model");
  EXPECT_EQ(chosen[1], "good-model");
  const long goodLate = std::count(chosen.begin() + 20, chosen.end(), "good-model");
  EXPECT_GE(goodLate, 8) << "the last 10 proposals should go mostly to the good model";
  // The model the server was asked for is the one the candidate names (both turns).
  EXPECT_EQ(models.size(), 60u);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    EXPECT_EQ(models[2 * i], chosen[i]);
    EXPECT_EQ(models[2 * i + 1], chosen[i]);
  }
  // Measured tokens were billed to the models: 2 requests of 1000 in / 200 out each.
  const ModelArmStats good = p->modelStats("good-model");
  EXPECT_EQ(good.tokensIn, 2000 * good.billedProposals);
  EXPECT_EQ(good.proposals, static_cast<std::int64_t>(std::count(chosen.begin(), chosen.end(), "good-model")));
}

TEST_F(TwoModels, ProposerPrefersTheCheaperOfTwoEquallyGoodModels) {
  auto p = proposer({{"dear-model", 10, 40}, {"cheap-model", 1, 4}});
  std::vector<std::string> chosen;
  for (int i = 0; i < 24; ++i) {
    const Proposal prop = p->propose(context());
    ASSERT_TRUE(prop.ok) << prop.error;
    chosen.push_back(prop.candidate.proposer.substr(4));
    p->observeOutcome({chosen.back(), 1.0});
  }
  const long cheap = std::count(chosen.begin(), chosen.end(), "cheap-model");
  EXPECT_GT(cheap, 2 * (24 - cheap));
  EXPECT_GT(p->modelScore("cheap-model"), p->modelScore("dear-model"));
  EXPECT_THROW(p->modelStats("other"), std::invalid_argument);
}

}  // namespace
}  // namespace crucible::llm
