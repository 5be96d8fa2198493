// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's RunProposer with a language model (`--proposer llm`): the
// model takes the template proposer's place, alone or beside the user's
// tunable kernels; the model's settings and key checks come first.
#include <gtest/gtest.h>

#include <memory>

#include "app/cli/starting_kernels.h"
#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/llm_proposer.h"

namespace crucible::cli {
namespace {

std::unique_ptr<Proposer> model(int concurrency) {
  llm::LlmSettings s;
  s.endpoint = "http://127.0.0.1:9/v1";
  s.models = {{"replay-model", 2.0, 8.0}};
  s.concurrency = concurrency;
  std::shared_ptr<llm::ChatClient> client(llm::makeChatClient(s.api, llm::clientSettings(s)));
  return std::make_unique<llm::LlmProposer>(s, std::move(client));
}

TEST(RunProposerWithAModel, TheModelTakesTheTemplatesPlace) {
  RunProposer alone({}, false, model(3));
  EXPECT_EQ(alone.get().name(), "llm:replay-model");
  EXPECT_EQ(alone.get().concurrentProposals(), 3);  // several requests in flight while kernels are evaluated
  const auto strategies = alone.get().initialStrategies();
  ASSERT_FALSE(strategies.empty());
  EXPECT_EQ(strategies.front().name.rfind("llm:", 0), 0u);

  RunProposer resumed({}, true, model(3));  // a resumed run may hold tunable kernels
  EXPECT_EQ(resumed.get().name(), "tunable+llm:replay-model");

  RunProposer plain;
  EXPECT_EQ(plain.get().name(), "template");
}

}  // namespace
}  // namespace crucible::cli
