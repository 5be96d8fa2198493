// SPDX-License-Identifier: GPL-3.0-or-later
// LlmProposer against loopback replay servers (OpenAI and Anthropic formats)
// with a scripted Compiler double: good kernels, SEARCH/REPLACE edits, replies
// without code, truncated and malformed replies, wrong signatures, repair
// turns, 429 with Retry-After and 500s, novelty, accounting, strategy
// rewrites, and the API key kept out of everything the proposer returns.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <deque>
#include <thread>
#include <nlohmann/json.hpp>

#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/llm_proposer.h"
#include "backends/proposers/llm/reply_parser.h"
#include "tests/backends/llm/llm_test_task.h"
#include "tests/backends/llm/replay_server.h"

namespace crucible::llm {
namespace {

using nlohmann::json;
using testing::recordedReply;
using testing::ReplayServer;
using testing::say;
using testing::ScriptedReply;
using namespace std::chrono_literals;

constexpr const char* kSecret = "sk-proposer-test-0123456789-SECRET";
constexpr const char* kKeyVariable = "CRUCIBLE_LLM_PROPOSER_TEST_KEY";

// Compiles by script: each call takes the next result (ok when the script is empty).
class ScriptedCompiler : public Compiler {
public:
  CompileResult compile(const CompileRequest& request) override {
    std::lock_guard lock(mutex);
    requests.push_back(request);
    CompileResult r;
    if (!script.empty()) {
      r.report = script.front();
      script.pop_front();
    } else {
      r.report.ok = true;
      r.report.arch = request.arch;
      r.report.registers = 24;
      r.report.features = {{"ld.global", 1}, {"ld.global.v4", 1}, {"ld.global.16B", 1}, {"shfl", 5}, {"st.global", 1}};
    }
    if (r.report.ok) r.cubin = "cubin";
    return r;
  }
  std::mutex mutex;
  std::deque<CompileReport> script;
  std::vector<CompileRequest> requests;
};

CompileReport compileError(const std::string& message, int line) {
  CompileReport r;
  r.ok = false;
  r.diagnostics.push_back({line, 5, "error", message});
  r.log = "kernel.cu(" + std::to_string(line) + "): error: " + message;
  return r;
}

class LlmProposerTest : public ::testing::Test {
protected:
  void SetUp() override {
    task.id = 1;
    task.name = "rowabsmax_f32_1024x2048";
    task.family = "rowabsmax";
    task.specJson = testing::kRowAbsMaxSpec;
    settings.models = {{"test-model", 2.0, 8.0}};
    settings.repairTurns = 2;
    settings.maxTokens = 4096;
  }

  std::unique_ptr<LlmProposer> proposer(ReplayServer& server, Compiler* compiler,
                                        ReplayServer::Api api = ReplayServer::Api::OpenAi) {
    settings.api = api == ReplayServer::Api::OpenAi ? ChatApi::OpenAiCompatible : ChatApi::Anthropic;
    settings.endpoint = server.endpoint();
    ClientSettings cs = clientSettings(settings);
    cs.initialBackoff = 10ms;
    cs.maxBackoff = 40ms;
    cs.maxAttempts = 3;
    return std::make_unique<LlmProposer>(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, cs)), compiler);
  }

  Candidate parent() {
    Candidate c;
    c.id = 41;
    c.source = testing::kWarpPerRowKernel;
    c.launch.entry = "rowabsmax_kernel";
    c.launch.grid[0] = "ceil_div(M, 4)";
    c.launch.block[0] = "128";
    c.status = CandidateStatus::Valid;
    c.architectureKey = "llm:warp-per-row";
    Timing t;
    t.medianUs = 6.5;
    t.speedup = 1.8;
    c.timing = t;
    return c;
  }

  ProposalContext context(const MetaPrompt* strategy = nullptr, const Candidate* par = nullptr) {
    ProposalContext ctx;
    ctx.task = &task;
    ctx.strategy = strategy;
    if (par) ctx.parents = {par};
    ctx.generation = 3;
    ctx.seed = 0;
    return ctx;
  }

