// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's option parsing without a GPU: repeatable options, the
// --tensor-map text form, and `eval` refusing a malformed or unencodable map
// (exit 2, before anything is compiled or launched).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <limits>
#include "app/cli/launch_file.h"
#include "app/cli/options.h"
#include "app/cli/tensor_map_option.h"
#include "tests/app/run_cli.h"

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

// The message of the UsageError that fn throws, or "(accepted)".
template <typename Fn>
std::string usageErrorOf(Fn fn) {
  try {
    fn();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CliOptions, IntegersAreDigitsOnlyAndInRange) {
  auto integer = [](const std::string& text, long long min, long long max) {
    return usageErrorOf([&] { Options({"--n", text}, {"n"}, {}).integer("n", 0, min, max); });
  };
  EXPECT_EQ(Options({"--n", "-5"}, {"n"}, {}).integer("n", 0), -5);
  EXPECT_EQ(Options({"--n=42"}, {"n"}, {}).integer("n", 0, 1, 100), 42);
  EXPECT_EQ(Options({}, {"n"}, {}).integer("n", 7, 1, 100), 7) << "the fallback is not range-checked";
  EXPECT_EQ(integer("-5", 1, std::numeric_limits<long long>::max()), "--n must be at least 1, not -5");
  EXPECT_EQ(integer("0", 1, 4096), "--n must be from 1 to 4096, not 0");
  EXPECT_EQ(integer("5000", 1, 4096), "--n must be from 1 to 4096, not 5000");
  EXPECT_EQ(integer("99999999999999999999", 1, 4096), "--n must be from 1 to 4096, not 99999999999999999999");
  for (const char* junk : {"12abc", " 12", "12 ", "+12", "1e3", "0x10", "", "-", "1.5", "nan"})
    EXPECT_EQ(integer(junk, 0, 100), std::string("--n must be a whole number, not '") + junk + "'") << junk;
}

TEST(CliOptions, NumbersAreFiniteAndPositiveWhereZeroWouldMeanNoLimit) {
  auto positive = [](const std::string& text) {
    return usageErrorOf([&] { Options({"--minutes", text}, {"minutes"}, {}).positiveNumber("minutes", 0); });
  };
  EXPECT_DOUBLE_EQ(Options({"--minutes", "2.5"}, {"minutes"}, {}).positiveNumber("minutes", 0), 2.5);
  EXPECT_DOUBLE_EQ(Options({}, {"minutes"}, {}).positiveNumber("minutes", 0), 0) << "left out: no limit";
  for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "2.5min", " 2", "", "0x1p3"})
    EXPECT_EQ(positive(bad), std::string("--minutes must be a finite number, not '") + bad + "'") << bad;
  EXPECT_EQ(positive("0"), "--minutes must be more than 0, not 0 (leave it out for no limit)");
  EXPECT_EQ(positive("-0"), "--minutes must be more than 0, not -0 (leave it out for no limit)");
  EXPECT_EQ(positive("-5"), "--minutes must be more than 0, not -5 (leave it out for no limit)");
  EXPECT_EQ(positive("1e300"), "--minutes must be at most 1e+09, not 1e300");
  EXPECT_EQ(usageErrorOf([] { Options({"--x", "3"}, {"x"}, {}).number("x", 0, 0, 2); }), "--x must be from 0 to 2, not 3");
}

TEST(CliOptions, ArgumentsACommandDoesNotTakeAreErrors) {
  EXPECT_EQ(usageErrorOf([] { Options({"--project", "p", "extra"}, {"project"}, {}); }), "unexpected argument 'extra'");
  EXPECT_EQ(usageErrorOf([] { Options({"a", "b"}, {}, {}, 1); }), "unexpected argument 'b'");
  EXPECT_EQ(Options({"a", "--json"}, {}, {"json"}, 1).positional(), std::vector<std::string>{"a"});
  EXPECT_EQ(usageErrorOf([] { Options({"--frobnicate"}, {}, {}); }), "unknown option --frobnicate");
  EXPECT_EQ(usageErrorOf([] { Options({"--json=yes"}, {}, {"json"}); }), "--json takes no value");
  EXPECT_EQ(usageErrorOf([] { Options({"--project"}, {"project"}, {}); }), "--project needs a value");
  EXPECT_EQ(usageErrorOf([] { Options({}, {"project"}, {}).required("project"); }), "missing --project");
}

