// SPDX-License-Identifier: GPL-3.0-or-later
// Prompt assembly: readable titled sections with the task's exact ABI, bytes
// and FLOPs, the GPU and roofs, the parent's measured figures, knowledge by
// status, the strategy's sections; bounded; the same text for the same inputs.
// Also the architecture-plan parser and the strategy-section format.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "backends/proposers/llm/architecture_plan.h"
#include "backends/proposers/llm/llm_usage.h"
#include "backends/proposers/llm/prompt_builder.h"
#include "backends/proposers/llm/strategy_sections.h"
#include "core/io/utf8_text.h"
#include "tests/backends/llm/llm_test_task.h"

namespace crucible::llm {
namespace {

const PromptSection* sectionOf(const Prompt& p, const std::string& key) {
  for (const auto& s : p.sections)
    if (s.key == key) return &s;
  return nullptr;
}

class PromptBuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    parent.id = 12;
    parent.source = testing::kWarpPerRowKernel;
    parent.launch.entry = "rowabsmax_kernel";
    parent.launch.grid[0] = "ceil_div(M, 4)";
    parent.launch.block[0] = "128";
    parent.status = CandidateStatus::Valid;
    Timing t;
    t.medianUs = 7.25;
    t.iqrUs = 0.1;
    t.speedup = 2.5;
    parent.timing = t;
    CompileReport r;
    r.ok = true;
    r.arch = "sm_90";
    r.registers = 30;
    r.spillStoreBytes = 8;
    r.spillLoadBytes = 12;
    r.staticSmemBytes = 1024;
    r.features = {{"ld.global.16B", 1}, {"shfl", 5}};
    parent.compile = r;
    fact.claim = "16-byte loads beat 4-byte loads for row reductions";
    fact.status = KnowledgeStatus::Validated;
    fact.effect = 1.3;
    hypothesis.claim = "two rows per warp hide latency";
    hypothesis.status = KnowledgeStatus::Hypothesis;
    refuted.claim = "staging rows in shared memory helps";
    refuted.status = KnowledgeStatus::Refuted;
    strategy.name = "llm:rewrite";
    strategy.text = "## Goal\nBe fast.\n## Guidance\nUse shuffles.\n";
    gpu.gpu = "NVIDIA H200";
    gpu.arch = "sm_90";
    gpu.smClockMHz = 1980;
    ceilings = {Ceiling{"NVIDIA H200", "dram_bw", 4.1e12, 4.8e12, "B/s", 0}};
  }

  PromptContext context() {
    PromptContext c;
    c.spec = &spec;
    c.parent = &parent;
    c.knowledge = {&fact, &hypothesis, &refuted};
    c.strategy = &strategy;
    c.gpu = gpu;
    c.ceilings = ceilings;
    return c;
  }

  TaskSpec spec = testing::rowAbsMaxSpec();
  Candidate parent;
  KnowledgeEntry fact, hypothesis, refuted;
  MetaPrompt strategy;
  Fingerprint gpu;
  std::vector<Ceiling> ceilings;
};