  static json genome(const Proposal& p) { return json::parse(p.candidate.genomeJson); }

  Task task;
  LlmSettings settings;
  ScriptedCompiler compiler;
};

TEST_F(LlmProposerTest, GoodWholeKernelInTwoTurns) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  ASSERT_TRUE(prop.ok) << prop.error;
  const Candidate& c = prop.candidate;
  EXPECT_EQ(c.source, testing::kWarpPerRowKernel);
  EXPECT_EQ(c.launch.entry, "rowabsmax_kernel");
  EXPECT_EQ(c.launch.grid[0], "ceil_div(M, 4)");
  EXPECT_EQ(c.proposer, "llm:test-model");
  EXPECT_EQ(p->name(), "llm:test-model");
  EXPECT_EQ(c.mutation, "llm:explore");
  EXPECT_EQ(c.generation, 3);
  EXPECT_EQ(c.status, CandidateStatus::Proposed);
  EXPECT_EQ(c.architectureKey, "llm:warp-per-row-float4-shuffle");
  EXPECT_EQ(c.descriptor.at("vector_bytes"), "16");      // from the compile report's PTX features
  EXPECT_EQ(c.descriptor.at("reduction"), "shuffle");
  EXPECT_EQ(c.descriptor.at("memory"), "global");
  ASSERT_EQ(compiler.requests.size(), 1u);
  EXPECT_EQ(compiler.requests[0].entry, "rowabsmax_kernel");
  EXPECT_EQ(compiler.requests[0].arch, "sm_90");

  const json g = genome(prop);
  EXPECT_EQ(g["llm"]["model"], "test-model");
  EXPECT_EQ(g["llm"]["tokensIn"], 2000);
  EXPECT_EQ(g["llm"]["tokensOut"], 400);
  EXPECT_EQ(g["llm"]["requests"], 2);
  EXPECT_EQ(g["llm"]["repairs"], 0);
  EXPECT_NEAR(g["llm"]["costUsd"].get<double>(), (2000 * 2.0 + 400 * 8.0) / 1e6, 1e-12);
  EXPECT_GT(g["llm"]["latencyS"].get<double>(), 0.0);
  EXPECT_EQ(g["plan"]["name"], "warp-per-row float4 shuffle");
  EXPECT_EQ(g["descriptorFrom"], "ptx");
  ASSERT_TRUE(g["prompt"].is_array());
  EXPECT_EQ(g["prompt"][0]["key"], "task");

  // Architecture first: turn 1 asks for the plan only; turn 2 carries the plan and asks for code.
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_NE(server.lastUserText(0).find("WITHOUT code"), std::string::npos);
  EXPECT_NE(server.lastUserText(0).find("extern \"C\" __global__ void rowabsmax_kernel(const float* __restrict__ x, "
                                        "float* __restrict__ y, long long M, long long N)"),
            std::string::npos);
  EXPECT_EQ(requests[1]["messages"].size(), 4u);  // system, user (context), assistant (plan), user (implement)
  EXPECT_NE(server.lastUserText(1).find("warp-per-row float4 shuffle"), std::string::npos);
  EXPECT_EQ(requests[1]["model"], "test-model");

  const LlmUsage total = p->totalUsage();
  EXPECT_EQ(total.tokensIn, 2000);
  EXPECT_EQ(sumLlmUsage({c.genomeJson}).tokensOut, total.tokensOut);
}

TEST_F(LlmProposerTest, AnthropicApiToo) {
  ReplayServer server(ReplayServer::Api::Anthropic);
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, nullptr, ReplayServer::Api::Anthropic);
  const Proposal prop = p->propose(context());
  ASSERT_TRUE(prop.ok) << prop.error;
  EXPECT_EQ(prop.candidate.source, testing::kWarpPerRowKernel);
  EXPECT_EQ(genome(prop)["descriptorFrom"], "source");  // no compiler: read from the source
  EXPECT_EQ(prop.candidate.descriptor.at("vector_bytes"), "16");
  EXPECT_FALSE(prop.candidate.compile.has_value());
}

