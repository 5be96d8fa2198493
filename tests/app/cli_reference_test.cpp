// SPDX-License-Identifier: GPL-3.0-or-later
// `run --reference K.cu [--reference-tune T.json]`: the user's kernel as the
// run's reference (core/engine/user_reference.h). A kernel that does not fit
// the task is bad usage naming --reference and why, before any GPU is probed
// or project written.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/app/run_cli.h"
#include "tests/core/store/store_test_support.h"

namespace crucible {
namespace {

using cli_test::cli;
using cli_test::Outcome;
using cli_test::quoted;

constexpr int kUsage = 2;

TEST(CliReference, AKernelThatDoesNotFitTheTaskIsBadUsageAndNothingIsWritten) {
  store_test::ScratchDir dir;
  const std::string project = dir.file("p.crucible");
  const std::string gemv = std::string(CRUCIBLE_SOURCE_DIR) + "/resources/kernels/gemv/gemv.cu";
  // gemv's signature (A, x -> y) is not softmax's (x -> y).
  const Outcome wrong = cli("run --project " + quoted(project) + " --task softmax_f32_8192x4096 --reference " + quoted(gemv));
  EXPECT_EQ(wrong.exitCode, kUsage) << wrong.out;
  EXPECT_NE(wrong.out.find("--reference: "), std::string::npos) << wrong.out;
  EXPECT_NE(wrong.out.find("gemv"), std::string::npos) << wrong.out;
  EXPECT_FALSE(std::filesystem::exists(project)) << "a refused reference created the project";

  const Outcome missing = cli("run --project " + quoted(project) + " --task softmax_f32_8192x4096 --reference " +
                              quoted(dir.file("nothing.cu")));
  EXPECT_EQ(missing.exitCode, kUsage) << missing.out;
  EXPECT_NE(missing.out.find("nothing.cu"), std::string::npos) << missing.out;

  const Outcome tuneAlone = cli("run --project " + quoted(project) + " --task softmax_f32_8192x4096 --reference-tune " +
                                quoted(dir.file("t.json")));
  EXPECT_EQ(tuneAlone.exitCode, kUsage) << tuneAlone.out;
  EXPECT_NE(tuneAlone.out.find("it needs --reference"), std::string::npos) << tuneAlone.out;
  EXPECT_FALSE(std::filesystem::exists(project));
}

TEST(CliReference, RunHelpNamesTheOption) {
  const Outcome help = cli("run --help", false);
  ASSERT_EQ(help.exitCode, 0) << help.out;
  EXPECT_NE(help.out.find("--reference"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--search"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace crucible
