// SPDX-License-Identifier: GPL-3.0-or-later
// The engine with the user's tunable kernel (and the template proposer, which
// has no family for a gemv) on the fake compiler and GPU: the starting kernel
// is the run's first candidate, then its parameters are tuned; a kernel with
// nothing to tune is still evaluated.
#include <gtest/gtest.h>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <unistd.h>
#include "backends/proposers/combined/combined_proposer.h"
#include "backends/proposers/template/template_proposer.h"
#include "backends/proposers/tunable/tunable_proposer.h"
#include "core/engine/engine.h"
#include "core/store/project_store.h"
#include "core/task/task_import.h"
#include "example_kernel.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_sanitizer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

class GemvProject {
public:
  GemvProject() {
    dir_ = fs::temp_directory_path() / ("crucible_tunable_engine_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(counter_++));
    fs::create_directories(dir_);
    path_ = (dir_ / "p.crucible").string();
    auto store = ProjectStore::create(path_);
    task_ = importTaskFile(*store, std::string(CRUCIBLE_SOURCE_DIR) + "/resources/kernels/gemv/gemv_f32_8192x8192.json").id;
  }
  ~GemvProject() { fs::remove_all(dir_); }
  const std::string& path() const { return path_; }
  TaskId task() const { return task_; }

private:
  static inline int counter_ = 0;
  fs::path dir_;
  std::string path_;
  TaskId task_ = 0;
};

// The run's candidates other than its reference, in id order.
std::vector<Candidate> candidatesOf(const ProjectStore& store, RunId run) {
  std::vector<Candidate> out;
  for (const auto& s : store.candidateSummaries(run))
    if (s.status != CandidateStatus::Reference) out.push_back(*store.candidate(s.id));
  return out;
}

TEST(TunableEngineRun, TheStartingKernelIsEvaluatedFirstThenTuned) {
  GemvProject project;
  TemplateProposer templates;
  TunableKernelProposer tunable({testing_support::gemvKernel()});
  CombinedProposer proposer({{&tunable, [](const Candidate& c) { return TunableKernelProposer::owns(c); }},
                             {&templates, [](const Candidate& c) { return !TunableKernelProposer::owns(c); }}});
  testing::FakeCompiler compiler;
  testing::FakeDispatcher dispatcher(1);
  testing::FakeSanitizer sanitizer;
  Engine engine{project.path(), proposer, compiler, dispatcher, nullptr, &sanitizer};
  const RunId run = engine.createRun(project.task(), "gemv", 1, Budget{12, 0, 0}, false, testing::smallSettings());
  engine.run(run);

  auto store = ProjectStore::open(project.path());
  EXPECT_EQ(store->run(run)->evaluationsDone, 12);
  const auto candidates = candidatesOf(*store, run);
  ASSERT_GE(candidates.size(), 12u);
  EXPECT_EQ(candidates[0].proposer, "user");
  EXPECT_EQ(candidates[0].generation, 0);
  EXPECT_EQ(candidates[0].mutation, "seed");
  EXPECT_EQ(tunable.parametersOf(candidates[0]),
            (ParameterPoint{{"ROWS", 4}, {"THREADS_PER_ROW", 128}, {"VEC", 4}, {"UNROLL", 2}}));
  std::set<ParameterPoint> points;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    EXPECT_EQ(c.architectureKey, candidates[0].architectureKey) << "#" << c.id;
    if (i > 0) {
      EXPECT_EQ(c.proposer, "tunable") << "#" << c.id;
    }
    EXPECT_TRUE(points.insert(tunable.parametersOf(c)).second) << "a configuration was evaluated twice";
  }
  // The template proposer's missing family is said, not hidden.
  bool said = false;
  for (const auto& line : store->log(run)) said = said || line.text.find("proposer 'template'") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(TunableEngineRun, AKernelWithoutParametersIsStillEvaluated) {
  GemvProject project;
  StartingKernel k = testing_support::gemvKernel();
  k.tune = parseTuneSpec(R"J({"parameters": {}, "launch": {"grid": ["ceil_div(M, 4)"], "block": [128, 4]}})J");
  k.source = "#define ROWS 4\n#define THREADS_PER_ROW 128\n#define VEC 4\n#define UNROLL 2\n" + k.source;
  TunableKernelProposer tunable({k});
  testing::FakeCompiler compiler;
  testing::FakeDispatcher dispatcher(1);
  testing::FakeSanitizer sanitizer;
  Engine engine{project.path(), tunable, compiler, dispatcher, nullptr, &sanitizer};
  const RunId run = engine.createRun(project.task(), "fixed", 1, Budget{10, 0, 0}, false, testing::smallSettings());
  engine.run(run);
  auto store = ProjectStore::open(project.path());
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 1);
  const auto candidates = candidatesOf(*store, run);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].proposer, "user");
  // Why nothing followed is in the log, in plain words.
  bool said = false;
  for (const auto& line : store->log(run))
    said = said || line.text.find("kernel 'gemv' has no tunable parameters") != std::string::npos;
  EXPECT_TRUE(said);
  // The run's end says why nothing new came, not "search space exhausted".
  bool finishedWithReason = false;
  for (const auto& line : store->log(run))
    finishedWithReason = finishedWithReason || (line.text.find("its last reason: kernel 'gemv' has no tunable") !=
                                                std::string::npos);
  EXPECT_TRUE(finishedWithReason);
  if (std::getenv("SHOW_LOG"))
    for (const auto& line : store->log(run)) std::printf("%s: %s\n", line.level.c_str(), line.text.c_str());
}

}  // namespace
}  // namespace crucible
