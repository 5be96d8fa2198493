// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli run/resume with a language model (--proposer llm) and a Slurm
// cluster (--dispatch slurm), without a GPU: every refusal is a usage error
// (exit 2) naming the option, the file, the field or the key's environment
// variable, before anything is written; a key set in the environment appears
// neither in the output nor in any file the command writes; resume rebuilds
// the run's stored choice; runs/status show tokens and cost of model runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/store/project_store.h"
#include "tests/app/run_cli.h"
#include "tests/backends/llm/replay_server.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using cli_test::cli;
using cli_test::Outcome;
using cli_test::quoted;
using nlohmann::json;

constexpr int kUsage = 2;
constexpr int kNoGpu = 3;
constexpr const char* kKeyVariable = "CRUCIBLE_CLI_LLM_TEST_KEY";
constexpr const char* kSecret = "sk-cli-test-5f3a9c1e77-SECRET";

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class CliLlm : public ::testing::Test {
protected:
  void SetUp() override { unsetenv(kKeyVariable); }
  void TearDown() override { unsetenv(kKeyVariable); }

  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_.file(name);
    std::ofstream(path) << text;
    return path;
  }
  std::string settingsFile(const std::string& endpoint = "http://127.0.0.1:9/v1", const std::string& keyEnv = kKeyVariable) {
    return write("llm.json", json{{"api", "openai"},
                                  {"endpoint", endpoint},
                                  {"apiKeyEnv", keyEnv},
                                  {"models", {{{"name", "replay-model"}, {"priceInPerMTok", 2.0}, {"priceOutPerMTok", 8.0}}}},
                                  {"concurrency", 2}}
                                 .dump());
  }
  void expectUsage(const std::string& args, const std::vector<std::string>& mentions) {
    const Outcome o = cli(args, true, 60);
    EXPECT_EQ(o.exitCode, kUsage) << args << "\n" << o.out;
    for (const std::string& m : mentions) EXPECT_NE(o.out.find(m), std::string::npos) << m << "\n" << o.out;
  }
  // Every file under the scratch folder, the project and its -wal/-shm included.
  void expectKeyInNoFile() {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(dir_.file("")))) {
      if (!entry.is_regular_file()) continue;
      EXPECT_EQ(readAll(entry.path()).find(kSecret), std::string::npos) << entry.path();
    }
  }

  store_test::ScratchDir dir_;
  const std::string project_ = dir_.file("p.crucible");
  const std::string run_ = "run --project " + quoted(project_) + " --task gelu_f32_1048576 --budget 4";
};

TEST_F(CliLlm, ProposerChoiceIsChecked) {
  expectUsage(run_ + " --proposer bogus", {"--proposer must be template or llm, not 'bogus'"});
  expectUsage(run_ + " --proposer llm", {"--proposer llm needs --llm-settings FILE"});
  expectUsage(run_ + " --llm-settings " + quoted(settingsFile()), {"--llm-settings needs --proposer llm"});
  expectUsage(run_ + " --proposer template --llm-settings " + quoted(settingsFile()), {"--llm-settings needs --proposer llm"});
  EXPECT_FALSE(std::filesystem::exists(project_));  // nothing was written
}