TEST_F(PromptBuilderTest, SectionsCarryTheTaskAndTheFigures) {
  const Prompt p = buildPlanPrompt(context());
  const PromptSection* task = sectionOf(p, "task");
  ASSERT_NE(task, nullptr);
  EXPECT_NE(task->body.find("extern \"C\" __global__ void rowabsmax_kernel(const float* __restrict__ x, float* "
                            "__restrict__ y, long long M, long long N)"),
            std::string::npos);
  EXPECT_NE(task->body.find("FLOPs: M*N = 2097152"), std::string::npos) << task->body;
  EXPECT_NE(task->body.find("Minimum bytes moved: 4*M*N + 4*M = 8392704"), std::string::npos);
  EXPECT_NE(task->body.find("x: f32 (float) [M, N]"), std::string::npos);
  EXPECT_NE(task->body.find("tolerance rtol 0, atol 0"), std::string::npos) << task->body;

  const PromptSection* g = sectionOf(p, "gpu");
  ASSERT_NE(g, nullptr);
  EXPECT_NE(g->body.find("NVIDIA H200 (sm_90), SM clock 1980 MHz"), std::string::npos) << g->body;
  EXPECT_NE(g->body.find("dram_bw: 4100.0 GB/s (datasheet 4800.0)"), std::string::npos) << g->body;

  const PromptSection* ref = sectionOf(p, "reference");
  ASSERT_NE(ref, nullptr);
  EXPECT_NE(ref->body.find("__shared__ float red[256]"), std::string::npos);  // the spec's baseline

  const PromptSection* par = sectionOf(p, "parent");
  ASSERT_NE(par, nullptr);
  EXPECT_EQ(par->title, "Parent kernel #12");
  for (const char* fig : {"Median time: 7.25 us", "speedup x2.500", "30 registers", "1024 B static shared memory",
                          "spills 8 B stored / 12 B loaded", "PTX features: ld.global.16B=1 shfl=5", "\"ceil_div(M, 4)\""})
    EXPECT_NE(par->body.find(fig), std::string::npos) << fig << "\n" << par->body;

  const PromptSection* k = sectionOf(p, "knowledge");
  ASSERT_NE(k, nullptr);
  const auto facts = k->body.find("treat as facts");
  const auto hyp = k->body.find("Hypotheses");
  const auto warn = k->body.find("did NOT help");
  ASSERT_NE(facts, std::string::npos);
  ASSERT_NE(hyp, std::string::npos);
  ASSERT_NE(warn, std::string::npos);
  EXPECT_LT(k->body.find(fact.claim), hyp);
  EXPECT_GT(k->body.find(hypothesis.claim), hyp);
  EXPECT_GT(k->body.find(refuted.claim), warn);

  const PromptSection* s = sectionOf(p, "strategy");
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->body.find("## Goal\nBe fast."), std::string::npos);
  EXPECT_NE(s->body.find("improves on the parent"), std::string::npos);

  EXPECT_NE(sectionOf(p, "answer")->body.find("WITHOUT code"), std::string::npos);
  EXPECT_EQ(sectionOf(p, "best"), nullptr);  // not given: left out
  EXPECT_EQ(sectionOf(p, "failures"), nullptr);
  EXPECT_NE(p.text().find("# Parent kernel #12\n\n"), std::string::npos);
  EXPECT_FALSE(p.system.empty());
}

TEST_F(PromptBuilderTest, SameInputsSameText) {
  const Prompt a = buildPlanPrompt(context());
  const Prompt b = buildPlanPrompt(context());
  EXPECT_EQ(a.text(), b.text());
  EXPECT_EQ(a.system, b.system);
  const ArchitecturePlan plan{"warp per row", "1. ..."};
  EXPECT_EQ(implementationRequest(context(), plan), implementationRequest(context(), plan));
  // A different input changes it.
  parent.timing->medianUs = 8;
  EXPECT_NE(buildPlanPrompt(context()).text(), a.text());
}

TEST_F(PromptBuilderTest, BoundedForHugeInputs) {
  parent.source = std::string(1 << 20, 'x');
  std::vector<Candidate> many(20, parent);
  PromptContext c = context();
  for (auto& m : many) c.inspirations.push_back(&m);
  for (auto& m : many) c.recentFailures.push_back(&m);
  const Prompt p = buildPlanPrompt(c);
  EXPECT_LT(p.text().size(), 6 * kMaxSourceCharsInPrompt);
  EXPECT_NE(sectionOf(p, "parent")->body.find("more characters not shown"), std::string::npos);
}

// A parent whose comments are not ASCII, cut at the limit inside a character: the
// prompt stays UTF-8, or the request body (JSON) could not be written at all.
TEST_F(PromptBuilderTest, ASourceCutForThePromptIsCutBetweenCharacters) {
  parent.source = std::string(kMaxSourceCharsInPrompt - 1, 'x') + "\xE2\x86\x92\n";  // U+2192 across the limit
  const Prompt p = buildPlanPrompt(context());
  const std::string body = sectionOf(p, "parent")->body;
  ASSERT_NE(body.find("more characters not shown"), std::string::npos);
  EXPECT_TRUE(isUtf8(p.text()));
  EXPECT_NO_THROW((void)nlohmann::json(p.text()).dump());
}

TEST_F(PromptBuilderTest, ImplementationRequestFollowsTheMode) {
  const ArchitecturePlan plan{"warp per row", "1. ..."};
  std::string text = implementationRequest(context(), plan);
  EXPECT_NE(text.find("```cuda"), std::string::npos);
  EXPECT_NE(text.find("long long M, long long N)"), std::string::npos);
  strategy.name = "llm:edit";
  text = implementationRequest(context(), plan);
  EXPECT_NE(text.find("<<<<<<< SEARCH"), std::string::npos);
  EXPECT_NE(text.find("\"grid\":[\"ceil_div(M, 4)\""), std::string::npos) << text;  // the parent's rule is kept
  // Without a parent an edit strategy falls back to a whole new kernel.
  PromptContext c = context();
  c.parent = nullptr;
  EXPECT_EQ(implementationRequest(c, plan).find("<<<<<<< SEARCH"), std::string::npos);
}

