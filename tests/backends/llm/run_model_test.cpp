// SPDX-License-Identifier: GPL-3.0-or-later
// The language-model proposer as crucible-cli and the workbench make it
// (backends/proposers/llm/run_model.h): the client a front end pauses and
// resumes, and the binding of a model made before its run exists.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "backends/proposers/llm/run_model.h"
#include "tests/backends/llm/replay_server.h"

namespace crucible::llm {
namespace {

using testing::ReplayServer;
using testing::say;
using namespace std::chrono_literals;

LlmSettings settingsFor(const ReplayServer& server) {
  LlmSettings s;
  s.endpoint = server.endpoint();
  s.models = {{"replay-model", 0, 0}};
  s.maxAttempts = 1;
  return s;
}

ChatRequest hello() {
  ChatRequest r;
  r.model = "replay-model";
  r.messages = {{"user", "hello"}};
  r.timeout = 20s;
  return r;
}

TEST(RunModel, PauseCancelsTheRequestInFlightAndRefusesNewOnesUntilResume) {
  ReplayServer server;
  std::promise<void> arrived;
  server.script([&](const nlohmann::json&, int index) {
    if (index == 0) {
      arrived.set_value();
      std::this_thread::sleep_for(3s);  // a slow model: the pause must not wait for it
    }
    return say("hi");
  });
  InterruptibleChatClient client(makeRunChatClient(settingsFor(server)));
  const CancelToken proposerToken;
  auto inFlight = std::async(std::launch::async, [&] {
    const auto begin = std::chrono::steady_clock::now();
    try {
      client.send(hello(), proposerToken);
      ADD_FAILURE() << "the paused request was not cancelled";
    } catch (const ChatError& e) {
      EXPECT_EQ(e.kind(), ChatErrorKind::Cancelled) << e.what();
    }
    return std::chrono::steady_clock::now() - begin;
  });
  ASSERT_EQ(arrived.get_future().wait_for(10s), std::future_status::ready);
  client.pause();
  EXPECT_TRUE(client.paused());
  EXPECT_LT(inFlight.get(), 2s) << "the pause waited for the model's reply";
  // While paused, a new request is refused at once.
  try {
    client.send(hello(), proposerToken);
    ADD_FAILURE() << "a request went out while the run is paused";
  } catch (const ChatError& e) {
    EXPECT_EQ(e.kind(), ChatErrorKind::Cancelled);
  }
  EXPECT_EQ(server.requests().size(), 1u);
  client.resume();
  EXPECT_FALSE(client.paused());
  EXPECT_EQ(client.send(hello(), proposerToken).text, "hi");
  // The proposer's own token (the run stopped) is honoured too.
  proposerToken.cancel();
  EXPECT_THROW(client.send(hello(), proposerToken), ChatError);
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(RunModel, TheKeyFromMemoryGoesInTheHeaderOnly) {
  ReplayServer server;
  server.script([](const nlohmann::json&, int) { return say("hi"); });
  LlmSettings s = settingsFor(server);
  s.apiKeyEnv = "CRUCIBLE_RUN_MODEL_TEST_UNSET_VARIABLE";
  auto client = makeRunChatClient(s, [] { return std::string("sk-memory-key"); });
  EXPECT_EQ(client->send(hello(), CancelToken()).text, "hi");
  ASSERT_EQ(server.credentials().size(), 1u);
  EXPECT_EQ(server.credentials().front(), "Bearer sk-memory-key");
  // Without it, the named variable is read, as crucible-cli does: unset, a configuration error.
  auto fromEnvironment = makeRunChatClient(s);
  try {
    fromEnvironment->send(hello(), CancelToken());
    ADD_FAILURE() << "a request went out without its key";
  } catch (const ChatError& e) {
    EXPECT_EQ(e.kind(), ChatErrorKind::Configuration);
    EXPECT_NE(std::string(e.what()).find("CRUCIBLE_RUN_MODEL_TEST_UNSET_VARIABLE"), std::string::npos) << e.what();
  }
}

TEST(RunModel, AModelBoundLateIsUnboundUntilTheRunIsNamed) {
  ReplayServer server;
  LlmSettings s = settingsFor(server);
  auto model = makeRunModel(s, makeRunChatClient(s), nullptr, CancelToken());
  EXPECT_EQ(model->name(), "llm:replay-model");
  RunModelBinding binding(*model);
  EXPECT_FALSE(binding.bound());
  binding.bind("/nonexistent/project.crucible", 1);
  EXPECT_TRUE(binding.bound());
}

}  // namespace
}  // namespace crucible::llm