// A command's options as the commands declare them (addValued ... with a check): the check runs
// while CLI11 parses, with the same words as the accessors'.
TEST(CliOptions, DeclaredChecksRunAsTheCommandLineIsParsed) {
  auto parse = [](std::vector<std::string> args) {
    CLI::App app;
    addValued(app, "batch", "N", "per generation")->check(wholeNumber("batch", 1, 4096));
    addValued(app, "minutes", "M", "limit")->check(positiveLimit("minutes"));
    addValued(app, "format", "F", "json or csv")->check(oneOf("format", {"json", "csv"}));
    addStartingKernelOptions(app);
    std::reverse(args.begin(), args.end());
    app.parse(args);
    return Options(static_cast<const CLI::App&>(app));
  };
  const Options o = parse({"--batch", "64", "--kernel", "a.cu", "--tune=a.json", "--minutes", "2.5", "--kernel", "b.cu"});
  EXPECT_EQ(o.integer("batch", 0), 64);
  EXPECT_DOUBLE_EQ(o.positiveNumber("minutes", 0), 2.5);
  EXPECT_EQ(o.inOrder(), (std::vector<std::pair<std::string, std::string>>{
                             {"batch", "64"}, {"kernel", "a.cu"}, {"tune", "a.json"}, {"minutes", "2.5"}, {"kernel", "b.cu"}}));
  EXPECT_EQ(usageErrorOf([&] { parse({"--batch", "0"}); }), "--batch must be from 1 to 4096, not 0");
  EXPECT_EQ(usageErrorOf([&] { parse({"--batch", "12abc"}); }), "--batch must be a whole number, not '12abc'");
  EXPECT_EQ(usageErrorOf([&] { parse({"--minutes=nan"}); }), "--minutes must be a finite number, not 'nan'");
  EXPECT_EQ(usageErrorOf([&] { parse({"--minutes", "0"}); }), "--minutes must be more than 0, not 0 (leave it out for no limit)");
  EXPECT_EQ(usageErrorOf([&] { parse({"--format", "xml"}); }), "--format must be json or csv, not 'xml'");
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

using cli_test::cli;
using cli_test::Outcome;

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

// What `best --export` writes beside a kernel: flat fields for scripts, and the whole rule
// under "launch" (with its tensor maps), which is what --launch reads.
TEST(LaunchFile, ReadsTheRuleOfAnExportRecordOrABareRule) {
  const std::string record = R"J({"task": "t", "grid": ["1", "1", "1"], "smem": "0",
    "launch": {"entry": "k", "grid": ["ceil_div(N, 256) * ceil_div(M, 128)", "1", "1"], "block": ["384", "1", "1"],
               "dynamicSmemBytes": "197696",
               "tensorMaps": [{"tensor": "A", "boxRows": 128, "boxCols": 64, "swizzle": "128B"},
                              {"tensor": "B", "boxRows": 64, "boxCols": 64, "swizzle": "128B"}]}})J";
  const LaunchRule r = parseLaunchFile(record, "k.json");
  EXPECT_EQ(r.entry, "k");
  EXPECT_EQ(r.grid[0], "ceil_div(N, 256) * ceil_div(M, 128)");
  EXPECT_EQ(r.block[0], "384");
  EXPECT_EQ(r.dynamicSmemBytes, "197696");
  ASSERT_EQ(r.tensorMaps.size(), 2u);
  EXPECT_EQ(r.tensorMaps[1], (TensorMapRule{"B", 64, 64, "128B"}));
  const LaunchRule bare = parseLaunchFile(R"J({"entry": "k", "grid": ["8", "1", "1"], "block": ["256", "1", "1"],
                                             "dynamicSmemBytes": "0"})J",
                                          "bare.json");
  EXPECT_EQ(bare.grid[0], "8");
  EXPECT_TRUE(bare.tensorMaps.empty());
}

TEST(LaunchFile, ABadFileSaysWhichAndWhy) {
  auto errorOfFile = [](const std::string& text) {
    try {
      parseLaunchFile(text, "k.json");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(errorOfFile("{ not json"), "k.json: not a JSON object");
  EXPECT_NE(errorOfFile(R"J({"task": "t"})J").find("k.json: no launch rule"), std::string::npos);
  EXPECT_NE(errorOfFile(R"J({"launch": {"entry": "k", "grid": ["1"], "block": ["1", "1", "1"], "dynamicSmemBytes": "0"}})J")
                .find("k.json: "),
            std::string::npos);
  EXPECT_NE(errorOfFile(R"J({"launch": {"entry": "k", "grid": ["1", "1", "1"], "block": ["1", "1", "1"],
                          "dynamicSmemBytes": "0", "tensorMaps": [{"tensor": "A"}]}})J")
                .find("k.json: "),
            std::string::npos);
  try {
    readLaunchFile("/nonexistent/k.json");
    ADD_FAILURE() << "read a file that does not exist";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/k.json: cannot open the launch file", 0), 0u) << e.what();
  }
}

// The maps of a launch file are judged against the task like --tensor-map's, before anything runs.
TEST(CliEval, ALaunchFileWithAMapTheTaskCannotHaveIsBadUsage) {
  const auto path = std::filesystem::temp_directory_path() / "crucible_cli_launch_test.json";
  std::ofstream(path) << R"J({"launch": {"entry": "transpose_kernel", "grid": ["64", "32", "1"], "block": ["256", "1", "1"],
    "dynamicSmemBytes": "0", "tensorMaps": [{"tensor": "q", "boxRows": 8, "boxCols": 8, "swizzle": "none"}]}})J";
  const Outcome o = cli("eval --task transpose_f32_2048x1024 --kernel '" + kKernel + "' --launch '" + path.string() + "'");
  std::filesystem::remove(path);
  EXPECT_EQ(o.exitCode, 2) << o.out;
  EXPECT_NE(o.out.find("the tensor maps of --launch cannot be encoded for task transpose_f32_2048x1024"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("tensorMaps[0] (q): unknown tensor 'q'"), std::string::npos) << o.out;
}

TEST(CliEval, UsageDocumentsTheTensorMapOption) {
  const Outcome o = cli("eval --help");
  EXPECT_EQ(o.exitCode, 0) << o.out;
  EXPECT_NE(o.out.find("--tensor-map TENSOR:ROWSxCOLS[:SWIZZLE]"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace crucible::cli