TEST_F(CliLlm, SettingsErrorsNameTheFileAndTheField) {
  expectUsage(run_ + " --proposer llm --llm-settings " + quoted(dir_.file("missing.json")), {"missing.json"});
  const std::string bad = write("bad.json", R"({"endpoint": "http://127.0.0.1:9/v1", "models": ["m"], "temperature": 5})");
  expectUsage(run_ + " --proposer llm --llm-settings " + quoted(bad), {"bad.json", "temperature"});
  const std::string typo = write("typo.json", R"({"endpoint": "http://127.0.0.1:9/v1", "models": ["m"], "temprature": 0.5})");
  expectUsage(run_ + " --proposer llm --llm-settings " + quoted(typo), {"typo.json", "temprature"});
  const std::string prices = write("prices.json", R"({"endpoint": "http://x/v1", "models": [{"name": "m", "priceInPerMTok": -1}]})");
  expectUsage(run_ + " --proposer llm --llm-settings " + quoted(prices), {"models[0].priceInPerMTok"});
  expectUsage(run_ + " --proposer llm --llm-settings " + quoted(write("notjson.json", "{ not json")), {"notjson.json"});
  EXPECT_FALSE(std::filesystem::exists(project_));
}

TEST_F(CliLlm, AnUnsetKeyVariableIsNamedBeforeAnythingRuns) {
  expectUsage(run_ + " --proposer llm --llm-settings " + quoted(settingsFile()), {kKeyVariable, "is not set"});
  EXPECT_FALSE(std::filesystem::exists(project_));
}

TEST_F(CliLlm, ModelBudgetOptionsAreChecked) {
  expectUsage(run_ + " --max-cost-usd 5", {"--max-cost-usd", "needs --proposer llm"});
  expectUsage(run_ + " --proposer template --max-tokens 100000", {"--max-tokens", "needs --proposer llm"});
  const std::string llm = run_ + " --proposer llm --llm-settings " + quoted(settingsFile());
  expectUsage(llm + " --max-cost-usd 0", {"--max-cost-usd must be more than 0"});
  expectUsage(llm + " --max-cost-usd lots", {"--max-cost-usd"});
  expectUsage(llm + " --max-tokens 0", {"--max-tokens"});
  expectUsage(llm + " --max-tokens 1e6", {"--max-tokens"});
  // Good values pass on to the next check (here: the key variable is not set).
  expectUsage(llm + " --max-cost-usd 2.5 --max-tokens 1000000", {kKeyVariable, "is not set"});
}

TEST_F(CliLlm, DispatchChoiceIsChecked) {
  expectUsage(run_ + " --dispatch cloud", {"--dispatch must be local or slurm, not 'cloud'"});
  expectUsage(run_ + " --dispatch slurm", {"--dispatch slurm needs --slurm-settings FILE"});
  expectUsage(run_ + " --slurm-settings " + quoted(write("s.json", "{}")), {"--slurm-settings needs --dispatch slurm"});
  const std::string bad = write("slurm.json", R"({"sharedDirectory": "/nonexistent/crucible-cli-test", "concurrentJobs": 0})");
  expectUsage(run_ + " --dispatch slurm --slurm-settings " + quoted(bad), {"slurm.json", "concurrentJobs"});
  const std::string unknown = write("slurm2.json", R"({"sharedDirectory": "/nonexistent/crucible-cli-test", "partitionn": "gpu"})");
  expectUsage(run_ + " --dispatch slurm --slurm-settings " + quoted(unknown), {"slurm2.json", "partitionn"});
  EXPECT_FALSE(std::filesystem::exists(project_));
  // Settings that parse, but whose shared directory cannot be made here.
  write("blocker", "a file, not a folder");
  const std::string unusable = write("slurm3.json", json{{"sharedDirectory", dir_.file("blocker") + "/jobs"}}.dump());
  expectUsage(run_ + " --dispatch slurm --slurm-settings " + quoted(unusable), {"--slurm-settings", "blocker"});
  EXPECT_FALSE(std::filesystem::exists(project_));
}

// A hostile server echoes the credential it receives into the model's reply.
// Here (no GPU) the run stops at the GPU check; on a GPU machine it runs to
// its budget against the server. Either way the key is in no output and no file.
TEST_F(CliLlm, AKeyInTheEnvironmentIsWrittenNowhere) {
  llm::testing::ReplayServer server;
  server.script([&](const json&, int i) {
    return llm::testing::say("Your key is " + server.credentials().at(static_cast<std::size_t>(i)) + "; no code today.");
  });
  ASSERT_EQ(cli("init " + quoted(project_)).exitCode, 0);
  setenv(kKeyVariable, kSecret, 1);
  const Outcome o = cli(run_ + " --proposer llm --llm-settings " + quoted(settingsFile(server.endpoint())), true, 300);
  EXPECT_TRUE(o.exitCode == kNoGpu || o.exitCode == 0 || o.exitCode == 1) << o.out;
  EXPECT_EQ(o.out.find(kSecret), std::string::npos) << o.out;
  if (o.exitCode != kNoGpu) {
    ASSERT_FALSE(server.credentials().empty());
    EXPECT_EQ(server.credentials().front(), std::string("Bearer ") + kSecret);  // the key was used
  }
  const Outcome status = cli("status --json --project " + quoted(project_));
  EXPECT_EQ(status.out.find(kSecret), std::string::npos);
  expectKeyInNoFile();
}

// A run stored with a model and a settings file: resume reads them again.
class CliLlmResume : public CliLlm {
protected:
  void SetUp() override {
    CliLlm::SetUp();
    auto store = ProjectStore::create(project_);
    const TaskId task = store->addTask(store_test::sampleTask());
    crucible::Run r = store_test::sampleRun(task);
    r.proposer = "llm:replay-model";
    r.settingsJson = json{{"batchSize", 4}, {"frontEnd", {{"proposer", "llm"}, {"dispatch", "local"},
                                                           {"llmSettings", dir_.file("llm.json")}}}}
                         .dump();
    runId_ = store->addRun(r);
    Candidate c;
    c.runId = runId_;
    c.proposer = "llm:replay-model";
    c.source = "extern \"C\" __global__ void k() {}";
    c.status = CandidateStatus::Valid;
    c.genomeJson = R"({"llm": {"model": "replay-model", "tokensIn": 2000, "tokensOut": 400, "latencyS": 3.5,
                        "costUsd": 0.0072, "requests": 2, "repairs": 1},
                       "llmStrategy": {"model": "replay-model", "tokensIn": 1000, "tokensOut": 200, "costUsd": 0.0036,
                        "requests": 1}})";
    store->addCandidate(c);
    crucible::Run plain = store_test::sampleRun(task);
    plain.name = "template run";
    store->addRun(plain);
  }
  std::string resume() const { return "resume --project " + quoted(project_) + " --run " + std::to_string(runId_); }
  RunId runId_ = 0;
};

