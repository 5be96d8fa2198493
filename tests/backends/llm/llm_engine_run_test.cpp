// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 15's whole run: the real engine drives LlmProposer, which talks to a
// loopback replay server (OpenAI format), on a task of a family the template
// proposer does not know (rowabsmax), with CPU doubles for compiling and
// evaluating. Candidates are proposed (several at once), one is repaired
// after a compile error, a reply without code is kept with its status, the
// rest are evaluated and placed in the archive, a meta-prompt is rewritten,
// and every token the server counted is accounted in the run's candidates.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/llm_proposer.h"
#include "backends/proposers/llm/store_context.h"
#include "core/engine/engine.h"
#include "core/store/project_store.h"
#include "tests/backends/llm/llm_test_task.h"
#include "tests/backends/llm/replay_server.h"
#include "tests/core/engine/doubles/fake_backends.h"

namespace crucible::llm {
namespace {

using nlohmann::json;
using testing::recordedReply;
using testing::ReplayServer;
using testing::say;
using namespace std::chrono_literals;

constexpr int kInputTokens = 1000;   // the replay server's usage per reply
constexpr int kOutputTokens = 200;
constexpr double kPriceIn = 3.0;     // USD per million tokens
constexpr double kPriceOut = 15.0;

// The engine's CPU compiler double, except that a kernel with the replayed
// typo ("fmaxff") fails to compile, as NVRTC would.
class TypoFailingCompiler : public Compiler {
public:
  CompileResult compile(const CompileRequest& request) override {
    if (request.source.find("fmaxff") != std::string::npos) {
      ++failures;
      CompileResult r;
      r.report.ok = false;
      r.report.arch = request.arch;
      r.report.diagnostics.push_back({13, 47, "error", "identifier \"fmaxff\" is undefined"});
      r.report.log = "kernel.cu(13): error: identifier \"fmaxff\" is undefined";
      return r;
    }
    return fake.compile(request);
  }
  std::atomic<int> failures{0};
  crucible::testing::FakeCompiler fake;
};

// A kernel made distinct (its normalised source differs) by an unroll pragma:
// the warp-per-row kernel for even variants, the baseline's block-per-row
// shared-memory tree for odd ones, so the archive has two cells.
std::string distinctKernel(int variant) {
  const bool warp = variant % 2 == 0;
  std::string k = warp ? std::string(testing::kWarpPerRowKernel) : testing::rowAbsMaxSpec().baseline.source;
  k.insert(k.find("  for (long long j"), "#pragma unroll " + std::to_string(variant) + "\n");
  const std::string launch =
      warp ? std::string(testing::kWarpPerRowLaunch)
           : R"({"entry": "rowabsmax_kernel", "grid": ["M", "1", "1"], "block": ["256", "1", "1"], "dynamicSmemBytes": "0"})";
  return "Here it is.\n\n```cuda\n" + k + "```\n\n```json\n" + launch + "\n```\n";
}

class LlmEngineRun : public ::testing::Test {
protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir = std::filesystem::temp_directory_path() /
          ("crucible-llm-run-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    path = (dir / "project.crucible").string();
    Task t;
    t.name = "rowabsmax_f32_1024x2048";
    t.family = "rowabsmax";
    t.specJson = testing::kRowAbsMaxSpec;
    task = ProjectStore::create(path)->addTask(t);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  std::filesystem::path dir;
  std::string path;
  TaskId task = 0;
};

TEST_F(LlmEngineRun, ProposesRepairsKeepsEvaluatesArchivesRewritesAndAccounts) {
  // Replies by what is asked; the first two implementations go to the seeds:
  // one with a typo (repaired on the next turn), one without code.
  ReplayServer server;
  std::atomic<int> implementations{0}, repairs{0}, rewrites{0}, withOthers{0}, withFailure{0};
  server.script([&](const json& req, int) {
    const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
    if (last.find("You are improving the instructions") != std::string::npos) {
      ++rewrites;
      return say(recordedReply("strategy_rewrite.md"));
    }
    if (last.find("WITHOUT code") != std::string::npos) {
      if (last.find("Best kernel so far #") != std::string::npos || last.find("## Inspiration #") != std::string::npos)
        ++withOthers;
      if (last.find("Recent failures") != std::string::npos && last.find(": no-code: ") != std::string::npos) ++withFailure;
      return say(recordedReply("plan_warp_per_row.md"));
    }
    if (last.find("compile-failed: ") != std::string::npos) return say(distinctKernel(100 + repairs++));
    const int k = implementations++;
    if (k == 0) return say(recordedReply("kernel_compile_error.md"));
    if (k == 1) return say(recordedReply("no_code.md"));
    return say(distinctKernel(k));
  });

  LlmSettings settings;
  settings.endpoint = server.endpoint();
  settings.models = {{"replay-model", kPriceIn, kPriceOut}};
  settings.concurrency = 2;
  settings.repairTurns = 2;
  ClientSettings cs = clientSettings(settings);
  cs.initialBackoff = 10ms;
  cs.maxBackoff = 40ms;
  TypoFailingCompiler compiler;
  LlmProposer proposer(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, cs)), &compiler);
  proposer.setSeedCount(2);
  EXPECT_EQ(proposer.concurrentProposals(), 2);