TEST_F(LlmProposerTest, SearchReplaceEditOnTheParent) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("edit_unroll_shuffle.md"))});
  auto p = proposer(server, &compiler);
  const auto strategies = p->initialStrategies();
  const MetaPrompt* edit = nullptr;
  for (const auto& s : strategies)
    if (s.name == "llm:edit") edit = &s;
  ASSERT_NE(edit, nullptr);
  const Candidate par = parent();
  const Proposal prop = p->propose(context(edit, &par));
  ASSERT_TRUE(prop.ok) << prop.error;
  EXPECT_NE(prop.candidate.source.find("#pragma unroll\n  for (int o = 16"), std::string::npos);
  EXPECT_EQ(prop.candidate.launch.grid[0], "ceil_div(M, 4)");
  EXPECT_EQ(prop.candidate.parents, std::vector<CandidateId>{41});
  EXPECT_EQ(prop.candidate.mutation, "llm:edit");
  EXPECT_EQ(genome(prop)["edits"], 1);
  // The parent's source and figures were in the prompt; the edit format was asked for.
  EXPECT_NE(server.lastUserText(0).find("Parent kernel #41"), std::string::npos);
  EXPECT_NE(server.lastUserText(0).find("Median time: 6.50 us"), std::string::npos);
  EXPECT_NE(server.lastUserText(1).find("<<<<<<< SEARCH"), std::string::npos);
}

TEST_F(LlmProposerTest, ReplyWithoutCodeIsKeptForInspection) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("no_code.md"))});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("no-code: ", 0), 0u) << prop.error;
  EXPECT_EQ(prop.candidate.statusDetail, prop.error);
  EXPECT_EQ(prop.candidate.status, CandidateStatus::CompileFailed);
  EXPECT_TRUE(prop.keep);
  EXPECT_EQ(prop.candidate.source, recordedReply("no_code.md"));
  EXPECT_EQ(genome(prop)["lastReply"], recordedReply("no_code.md"));
  EXPECT_EQ(genome(prop)["llm"]["requests"], 2);  // the failed proposal is still accounted
  EXPECT_TRUE(compiler.requests.empty());
}

TEST_F(LlmProposerTest, NoPlanInTheFirstTurn) {
  ReplayServer server;
  server.queue({say("Sure, let me think about it.")});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("no-plan: ", 0), 0u) << prop.error;
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(LlmProposerTest, TruncatedReply) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_truncated.md"), "length")});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("truncated: the model hit its token limit", 0), 0u) << prop.error;
  EXPECT_TRUE(prop.keep);
  EXPECT_NE(prop.candidate.source.find("rowabsmax_kernel"), std::string::npos);
  EXPECT_TRUE(compiler.requests.empty());
}

TEST_F(LlmProposerTest, MalformedHttpReplyIsAChatError) {
  ReplayServer server;
  ScriptedReply bad;
  bad.rawBody = "{\"choices\": [ this is not json";
  server.queue({bad});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("chat-error: ", 0), 0u) << prop.error;
  EXPECT_NE(prop.error.find(chatErrorKindName(ChatErrorKind::MalformedReply)), std::string::npos) << prop.error;
  EXPECT_EQ(prop.candidate.source, *bad.rawBody);  // kept for inspection
}

TEST_F(LlmProposerTest, WrongSignatureRepairedInOneTurn) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_wrong_signature.md")),
                say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  ASSERT_TRUE(prop.ok) << prop.error;
  EXPECT_EQ(prop.candidate.mutation, "llm:explore+repair1");
  EXPECT_EQ(genome(prop)["llm"]["repairs"], 1);
  EXPECT_EQ(genome(prop)["llm"]["requests"], 3);
  // The wrong kernel never reached the compiler; the repair turn said what was wrong.
  ASSERT_EQ(compiler.requests.size(), 1u);
  EXPECT_NE(compiler.requests[0].source.find("long long M"), std::string::npos);
  EXPECT_NE(server.lastUserText(2).find("wrong-signature: "), std::string::npos);
  EXPECT_NE(server.lastUserText(2).find("int M, int N"), std::string::npos);
}

