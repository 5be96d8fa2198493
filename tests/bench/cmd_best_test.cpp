// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible-cli best` end to end: a project filled through ProjectStore, the
// real executable run on it, its table/JSON and exported files checked.
#include <gtest/gtest.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include "core/store/project_store.h"
#include "tests/app/run_cli.h"

namespace fs = std::filesystem;
using namespace crucible;

namespace {

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

using cli_test::cli;
using cli_test::Outcome;

class CmdBestTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crucible-best-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    project_ = (dir_ / "p.crucible").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  TaskId addTask(ProjectStore& store, const std::string& name) {
    Task t;
    t.name = name;
    t.family = "softmax";
    t.specJson = readText(fs::path(CRUCIBLE_SOURCE_DIR) / "resources" / "tasks" / (name + ".json"));
    EXPECT_FALSE(t.specJson.empty()) << name;
    return store.addTask(t);
  }

  RunId addRun(ProjectStore& store, TaskId task, std::int64_t evaluations) {
    crucible::Run r;
    r.taskId = task;
    r.name = "r";
    r.proposer = "template";
    r.evaluationsDone = evaluations;
    return store.addRun(r);
  }

  CandidateId addCandidate(ProjectStore& store, RunId run, CandidateStatus status, double speedup, double medianUs,
                           const std::string& marker) {
    Candidate c;
    c.runId = run;
    c.source = "extern \"C\" __global__ void softmax_kernel() {} // " + marker;
    c.launch.entry = "softmax_kernel";
    c.launch.grid[0] = "M";
    c.launch.block[0] = "256";
    c.launch.dynamicSmemBytes = "N*4";
    c.architectureKey = "template:softmax:" + marker;
    c.status = status;
    Timing t;
    t.medianUs = medianUs;
    t.referenceMedianUs = medianUs * speedup;
    t.speedup = speedup;
    c.timing = t;
    return store.addCandidate(c);
  }

  fs::path dir_;
  std::string project_;
};

TEST_F(CmdBestTest, EmptyProjectSaysSoAndSucceeds) {
  ProjectStore::create(project_);
  const Outcome o = cli("best --project '" + project_ + "'");
  EXPECT_EQ(o.exitCode, 0) << o.out;
  EXPECT_NE(o.out.find("has no tasks"), std::string::npos) << o.out;
}

TEST_F(CmdBestTest, MissingProjectAndBadOptionsAreErrors) {
  EXPECT_EQ(cli("best").exitCode, 2);
  EXPECT_EQ(cli("best --project '" + project_ + "' --frobnicate").exitCode, 2);
  const Outcome missing = cli("best --project '" + (dir_ / "nope.crucible").string() + "'");
  EXPECT_EQ(missing.exitCode, 4) << "exit status 4: the project cannot be used";
  EXPECT_NE(missing.out.find("no project file"), std::string::npos) << missing.out;
}

// A run that starts from a seal times its children against the sealed kernel: 1.2x a seal that
// was 3.0x the baseline is 3.6x the baseline, better than the earlier run's 3.0x and 2.9x, though
// its own speedup (1.2) is lower. Found on the H200: best exported the older, slower kernels.
TEST_F(CmdBestTest, SpeedupsOfRunsFromASealAreChainedThroughTheSeal) {
  CandidateId winner = 0, sealed = 0;
  {
    auto store = ProjectStore::create(project_);
    const TaskId softmax = addTask(*store, "softmax_f32_1024x1024");
    const RunId first = addRun(*store, softmax, 30);
    sealed = addCandidate(*store, first, CandidateStatus::Valid, 3.0, 5.0, "sealed");
    addCandidate(*store, first, CandidateStatus::Valid, 2.9, 5.2, "runner-up");
    crucible::Run second = *store->run(addRun(*store, softmax, 20));
    Candidate reference = *store->candidate(addCandidate(*store, second.id, CandidateStatus::Reference, 1.0, 5.0, "seal-copy"));
    reference.parents = {sealed};
    reference.id = 0;
    second.referenceCandidate = store->addCandidate(reference);
    store->updateRun(second);
    winner = addCandidate(*store, second.id, CandidateStatus::Valid, 1.2, 4.2, "from-the-seal");
    addCandidate(*store, second.id, CandidateStatus::Valid, 0.9, 5.6, "worse-than-the-seal");
  }
  const Outcome json = cli("best --project '" + project_ + "' --json", false);
  ASSERT_EQ(json.exitCode, 0) << json.out;
  const auto list = nlohmann::json::parse(json.out);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["candidate"], winner);
  EXPECT_DOUBLE_EQ(list[0]["speedup"].get<double>(), 1.2);
  EXPECT_NEAR(list[0]["speedup_over_baseline"].get<double>(), 3.6, 1e-9);
  const Outcome table = cli("best --project '" + project_ + "'");
  EXPECT_NE(table.out.find("3.600x"), std::string::npos) << table.out;
}

