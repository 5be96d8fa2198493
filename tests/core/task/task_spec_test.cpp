// SPDX-License-Identifier: GPL-3.0-or-later
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include "core/task/task_spec.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {

using nlohmann::json;
using testing_support::expectSameSpec;
using testing_support::validSpecJson;

TEST(TaskSpec, ParsesAValidSpec) {
  const TaskSpec s = parseTaskSpec(validSpecJson().dump());
  EXPECT_EQ(s.formatVersion, 1);
  EXPECT_EQ(s.name, "scale_f32_64x32");
  EXPECT_EQ(s.family, "scale");
  EXPECT_EQ(s.axes.at("M"), 64);
  ASSERT_EQ(s.inputs.size(), 2u);
  EXPECT_EQ(s.inputs[0].dtype, DType::F32);
  EXPECT_EQ(s.inputs[0].shape, (std::vector<std::string>{"M", "N"}));
  EXPECT_EQ(s.inputs[0].distribution.kind, "normal");
  EXPECT_EQ(s.inputs[0].distribution.a, 0.5);
  EXPECT_EQ(s.inputs[0].distribution.b, 2.0);
  EXPECT_EQ(s.inputs[1].dtype, DType::I64);
  EXPECT_EQ(s.inputs[1].distribution.kind, "randint");
  EXPECT_EQ(s.inputs[1].distribution.b, 32.0);  // "N" evaluated
  EXPECT_EQ(s.outputs[0].name, "y");
  EXPECT_EQ(s.scalars, (std::vector<std::string>{"M", "N"}));
  EXPECT_EQ(s.tolerances.at("y").rtol, 1e-5);
  EXPECT_EQ(s.entry, "scale_kernel");
  // Source given as lines is joined with '\n', the trailing "" giving the final newline.
  EXPECT_EQ(s.baseline.source.rfind("extern \"C\" __global__ void scale_kernel(", 0), 0u);
  EXPECT_EQ(s.baseline.source.back(), '\n');
  EXPECT_EQ(s.baseline.launch.grid[0], "ceil_div(M*N, 256)");
  EXPECT_EQ(s.baseline.launch.grid[1], "1");   // padded
  EXPECT_EQ(s.baseline.launch.block[0], "256"); // an integer becomes its text
  EXPECT_EQ(s.oracle.launch.dynamicSmemBytes, "0");  // default
  EXPECT_EQ(elementCount(s, s.inputs[0]), 64 * 32);
  EXPECT_EQ(elementCount(s, s.inputs[1]), 64);
  EXPECT_EQ(resolveShape(s, s.outputs[0]), (std::vector<std::int64_t>{64, 32}));
}

TEST(TaskSpec, ToJsonRoundTrips) {
  const TaskSpec s = parseTaskSpec(validSpecJson().dump());
  const std::string text = toJson(s);
  const TaskSpec again = parseTaskSpec(text);
  expectSameSpec(s, again);
  EXPECT_EQ(toJson(again), text);  // writing is deterministic
}

TEST(TaskSpec, ToJsonRoundTripsAStringSourceWithoutFinalNewline) {
  json j = validSpecJson();
  j["baseline"]["source"] = std::string(j["oracle"]["source"]).substr(0, 10) + "\n\n scale_kernel(x)";
  const TaskSpec s = parseTaskSpec(j.dump());
  expectSameSpec(s, parseTaskSpec(toJson(s)));
}

TEST(DType, Helpers) {
  EXPECT_STREQ(toString(DType::BF16), "bf16");
  EXPECT_STREQ(cudaTypeName(DType::BF16), "__nv_bfloat16");
  EXPECT_STREQ(cudaTypeName(DType::I64), "long long");
  EXPECT_STREQ(cudaTypeName(DType::F16), "__half");
  EXPECT_EQ(sizeOf(DType::F32), 4u);
  EXPECT_EQ(sizeOf(DType::BF16), 2u);
  EXPECT_EQ(sizeOf(DType::F64), 8u);
  EXPECT_EQ(sizeOf(DType::I32), 4u);
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::F64, DType::I32, DType::I64})
    EXPECT_EQ(dtypeFromString(toString(d)), d);
  EXPECT_FALSE(dtypeFromString("f8").has_value());
  EXPECT_TRUE(isFloating(DType::BF16));
  EXPECT_FALSE(isFloating(DType::I64));
}

