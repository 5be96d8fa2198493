// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible-cli task validate|show` on hostile files (issue 13): each is
// refused with a message and a non-zero exit, never a crash or a hang, and a
// bad file does not stop the check of the files after it.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/app/run_cli.h"

namespace {

namespace fs = std::filesystem;

using crucible::cli_test::Outcome;

// timeout(1): a hang fails the test instead of stalling ctest.
Outcome cli(const std::string& args) { return crucible::cli_test::cli(args, true, 20); }

const std::string kCorpus = std::string(CRUCIBLE_SOURCE_DIR) + "/tests/fuzz/corpus/task_spec/";
const std::string kGoodSpec = std::string(CRUCIBLE_SOURCE_DIR) + "/resources/tasks/softmax_f32_1024x1024.json";

TEST(CliTaskValidate, TwentyThousandParenthesesAreRefusedNotACrash) {
  for (const char* sub : {"validate", "show"}) {
    SCOPED_TRACE(sub);
    const Outcome o = cli(std::string("task ") + sub + " '" + kCorpus + "issue13_20000_parens.json'");
    EXPECT_EQ(o.exitCode, 1) << o.out;
    EXPECT_THAT(o.out, testing::HasSubstr("inputs[0].shape[0]: expression of 40001 characters is longer than the limit"));
  }
  const Outcome minus = cli("task validate '" + kCorpus + "issue13_unary_minus.json'");
  EXPECT_EQ(minus.exitCode, 1) << minus.out;
  EXPECT_THAT(minus.out, testing::HasSubstr("flops: "));
}

TEST(CliTaskValidate, HostileNamesAndValuesAreRefusedNamingTheField) {
  const Outcome o = cli("task validate '" + kCorpus + "issue13_long_tensor_name.json' '" + kCorpus +
                        "issue13_keyword_return.json' '" + kCorpus + "issue13_box_2p32_plus_8.json' '" + kCorpus +
                        "issue13_mean_1.8e308.json' '" + kCorpus + "issue13_50k_brackets.json'");
  EXPECT_EQ(o.exitCode, 1) << o.out;
  EXPECT_THAT(o.out, testing::HasSubstr("inputs[0].name: a name of 30001 characters is longer than the limit of 128"));
  EXPECT_THAT(o.out, testing::HasSubstr("outputs[0].name: 'return' is a C/C++ keyword"));
  EXPECT_THAT(o.out, testing::HasSubstr("baseline.launch.tensorMaps[0].boxRows: must be an integer from"));
  EXPECT_THAT(o.out, testing::HasSubstr("number overflow parsing '1.8e308'"));
  EXPECT_THAT(o.out, testing::HasSubstr("document: nests deeper than 64 levels"));
}

TEST(CliTaskValidate, AnOutOfRangeNumberDoesNotStopTheFilesAfterIt) {
  const Outcome o = cli("task validate '" + kCorpus + "issue13_format_1e999.json' '" + kGoodSpec + "'");
  EXPECT_EQ(o.exitCode, 1) << o.out;
  EXPECT_THAT(o.out, testing::HasSubstr("issue13_format_1e999.json: document: a number is out of range"));
  EXPECT_THAT(o.out, testing::HasSubstr("softmax_f32_1024x1024.json: OK (softmax_f32_1024x1024)"));
}

TEST(CliTaskValidate, DevZeroAFifoAndAFolderAreRefusedAtOnce) {
  const fs::path fifo = fs::temp_directory_path() / ("crucible_cli_fifo_" + std::to_string(::getpid()) + ".json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const Outcome o = cli("task validate /dev/zero '" + fifo.string() + "' '" + fs::temp_directory_path().string() + "' '" +
                        kGoodSpec + "'");
  const auto took = std::chrono::steady_clock::now() - start;
  fs::remove(fifo);
  EXPECT_EQ(o.exitCode, 1) << o.out;
  EXPECT_THAT(o.out, testing::HasSubstr("/dev/zero: is not a regular file (a character device)"));
  EXPECT_THAT(o.out, testing::HasSubstr("is not a regular file (a FIFO)"));
  EXPECT_THAT(o.out, testing::HasSubstr("is not a regular file (a folder)"));
  EXPECT_THAT(o.out, testing::HasSubstr("OK (softmax_f32_1024x1024)"));
  EXPECT_LT(took, std::chrono::seconds(5));
}

TEST(CliTaskValidate, AnOversizedFileIsRefusedBeforeItIsParsed) {
  const fs::path big = fs::temp_directory_path() / ("crucible_cli_big_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(big, std::ios::binary);
    const std::string block(1 << 20, '[');
    for (int i = 0; i < 5; ++i) out << block;
  }
  const Outcome o = cli("task validate '" + big.string() + "'");
  fs::remove(big);
  EXPECT_EQ(o.exitCode, 1) << o.out;
  EXPECT_THAT(o.out, testing::HasSubstr("5242880 bytes, above the limit of 4 MiB"));
}

// `task import` follows core's import policy (core/task/task_import.h): the
// same spec again is found, a different spec under a taken name is refused.
TEST(CliTaskImport, TheSameSpecIsFoundAgainAndADifferentOneUnderItsNameIsRefused) {
  const fs::path dir = fs::temp_directory_path() / ("crucible_cli_import_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string project = (dir / "p.crucible").string();
  const Outcome first = cli("task import '" + kGoodSpec + "' --project '" + project + "'");
  EXPECT_EQ(first.exitCode, 0) << first.out;
  EXPECT_THAT(first.out, testing::HasSubstr("imported softmax_f32_1024x1024 as task 1 into"));
  const Outcome again = cli("task import softmax_f32_1024x1024 --project '" + project + "'");
  EXPECT_EQ(again.exitCode, 0) << again.out;
  EXPECT_THAT(again.out, testing::HasSubstr("softmax_f32_1024x1024 is already task 1 of"));

  std::ifstream in(kGoodSpec);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string description = "\"description\": \"";
  const auto at = text.find(description);
  ASSERT_NE(at, std::string::npos) << "the spec has no description to change";
  text.insert(at + description.size(), "changed: ");
  const fs::path changed = dir / "changed.json";
  std::ofstream(changed) << text;
  const Outcome clash = cli("task import '" + changed.string() + "' --project '" + project + "'");
  EXPECT_EQ(clash.exitCode, 1) << clash.out;
  EXPECT_THAT(clash.out, testing::HasSubstr("already has a task named 'softmax_f32_1024x1024' (task 1) with a different spec"));
  fs::remove_all(dir);
}

}  // namespace
