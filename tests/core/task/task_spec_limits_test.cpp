// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile task specs (issue 13): every one is refused with a message naming
// the field, quickly, without a crash: deep nesting, long names, keywords as
// names, values that do not fit the type that holds them, distributions that
// cannot draw finite, varied values.
#include <chrono>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include "core/task/task_library.h"
#include "core/task/task_spec.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {

using nlohmann::json;
using testing_support::validSpecJson;

// The error parseTaskSpec gives for the valid spec changed by `mutate`, or "(accepted)".
TaskSpecError errorOf(const std::function<void(json&)>& mutate) {
  json j = validSpecJson();
  mutate(j);
  try {
    parseTaskSpec(j.dump());
  } catch (const TaskSpecError& e) {
    return e;
  }
  return TaskSpecError("(accepted)", "");
}

std::string nested(std::size_t depth, const std::string& core) {
  return std::string(depth, '(') + core + std::string(depth, ')');
}

TEST(TaskSpecLimits, DeeplyNestedExpressionsAreRefusedNamingTheField) {
  const TaskSpecError parens = errorOf([](json& j) { j["inputs"][0]["shape"][0] = nested(20000, "M"); });
  EXPECT_EQ(parens.field(), "inputs[0].shape[0]");
  EXPECT_THAT(parens.what(), testing::HasSubstr("longer than the limit"));  // 40,001 characters

  const TaskSpecError deep = errorOf([](json& j) { j["flops"] = nested(1000, "M"); });
  EXPECT_EQ(deep.field(), "flops");
  EXPECT_THAT(deep.what(), testing::HasSubstr("nests too deeply"));

  const TaskSpecError minus = errorOf([](json& j) { j["baseline"]["launch"]["grid"][0] = std::string(2000, '-') + "1"; });
  EXPECT_EQ(minus.field(), "baseline.launch.grid[0]");
  EXPECT_THAT(minus.what(), testing::HasSubstr("nests too deeply"));

  // 64 levels are allowed: real launch rules nest 3 or 4.
  EXPECT_EQ(errorOf([](json& j) { j["flops"] = nested(63, "M"); }).field(), "(accepted)");
}

TEST(TaskSpecLimits, LongNamesAreRefusedNamingTheField) {
  const std::string longName(30000, 'x');
  const TaskSpecError tensor = errorOf([&](json& j) { j["inputs"][0]["name"] = longName; });
  EXPECT_EQ(tensor.field(), "inputs[0].name");
  EXPECT_THAT(tensor.what(), testing::HasSubstr("30000 characters is longer than the limit of 128"));
  EXPECT_LT(std::string(tensor.what()).size(), 200u) << "the message must not quote the whole name";

  EXPECT_EQ(errorOf([&](json& j) { j["name"] = longName; }).field(), "name");
  EXPECT_EQ(errorOf([&](json& j) { j["family"] = longName; }).field(), "family");
  EXPECT_EQ(errorOf([&](json& j) { j["entry"] = longName; }).field(), "entry");
  EXPECT_EQ(errorOf([&](json& j) { j["baseline"]["launch"]["entry"] = longName; }).field(), "baseline.launch.entry");
  const TaskSpecError axis = errorOf([&](json& j) { j["axes"][longName] = 4; });
  EXPECT_THAT(axis.field(), testing::StartsWith("axes."));
  EXPECT_LT(axis.field().size(), 64u);

  // 128 characters are fine.
  EXPECT_EQ(errorOf([](json& j) { j["name"] = std::string(128, 'n'); }).field(), "(accepted)");
}

