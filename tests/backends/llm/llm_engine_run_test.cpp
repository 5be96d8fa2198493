// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 15's whole run: the real engine drives LlmProposer, which talks to a
// loopback replay server (OpenAI format), on a task of a family the template
// proposer does not know (rowabsmax), with CPU doubles for compiling and
// evaluating. Candidates are proposed (several at once), one is repaired
// after a compile error, a reply without code is kept with its status, the
// rest are evaluated and placed in the archive, a meta-prompt is rewritten,
// and every token the server counted is accounted in the run's candidates.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/llm_proposer.h"
#include "backends/proposers/llm/store_context.h"
#include "core/engine/budget.h"
#include "core/engine/engine.h"
#include "core/engine/run_settings.h"
#include "core/store/project_store.h"
#include "tests/backends/llm/llm_test_task.h"
#include "tests/backends/llm/replay_server.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/engine_fixture.h"

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

// A money budget beside the evaluations: the run finishes once what its
// candidates recorded reaches it, says so, and every request the server
// answered is in the project (nothing paid for is lost).
TEST_F(LlmEngineRun, StopsAtTheMoneyBudgetWithEverythingRecorded) {
  ReplayServer server;
  std::atomic<int> implementations{0};
  server.script([&](const json& req, int) {
    const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
    if (last.find("WITHOUT code") != std::string::npos) return say(recordedReply("plan_warp_per_row.md"));
    const int k = implementations++;
    if (k == 1) return say(recordedReply("no_code.md"));  // a kept failure costs too
    return say(distinctKernel(k));
  });
  LlmSettings settings;
  settings.endpoint = server.endpoint();
  settings.models = {{"replay-model", kPriceIn, kPriceOut}};
  settings.concurrency = 2;
  TypoFailingCompiler compiler;
  LlmProposer proposer(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, clientSettings(settings))),
                       &compiler);
  proposer.setSeedCount(2);
  crucible::testing::FakeDispatcher dispatcher(1);
  Engine engine(path, proposer, compiler, dispatcher);
  RunSettings rs;
  rs.batchSize = 3;
  rs.compileThreads = 1;
  rs.validationSeeds = 2;
  rs.extendedValidationSeeds = 2;
  rs.strategyVariationRate = 0;
  rs.crossoverRate = 0;
  rs.profile = ProfileMode::None;
  // One proposal = 2 requests of 1000 in / 200 out at $3 / $15 per million = $0.012.
  constexpr double kPerProposal = 2 * (kInputTokens * kPriceIn + kOutputTokens * kPriceOut) / 1e6;
  rs.maxModelCostUsd = 0.05;
  Budget budget;
  budget.evaluations = 1000;  // the money runs out long before
  const RunId run = engine.createRun(task, "llm money budget", 3, budget, false, rs);
  proposer.setOwningContextProvider(storeContextProvider(path, run));
  engine.run(run);

  auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  const crucible::Run r = *store->run(run);
  EXPECT_EQ(r.status, RunStatus::Finished);
  std::string finished;
  for (const LogLine& line : store->log(run))
    if (line.text.rfind("run finished: ", 0) == 0) finished = line.text;
  EXPECT_EQ(finished.rfind("run finished: model budget spent: $0.", 0), 0u) << finished;
  EXPECT_NE(finished.find(" of $0.0500"), std::string::npos) << finished;
  EXPECT_EQ(runSettingsFromJson(r.settingsJson).maxModelCostUsd, 0.05);

  std::vector<std::string> genomes;
  for (const CandidateSummary& s : store->candidateSummaries(run))
    if (s.id != r.referenceCandidate) genomes.push_back(store->candidate(s.id)->genomeJson);
  const LlmUsage sum = sumLlmUsage(genomes);
  const std::int64_t n = static_cast<std::int64_t>(server.requests().size());
  // Nothing lost: every request answered is in the project, and is what the proposer counted.
  EXPECT_EQ(sum.requests, n);
  EXPECT_EQ(sum.tokensIn, n * kInputTokens);
  EXPECT_NEAR(sum.costUsd, proposer.totalUsage().costUsd, 1e-12);
  // Reached, and passed by at most the last generation (its proposals were already asked for).
  EXPECT_GE(sum.costUsd, 0.05);
  EXPECT_LE(sum.costUsd, 0.05 + rs.batchSize * kPerProposal + 1e-9);
  EXPECT_LT(r.evaluationsDone, 20);
  // The finish message names what was spent, as the candidates record it.
  EXPECT_NE(finished.find(formatUsd(sum.costUsd)), std::string::npos) << finished << " vs " << sum.costUsd;
}