TEST_F(CliLlmResume, ResumeReadsTheStoredSettingsFileAgain) {
  const std::string before = readAll(project_);
  expectUsage(resume(), {dir_.file("llm.json")});  // stored, but not there any more
  settingsFile();
  expectUsage(resume(), {kKeyVariable, "is not set"});
  expectUsage(resume() + " --proposer template", {"was started with --proposer llm", "keeps its proposer"});
  const std::string moved = write("moved.json", readAll(dir_.file("llm.json")));
  expectUsage(resume() + " --llm-settings " + quoted(moved), {kKeyVariable});  // the new file is the one read
  EXPECT_EQ(readAll(project_), before);  // refused before anything was written
  setenv(kKeyVariable, kSecret, 1);
  const Outcome o = cli(resume(), true, 120);
  EXPECT_EQ(o.exitCode, kNoGpu) << o.out;  // every check passed; this machine has no GPU
  EXPECT_EQ(o.out.find(kSecret), std::string::npos);
  expectKeyInNoFile();
}

// The workbench records a model run's proposer but no settings file: resume asks for one rather
// than carrying on with the templates.
TEST_F(CliLlmResume, AWorkbenchModelRunNeedsItsSettingsGiven) {
  RunId gui = 0;
  {
    auto store = ProjectStore::open(project_);
    crucible::Run r = store_test::sampleRun(store->tasks().front().id);
    r.name = "from the workbench";
    r.proposer = "llm:replay-model";
    r.settingsJson = json{{"batchSize", 4}}.dump();
    gui = store->addRun(r);
  }
  const std::string before = readAll(project_);
  const std::string resumeGui = "resume --project " + quoted(project_) + " --run " + std::to_string(gui);
  expectUsage(resumeGui, {"was started with a language model", "--llm-settings FILE"});
  expectUsage(resumeGui + " --proposer template", {"was started with a language model"});
  EXPECT_EQ(readAll(project_), before);
  settingsFile();
  expectUsage(resumeGui + " --llm-settings " + quoted(dir_.file("llm.json")), {kKeyVariable, "is not set"});
  setenv(kKeyVariable, kSecret, 1);
  const Outcome o = cli(resumeGui + " --llm-settings " + quoted(dir_.file("llm.json")), true, 120);
  EXPECT_EQ(o.exitCode, kNoGpu) << o.out;  // every check passed with the model; this machine has no GPU
}

TEST_F(CliLlmResume, AMalformedStoredChoiceIsRefused) {
  {
    auto store = ProjectStore::open(project_);
    crucible::Run r = *store->run(runId_);
    r.settingsJson = R"({"frontEnd": {"proposer": "gpt", "dispatch": "local"}})";
    store->updateRun(r);
  }
  expectUsage(resume(), {"the run's stored frontEnd is not a valid choice"});
}

TEST_F(CliLlmResume, RunsAndStatusShowTokensAndCost) {
  const Outcome runs = cli("runs --project " + quoted(project_));
  ASSERT_EQ(runs.exitCode, 0) << runs.out;
  // The candidate's own usage and the strategy rewrite it carries.
  EXPECT_NE(runs.out.find("model 3000 in, 600 out, 3 requests, $0.0108"), std::string::npos) << runs.out;
  EXPECT_EQ(runs.out.find("model", runs.out.find("template run")), std::string::npos) << runs.out;

  const Outcome status = cli("status --project " + quoted(project_) + " --run " + std::to_string(runId_));
  ASSERT_EQ(status.exitCode, 0) << status.out;
  EXPECT_NE(status.out.find("  model        3000 in, 600 out, 3 requests, $0.0108"), std::string::npos) << status.out;

  const Outcome j = cli("status --json --project " + quoted(project_), false);
  ASSERT_EQ(j.exitCode, 0) << j.out;
  const json all = json::parse(j.out);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["llm"]["tokens_in"], 3000);
  EXPECT_EQ(all[0]["llm"]["requests"], 3);
  EXPECT_NEAR(all[0]["llm"]["cost_usd"].get<double>(), 0.0108, 1e-12);
  EXPECT_FALSE(all[1].contains("llm"));  // the template run used no model
}

TEST_F(CliLlmResume, RunsShowTheModelBudget) {
  {
    auto store = ProjectStore::open(project_);
    crucible::Run r = *store->run(runId_);
    json s = json::parse(r.settingsJson);
    s["maxModelCostUsd"] = 0.05;
    s["maxModelTokens"] = 100000;
    r.settingsJson = s.dump();
    store->updateRun(r);
  }
  const Outcome runs = cli("runs --project " + quoted(project_));
  ASSERT_EQ(runs.exitCode, 0) << runs.out;
  EXPECT_NE(runs.out.find("model 3000 in, 600 out, 3 requests, $0.0108 of $0.0500 budget (3600 of 100000 tokens budget)"),
            std::string::npos)
      << runs.out;
}

}  // namespace
}  // namespace crucible