  crucible::testing::FakeDispatcher dispatcher(1);
  Engine engine(path, proposer, compiler, dispatcher);
  RunSettings rs;
  rs.batchSize = 4;
  rs.compileThreads = 1;
  rs.validationSeeds = 2;
  rs.extendedValidationSeeds = 2;
  rs.strategyVariationRate = 1.0;   // a meta-prompt is rewritten every generation once one has 4 uses
  rs.maxGenerations = 5;
  rs.crossoverRate = 0;
  rs.profile = ProfileMode::None;
  Budget budget;
  budget.evaluations = 50;
  const RunId run = engine.createRun(task, "llm replay", 11, budget, false, rs);
  proposer.setOwningContextProvider(storeContextProvider(path, run));
  engine.run(run);

  auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  const crucible::Run r = *store->run(run);
  EXPECT_EQ(r.status, RunStatus::Finished);
  EXPECT_EQ(r.proposer, "llm:replay-model");

  std::vector<Candidate> candidates;
  for (const CandidateSummary& s : store->candidateSummaries(run))
    if (s.id != r.referenceCandidate) candidates.push_back(*store->candidate(s.id));
  int valid = 0, repaired = 0, noCode = 0, children = 0;
  std::vector<std::string> genomes;
  for (const Candidate& c : candidates) {
    genomes.push_back(c.genomeJson);
    if (c.status == CandidateStatus::Valid) {
      ++valid;
      EXPECT_EQ(c.proposer, "llm:replay-model");
      EXPECT_EQ(c.architectureKey, "llm:warp-per-row-float4-shuffle");  // the replayed plan's name
      EXPECT_TRUE(c.timing.has_value());
      if (c.generation > 0) {
        ++children;
        EXPECT_FALSE(c.parents.empty()) << "#" << c.id;
      }
    }
    if (c.mutation.find("+repair1") != std::string::npos) {
      ++repaired;
      EXPECT_EQ(c.status, CandidateStatus::Valid) << c.statusDetail;
      EXPECT_EQ(json::parse(c.genomeJson)["llm"]["repairs"], 1);
      EXPECT_EQ(c.source.find("fmaxff"), std::string::npos);
    }
    if (c.statusDetail.rfind("no-code: ", 0) == 0) {
      ++noCode;
      EXPECT_EQ(c.status, CandidateStatus::CompileFailed);
      EXPECT_EQ(c.source, recordedReply("no_code.md"));  // the reply, kept for inspection
      EXPECT_EQ(json::parse(c.genomeJson)["lastReply"], recordedReply("no_code.md"));
      EXPECT_FALSE(c.compile.has_value());              // never compiled or evaluated
      EXPECT_FALSE(c.timing.has_value());
    }
  }
  EXPECT_EQ(repaired, 1);
  EXPECT_EQ(noCode, 1);
  EXPECT_EQ(compiler.failures, 1);     // the typo, once, in the proposer's check; the engine never saw it
  EXPECT_EQ(repairs, 1);
  EXPECT_GE(children, 8);              // generations of children beside the seeds
  EXPECT_EQ(valid, static_cast<int>(candidates.size()) - 1);  // all but the reply without code

  // Placed in the archive: every elite is a valid model-written kernel of this run.
  const std::vector<ArchiveCell> cells = store->archive(run);
  ASSERT_FALSE(cells.empty());
  for (const ArchiveCell& cell : cells) {
    auto elite = store->candidate(cell.elite);
    ASSERT_TRUE(elite);
    EXPECT_EQ(elite->status, CandidateStatus::Valid);
    EXPECT_EQ(elite->runId, run);
  }
  EXPECT_GE(cells.size(), 2u);  // warp-per-row and block-per-row kernels differ in what they are
  // Later prompts showed the best kernel or another cell's elite, read from the store.
  EXPECT_GE(withOthers, 1);
  EXPECT_GE(withFailure, 1);  // and the kept reply's failure with its reason