// The same with tokens, and a resumed run counts what it spent before.
TEST_F(LlmEngineRun, StopsAtTheTokenBudgetCountingWhatWasSpentBeforeAResume) {
  ReplayServer server;
  std::atomic<int> implementations{0};
  server.script([&](const json& req, int) {
    const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
    if (last.find("WITHOUT code") != std::string::npos) return say(recordedReply("plan_warp_per_row.md"));
    return say(distinctKernel(implementations++));
  });
  LlmSettings settings;
  settings.endpoint = server.endpoint();
  settings.models = {{"local-model", 0, 0}};  // free, but not unlimited
  settings.concurrency = 1;
  TypoFailingCompiler compiler;
  crucible::testing::FakeDispatcher dispatcher(1);
  RunSettings rs;
  rs.batchSize = 2;
  rs.compileThreads = 1;
  rs.validationSeeds = 2;
  rs.extendedValidationSeeds = 2;
  rs.strategyVariationRate = 0;
  rs.crossoverRate = 0;
  rs.profile = ProfileMode::None;
  rs.maxGenerations = 1;               // the first session ends on the generation limit
  rs.maxModelTokens = 5 * 2 * (kInputTokens + kOutputTokens);  // five proposals' worth
  Budget budget;
  budget.evaluations = 1000;
  RunId run = 0;
  {
    LlmProposer proposer(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, clientSettings(settings))),
                         &compiler);
    proposer.setSeedCount(2);
    Engine engine(path, proposer, compiler, dispatcher);
    run = engine.createRun(task, "llm token budget", 5, budget, false, rs);
    engine.run(run);
  }
  auto spentTokens = [&] {
    auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    std::vector<std::string> genomes;
    for (const CandidateSummary& s : store->candidateSummaries(run)) genomes.push_back(store->candidate(s.id)->genomeJson);
    const LlmUsage u = sumLlmUsage(genomes);
    return u.tokensIn + u.tokensOut;
  };
  const std::int64_t first = spentTokens();
  ASSERT_EQ(first, 4 * 2 * (kInputTokens + kOutputTokens));  // 2 seeds + 2 children: under the budget
  {
    // Resumed without the generation limit: only the budget stops it, counting the first session's tokens.
    auto store = ProjectStore::open(path);
    crucible::Run r = *store->run(run);
    RunSettings more = runSettingsFromJson(r.settingsJson);
    more.maxGenerations = 0;
    r.settingsJson = toJson(more);
    store->updateRun(r);
  }
  LlmProposer again(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, clientSettings(settings))),
                    &compiler);
  Engine engine(path, again, compiler, dispatcher);
  engine.run(run);
  const std::int64_t total = spentTokens();
  // One more generation (2 proposals) reaches 6 of the 5 proposals' worth: it stops there.
  EXPECT_EQ(total, 6 * 2 * (kInputTokens + kOutputTokens));
  auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  std::string finished;
  for (const LogLine& line : store->log(run))
    if (line.text.rfind("run finished: ", 0) == 0) finished = line.text;
  EXPECT_EQ(finished, "run finished: model token budget spent: " + std::to_string(total) + " of " +
                          std::to_string(rs.maxModelTokens) + " tokens");
}