// One malformed spec: a change to the valid one, the field the error must name,
// and a fragment of the message.
struct Malformed {
  const char* what;
  std::function<void(json&)> mutate;
  const char* field;
  const char* message;
};

const std::vector<Malformed>& malformedSpecs() {
  static const std::vector<Malformed> table = {
      {"missing format", [](json& j) { j.erase("format"); }, "format", "missing"},
      {"newer format", [](json& j) { j["format"] = 2; }, "format", "newer"},
      {"format as string", [](json& j) { j["format"] = "1"; }, "format", "must be an integer"},
      {"unknown top-level field", [](json& j) { j["tolerance"] = 1; }, "tolerance", "unknown field"},
      {"empty name", [](json& j) { j["name"] = ""; }, "name", "must not be empty"},
      {"name with a slash", [](json& j) { j["name"] = "a/b"; }, "name", "only letters"},
      {"family not an identifier", [](json& j) { j["family"] = "soft max"; }, "family", "not a C identifier"},
      {"description with a terminal escape", [](json& j) { j["description"] = "\x1B]0;owned\x07 a scale"; }, "description",
       "contains the control character U+001B"},
      {"description with a NUL", [](json& j) { j["description"] = std::string("scale\0", 6); }, "description",
       "contains the control character U+0000"},
      {"axes missing", [](json& j) { j.erase("axes"); }, "axes", "missing"},
      {"axis zero", [](json& j) { j["axes"]["M"] = 0; }, "axes.M", "must be a positive integer"},
      {"axis negative", [](json& j) { j["axes"]["M"] = -4; }, "axes.M", "must be a positive integer"},
      {"axis fractional", [](json& j) { j["axes"]["M"] = 64.5; }, "axes.M", "must be a positive integer"},
      {"axis as string", [](json& j) { j["axes"]["M"] = "64"; }, "axes.M", "must be a positive integer"},
      {"axis named like a function", [](json& j) { j["axes"]["min"] = 3; }, "axes.min", "expression function"},
      {"axis not an identifier", [](json& j) { j["axes"]["2D"] = 3; }, "axes.2D", "not a C identifier"},
      {"no inputs", [](json& j) { j["inputs"] = json::array(); }, "inputs", "at least one input"},
      {"inputs not an array", [](json& j) { j["inputs"] = json::object(); }, "inputs", "must be an array"},
      {"unknown dtype", [](json& j) { j["inputs"][1]["dtype"] = "f8"; }, "inputs[1].dtype", "unknown dtype 'f8'"},
      {"tensor name not an identifier", [](json& j) { j["inputs"][0]["name"] = "x-1"; }, "inputs[0].name", "not a C identifier"},
      {"shape unknown axis", [](json& j) { j["inputs"][0]["shape"][1] = "Q"; }, "inputs[0].shape[1]", "unknown name 'Q'"},
      {"shape empty", [](json& j) { j["outputs"][0]["shape"] = json::array(); }, "outputs[0].shape", "at least one dimension"},
      {"shape non-positive", [](json& j) { j["outputs"][0]["shape"][0] = "M - 64"; }, "outputs[0].shape[0]", "must be positive"},
      {"shape overflows", [](json& j) { j["outputs"][0]["shape"] = {"M*M*M*M*M*M*M*M*M*M", "M*M"}; }, "outputs[0].shape", "overflows"},
      {"input without distribution", [](json& j) { j["inputs"][0].erase("distribution"); }, "inputs[0].distribution", "missing"},
      {"output with distribution", [](json& j) { j["outputs"][0]["distribution"] = {{"kind", "normal"}}; }, "outputs[0].distribution", "unknown field"},
      {"normal stddev zero (all zeros)", [](json& j) { j["inputs"][0]["distribution"] = {{"kind", "normal"}, {"mean", 0}, {"stddev", 0}}; }, "inputs[0].distribution.stddev", "must be > 0"},
      {"normal stddev negative", [](json& j) { j["inputs"][0]["distribution"]["stddev"] = -1; }, "inputs[0].distribution.stddev", "must be > 0"},
      {"normal without stddev", [](json& j) { j["inputs"][0]["distribution"].erase("stddev"); }, "inputs[0].distribution.stddev", "missing"},
      {"unknown distribution", [](json& j) { j["inputs"][0]["distribution"]["kind"] = "zeros"; }, "inputs[0].distribution.kind", "unknown distribution 'zeros'"},
      {"uniform empty range", [](json& j) { j["inputs"][0]["distribution"] = {{"kind", "uniform"}, {"low", 0}, {"high", 0}}; }, "inputs[0].distribution.high", "greater than low"},
      {"uniform with a normal's field", [](json& j) { j["inputs"][0]["distribution"] = {{"kind", "uniform"}, {"low", 0}, {"high", 1}, {"stddev", 1}}; }, "inputs[0].distribution.stddev", "unknown field"},
      {"randint only zeros", [](json& j) { j["inputs"][1]["distribution"] = {{"kind", "randint"}, {"low", 0}, {"high", 1}}; }, "inputs[1].distribution", "only zeros"},
      {"randint fractional bound", [](json& j) { j["inputs"][1]["distribution"]["high"] = 2.5; }, "inputs[1].distribution.high", "must be an integer"},
      {"randint bad bound expression", [](json& j) { j["inputs"][1]["distribution"]["high"] = "Q"; }, "inputs[1].distribution.high", "unknown name 'Q'"},
      {"normal draws into an integer tensor", [](json& j) { j["inputs"][1]["distribution"] = {{"kind", "normal"}, {"mean", 0}, {"stddev", 1}}; }, "inputs[1].distribution.kind", "use randint"},
      {"duplicate tensor name", [](json& j) { j["outputs"][0]["name"] = "x"; }, "outputs[0].name", "already used by inputs[0]"},
      {"tensor named like a scalar", [](json& j) { j["inputs"][0]["name"] = "M"; }, "inputs[0].name", "already used by scalars[0]"},
      {"scalar not an axis", [](json& j) { j["scalars"] = {"M", "Q"}; }, "scalars[1]", "not an axis"},
      {"scalar twice", [](json& j) { j["scalars"] = {"M", "M"}; }, "scalars[1]", "listed twice"},
      {"tolerance for no output", [](json& j) { j["tolerances"]["z"] = {{"rtol", 0}, {"atol", 0}}; }, "tolerances.z", "no output named 'z'"},
      {"tolerance missing for an output", [](json& j) { j["tolerances"].erase("y"); }, "tolerances.y", "every output needs a tolerance"},
      {"negative rtol", [](json& j) { j["tolerances"]["y"]["rtol"] = -1e-3; }, "tolerances.y.rtol", ">= 0"},
      {"atol missing", [](json& j) { j["tolerances"]["y"].erase("atol"); }, "tolerances.y.atol", "missing"},
      {"flops bad expression", [](json& j) { j["flops"] = "2*M*"; }, "flops", "unexpected end"},
      {"flops negative", [](json& j) { j["flops"] = "0 - M"; }, "flops", "must be >= 0"},
      {"minBytes zero", [](json& j) { j["minBytes"] = 0; }, "minBytes", "must be >= 1"},
      {"minBytes missing", [](json& j) { j.erase("minBytes"); }, "minBytes", "missing"},
      {"entry not an identifier", [](json& j) { j["entry"] = "scale kernel"; }, "entry", "not a C identifier"},
      {"baseline missing", [](json& j) { j.erase("baseline"); }, "baseline", "missing"},
      {"baseline source empty", [](json& j) { j["baseline"]["source"] = "  \n"; }, "baseline.source", "must not be empty"},
      {"oracle source empty lines", [](json& j) { j["oracle"]["source"] = json::array(); }, "oracle.source", "must not be empty"},
      {"oracle source line not a string", [](json& j) { j["oracle"]["source"] = {"a", 3}; }, "oracle.source[1]", "must be a string"},
      {"baseline grid unknown name", [](json& j) { j["baseline"]["launch"]["grid"][0] = "ceil_div(Q, 128)"; }, "baseline.launch.grid[0]", "unknown name 'Q' in expression"},
      {"oracle block syntax error", [](json& j) { j["oracle"]["launch"]["block"][1] = "(1"; }, "oracle.launch.block[1]", "expected ')'"},
      {"grid with four dims", [](json& j) { j["baseline"]["launch"]["grid"] = {1, 1, 1, 1}; }, "baseline.launch.grid", "1 to 3"},
      {"block zero", [](json& j) { j["baseline"]["launch"]["block"][0] = 0; }, "baseline.launch.block[0]", "must be positive"},
      {"block too large", [](json& j) { j["baseline"]["launch"]["block"] = {64, 32}; }, "baseline.launch.block", "above the CUDA limit 1024"},
      {"grid y too large", [](json& j) { j["baseline"]["launch"]["grid"] = {"1", "70000"}; }, "baseline.launch.grid[1]", "above the CUDA limit"},
      {"smem negative", [](json& j) { j["baseline"]["launch"]["dynamicSmemBytes"] = "-4"; }, "baseline.launch.dynamicSmemBytes", "must be in"},
      {"smem unknown name", [](json& j) { j["oracle"]["launch"]["dynamicSmemBytes"] = "4*BLOCK"; }, "oracle.launch.dynamicSmemBytes", "unknown name 'BLOCK'"},
      {"launch entry missing", [](json& j) { j["oracle"]["launch"].erase("entry"); }, "oracle.launch.entry", "missing"},
      {"launch entry not in source", [](json& j) { j["oracle"]["launch"]["entry"] = "other_oracle"; }, "oracle.source", "defines no function 'other_oracle'"},
      {"launch unknown field", [](json& j) { j["baseline"]["launch"]["smem"] = 0; }, "baseline.launch.smem", "unknown field"},
      {"unknown library reference", [](json& j) { j["libraryReference"] = "cudnn_softmax"; }, "libraryReference", "unknown library reference"},
      {"tensor map of an unknown tensor",
       [](json& j) { j["baseline"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "z", "boxRows": 8, "boxCols": 32}])"); },
       "baseline.launch.tensorMaps", "unknown tensor 'z'"},
      {"tensor map box past 256",
       [](json& j) { j["baseline"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "x", "boxRows": 300, "boxCols": 32}])"); },
       "baseline.launch.tensorMaps", "box rows 300"},
      {"tensor map field misspelt",
       [](json& j) { j["baseline"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "x", "boxRow": 8, "boxCols": 32}])"); },
       "baseline.launch.tensorMaps[0].boxRow", "unknown field"},
      {"sanitizeAxes naming no axis", [](json& j) { j["sanitizeAxes"] = {{"K", 8}}; }, "sanitizeAxes.K",
       "names no axis"},
      {"sanitizeAxes larger than the axis", [](json& j) { j["sanitizeAxes"] = {{"M", 65}}; }, "sanitizeAxes.M",
       "larger than the axis"},
      {"sanitizeAxes of zero", [](json& j) { j["sanitizeAxes"] = {{"M", 0}}; }, "sanitizeAxes.M", "positive integer"},
      {"sanitizeAxes not an object", [](json& j) { j["sanitizeAxes"] = 8; }, "sanitizeAxes", "must be an object"},
      {"stress not an array", [](json& j) { j["stress"] = json::object(); }, "stress", "must be an array"},
      {"stress case without a name", [](json& j) { j["stress"] = json::parse(R"([{"inputs": {"x": {"kind": "normal", "mean": 50, "stddev": 1}}}])"); },
       "stress[0].name", "missing"},
      {"stress case naming no input", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {}}])"); },
       "stress[0].inputs", "naming at least one input"},
      {"stress case for an unknown input", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {"q": {"kind": "normal", "mean": 50, "stddev": 1}}}])"); },
       "stress[0].inputs.q", "no input named 'q'"},
      {"stress distribution the dtype cannot draw", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {"idx": {"kind": "normal", "mean": 50, "stddev": 1}}}])"); },
       "stress[0].inputs.idx.kind", "use randint"},
      {"stress distribution of zero spread", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {"x": {"kind": "normal", "mean": 50, "stddev": 0}}}])"); },
       "stress[0].inputs.x.stddev", "must be > 0"},
      {"stress tolerance for no output", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {"x": {"kind": "normal", "mean": 50, "stddev": 1}}, "tolerances": {"z": {"rtol": 0, "atol": 0}}}])"); },
       "stress[0].tolerances.z", "no output named 'z'"},
      {"stress tolerance negative", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {"x": {"kind": "normal", "mean": 50, "stddev": 1}}, "tolerances": {"y": {"rtol": -1, "atol": 0}}}])"); },
       "stress[0].tolerances.y.rtol", ">= 0"},
      {"stress case named twice", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "inputs": {"x": {"kind": "normal", "mean": 50, "stddev": 1}}}, {"name": "big", "inputs": {"x": {"kind": "normal", "mean": -50, "stddev": 1}}}])"); },
       "stress[1].name", "names an earlier case too"},
      {"stress name over two lines", [](json& j) { j["stress"] = json::parse(R"([{"name": "big\nvalues", "inputs": {"x": {"kind": "normal", "mean": 50, "stddev": 1}}}])"); },
       "stress[0].name", "one line"},
      {"stress case field misspelt", [](json& j) { j["stress"] = json::parse(R"([{"name": "big", "input": {}}])"); },
       "stress[0].input", "unknown field"},
      {"tensor maps for the oracle",
       [](json& j) { j["oracle"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "x", "boxRows": 8, "boxCols": 32}])"); },
       "oracle.launch.tensorMaps", "the oracle takes no tensor maps"},
  };
  return table;
}