TEST_F(LlmProposerTest, WrongSignatureAfterAllRepairTurns) {
  settings.repairTurns = 1;
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_wrong_signature.md")),
                say(recordedReply("kernel_wrong_signature.md"))});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("wrong-signature: ", 0), 0u) << prop.error;
  EXPECT_NE(prop.error.find("(after 1 repair turn)"), std::string::npos) << prop.error;
  EXPECT_TRUE(prop.keep);
  EXPECT_NE(prop.candidate.source.find("int M, int N"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_TRUE(compiler.requests.empty());
}

TEST_F(LlmProposerTest, RepairTurnFixesACompileError) {
  compiler.script.push_back(compileError("identifier \"fmaxff\" is undefined", 9));
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md")),
                say(recordedReply("edit_unroll_shuffle.md"))});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  ASSERT_TRUE(prop.ok) << prop.error;
  ASSERT_EQ(compiler.requests.size(), 2u);
  EXPECT_EQ(genome(prop)["llm"]["repairs"], 1);
  EXPECT_EQ(prop.candidate.mutation, "llm:explore+repair1");
  // The compiler's error went back to the model; the repair's edit applied to the previous kernel.
  EXPECT_NE(server.lastUserText(2).find("line 9:5: error: identifier \"fmaxff\" is undefined"), std::string::npos);
  EXPECT_NE(prop.candidate.source.find("#pragma unroll"), std::string::npos);
  ASSERT_TRUE(prop.candidate.compile.has_value());
  EXPECT_TRUE(prop.candidate.compile->ok);
}

TEST_F(LlmProposerTest, CompileErrorAfterAllRepairTurns) {
  settings.repairTurns = 1;
  compiler.script = {compileError("expected a ';'", 4), compileError("expected a ';'", 4)};
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md")),
                say(recordedReply("edit_unroll_shuffle.md"))});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("compile-failed: line 4:5: error: expected a ';'", 0), 0u) << prop.error;
  EXPECT_EQ(prop.candidate.status, CandidateStatus::CompileFailed);
  ASSERT_TRUE(prop.candidate.compile.has_value());
  EXPECT_FALSE(prop.candidate.compile->ok);
  EXPECT_EQ(genome(prop)["llm"]["repairs"], 1);
}

TEST_F(LlmProposerTest, TooManyRequestsWithRetryAfterThenSuccess) {
  ReplayServer server;
  ScriptedReply busy;
  busy.status = 429;
  busy.headers = {{"Retry-After", "1"}};
  server.queue({busy, say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  const auto start = std::chrono::steady_clock::now();
  const Proposal prop = p->propose(context());
  ASSERT_TRUE(prop.ok) << prop.error;
  EXPECT_GE(std::chrono::steady_clock::now() - start, 900ms);  // Retry-After was honoured
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(LlmProposerTest, ServerErrorsExhaustRetries) {
  ReplayServer server;
  ScriptedReply failing;
  failing.status = 500;
  server.queue({failing, failing, failing});
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("chat-error: ", 0), 0u) << prop.error;
  EXPECT_NE(prop.error.find("500"), std::string::npos) << prop.error;
  EXPECT_EQ(server.requests().size(), 3u);  // maxAttempts
}

TEST_F(LlmProposerTest, SameKernelTwiceIsADuplicate) {
  ReplayServer server;
  std::string reformatted = recordedReply("kernel_warp_per_row.md");
  reformatted.replace(reformatted.find("// warp per row"), 15, "/* another comment */");
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md")),
                say(recordedReply("plan_warp_per_row.md")), say(reformatted)});
  auto p = proposer(server, &compiler);
  ASSERT_TRUE(p->propose(context()).ok);
  const Proposal again = p->propose(context());
  EXPECT_FALSE(again.ok);
  EXPECT_EQ(again.error.rfind("duplicate: ", 0), 0u) << again.error;
  EXPECT_EQ(compiler.requests.size(), 1u);  // the duplicate was not compiled
}