TEST(TaskSpecLimits, KeywordsReservedNamesAndCudaBuiltinsAreNotNames) {
  for (const char* name : {"int", "return", "const", "__restrict__", "threadIdx", "blockIdx", "blockDim", "gridDim",
                           "warpSize", "_Bool", "__x", "a__b", "CUtensorMap", "float", "struct"}) {
    SCOPED_TRACE(name);
    const TaskSpecError tensor = errorOf([&](json& j) { j["inputs"][0]["name"] = name; });
    EXPECT_EQ(tensor.field(), "inputs[0].name");
    EXPECT_THAT(tensor.what(), testing::AnyOf(testing::HasSubstr("keyword"), testing::HasSubstr("reserved"),
                                              testing::HasSubstr("predefined")));
    EXPECT_EQ(errorOf([&](json& j) { j["outputs"][0]["name"] = name; }).field(), "outputs[0].name");
    EXPECT_EQ(errorOf([&](json& j) { j["entry"] = name; }).field(), "entry");
    EXPECT_EQ(errorOf([&](json& j) {
                j["axes"][name] = 4;
                j["scalars"].push_back(name);
              }).field(),
              std::string("axes.") + name);
  }
}

TEST(TaskSpecLimits, TensorMapBoxesAreCheckedAtTheirWidthNotTruncated) {
  const TaskSpecError e = errorOf([](json& j) {
    j["baseline"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "x", "boxRows": 4294967304, "boxCols": 32}])");
  });
  EXPECT_EQ(e.field(), "baseline.launch.tensorMaps[0].boxRows");
  EXPECT_THAT(e.what(), testing::HasSubstr("must be an integer from"));
  EXPECT_EQ(errorOf([](json& j) {
              j["baseline"]["launch"]["tensorMaps"] =
                  json::parse(R"([{"tensor": "x", "boxRows": 8, "boxCols": 18446744073709551615}])");
            }).field(),
            "baseline.launch.tensorMaps[0].boxCols");
}

TEST(TaskSpecLimits, ATensorMapParameterCannotShadowATensor) {
  const TaskSpecError e = errorOf([](json& j) {
    j["inputs"][1]["name"] = "tmap_x";
    j["baseline"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "x", "boxRows": 8, "boxCols": 32}])");
  });
  EXPECT_EQ(e.field(), "baseline.launch.tensorMaps");
  EXPECT_THAT(e.what(), testing::HasSubstr("tmap_x"));
}

TEST(TaskSpecLimits, DistributionsMustDrawFiniteVariedValues) {
  struct Case {
    const char* what;
    int input;
    json distribution;
    const char* field;
    const char* message;
  };
  const Case cases[] = {
      {"f32 mean 3.4e38", 0, {{"kind", "normal"}, {"mean", 3.4e38}, {"stddev", 1e37}}, "inputs[0].distribution.mean", "largest finite f32"},
      {"f32 stddev 1e38", 0, {{"kind", "normal"}, {"mean", 1}, {"stddev", 1e38}}, "inputs[0].distribution.stddev", "largest finite f32"},
      {"stddev below a step", 0, {{"kind", "normal"}, {"mean", 1e6}, {"stddev", 1e-6}}, "inputs[0].distribution.stddev", "same few values"},
      {"stddev underflows", 0, {{"kind", "normal"}, {"mean", 0}, {"stddev", 1e-40}}, "inputs[0].distribution.stddev", "smallest normal"},
      {"uniform past f32", 0, {{"kind", "uniform"}, {"low", -1e39}, {"high", 1}}, "inputs[0].distribution.low", "largest finite f32"},
      {"uniform too narrow", 0, {{"kind", "uniform"}, {"low", 1}, {"high", 1.00000001}}, "inputs[0].distribution.high", "narrower"},
      {"uniform of zeros", 0, {{"kind", "uniform"}, {"low", 0}, {"high", 1e-45}}, "inputs[0].distribution", "smallest normal"},
      {"randint of one value", 1, {{"kind", "randint"}, {"low", 5}, {"high", 6}}, "inputs[1].distribution.high", "single value"},
      {"randint past 2^53", 1, {{"kind", "randint"}, {"low", 0}, {"high", 9007199254740994}}, "inputs[1].distribution.high", "2^53"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const TaskSpecError e = errorOf([&](json& j) { j["inputs"][c.input]["distribution"] = c.distribution; });
    EXPECT_EQ(e.field(), c.field) << e.what();
    EXPECT_THAT(e.what(), testing::HasSubstr(c.message));
  }
  // A mean of 1.8e308 is beyond double itself: the JSON parser refuses it.
  std::string text = validSpecJson().dump();
  text.replace(text.find("\"mean\":0.5"), 10, "\"mean\":1.8e308");
  try {
    parseTaskSpec(text);
    ADD_FAILURE() << "accepted a mean of 1.8e308";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "document");
    EXPECT_THAT(e.what(), testing::HasSubstr("out of range"));
  }
  // f16 cannot hold 1e5: a uniform range past 65504 is refused for an f16 input.
  const TaskSpecError f16 = errorOf([](json& j) {
    j["inputs"][0]["dtype"] = "f16";
    j["inputs"][0]["distribution"] = {{"kind", "uniform"}, {"low", 0}, {"high", 1e5}};
  });
  EXPECT_EQ(f16.field(), "inputs[0].distribution.high");
  EXPECT_THAT(f16.what(), testing::HasSubstr("largest finite f16"));
}