TEST(TaskSpec, StressCasesParseAndRoundTrip) {
  json j = validSpecJson();
  j["stress"] = json::parse(R"([
    {"name": "large values", "inputs": {"x": {"kind": "normal", "mean": 60, "stddev": 20}},
     "tolerances": {"y": {"rtol": 1e-3, "atol": 1e-4}}},
    {"name": "small range", "inputs": {"x": {"kind": "uniform", "low": -1e-3, "high": 1e-3}, "idx": {"kind": "randint", "low": 0, "high": 2}}}
  ])");
  const TaskSpec s = parseTaskSpec(j.dump());
  ASSERT_EQ(s.stress.size(), 2u);
  EXPECT_EQ(s.stress[0].name, "large values");
  EXPECT_EQ(s.stress[0].inputs.at("x").a, 60);
  EXPECT_EQ(s.stress[0].inputs.at("x").b, 20);
  EXPECT_EQ(s.stress[1].inputs.at("idx").b, 2);
  // The case's distribution and tolerance where it names one, the task's elsewhere.
  EXPECT_EQ(distributionOf(s, 0, &s.stress[0]).a, 60);
  EXPECT_EQ(distributionOf(s, 1, &s.stress[0]).kind, "randint");
  EXPECT_EQ(distributionOf(s, 1, &s.stress[0]).b, 32);
  EXPECT_EQ(distributionOf(s, 0).a, 0.5);
  EXPECT_EQ(toleranceOf(s, "y", &s.stress[0]).rtol, 1e-3);
  EXPECT_EQ(toleranceOf(s, "y", &s.stress[1]).rtol, 1e-5);
  EXPECT_EQ(toleranceOf(s, "y").rtol, 1e-5);
  const std::string text = toJson(s);
  expectSameSpec(s, parseTaskSpec(text));
  EXPECT_EQ(toJson(parseTaskSpec(text)), text);
  // A spec without stress cases writes no "stress" field.
  EXPECT_EQ(toJson(parseTaskSpec(validSpecJson().dump())).find("\"stress\""), std::string::npos);
}