TEST_F(LlmProposerTest, KeyNeverInWhatTheProposerReturns) {
  setenv(kKeyVariable, kSecret, 1);
  settings.apiKeyEnv = kKeyVariable;
  ReplayServer server;
  // A hostile server echoes the credential it received into the model's text.
  server.script([&](const json&, int i) {
    const std::string key = server.credentials().at(static_cast<std::size_t>(i));
    if (i == 0) return say(recordedReply("plan_warp_per_row.md") + "\nYour key: " + key + "\n");
    return say("```cuda\n// " + key + "\n" + std::string(testing::kWarpPerRowKernel) + "```\n```json\n" +
               testing::kWarpPerRowLaunch + "\n```\n", i == 1 ? "stop" : "length");
  });
  auto p = proposer(server, &compiler);
  const Proposal ok = p->propose(context());
  ASSERT_TRUE(ok.ok) << ok.error;
  EXPECT_EQ(server.credentials().at(0), std::string("Bearer ") + kSecret);  // the key was used...
  for (const std::string& text : {ok.candidate.source, ok.candidate.genomeJson, ok.candidate.statusDetail, ok.error})
    EXPECT_EQ(text.find(kSecret), std::string::npos) << text.substr(0, 200);  // ...and appears nowhere
  const std::string settingsJson = toJson(p->settings());
  EXPECT_EQ(settingsJson.find(kSecret), std::string::npos);
  unsetenv(kKeyVariable);
}

TEST_F(LlmProposerTest, MissingKeyVariableIsAConfigurationError) {
  unsetenv(kKeyVariable);
  settings.apiKeyEnv = kKeyVariable;
  ReplayServer server;
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_NE(prop.error.find(kKeyVariable), std::string::npos) << prop.error;
  EXPECT_FALSE(prop.keep);  // no reply: nothing to inspect
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(LlmProposerTest, SeedsAreProposedConcurrentlyAndAccounted) {
  ReplayServer server;
  std::atomic<int> kernels{0};
  server.script([&](const json& req, int) {
    const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
    if (last.find("WITHOUT code") != std::string::npos) return say(recordedReply("plan_warp_per_row.md"));
    // Each seed gets a different kernel (rows per block), so none is a duplicate.
    const int rows = 1 << (1 + kernels++);
    std::string kernel = testing::kWarpPerRowKernel;
    kernel.replace(kernel.find("blockIdx.x * 4"), 14, "blockIdx.x * " + std::to_string(rows));
    return say("```cuda\n" + kernel + "```\n```json\n{\"grid\": [\"ceil_div(M, " + std::to_string(rows) +
               ")\"], \"block\": [\"" + std::to_string(32 * rows) + "\"]}\n```\n");
  });
  auto p = proposer(server, &compiler);
  p->setSeedCount(3);
  const std::vector<Proposal> seeds = p->seeds(task, 7);
  ASSERT_EQ(seeds.size(), 3u);
  std::vector<std::string> genomes;
  for (const Proposal& s : seeds) {
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.candidate.mutation, "seed");
    genomes.push_back(s.candidate.genomeJson);
  }
  EXPECT_EQ(server.requests().size(), 6u);
  const LlmUsage sum = sumLlmUsage(genomes);
  EXPECT_EQ(sum.requests, 6);
  EXPECT_EQ(sum.tokensIn, 6000);
  EXPECT_EQ(sum.tokensIn, p->totalUsage().tokensIn);
  EXPECT_NEAR(sum.costUsd, 3 * (2000 * 2.0 + 400 * 8.0) / 1e6, 1e-12);
}

TEST_F(LlmProposerTest, ContextProviderAddsBestInspirationsAndFailures) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  Candidate best = parent();
  best.id = 99;
  best.source = "// the best\n" + best.source;
  Candidate failed;
  failed.id = 77;
  failed.status = CandidateStatus::Invalid;
  failed.statusDetail = "unwritten output elements: 12";
  p->setContextProvider([&](const ProposalContext&, PromptContext& pc) {
    pc.best = &best;
    pc.recentFailures = {&failed};
  });
  ASSERT_TRUE(p->propose(context()).ok);
  const std::string prompt = server.lastUserText(0);
  EXPECT_NE(prompt.find("Best kernel so far #99"), std::string::npos);
  EXPECT_NE(prompt.find("#77: invalid: unwritten output elements: 12"), std::string::npos) << prompt;
}