TEST(TaskSpecLimits, DeepJsonIsRefusedQuicklyAndOutOfRangeNumbersAreSpecErrors) {
  const auto start = std::chrono::steady_clock::now();
  try {
    parseTaskSpec(std::string(50 * 1024, '['));
    ADD_FAILURE() << "accepted 50 KB of '['";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "document");
    EXPECT_THAT(e.what(), testing::HasSubstr("nests deeper than 64 levels"));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));

  try {
    parseTaskSpec(R"({"format": 1e999})");
    ADD_FAILURE() << "accepted 1e999";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "document");
    EXPECT_THAT(e.what(), testing::HasSubstr("out of range"));
  }
}

TEST(TaskSpecLimits, OversizedDocumentsAndSourcesAreRefused) {
  try {
    parseTaskSpec(std::string(5u << 20, ' '));
    ADD_FAILURE() << "accepted 5 MiB";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "document");
    EXPECT_THAT(e.what(), testing::HasSubstr("above the limit of 4 MiB"));
  }
  const TaskSpecError source = errorOf([](json& j) { j["oracle"]["source"] = std::string(1100000, ' ') + "scale_oracle("; });
  EXPECT_EQ(source.field(), "oracle.source");
  EXPECT_THAT(source.what(), testing::HasSubstr("above the limit of 1 MiB"));
}

TEST(TaskSpecLimits, ListsAreCapped) {
  const TaskSpecError rank = errorOf([](json& j) { j["outputs"][0]["shape"] = json::array({1, 1, 1, 1, 1, 1, 1, 1, 1}); });
  EXPECT_EQ(rank.field(), "outputs[0].shape");
  EXPECT_THAT(rank.what(), testing::HasSubstr("more than the limit of 8"));
  const TaskSpecError outputs = errorOf([](json& j) {
    for (int i = 0; i < 70; ++i) j["outputs"].push_back(j["outputs"][0]);
  });
  EXPECT_EQ(outputs.field(), "outputs");
}

// Spec files are read through core/io/bounded_file: a path that is not a
// regular file is refused at once with a TaskSpecError naming the path.
TEST(TaskSpecLimits, SpecFilesMustBeRegularFilesOfBoundedSize) {
  const auto start = std::chrono::steady_clock::now();
  try {
    loadTaskSpecFile("/dev/zero");
    ADD_FAILURE() << "read /dev/zero";
  } catch (const TaskSpecError& e) {
    EXPECT_EQ(e.field(), "/dev/zero");
    EXPECT_THAT(e.what(), testing::HasSubstr("not a regular file"));
  }
  const std::string fifo = (std::filesystem::temp_directory_path() / ("crucible_spec_fifo_" + std::to_string(::getpid()))).string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(readTaskSpecText(fifo), TaskSpecError);
  std::filesystem::remove(fifo);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

}  // namespace
}  // namespace crucible
