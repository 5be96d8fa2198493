// SPDX-License-Identifier: GPL-3.0-or-later
// The recorded replies through LlmProposer with the real NVRTC compiler (the
// toolkit, no GPU): the replayed kernel compiles, its descriptor comes from
// the PTX the compiler emitted, and a real compile error goes back to the
// model and is repaired.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/llm_proposer.h"
#include "tests/backends/llm/llm_test_task.h"
#include "tests/backends/llm/replay_server.h"

namespace crucible::llm {
namespace {

using testing::recordedReply;
using testing::ReplayServer;
using testing::say;

class ReplayCompileTest : public ::testing::Test {
protected:
  void SetUp() override {
    task.name = "rowabsmax_f32_1024x2048";
    task.family = "rowabsmax";
    task.specJson = testing::kRowAbsMaxSpec;
    settings.models = {{"replay-model", 0, 0}};
    settings.endpoint = server.endpoint();
    settings.repairTurns = 1;
  }
  std::unique_ptr<LlmProposer> proposer() {
    return std::make_unique<LlmProposer>(
        settings, std::shared_ptr<ChatClient>(makeChatClient(ChatApi::OpenAiCompatible, clientSettings(settings))),
        &compiler);
  }
  ProposalContext context() {
    ProposalContext ctx;
    ctx.task = &task;
    return ctx;
  }
  ReplayServer server;
  Task task;
  LlmSettings settings;
  NvrtcCompiler compiler;
};

TEST_F(ReplayCompileTest, RecordedKernelCompilesAndIsDescribedFromPtx) {
  if (compiler.includeDir().empty()) GTEST_SKIP() << "no CUDA toolkit headers found";
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  const Proposal p = proposer()->propose(context());
  ASSERT_TRUE(p.ok) << p.error;
  ASSERT_TRUE(p.candidate.compile.has_value());
  EXPECT_TRUE(p.candidate.compile->ok) << p.candidate.compile->log;
  EXPECT_GT(p.candidate.compile->registers, 0);
  EXPECT_EQ(nlohmann::json::parse(p.candidate.genomeJson)["descriptorFrom"], "ptx");
  EXPECT_EQ(p.candidate.descriptor.at("vector_bytes"), "16");  // ld.global.v4.f32
  EXPECT_EQ(p.candidate.descriptor.at("reduction"), "shuffle");
  EXPECT_EQ(p.candidate.descriptor.at("memory"), "global");
}

TEST_F(ReplayCompileTest, RealCompileErrorIsRepaired) {
  if (compiler.includeDir().empty()) GTEST_SKIP() << "no CUDA toolkit headers found";
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_compile_error.md")),
                say(recordedReply("kernel_warp_per_row.md"))});
  const Proposal p = proposer()->propose(context());
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.candidate.mutation, "llm:explore+repair1");
  // NVRTC's own words reached the model.
  const std::string repair = server.lastUserText(2);
  EXPECT_NE(repair.find("compile-failed: "), std::string::npos) << repair;
  EXPECT_NE(repair.find("fmaxff"), std::string::npos) << repair;
}

}  // namespace
}  // namespace crucible::llm