TEST_F(LlmProposerTest, VaryStrategyRewritesSections) {
  ReplayServer server;
  server.queue({say(recordedReply("strategy_rewrite.md"))});
  auto p = proposer(server, &compiler);
  MetaPrompt s = p->initialStrategies()[1];  // llm:edit
  s.id = 5;
  s.runId = 2;
  const MetaPrompt v = p->varyStrategy(s, 0);
  EXPECT_EQ(v.parent, 5);
  EXPECT_EQ(v.runId, 2);
  EXPECT_EQ(v.id, 0);
  EXPECT_EQ(v.name.rfind("llm:edit:", 0), 0u) << v.name;
  EXPECT_NE(v.text.find("Reach the DRAM roof"), std::string::npos);
  EXPECT_NE(v.text.find("## Guidance"), std::string::npos);
  EXPECT_TRUE(p->strategyNotes().empty());
  EXPECT_EQ(p->totalUsage().requests, 1);
}

TEST_F(LlmProposerTest, VaryStrategyKeepsTheStrategyOnABadReply) {
  ReplayServer server;
  server.queue({say("```json\n{\"sections\": [{\"title\": \"Goal\", \"body\": \"x\"}]}\n```"), say("no json at all"),
                say("```json\n{\"sections\": [{\"title\": \"Aim\", \"body\": \"x\"}, {\"title\": \"Guidance\", \"body\": \"y\"}]}\n```")});
  auto p = proposer(server, &compiler);
  const MetaPrompt s = p->initialStrategies()[0];
  for (int i = 0; i < 3; ++i) {
    const MetaPrompt v = p->varyStrategy(s, 0);
    EXPECT_EQ(v.text, s.text);
    EXPECT_EQ(v.name, s.name);
  }
  const auto notes = p->strategyNotes();
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_NE(notes[0].find("1 sections, the strategy 2"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("no JSON object"), std::string::npos) << notes[1];
  EXPECT_NE(notes[2].find("expected \"Goal\""), std::string::npos) << notes[2];
}

TEST_F(LlmProposerTest, TimeoutSurfacesAsAProposal) {
  settings.timeoutSeconds = 1;
  ReplayServer server;
  server.script([](const json&, int) {
    std::this_thread::sleep_for(1500ms);
    return say(recordedReply("plan_warp_per_row.md"));
  });
  auto p = proposer(server, &compiler);
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("chat-error: timeout: ", 0), 0u) << prop.error;
  EXPECT_FALSE(prop.keep);  // nothing was received
}

TEST_F(LlmProposerTest, RefusedConnectionSurfacesAsAProposal) {
  {
    ReplayServer closed;  // an endpoint that stops listening before it is used
    settings.endpoint = closed.endpoint();
  }
  ClientSettings cs = clientSettings(settings);
  cs.initialBackoff = 10ms;
  cs.maxBackoff = 20ms;
  cs.maxAttempts = 2;
  LlmProposer p(settings, std::shared_ptr<ChatClient>(makeChatClient(ChatApi::OpenAiCompatible, cs)), &compiler);
  const Proposal prop = p.propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("chat-error: connection-dropped: ", 0), 0u) << prop.error;
}

TEST_F(LlmProposerTest, CancelledRunStopsTheRequest) {
  ReplayServer server;
  auto p = proposer(server, &compiler);
  CancelToken token;
  p->setCancelToken(token);
  token.cancel();
  const Proposal prop = p->propose(context());
  EXPECT_FALSE(prop.ok);
  EXPECT_EQ(prop.error.rfind("chat-error: cancelled: ", 0), 0u) << prop.error;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(LlmProposerTest, CrossoverShowsTheSecondParentAsInspiration) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  const Candidate first = parent();
  Candidate second = parent();
  second.id = 42;
  ProposalContext ctx = context();
  ctx.parents = {&first, &second};
  const Proposal prop = p->propose(ctx);
  ASSERT_TRUE(prop.ok) << prop.error;
  EXPECT_EQ(prop.candidate.parents, (std::vector<CandidateId>{41, 42}));
  EXPECT_NE(server.lastUserText(0).find("## Inspiration #42"), std::string::npos);
  EXPECT_NE(server.lastUserText(0).find("Parent kernel #41"), std::string::npos);
}