  // A meta-prompt was rewritten by the model and stored as a variant of an initial one.
  EXPECT_GE(rewrites, 1);
  int variants = 0;
  for (const MetaPrompt& m : store->metaPrompts(run))
    if (m.parent != 0 && m.name.rfind("llm:", 0) == 0) {
      ++variants;
      EXPECT_NE(m.text.find("Reach the DRAM roof"), std::string::npos);
    }
  EXPECT_GE(variants, 1);

  // Cost: every request the server answered is in the run's candidates, at the configured prices.
  const std::int64_t n = static_cast<std::int64_t>(server.requests().size());
  const LlmUsage sum = sumLlmUsage(genomes);
  EXPECT_EQ(sum.requests, n);
  EXPECT_EQ(sum.tokensIn, n * kInputTokens);
  EXPECT_EQ(sum.tokensOut, n * kOutputTokens);
  EXPECT_NEAR(sum.costUsd, static_cast<double>(n) * (kInputTokens * kPriceIn + kOutputTokens * kPriceOut) / 1e6, 1e-9);
  EXPECT_EQ(sum.repairs, 1);
  EXPECT_EQ(sum.tokensIn, proposer.totalUsage().tokensIn);
}

// A hostile server echoes the credential it receives into plans, kernels,
// replies without code and an error body. The key set in the environment is
// used, and appears in no file the run writes (the project and its -wal/-shm)
// and in none of its log lines.
TEST_F(LlmEngineRun, AKeyInTheEnvironmentIsInNoFileTheRunWrites) {
  constexpr const char* kVariable = "CRUCIBLE_LLM_ENGINE_RUN_TEST_KEY";
  constexpr const char* kSecret = "sk-engine-run-7d41c0ffee-SECRET";
  setenv(kVariable, kSecret, 1);
  ReplayServer server;
  std::atomic<int> implementations{0};
  server.script([&](const json& req, int i) {
    const std::string key = server.credentials().at(static_cast<std::size_t>(i));
    const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
    if (last.find("WITHOUT code") != std::string::npos)
      return say(recordedReply("plan_warp_per_row.md") + "\n(authorised with " + key + ")\n");
    const int k = implementations++;
    if (k == 1) {
      testing::ScriptedReply error;
      error.status = 500;
      error.rawBody = "{\"error\": {\"message\": \"bad credential " + key + "\"}}";
      return error;
    }
    if (k % 3 == 2) return say("I cannot show code to " + key + ".");
    std::string reply = distinctKernel(k);
    reply.insert(reply.find("extern"), "// written for " + key + "\n");
    return say(reply);
  });
  LlmSettings settings;
  settings.endpoint = server.endpoint();
  settings.apiKeyEnv = kVariable;
  settings.models = {{"replay-model", kPriceIn, kPriceOut}};
  settings.concurrency = 2;
  ClientSettings cs = clientSettings(settings);
  cs.maxAttempts = 1;  // the error body is the proposal's final word, kept for inspection
  TypoFailingCompiler compiler;
  LlmProposer proposer(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, cs)), &compiler);
  proposer.setSeedCount(2);
  crucible::testing::FakeDispatcher dispatcher(1);
  Engine engine(path, proposer, compiler, dispatcher);
  RunSettings rs;
  rs.batchSize = 3;
  rs.compileThreads = 1;
  rs.validationSeeds = 2;
  rs.maxGenerations = 3;
  rs.profile = ProfileMode::None;
  Budget budget;
  budget.evaluations = 50;
  const RunId run = engine.createRun(task, "llm key", 5, budget, false, rs);
  proposer.setOwningContextProvider(storeContextProvider(path, run));
  engine.run(run);
  unsetenv(kVariable);

  ASSERT_FALSE(server.credentials().empty());
  EXPECT_EQ(server.credentials().front(), std::string("Bearer ") + kSecret);  // the key was used
  auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  int kept = 0, valid = 0, redacted = 0;
  for (const CandidateSummary& s : store->candidateSummaries(run)) {
    const Candidate c = *store->candidate(s.id);
    kept += c.status == CandidateStatus::CompileFailed;
    valid += c.status == CandidateStatus::Valid;
    redacted += (c.source + c.genomeJson).find("[redacted]") != std::string::npos;
  }
  EXPECT_GE(kept, 2);   // the reply without code and the error body were stored...
  EXPECT_GE(valid, 2);  // ...beside evaluated kernels whose comments named the key
  EXPECT_GE(redacted, 4);  // the echoes reached the project, without the key
  for (const LogLine& l : store->log(run, 0, 1000)) EXPECT_EQ(l.text.find(kSecret), std::string::npos) << l.text;
  store.reset();
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find(kSecret), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace crucible::llm