TEST_F(CmdBestTest, PicksTheFastestValidCandidateOverAllRunsAndExportsIt) {
  CandidateId winner = 0;
  {
    auto store = ProjectStore::create(project_);
    const TaskId softmax = addTask(*store, "softmax_f32_1024x1024");
    addTask(*store, "softmax_f32_8192x4096");  // no run at all: listed as having no valid candidate
    const RunId first = addRun(*store, softmax, 40);
    addCandidate(*store, first, CandidateStatus::Valid, 1.5, 10.0, "slow");
    addCandidate(*store, first, CandidateStatus::Valid, 2.0, 8.0, "fast-but-tied");
    addCandidate(*store, first, CandidateStatus::Invalid, 9.0, 1.0, "wrong");        // fast but wrong
    addCandidate(*store, first, CandidateStatus::Reference, 1.0, 15.0, "reference");
    const RunId second = addRun(*store, softmax, 25);
    winner = addCandidate(*store, second, CandidateStatus::Valid, 2.0, 7.5, "winner");  // tie broken by median
  }
  const fs::path exportDir = dir_ / "best";

  const Outcome table = cli("best --project '" + project_ + "'");
  EXPECT_EQ(table.exitCode, 1) << "a task without a valid candidate makes the exit status 1\n" << table.out;
  EXPECT_NE(table.out.find("template:softmax:winner"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("softmax_f32_8192x4096"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("NO VALID CANDIDATE (0 runs, 0 evaluations)"), std::string::npos) << table.out;

  const Outcome json = cli("best --project '" + project_ + "' --json --export '" + exportDir.string() + "'", false);
  EXPECT_EQ(json.exitCode, 1) << json.out;
  const auto list = nlohmann::json::parse(json.out);  // stdout stays pure JSON with --export
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["task"], "softmax_f32_1024x1024");
  EXPECT_EQ(list[0]["candidate"], winner);
  EXPECT_EQ(list[0]["run_evaluations"], 25);
  EXPECT_EQ(list[0]["evaluations"], 65);
  EXPECT_DOUBLE_EQ(list[0]["speedup"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(list[0]["median_us"].get<double>(), 7.5);
  EXPECT_EQ(list[1]["valid"], false);

  const fs::path cu = exportDir / "softmax_f32_1024x1024.cu";
  ASSERT_TRUE(fs::exists(cu));
  EXPECT_NE(readText(cu).find("// winner"), std::string::npos);
  EXPECT_FALSE(fs::exists(exportDir / "softmax_f32_8192x4096.cu"));
  const auto meta = nlohmann::json::parse(readText(exportDir / "softmax_f32_1024x1024.json"));
  EXPECT_EQ(meta["task"], "softmax_f32_1024x1024");
  EXPECT_EQ(meta["spec"]["axes"]["M"], 1024);
  EXPECT_EQ(meta["entry"], "softmax_kernel");
  EXPECT_EQ(meta["grid"], nlohmann::json::array({"M", "1", "1"}));
  EXPECT_EQ(meta["block"], nlohmann::json::array({"256", "1", "1"}));
  EXPECT_EQ(meta["smem"], "N*4");
  EXPECT_EQ(meta["candidate"], winner);
  EXPECT_DOUBLE_EQ(meta["median_us"].get<double>(), 7.5);
  EXPECT_DOUBLE_EQ(meta["speedup"].get<double>(), 2.0);
}

TEST_F(CmdBestTest, TheExportedLaunchRuleCarriesItsTensorMaps) {
  CandidateId tma = 0, plain = 0;
  {
    auto store = ProjectStore::create(project_);
    const RunId run = addRun(*store, addTask(*store, "matmul_bf16_1024x1024x1024"), 2);
    // The same kernel twice: without maps, and (faster, so the winner) with them.
    Candidate c = *store->candidate(addCandidate(*store, run, CandidateStatus::Valid, 2.0, 5.0, "tma"));
    c.id = 0;
    c.launch.tensorMaps = {{"A", 128, 64, "128B"}, {"B", 64, 128, "none"}};
    c.timing->speedup = 3.0;
    tma = store->addCandidate(c);
    const RunId other = addRun(*store, addTask(*store, "softmax_f32_1024x1024"), 2);
    plain = addCandidate(*store, other, CandidateStatus::Valid, 1.5, 5.0, "plain");
  }
  const fs::path exportDir = dir_ / "best";
  const Outcome o = cli("best --project '" + project_ + "' --export '" + exportDir.string() + "'");
  EXPECT_EQ(o.exitCode, 0) << o.out;

  const auto meta = nlohmann::json::parse(readText(exportDir / "matmul_bf16_1024x1024x1024.json"));
  EXPECT_EQ(meta["candidate"], tma);
  EXPECT_EQ(meta["launch"]["entry"], "softmax_kernel");
  EXPECT_EQ(meta["launch"]["grid"], nlohmann::json::array({"M", "1", "1"}));
  EXPECT_EQ(meta["launch"]["tensorMaps"],
            nlohmann::json::parse(R"([{"tensor":"A","boxRows":128,"boxCols":64,"swizzle":"128B"},)"
                                  R"({"tensor":"B","boxRows":64,"boxCols":128,"swizzle":"none"}])"));
  // A kernel without maps says so explicitly.
  const auto plainMeta = nlohmann::json::parse(readText(exportDir / "softmax_f32_1024x1024.json"));
  EXPECT_EQ(plainMeta["candidate"], plain);
  EXPECT_EQ(plainMeta["launch"]["tensorMaps"], nlohmann::json::array());
}

TEST_F(CmdBestTest, ExportsAPyTorchExtensionWithTheBaselineAndAFlashInferSolution) {
  CandidateId winner = 0;
  {
    auto store = ProjectStore::create(project_);
    const RunId run = addRun(*store, addTask(*store, "softmax_f32_1024x1024"), 3);
    winner = addCandidate(*store, run, CandidateStatus::Valid, 1.4, 9.0, "fast");
  }
  const fs::path torch = dir_ / "torch";
  const Outcome t = cli("best --project '" + project_ + "' --export '" + torch.string() + "' --format torch");
  ASSERT_EQ(t.exitCode, 0) << t.out;
  for (const char* f : {"softmax_f32_1024x1024.py", "softmax_f32_1024x1024_kernel.cu", "softmax_f32_1024x1024_binding.cpp",
                        "softmax_f32_1024x1024.json", "softmax_f32_1024x1024_baseline.py",
                        "softmax_f32_1024x1024_baseline_kernel.cu", "softmax_f32_1024x1024_baseline_binding.cpp"})
    EXPECT_TRUE(fs::exists(torch / f)) << f;
  const std::string kernel = readText(torch / "softmax_f32_1024x1024_kernel.cu");
  EXPECT_NE(kernel.find("// fast"), std::string::npos) << "the winner's source";
  EXPECT_NE(kernel.find("extern \"C\" cudaError_t crucible_launch_softmax_kernel("), std::string::npos);
  EXPECT_NE(readText(torch / "softmax_f32_1024x1024.py").find("candidate #" + std::to_string(winner)),
            std::string::npos);

  const fs::path fi = dir_ / "flashinfer";
  const Outcome f = cli("best --project '" + project_ + "' --export '" + fi.string() + "' --format flashinfer");
  ASSERT_EQ(f.exitCode, 0) << f.out;
  const auto solution = nlohmann::json::parse(readText(fi / "softmax_f32_1024x1024.solution.json"));
  EXPECT_EQ(solution["definition"], "softmax_f32_1024x1024");
  EXPECT_EQ(solution["spec"]["entry_point"], "main.py::run");
  EXPECT_EQ(solution["sources"].size(), 3u);

  EXPECT_EQ(cli("best --project '" + project_ + "' --export '" + fi.string() + "' --format wheel", false).exitCode, 2);
  EXPECT_EQ(cli("best --project '" + project_ + "' --format torch", false).exitCode, 2) << "--format needs --export";
}

TEST_F(CmdBestTest, AllTasksValidExitsZero) {
  {
    auto store = ProjectStore::create(project_);
    const RunId run = addRun(*store, addTask(*store, "softmax_f32_1024x1024"), 3);
    addCandidate(*store, run, CandidateStatus::Valid, 1.1, 9.0, "only");
  }
  const Outcome o = cli("best --project '" + project_ + "'");
  EXPECT_EQ(o.exitCode, 0) << o.out;
}

}  // namespace
