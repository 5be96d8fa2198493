// SPDX-License-Identifier: GPL-3.0-or-later
// Starting kernels (backends/proposers/tunable/starting_kernels.h), shared by
// crucible-cli's --kernel and the GUI's "Add starting kernel...": where the
// tune document is found, errors naming the file and the field, the check
// against the task, names that clash; and the run's proposer
// (backends/proposers/combined/run_proposer.h).
#include <gtest/gtest.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include "backends/proposers/combined/run_proposer.h"
#include "backends/proposers/tunable/starting_kernels.h"
#include "example_kernel.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;
using testing_support::readExampleFile;

class StartingKernels : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crucible_starting_kernels_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string errorOf(const std::string& kernel, const std::string& tune = "", bool* noLaunchRule = nullptr) {
    try {
      readStartingKernel(kernel, tune);
    } catch (const StartingKernelError& e) {
      if (noLaunchRule) *noLaunchRule = e.noLaunchRule();
      return e.what();
    }
    return "(accepted)";
  }
  fs::path dir_;
};

TEST_F(StartingKernels, TheTuneFileIsFoundBesideTheKernelOrInIt) {
  const std::string cu = write("gemv.cu", readExampleFile("gemv.cu"));
  EXPECT_EQ(tuneFileBeside(cu), (dir_ / "gemv.tune.json").string());
  // Nothing gives a launch rule: the message says what to add.
  bool noLaunchRule = false;
  std::string error = errorOf(cu, "", &noLaunchRule);
  EXPECT_TRUE(noLaunchRule);
  EXPECT_NE(error.find("gemv.cu: no launch rule: give a tune file, put gemv.tune.json beside it"), std::string::npos)
      << error;
  // Beside it.
  write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  StartingKernel k = readStartingKernel(cu);
  EXPECT_EQ(k.name, "gemv");
  EXPECT_EQ(k.tune.parameters.size(), 4u);
  EXPECT_NE(k.origin.find("gemv.tune.json"), std::string::npos);
  // A tune file given wins over the file beside it.
  const std::string small = write("small.json", R"J({"parameters": {"ROWS": [2]}, "launch": {"grid": [1], "block": [64, 2]}})J");
  k = readStartingKernel(cu, small);
  ASSERT_EQ(k.tune.parameters.size(), 1u);
  EXPECT_EQ(k.tune.parameters[0].name, "ROWS");
  // In a comment of the kernel.
  const std::string embedded = write(
      "fixed.cu", "/* crucible-tune {\"parameters\": {}, \"launch\": {\"grid\": [\"ceil_div(M, 4)\"], \"block\": [128, 4]}} */\n"
                  "#define ROWS 4\n#define THREADS_PER_ROW 128\n#define VEC 4\n#define UNROLL 1\n" + readExampleFile("gemv.cu"));
  k = readStartingKernel(embedded);
  EXPECT_EQ(k.name, "fixed");
  EXPECT_TRUE(k.tune.parameters.empty());
  EXPECT_EQ(k.tune.launch.grid[0], "ceil_div(M, 4)");
  EXPECT_NE(k.origin.find("its crucible-tune comment"), std::string::npos);
}

TEST_F(StartingKernels, ErrorsNameTheFileAndTheField) {
  const std::string cu = write("k.cu", readExampleFile("gemv.cu"));
  const std::string bad = write("bad.json", R"J({"parameters": {"ROWS": [1, "x"]}, "launch": {"grid": [1], "block": [32]}})J");
  bool noLaunchRule = true;
  std::string error = errorOf(cu, bad, &noLaunchRule);
  EXPECT_NE(error.find("bad.json: parameters.ROWS[1]: must be an integer"), std::string::npos) << error;
  EXPECT_FALSE(noLaunchRule);
  error = errorOf((dir_ / "missing.cu").string());
  EXPECT_NE(error.find("missing.cu"), std::string::npos) << error;
  error = errorOf(dir_.string(), bad);
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  const std::string unclosed = write("unclosed.cu", "/* crucible-tune {\n" + readExampleFile("gemv.cu"));
  error = errorOf(unclosed);
  EXPECT_NE(error.find("unclosed.cu"), std::string::npos) << error;
  const std::string badComment = write("c.cu", "/* crucible-tune {\"parameters\": {}} */\n");
  error = errorOf(badComment);
  EXPECT_NE(error.find("c.cu: crucible-tune comment: launch: missing"), std::string::npos) << error;
  // A name is made of the file's stem, characters a name cannot have replaced.
  EXPECT_EQ(startingKernelName("/x/my kernel+v2.cu"), "my_kernel_v2");
}

