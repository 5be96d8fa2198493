// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's starting kernels (app/cli/starting_kernels.h): --kernel and
// --tune paired in order, where the tune document is found, errors naming the
// file and the field, the check against the task, and the run's proposer.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include "app/cli/starting_kernels.h"
#include "example_kernel.h"

namespace crucible::cli {
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
  std::string usageErrorOf(const KernelOption& o) {
    try {
      readStartingKernel(o);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "(accepted)";
  }
  fs::path dir_;
};

TEST_F(StartingKernels, KernelAndTuneArePairedInOrder) {
  const Options o({"--kernel", "a.cu", "--tune", "a.json", "--budget", "5", "--kernel", "b.cu"},
                  {"kernel", "tune", "budget"}, {});
  const auto pairs = kernelOptions(o);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].kernel, "a.cu");
  EXPECT_EQ(pairs[0].tune, "a.json");
  EXPECT_EQ(pairs[1].kernel, "b.cu");
  EXPECT_EQ(pairs[1].tune, "");
  EXPECT_THROW(kernelOptions(Options({"--tune", "a.json", "--kernel", "a.cu"}, {"kernel", "tune"}, {})), UsageError);
  EXPECT_THROW(kernelOptions(Options({"--kernel", "a.cu", "--tune", "1.json", "--tune=2.json"}, {"kernel", "tune"}, {})),
               UsageError);
  EXPECT_TRUE(kernelOptions(Options({"--budget", "3"}, {"kernel", "tune", "budget"}, {})).empty());
}

TEST_F(StartingKernels, TheTuneFileIsFoundBesideTheKernelOrInIt) {
  const std::string cu = write("gemv.cu", readExampleFile("gemv.cu"));
  // Nothing gives a launch rule: the message says what to add.
  std::string error = usageErrorOf({cu, ""});
  EXPECT_NE(error.find("no launch rule: give --tune FILE, put gemv.tune.json beside it"), std::string::npos) << error;
  // Beside it.
  write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  StartingKernel k = readStartingKernel({cu, ""});
  EXPECT_EQ(k.name, "gemv");
  EXPECT_EQ(k.tune.parameters.size(), 4u);
  EXPECT_NE(k.origin.find("gemv.tune.json"), std::string::npos);
  // --tune wins over the file beside it.
  const std::string small = write("small.json", R"J({"parameters": {"ROWS": [2]}, "launch": {"grid": [1], "block": [64, 2]}})J");
  k = readStartingKernel({cu, small});
  ASSERT_EQ(k.tune.parameters.size(), 1u);
  EXPECT_EQ(k.tune.parameters[0].name, "ROWS");
  // In a comment of the kernel.
  const std::string embedded = write(
      "fixed.cu", "/* crucible-tune {\"parameters\": {}, \"launch\": {\"grid\": [\"ceil_div(M, 4)\"], \"block\": [128, 4]}} */\n"
                  "#define ROWS 4\n#define THREADS_PER_ROW 128\n#define VEC 4\n#define UNROLL 1\n" + readExampleFile("gemv.cu"));
  k = readStartingKernel({embedded, ""});
  EXPECT_EQ(k.name, "fixed");
  EXPECT_TRUE(k.tune.parameters.empty());
  EXPECT_EQ(k.tune.launch.grid[0], "ceil_div(M, 4)");
}

TEST_F(StartingKernels, ErrorsNameTheFileAndTheField) {
  const std::string cu = write("k.cu", readExampleFile("gemv.cu"));
  const std::string bad = write("bad.json", R"J({"parameters": {"ROWS": [1, "x"]}, "launch": {"grid": [1], "block": [32]}})J");
  std::string error = usageErrorOf({cu, bad});
  EXPECT_NE(error.find("bad.json: parameters.ROWS[1]: must be an integer"), std::string::npos) << error;
  error = usageErrorOf({(dir_ / "missing.cu").string(), ""});
  EXPECT_NE(error.find("missing.cu"), std::string::npos) << error;
  error = usageErrorOf({dir_.string(), bad});
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  const std::string unclosed = write("unclosed.cu", "/* crucible-tune {\n" + readExampleFile("gemv.cu"));
  error = usageErrorOf({unclosed, ""});
  EXPECT_NE(error.find("unclosed.cu"), std::string::npos) << error;
  const std::string badComment = write("c.cu", "/* crucible-tune {\"parameters\": {}} */\n");
  error = usageErrorOf({badComment, ""});
  EXPECT_NE(error.find("c.cu: crucible-tune comment: launch: missing"), std::string::npos) << error;
}

TEST_F(StartingKernels, KernelsAreCheckedAgainstTheTaskBeforeARun) {
  const std::string cu = write("gemv.cu", readExampleFile("gemv.cu"));
  const std::string tune = write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  const std::string spec = readExampleFile("gemv_f32_8192x8192.json");
  const auto kernels = readStartingKernels(Options({"--kernel", cu, "--tune", tune}, {"kernel", "tune"}, {}));
  EXPECT_NO_THROW(checkStartingKernels(kernels, spec));
  // The same kernel for another task (softmax: other tensors) is refused, naming the kernel and the parameter.
  const std::string softmax = readExampleFile("../../tasks/softmax_f32_1024x1024.json");
  try {
    checkStartingKernels(kernels, softmax);
    FAIL() << "a gemv kernel passed for softmax";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("kernel 'gemv'"), std::string::npos) << what;
    EXPECT_NE(what.find("parameter 1 ('x')"), std::string::npos) << what;
  }
  // Two kernels of one name are refused.
  EXPECT_THROW(readStartingKernels(Options({"--kernel", cu, "--kernel", cu}, {"kernel", "tune"}, {})), UsageError);
}

TEST_F(StartingKernels, TheRunProposerCombinesOnlyWithStartingKernels) {
  RunProposer alone;
  EXPECT_EQ(alone.get().name(), "template");
  RunProposer resumed({}, true);
  EXPECT_EQ(resumed.get().name(), "tunable+template");
  write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  RunProposer both(readStartingKernels(Options({"--kernel", write("gemv.cu", readExampleFile("gemv.cu"))}, {"kernel"}, {})));
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
}

}  // namespace
}  // namespace crucible::cli
