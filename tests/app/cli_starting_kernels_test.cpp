// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's --kernel and --tune (app/cli/starting_kernels.h): paired in
// order, and backends' starting-kernel errors worded as the options that
// cause them (UsageError, exit status Usage).
#include <gtest/gtest.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include "app/cli/starting_kernels.h"
#include "tests/backends/tunable/example_kernel.h"

namespace crucible::cli {
namespace {

namespace fs = std::filesystem;
using testing_support::readExampleFile;

class CliStartingKernels : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crucible_cli_starting_kernels_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST_F(CliStartingKernels, KernelAndTuneArePairedInOrder) {
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

TEST_F(CliStartingKernels, ErrorsAreUsageErrorsWordedAsOptions) {
  const std::string cu = write("gemv.cu", readExampleFile("gemv.cu"));
  try {
    readStartingKernel({cu, ""});
    FAIL() << "a kernel without a launch rule was read";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--kernel " + cu + ": no launch rule: give --tune FILE, put gemv.tune.json beside it", 0), 0u)
        << what;
  }
  const std::string bad = write("bad.json", R"J({"parameters": {"ROWS": [1, "x"]}, "launch": {"grid": [1], "block": [32]}})J");
  try {
    readStartingKernel({cu, bad});
    FAIL() << "a bad tune file was read";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: parameters.ROWS[1]"), std::string::npos) << e.what();
  }
  const std::string tune = write("gemv.tune.json", readExampleFile("gemv.tune.json"));
  const auto kernels = readStartingKernels(Options({"--kernel", cu, "--tune", tune}, {"kernel", "tune"}, {}));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_NO_THROW(checkStartingKernels(kernels, readExampleFile("gemv_f32_8192x8192.json")));
  EXPECT_THROW(checkStartingKernels(kernels, readExampleFile("../../tasks/softmax_f32_1024x1024.json")), UsageError);
  // Two kernels of one name are refused.
  EXPECT_THROW(readStartingKernels(Options({"--kernel", cu, "--kernel", cu}, {"kernel", "tune"}, {})), UsageError);
  // The run's proposer is backends' (the same as the GUI's).
  RunProposer proposer(kernels);
  EXPECT_EQ(proposer.get().name(), "tunable+template");
}

}  // namespace
}  // namespace crucible::cli