TEST_F(StartingKernels, KernelsAreCheckedAgainstTheTaskBeforeARun) {
  const std::string cu = write("gemv.cu", readExampleFile("gemv.cu"));
  const std::string tune = write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  const std::string spec = readExampleFile("gemv_f32_8192x8192.json");
  const std::vector<StartingKernel> kernels = {readStartingKernel(cu, tune)};
  EXPECT_NO_THROW(checkStartingKernelsFit(kernels, spec));
  EXPECT_EQ(startingKernelProblems(kernels, spec), std::vector<std::string>{""});
  // The same kernel for another task (softmax: other tensors) is refused, naming the kernel and the parameter.
  const std::string softmax = readExampleFile("../../tasks/softmax_f32_1024x1024.json");
  const auto problems = startingKernelProblems(kernels, softmax);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("kernel 'gemv'"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("parameter 1 ('x')"), std::string::npos) << problems[0];
  try {
    checkStartingKernelsFit(kernels, softmax);
    FAIL() << "a gemv kernel passed for softmax";
  } catch (const StartingKernelError& e) {
    EXPECT_EQ(std::string(e.what()), problems[0]);
  }
  // A spec that does not parse is said as such.
  EXPECT_THROW(startingKernelProblems(kernels, "{"), StartingKernelError);
  // Two kernels of one name cannot compete; two of distinct names can.
  StartingKernel copy = kernels[0];
  EXPECT_NE(startingKernelNameClash({kernels[0], copy}).find("two starting kernels are named 'gemv'"), std::string::npos);
  copy.name = "gemv2";
  EXPECT_EQ(startingKernelNameClash({kernels[0], copy}), "");
}

TEST_F(StartingKernels, EachFileGetsItsOwnFitForTheTask) {
  const std::string cu = write("gemv.cu", readExampleFile("gemv.cu"));
  write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  fs::create_directories(dir_ / "other");
  const std::string again = (dir_ / "other" / "gemv.cu").string();
  std::ofstream(again, std::ios::binary) << readExampleFile("gemv.cu");
  std::ofstream((dir_ / "other" / "gemv.tune.json").string(), std::ios::binary) << readExampleFile("gemv.tune.json");
  const std::string bare = write("bare.cu", readExampleFile("gemv.cu"));
  const std::string spec = readExampleFile("gemv_f32_8192x8192.json");
  const auto fits = fitStartingKernels({{cu, ""}, {bare, ""}, {again, ""}, {(dir_ / "gone.cu").string(), ""}}, spec);
  ASSERT_EQ(fits.size(), 4u);
  EXPECT_EQ(fits[0].name, "gemv");
  EXPECT_EQ(fits[0].problem, "");
  ASSERT_TRUE(fits[0].kernel.has_value());
  EXPECT_EQ(fits[1].name, "bare");
  EXPECT_NE(fits[1].problem.find("no launch rule"), std::string::npos) << fits[1].problem;
  EXPECT_NE(fits[2].problem.find("two starting kernels are named 'gemv'"), std::string::npos) << fits[2].problem;
  EXPECT_EQ(fits[3].name, "gone");
  EXPECT_NE(fits[3].problem.find("gone.cu"), std::string::npos) << fits[3].problem;
  // Another task: the kernel that was read says why it does not fit; a spec that does not parse is said too.
  const auto softmax = fitStartingKernels({{cu, ""}}, readExampleFile("../../tasks/softmax_f32_1024x1024.json"));
  EXPECT_NE(softmax.at(0).problem.find("does not fit task 'softmax_f32_1024x1024'"), std::string::npos)
      << softmax.at(0).problem;
  EXPECT_NE(fitStartingKernels({{cu, ""}}, "{").at(0).problem.find("the task's spec"), std::string::npos);
}

TEST_F(StartingKernels, TheRunProposerCombinesOnlyWithStartingKernels) {
  RunProposer alone;
  EXPECT_EQ(alone.get().name(), "template");
  RunProposer resumed({}, true);
  EXPECT_EQ(resumed.get().name(), "tunable+template");
  write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  RunProposer both({readStartingKernel(write("gemv.cu", readExampleFile("gemv.cu")))});
  EXPECT_EQ(both.get().name(), "tunable+template");
  Task task;
  task.specJson = readExampleFile("gemv_f32_8192x8192.json");
  task.name = "gemv_f32_8192x8192";
  const auto seeds = both.get().seeds(task, 1);
  ASSERT_GE(seeds.size(), 2u);
  EXPECT_TRUE(seeds[0].ok) << seeds[0].error;            // the user's kernel first
  EXPECT_EQ(seeds[0].candidate.proposer, "user");
  EXPECT_FALSE(seeds[1].ok);                              // no template family for gemv: said, not hidden
  EXPECT_EQ(seeds[1].error.rfind("proposer 'template': ", 0), 0u) << seeds[1].error;
  // A writer owned elsewhere (the GUI's) takes the template proposer's place.
  TemplateProposer shared;
  RunProposer borrowed({}, false, shared);
  EXPECT_EQ(&borrowed.get(), &shared);
  RunProposer borrowedWithKernels(both.tunable().kernels(), false, shared);
  EXPECT_EQ(borrowedWithKernels.get().name(), "tunable+template");
}

}  // namespace
}  // namespace crucible