TEST(TaskSpec, MalformedSpecsNameTheField) {
  for (const auto& m : malformedSpecs()) {
    SCOPED_TRACE(m.what);
    json j = validSpecJson();
    m.mutate(j);
    try {
      parseTaskSpec(j.dump());
      ADD_FAILURE() << "accepted a spec with: " << m.what;
    } catch (const TaskSpecError& e) {
      EXPECT_EQ(e.field(), m.field) << e.what();
      EXPECT_THAT(e.what(), testing::StartsWith(std::string(m.field) + ": "));
      EXPECT_THAT(e.what(), testing::HasSubstr(m.message));
    }
  }
}

// A description is for people: several lines and tabs are fine (control characters
// that a terminal acts on are refused above).
TEST(TaskSpec, ADescriptionMayHaveLinesAndTabs) {
  json j = validSpecJson();
  j["description"] = "y = 2 * x\n\tfor every x\r\n\u2192 one pass";
  EXPECT_EQ(parseTaskSpec(j.dump()).description, j["description"].get<std::string>());
}

// A baseline may read its inputs through TMA: its tensor maps parse, fit the tensors
// and survive toJson.
TEST(TaskSpec, BaselineTensorMapsParseAndRoundTrip) {
  json j = validSpecJson();
  j["baseline"]["launch"]["tensorMaps"] = json::parse(R"([{"tensor": "x", "boxRows": 8, "boxCols": 32, "swizzle": "128B"}])");
  const TaskSpec s = parseTaskSpec(j.dump());
  ASSERT_EQ(s.baseline.launch.tensorMaps.size(), 1u);
  EXPECT_EQ(s.baseline.launch.tensorMaps[0], (TensorMapRule{"x", 8, 32, "128B"}));
  EXPECT_EQ(parseTaskSpec(toJson(s)).baseline.launch.tensorMaps, s.baseline.launch.tensorMaps);
  EXPECT_TRUE(parseTaskSpec(validSpecJson().dump()).baseline.launch.tensorMaps.empty());
}