// The model bandit's outcomes read from the project: final candidates of
// proposer "llm:<model>" once each, rewarded 1 when Valid and fitter than
// their first parent; pending ones when they end.
TEST_F(LlmEngineRun, OutcomesOfEachModelsChildrenAreReadFromTheProject) {
  RunId run = 0;
  CandidateId pending = 0;
  {
    auto store = ProjectStore::open(path);
    crucible::Run r;
    r.taskId = task;
    r.name = "outcomes";
    r.proposer = "llm:a";
    run = store->addRun(r);
    auto add = [&](const std::string& proposer, CandidateStatus status, double fitness,
                   std::vector<CandidateId> parents = {}) {
      Candidate c;
      c.runId = run;
      c.proposer = proposer;
      c.status = status;
      c.fitness = fitness;
      c.parents = std::move(parents);
      c.source = proposer + std::to_string(fitness);
      return store->addCandidate(c);
    };
    const CandidateId parent = add("template", CandidateStatus::Valid, 1.5);      // not a model's: no outcome
    add("llm:a", CandidateStatus::Valid, 2.0, {parent});                          // faster than its parent: 1
    add("llm:b", CandidateStatus::Valid, 1.2, {parent});                          // slower: 0
    add("llm:b", CandidateStatus::CompileFailed, 0);                              // failed: 0
    add("llm:a", CandidateStatus::Valid, 0.8);                                    // no parent, valid: 1
    pending = add("llm:a", CandidateStatus::Proposed, 0, {parent});               // not known yet
  }
  const LlmProposer::OutcomeSource source = storeOutcomeSource(path, run);
  auto sorted = [](std::vector<LlmProposer::ModelOutcome> v) {
    std::vector<std::string> out;
    for (const auto& o : v) out.push_back(o.model + "=" + std::to_string(static_cast<int>(o.reward)));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(sorted(source()), (std::vector<std::string>{"a=1", "a=1", "b=0", "b=0"}));
  EXPECT_TRUE(source().empty());  // each outcome once
  {
    auto store = ProjectStore::open(path);
    Candidate c = *store->candidate(pending);
    c.status = CandidateStatus::Valid;
    c.fitness = 1.6;
    store->updateCandidate(c);
  }
  EXPECT_EQ(sorted(source()), (std::vector<std::string>{"a=1"}));  // the pending one, once it ended
  EXPECT_TRUE(source().empty());
  // An unreadable project yields nothing rather than an exception.
  EXPECT_TRUE(storeOutcomeSource((dir / "missing.crucible").string(), run)().empty());
}

// Issue 15's gated run: the review queue shows a language model's plan before
// any code exists. A rejected plan never gets code; an accepted one gets its
// code afterwards and is evaluated as the same candidate; later plans of the
// accepted architecture are implemented at once, of the rejected one never.
TEST_F(LlmEngineRun, GatedRunReviewsThePlanBeforeAnyCodeIsWritten) {
  constexpr const char* kTreePlan =
      "```json\n{\"name\": \"block tree\", \"plan\": \"One block per row; a shared-memory tree reduction.\"}\n```\n";
  ReplayServer server;
  std::atomic<int> plans{0}, implementations{0}, treeImplementations{0};
  server.script([&](const json& req, int) {
    const std::string last = ReplayServer::textOf(req["messages"].back()["content"]);
    if (last.find("WITHOUT code") != std::string::npos)
      return say(plans++ % 2 == 0 ? recordedReply("plan_warp_per_row.md") : std::string(kTreePlan));
    if (last.find("\"block tree\"") != std::string::npos) ++treeImplementations;
    return say(distinctKernel(implementations++));
  });
  LlmSettings settings;
  settings.endpoint = server.endpoint();
  settings.models = {{"replay-model", kPriceIn, kPriceOut}};
  settings.concurrency = 1;
  TypoFailingCompiler compiler;
  LlmProposer proposer(settings, std::shared_ptr<ChatClient>(makeChatClient(settings.api, clientSettings(settings))),
                       &compiler);
  proposer.setSeedCount(2);
  crucible::testing::FakeDispatcher dispatcher(1);
  crucible::testing::RecordingObserver observer;
  Engine engine(path, proposer, compiler, dispatcher, &observer);
  RunSettings rs;
  rs.batchSize = 2;
  rs.compileThreads = 1;
  rs.validationSeeds = 2;
  rs.extendedValidationSeeds = 2;
  rs.strategyVariationRate = 0;
  rs.crossoverRate = 0;
  rs.profile = ProfileMode::None;
  rs.maxGenerations = 3;
  Budget budget;
  budget.evaluations = 100;
  const RunId run = engine.createRun(task, "llm gated", 7, budget, true, rs);
  proposer.setOwningContextProvider(storeContextProvider(path, run));
  std::thread worker([&] { engine.run(run); });

  auto blocked = [&] {
    for (const auto& l : observer.all<events::Log>())
      if (l.text.find("waiting for review") != std::string::npos) return true;
    return false;
  };
  for (int i = 0; i < 1000 && !blocked(); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(blocked()) << "the run should be waiting for its reviewer";
  std::set<std::string> keys;
  for (const auto& w : observer.all<events::AwaitingReview>()) keys.insert(w.architectureKey);
  ASSERT_EQ(keys, (std::set<std::string>{"llm:block-tree", "llm:warp-per-row-float4-shuffle"}));
  // What the queue shows is a plan: no code was asked for, none stored, nothing evaluated.
  EXPECT_EQ(implementations, 0);
  EXPECT_EQ(dispatcher.totalEvaluations(), 0);
  std::set<CandidateId> warpPlans, treePlans;
  {
    auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
    const auto queued = store->candidatesWithStatus(run, CandidateStatus::AwaitingReview);
    ASSERT_GE(queued.size(), 2u);
    EXPECT_EQ(static_cast<int>(queued.size()), plans.load());  // every plan asked for waits, none was dropped
    for (const Candidate& c : queued) {
      EXPECT_TRUE(c.source.empty()) << "#" << c.id;
      const json g = json::parse(c.genomeJson);
      EXPECT_FALSE(g["plan"]["plan"].get<std::string>().empty());
      EXPECT_EQ(g["llm"]["requests"], 1);  // the plan's turn, paid for and recorded
      (c.architectureKey == "llm:block-tree" ? treePlans : warpPlans).insert(c.id);
    }
  }
  ASSERT_FALSE(treePlans.empty());
  ASSERT_FALSE(warpPlans.empty());
  engine.submitVerdict(run, "llm:block-tree", false, "shared memory round trips");
  engine.submitVerdict(run, "llm:warp-per-row-float4-shuffle", true, "");
  worker.join();

  auto store = ProjectStore::open(path, ProjectStore::Mode::ReadOnly);
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(treeImplementations, 0) << "no code is ever requested for a rejected plan";
  // Every plan stored is without code. Those of the rejected architecture are Rejected; those of
  // the accepted one are retired for their implementation, a new candidate that was evaluated.
  // (Plans stored while the verdicts arrived are handled the same.)
  int storedPlans = 0, implementedPlans = 0, withCode = 0;
  std::vector<std::string> genomes;
  const std::string marker = "architecture accepted in review; implemented as candidate #";
  for (const CandidateSummary& s : store->candidateSummaries(run)) {
    if (s.id == store->run(run)->referenceCandidate) continue;
    const Candidate c = *store->candidate(s.id);
    genomes.push_back(c.genomeJson);
    if (!c.source.empty()) {
      ++withCode;
      EXPECT_EQ(c.architectureKey, "llm:warp-per-row-float4-shuffle") << "#" << c.id;
      EXPECT_EQ(c.status, CandidateStatus::Valid) << "#" << c.id << " " << c.statusDetail;
      // The implementation of a stored plan counts its own request; one implemented at once, the plan's too.
      EXPECT_EQ(json::parse(c.genomeJson)["llm"]["requests"], json::parse(c.genomeJson).contains("planCandidate") ? 1 : 2)
          << "#" << c.id;
      continue;
    }
    ++storedPlans;
    EXPECT_EQ(c.status, CandidateStatus::Rejected) << "#" << c.id << " " << c.statusDetail;
    EXPECT_EQ(json::parse(c.genomeJson)["llm"]["requests"], 1) << "#" << c.id;  // the plan's turn
    if (c.architectureKey == "llm:block-tree") {
      EXPECT_NE(c.statusDetail.find("rejected in review"), std::string::npos) << c.statusDetail;
      continue;
    }
    ASSERT_EQ(c.statusDetail.rfind(marker, 0), 0u) << c.statusDetail;
    ++implementedPlans;
    const Candidate code = *store->candidate(std::stoll(c.statusDetail.substr(marker.size())));
    EXPECT_EQ(code.status, CandidateStatus::Valid) << code.statusDetail;
    EXPECT_EQ(code.generation, c.generation);
    EXPECT_EQ(code.parents, c.parents);
    const json g = json::parse(code.genomeJson);
    EXPECT_EQ(g["planCandidate"], c.id);
    EXPECT_EQ(g["plan"]["name"], "warp-per-row float4 shuffle");
  }
  for (CandidateId id : treePlans) EXPECT_EQ(store->candidate(id)->status, CandidateStatus::Rejected);
  EXPECT_GE(implementedPlans, static_cast<int>(warpPlans.size()));
  EXPECT_GT(withCode, implementedPlans);  // later plans of the accepted architecture were implemented at once
  EXPECT_EQ(observer.count<events::AwaitingReview>(), static_cast<int>(treePlans.size() + warpPlans.size()));
  // Every request is accounted once: plans of the rejected architecture proposed after its
  // rejection are kept (Rejected, never implemented) with what they cost.
  const LlmUsage sum = sumLlmUsage(genomes);
  EXPECT_EQ(storedPlans + (withCode - implementedPlans), plans.load());
  EXPECT_EQ(sum.requests, static_cast<int>(server.requests().size()));
}

}  // namespace
}  // namespace crucible::llm