TEST_F(LlmProposerTest, StoredPromptIsBounded) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  Candidate huge = parent();
  huge.source = std::string(4 << 20, 'x');
  std::vector<Candidate> others(10, huge);
  p->setContextProvider([&](const ProposalContext&, PromptContext& pc) {
    pc.best = &others[0];
    for (auto& o : others) pc.inspirations.push_back(&o);
  });
  const Proposal prop = p->propose(context(nullptr, &huge));
  ASSERT_TRUE(prop.ok) << prop.error;
  EXPECT_LT(prop.candidate.genomeJson.size(), 80u * 1024);
  EXPECT_LT(server.requests().at(0).dump().size(), 200u * 1024);  // what was sent is bounded too
}

TEST_F(LlmProposerTest, PlanFirstThenImplementForAReviewQueue) {
  ReplayServer server;
  server.queue({say(recordedReply("plan_warp_per_row.md")), say(recordedReply("kernel_warp_per_row.md"))});
  auto p = proposer(server, &compiler);
  const ProposalContext ctx = context();
  LlmProposer::ArchitectureStep step = p->planArchitecture(ctx);
  ASSERT_TRUE(step.ok) << step.proposal.error;
  // What a reviewer sees: the plan, no code, nothing compiled yet.
  const Candidate& planned = step.proposal.candidate;
  EXPECT_EQ(planned.status, CandidateStatus::AwaitingReview);
  EXPECT_EQ(planned.statusDetail, "architecture: warp-per-row float4 shuffle");
  EXPECT_TRUE(planned.source.empty());
  EXPECT_EQ(planned.architectureKey, "llm:warp-per-row-float4-shuffle");
  EXPECT_NE(json::parse(planned.genomeJson)["plan"]["plan"].get<std::string>().find("One warp per row"), std::string::npos);
  EXPECT_EQ(json::parse(planned.genomeJson)["llm"]["requests"], 1);
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(compiler.requests.empty());
  // Accepted: the implementation continues the same conversation.
  const Proposal done = p->implement(ctx, std::move(step.conversation));
  ASSERT_TRUE(done.ok) << done.error;
  EXPECT_EQ(json::parse(done.candidate.genomeJson)["llm"]["requests"], 2);
  EXPECT_EQ(server.requests().at(1)["messages"].size(), 4u);
  EXPECT_EQ(p->totalUsage().requests, 2);
}

// A run's total is summed from what its candidates' genomes record, and a project file may
// record anything: a count outside 0..its type's range counts nothing (not its low bits), and
// sums stay at the largest value rather than overflowing.
TEST(LlmUsageSum, FiguresAProjectRecordsAreSummedWithinRange) {
  const std::string most = R"({"llm": {"tokensIn": 9223372036854775807, "tokensOut": 1, "requests": 2147483647}})";
  const LlmUsage sum = sumLlmUsage({most, most, R"({"llm": {"tokensIn": -5, "requests": 1}})",
                                    R"({"llm": {"requests": 4294967297, "tokensOut": 7}})"});
  EXPECT_EQ(sum.tokensIn, std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(sum.tokensOut, 2);
  EXPECT_EQ(sum.requests, std::numeric_limits<int>::max());
  EXPECT_EQ(llmUsageOfGenome(R"({"llm": {"requests": 4294967297}})").requests, 0);
  EXPECT_EQ(llmUsageOfGenome(R"({"llm": {"tokensIn": 18446744073709551615}})").tokensIn, 0);
  EXPECT_EQ(llmUsageOfGenome(R"({"llm": {"tokensIn": 12, "repairs": 3}})").repairs, 3);
}

}  // namespace
}  // namespace crucible::llm
