// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's option parsing without a GPU: repeatable options, the
// --tensor-map text form, and `eval` refusing a malformed or unencodable map
// (exit 2, before anything is compiled or launched).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <cstdio>
#include "app/cli/options.h"
#include "app/cli/tensor_map_option.h"

namespace crucible::cli {
namespace {

std::string errorOf(const std::string& text) {
  try {
    parseTensorMapOption(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CliOptions, ARepeatableOptionKeepsEveryValueInOrder) {
  const Options o({"--tensor-map", "A:128x64:128B", "--grid", "4", "--tensor-map=B:64x64"}, {"tensor-map", "grid"}, {});
  EXPECT_EQ(o.all("tensor-map"), (std::vector<std::string>{"A:128x64:128B", "B:64x64"}));
  EXPECT_EQ(o.value("tensor-map"), "B:64x64");
  EXPECT_EQ(o.all("grid"), std::vector<std::string>{"4"});
  EXPECT_TRUE(o.all("smem").empty());
}

TEST(CliOptions, TensorMapTextGivesTheRule) {
  EXPECT_EQ(parseTensorMapOption("A:128x64:128B"), (TensorMapRule{"A", 128, 64, "128B"}));
  EXPECT_EQ(parseTensorMapOption("B:64x256"), (TensorMapRule{"B", 64, 256, "none"}));
  EXPECT_EQ(parseTensorMapOption("x_in:1x16:none"), (TensorMapRule{"x_in", 1, 16, "none"}));
  // The form only: out-of-range boxes and unknown swizzles are the task's checks (tensorMapProblems).
  EXPECT_EQ(parseTensorMapOption("A:300x64:96B"), (TensorMapRule{"A", 300, 64, "96B"}));
}

TEST(CliOptions, MalformedTensorMapTextSaysWhatIsWrong) {
  const std::string form = " (expected TENSOR:ROWSxCOLS[:SWIZZLE], e.g. A:128x64:128B)";
  EXPECT_EQ(errorOf("A"), "--tensor-map 'A': no ':' after the tensor name" + form);
  EXPECT_EQ(errorOf(":128x64"), "--tensor-map ':128x64': no tensor name" + form);
  EXPECT_EQ(errorOf("A:128"), "--tensor-map 'A:128': box '128' is not ROWSxCOLS" + form);
  EXPECT_EQ(errorOf("A:128*64"), "--tensor-map 'A:128*64': box '128*64' is not ROWSxCOLS" + form);
  EXPECT_EQ(errorOf("A:x64"), "--tensor-map 'A:x64': box rows '' is not a whole number" + form);
  EXPECT_EQ(errorOf("A:128x"), "--tensor-map 'A:128x': box cols '' is not a whole number" + form);
  EXPECT_EQ(errorOf("A:12ax64"), "--tensor-map 'A:12ax64': box rows '12a' is not a whole number" + form);
  EXPECT_EQ(errorOf("A:128x-64"), "--tensor-map 'A:128x-64': box cols '-64' is not a whole number" + form);
  EXPECT_EQ(errorOf("A:128x64:"), "--tensor-map 'A:128x64:': empty swizzle" + form);
}

// ---------------------------------------------------------------- the executable

struct Outcome {
  int exitCode = -1;
  std::string out;  // stdout and stderr together
};

Outcome cli(const std::string& args) {
  const std::string command = std::string("'") + CRUCIBLE_CLI_PATH + "' " + args + " 2>&1";
  Outcome o;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return o;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) o.out.append(buffer, n);
  const int status = ::pclose(pipe);
  o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

// Any existing file will do as the kernel: the map is refused before it is read.
const std::string kKernel = std::string(CRUCIBLE_SOURCE_DIR) + "/tests/app/cli_options_test.cpp";

TEST(CliEval, AMalformedTensorMapIsBadUsage) {
  const Outcome o = cli("eval --task transpose_f32_2048x1024 --kernel '" + kKernel + "' --tensor-map x:32by32");
  EXPECT_EQ(o.exitCode, 2) << o.out;
  EXPECT_NE(o.out.find("--tensor-map 'x:32by32': box '32by32' is not ROWSxCOLS"), std::string::npos) << o.out;
}

TEST(CliEval, ATensorMapTheTaskCannotHaveIsBadUsageNamingEveryProblem) {
  const Outcome o = cli("eval --task transpose_f32_2048x1024 --kernel '" + kKernel +
                        "' --tensor-map x:32x32:none --tensor-map q:8x8 --tensor-map y:300x64:128B");
  EXPECT_EQ(o.exitCode, 2) << o.out;
  EXPECT_NE(o.out.find("--tensor-map cannot be encoded for task transpose_f32_2048x1024"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("tensorMaps[1] (q): unknown tensor 'q'"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("tensorMaps[2] (y): box rows 300 outside 1..256"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("tensorMaps[2] (y): box cols 64 x 4 B (f32) = 256 B exceed the 128B swizzle span"),
            std::string::npos)
      << o.out;
  EXPECT_EQ(o.out.find("tensorMaps[0]"), std::string::npos) << "x:32x32 is a good map\n" << o.out;
}

TEST(CliEval, UsageDocumentsTheTensorMapOption) {
  const Outcome o = cli("eval --help");
  EXPECT_EQ(o.exitCode, 0) << o.out;
  EXPECT_NE(o.out.find("--tensor-map TENSOR:ROWSxCOLS[:SWIZZLE]"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace crucible::cli