// The sanitizers run a candidate at the smaller shape a task names (they slow
// kernels down by orders of magnitude); tasks without one run at full size.
TEST(TaskSpec, SanitizeAxesReduceTheShapeTheSanitizersRunAt) {
  json j = validSpecJson();
  EXPECT_EQ(atSanitizeShape(parseTaskSpec(j.dump())).axes, parseTaskSpec(j.dump()).axes);
  j["sanitizeAxes"] = {{"M", 8}};
  const TaskSpec s = parseTaskSpec(j.dump());
  EXPECT_EQ(s.sanitizeAxes.at("M"), 8);
  const TaskSpec small = atSanitizeShape(s);
  EXPECT_EQ(small.axes.at("M"), 8);
  EXPECT_EQ(small.axes.at("N"), 32);
  EXPECT_EQ(elementCount(small, small.inputs[0]), 8 * 32);
  EXPECT_EQ(describeAxes(small.axes), "M=8, N=32");
  EXPECT_EQ(parseTaskSpec(toJson(s)).sanitizeAxes, s.sanitizeAxes);
}

TEST(TaskSpec, TheFixtureItselfIsValid) {
  // Guards the table above: each case must fail because of its own change.
  EXPECT_NO_THROW(parseTaskSpec(validSpecJson().dump()));
}

TEST(TaskSpec, RejectsDocumentsThatAreNotObjects) {
  for (const char* text : {"", "{", "[1, 2]", "42", "{\"format\": 1,}"}) {
    try {
      parseTaskSpec(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const TaskSpecError& e) {
      EXPECT_EQ(e.field(), "document") << text;
    }
  }
}

}  // namespace
}  // namespace crucible