std::string repeated(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

TEST(ArchitecturePlan, AcceptedForms) {
  PlanParse p = parseArchitecturePlan("ok\n```json\n{\"name\": \"Warp per row\", \"plan\": [\"a\", \"b\"]}\n```");
  ASSERT_TRUE(p.ok) << p.problem;
  EXPECT_EQ(p.plan.name, "Warp per row");
  EXPECT_EQ(p.plan.plan, "- a\n- b\n");
  p = parseArchitecturePlan("{\"name\": \"tiled\", \"plan\": \"x\"}");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.plan.name, "tiled");
  p = parseArchitecturePlan("**Architecture:** block per row, two-pass\nPlan: 1. load 2. reduce");
  ASSERT_TRUE(p.ok) << p.problem;
  EXPECT_EQ(p.plan.name, "block per row, two-pass");
  EXPECT_EQ(p.plan.plan, "1. load 2. reduce");
  EXPECT_FALSE(parseArchitecturePlan("I will think about it.").ok);
  EXPECT_FALSE(parseArchitecturePlan("```json\n{\"plan\": \"x\"}\n```").ok);
  p = parseArchitecturePlan("{\"name\": \"" + std::string(500, 'n') + "\", \"plan\": \"" + std::string(10000, 'p') + "\"}");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.plan.name.size(), 80u);
  EXPECT_LE(p.plan.plan.size(), 4000u);
  // Cut between characters: 26 arrows of three bytes fit in 80, the 27th would not.
  p = parseArchitecturePlan("{\"name\": \"" + repeated("\xE2\x86\x92", 40) + "\", \"plan\": \"" +
                            repeated("\xE2\x86\x92", 2000) + "\"}");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.plan.name, repeated("\xE2\x86\x92", 26));
  EXPECT_TRUE(isUtf8(p.plan.plan));
  EXPECT_LE(p.plan.plan.size(), 4000u);
  EXPECT_NO_THROW((void)nlohmann::json(p.plan.name + p.plan.plan).dump());
  EXPECT_EQ(slugOf("Warp per row, float4 + shuffle!"), "warp-per-row-float4-shuffle");
  EXPECT_EQ(slugOf("***"), "unnamed");
}

TEST(StrategySections, ParseAndWrite) {
  const auto s = strategySections("intro text\n## Goal\nBe fast.\n\n## Guidance\n- a\n- b\n");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].title, "Guidance");
  EXPECT_EQ(s[0].body, "intro text");
  EXPECT_EQ(s[1].title, "Goal");
  EXPECT_EQ(s[1].body, "Be fast.");
  EXPECT_EQ(s[2].body, "- a\n- b");
  EXPECT_EQ(strategySections(strategyText(s)), s);
  EXPECT_EQ(strategyMode("llm:edit", true), "edit");
  EXPECT_EQ(strategyMode("llm:edit:1a2b", true), "edit");
  EXPECT_EQ(strategyMode("llm:edit", false), "explore");
  EXPECT_EQ(strategyMode("mutate:gene", true), "rewrite");
  EXPECT_EQ(strategyMode("", false), "explore");
}

TEST(LlmUsage, SummedOverGenomes) {
  LlmUsage a;
  a.model = "m";
  a.tokensIn = 10;
  a.tokensOut = 5;
  a.costUsd = 0.5;
  a.requests = 2;
  a.repairs = 1;
  const std::string g = nlohmann::json{{"llm", toJsonValue(a)}}.dump();
  const LlmUsage sum = sumLlmUsage({g, g, "{}", "not json", R"J({"llm": {"tokensIn": "many"}})J"});
  EXPECT_EQ(sum.tokensIn, 20);
  EXPECT_EQ(sum.tokensOut, 10);
  EXPECT_DOUBLE_EQ(sum.costUsd, 1.0);
  EXPECT_EQ(sum.requests, 4);
  EXPECT_EQ(sum.repairs, 2);
  EXPECT_EQ(sum.model, "m");
}

}  // namespace
}  // namespace crucible::llm
