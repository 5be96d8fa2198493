// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/model_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/core/model/model_expect.h"

namespace crucible {
namespace {
using nlohmann::json;
using model_test::expectSame;

// Both encodings the codec's JSON travels in: text (the project file) and CBOR (the worker protocol).
json viaText(const json& j) { return json::parse(j.dump()); }
json viaCbor(const json& j) { return json::from_cbor(json::to_cbor(j)); }

// The message of the ModelJsonError that fn throws.
template <typename Fn>
std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const ModelJsonError& e) {
    return e.what();
  }
  return "(no ModelJsonError thrown)";
}

LaunchRule sampleLaunch() {
  LaunchRule l;
  l.entry = "softmax_kernel";
  l.grid[0] = "ceil_div(M, 128)";
  l.grid[1] = "N";
  l.block[0] = "256";
  l.block[2] = "2";
  l.dynamicSmemBytes = "BLOCK_M * 4";
  return l;
}

CompileReport sampleReport() {
  CompileReport r;
  r.ok = true;
  r.arch = "sm_90a";
  r.diagnostics = {{12, 7, "warning", "variable \"x\" was declared but never referenced"}, {0, 0, "error", "ptxas"}};
  r.log = "ptxas info    : Used 40 registers";
  r.registers = 40;
  r.staticSmemBytes = 4096;
  r.localBytes = 8;
  r.spillStoreBytes = 16;
  r.spillLoadBytes = 24;
  r.maxThreadsPerBlock = 1024;
  r.features = {{"ld.global.v4", 3}, {"mma", 12}, {"cp.async", 1}};
  r.seconds = 0.4375;
  return r;
}

ValidationTrial sampleTrial() {
  // A seed above INT64_MAX: the JSON number is unsigned.
  return {18'000'000'000'000'000'123ull, false, "unwritten output elements: 4096", 1.5e-3, 2.25e-7, 4096};
}

Timing sampleTiming() {
  Timing t;
  t.samplesUs = {8.48, 8.16, std::numeric_limits<double>::quiet_NaN(), 8.6};
  t.medianUs = 8.352;
  t.iqrUs = 0.192;
  t.referenceMedianUs = 8.384;
  t.referenceIqrUs = 0.16;
  t.speedup = 1.0038;
  t.smClockMHz = 1980;
  return t;
}

TEST(ModelJson, LaunchRuleRoundTrips) {
  const LaunchRule l = sampleLaunch();
  expectSame(launchRuleFromJson(viaText(toJson(l))), l);
  expectSame(launchRuleFromJson(viaCbor(toJson(l))), l);
}

LaunchRule sampleTmaLaunch() {
  LaunchRule l = sampleLaunch();
  l.tensorMaps = {{"A", 128, 64, "128B"}, {"B", 64, 8, "none"}};
  return l;
}

TEST(ModelJson, TensorMapsRoundTripInOrder) {
  const LaunchRule l = sampleTmaLaunch();
  expectSame(launchRuleFromJson(viaText(toJson(l))), l);
  expectSame(launchRuleFromJson(viaCbor(toJson(l))), l);
  EXPECT_EQ(toJson(l)["tensorMaps"],
            json::parse(R"([{"tensor":"A","boxRows":128,"boxCols":64,"swizzle":"128B"},)"
                        R"({"tensor":"B","boxRows":64,"boxCols":8,"swizzle":"none"}])"));
}

TEST(ModelJson, ARuleWithoutTensorMapsKeepsItsOldForm) {
  EXPECT_FALSE(toJson(sampleLaunch()).contains("tensorMaps"));
  // An old row or an exported kernel from before tensor maps reads as having none.
  const LaunchRule old = launchRuleFromJson(
      json::parse(R"({"entry":"k","grid":["1","1","1"],"block":["256","1","1"],"dynamicSmemBytes":"0"})"));
  EXPECT_TRUE(old.tensorMaps.empty());
}

TEST(ModelJson, ATensorMapWithoutSwizzleHasNone) {
  json l = toJson(sampleTmaLaunch());
  l["tensorMaps"][0].erase("swizzle");
  EXPECT_EQ(launchRuleFromJson(l).tensorMaps[0].swizzle, "none");
}

TEST(ModelJson, MalformedTensorMapsNameTheEntryAndField) {
  json l = toJson(sampleTmaLaunch());
  l["tensorMaps"] = json::object();
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule: field 'tensorMaps': expected an array");
  l = toJson(sampleTmaLaunch());
  l["tensorMaps"][1] = "B";
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule.tensorMaps[1]: expected an object");
  l = toJson(sampleTmaLaunch());
  l["tensorMaps"][1].erase("tensor");
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule.tensorMaps[1]: missing field 'tensor'");
  l = toJson(sampleTmaLaunch());
  l["tensorMaps"][0]["boxRows"] = "128";
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }),
            "LaunchRule.tensorMaps[0]: field 'boxRows': expected an integer from -2147483648 to 2147483647");
  l = toJson(sampleTmaLaunch());
  l["tensorMaps"][0]["boxCols"] = 64.5;
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }),
            "LaunchRule.tensorMaps[0]: field 'boxCols': expected an integer from -2147483648 to 2147483647");
  l = toJson(sampleTmaLaunch());
  l["tensorMaps"][0]["swizzle"] = 128;
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule.tensorMaps[0]: field 'swizzle': expected a string");
}

TEST(ModelJson, CompileReportRoundTrips) {
  const CompileReport r = sampleReport();
  expectSame(compileReportFromJson(viaText(toJson(r))), r);
  expectSame(compileReportFromJson(viaCbor(toJson(r))), r);
  expectSame(compileDiagnosticFromJson(viaText(toJson(r.diagnostics[0]))), r.diagnostics[0]);
}

TEST(ModelJson, ValidationTrialsRoundTrip) {
  ValidationTrial nanTrial = sampleTrial();
  nanTrial.seed = 7;
  nanTrial.passed = true;
  nanTrial.reason.clear();
  nanTrial.maxAbsError = std::numeric_limits<double>::quiet_NaN();
  nanTrial.maxRelError = std::numeric_limits<double>::infinity();  // written as null: reads back as NaN
  const std::vector<ValidationTrial> trials{sampleTrial(), nanTrial};
  expectSame(validationTrialFromJson(viaCbor(toJson(trials[0]))), trials[0]);
  const auto back = validationTrialsFromJson(viaText(toJson(trials)));
  ASSERT_EQ(back.size(), 2u);
  expectSame(back[0], trials[0]);
  EXPECT_EQ(back[1].seed, 7u);
  EXPECT_TRUE(std::isnan(back[1].maxAbsError));
  EXPECT_TRUE(std::isnan(back[1].maxRelError));
  EXPECT_TRUE(validationTrialsFromJson(viaText(toJson(std::vector<ValidationTrial>{}))).empty());
}

TEST(ModelJson, TimingRoundTrips) {
  const Timing t = sampleTiming();
  expectSame(timingFromJson(viaText(toJson(t))), t);
  expectSame(timingFromJson(viaCbor(toJson(t))), t);
}

TEST(ModelJson, FingerprintRoundTrips) {
  const Fingerprint f{"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980.5, 2619.0, "gpu-node-7"};
  expectSame(fingerprintFromJson(viaText(toJson(f))), f);
  expectSame(fingerprintFromJson(viaCbor(toJson(f))), f);
}

TEST(ModelJson, CeilingRoundTrips) {
  const Ceiling c{"NVIDIA H200", "dram_bw", 4.1e12, 4.8e12, "B/s", 1795965621};
  expectSame(ceilingFromJson(viaText(toJson(c))), c);
  expectSame(ceilingFromJson(viaCbor(toJson(c))), c);
}

TEST(ModelJson, TaskRoundTrips) {
  const Task t{17, "softmax_f32_8192x4096", "softmax", R"({"op":"softmax","shape":[8192,4096]})", 2};
  expectSame(taskFromJson(viaText(toJson(t))), t);
  expectSame(taskFromJson(viaCbor(toJson(t))), t);
}

TEST(ModelJson, ProfileRoundTrips) {
  const std::map<std::string, double> p{{"dram__bytes_read.sum", 4208384.0},
                                        {"sm__warps_active.avg.pct_of_peak_sustained_active", 45.40324092357951},
                                        {"crucible__blocks_per_sm", 3.0}};
  EXPECT_EQ(profileFromJson(viaText(profileToJson(p))), p);
  EXPECT_EQ(profileFromJson(viaCbor(profileToJson(p))), p);
  const auto withNaN = profileFromJson(json::parse(R"({"unmeasured": null})"));
  EXPECT_TRUE(std::isnan(withNaN.at("unmeasured")));
}

// The keys are the project file's on-disk format: these are the texts the
// store writes (json dumps keys sorted). A renamed key fails here, before it
// makes existing projects unreadable.
TEST(ModelJson, OnDiskKeysStayFixed) {
  EXPECT_EQ(toJson(sampleLaunch()).dump(),
            R"({"block":["256","1","2"],"dynamicSmemBytes":"BLOCK_M * 4","entry":"softmax_kernel",)"
            R"json("grid":["ceil_div(M, 128)","N","1"]})json");
  CompileReport r;
  r.diagnostics = {{3, 4, "error", "m"}};
  r.features = {{"mma", 2}};
  EXPECT_EQ(toJson(r).dump(),
            R"({"arch":"","diagnostics":[{"column":4,"line":3,"message":"m","severity":"error"}],)"
            R"("features":{"mma":2},"localBytes":0,"log":"","maxThreadsPerBlock":0,"ok":false,"registers":0,)"
            R"("seconds":0.0,"spillLoadBytes":0,"spillStoreBytes":0,"staticSmemBytes":0})");
  EXPECT_EQ(toJson(std::vector<ValidationTrial>{{5, true, "", 0.5, 0.25, 0}}).dump(),
            R"([{"maxAbsError":0.5,"maxRelError":0.25,"mismatches":0,"passed":true,"reason":"","seed":5}])");
  Timing t;
  t.samplesUs = {1.5};
  EXPECT_EQ(toJson(t).dump(),
            R"({"device":{"arch":"","cudaRuntime":"","driver":"","gpu":"","host":"","memClockMHz":0.0,"nvrtc":"",)"
            R"("smClockMHz":0.0,"smCount":0},)"
            R"("iqrUs":0.0,"medianUs":0.0,"referenceIqrUs":0.0,"referenceMedianUs":0.0,"samplesUs":[1.5],)"
            R"("smClockMHz":0.0,"speedup":0.0})");
  EXPECT_EQ(profileToJson({{"a", 1.0}}).dump(), R"({"a":1.0})");
}

TEST(ModelJson, MissingFiguresAreRejectedOrReadAsNaNAsAsked) {
  json t = toJson(sampleTiming());
  t.erase("medianUs");
  EXPECT_EQ(errorOf([&] { timingFromJson(t); }), "Timing: missing field 'medianUs'");
  EXPECT_TRUE(std::isnan(timingFromJson(t, MissingFigures::ReadAsNaN).medianUs));
  EXPECT_EQ(timingFromJson(t, MissingFigures::ReadAsNaN).speedup, sampleTiming().speedup);

  json trial = toJson(sampleTrial());
  trial.erase("maxRelError");
  EXPECT_EQ(errorOf([&] { validationTrialFromJson(trial); }), "ValidationTrial: missing field 'maxRelError'");
  EXPECT_TRUE(std::isnan(validationTrialFromJson(trial, MissingFigures::ReadAsNaN).maxRelError));

  json report = toJson(sampleReport());
  report.erase("seconds");
  EXPECT_TRUE(std::isnan(compileReportFromJson(report, MissingFigures::ReadAsNaN).seconds));
  // Only figures are optional: a missing count or name is an error either way.
  report.erase("registers");
  EXPECT_EQ(errorOf([&] { compileReportFromJson(report, MissingFigures::ReadAsNaN); }),
            "CompileReport: missing field 'registers'");
  json noSeed = toJson(sampleTrial());
  noSeed.erase("seed");
  EXPECT_EQ(errorOf([&] { validationTrialFromJson(noSeed, MissingFigures::ReadAsNaN); }),
            "ValidationTrial: missing field 'seed'");
}

TEST(ModelJson, ErrorsNameTheTypeFieldAndExpectation) {
  EXPECT_EQ(errorOf([] { launchRuleFromJson(json::array()); }), "LaunchRule: expected an object");

  json l = toJson(sampleLaunch());
  l["entry"] = 5;
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule: field 'entry': expected a string");
  l = toJson(sampleLaunch());
  l["grid"] = json::array({"1", "2"});
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule: field 'grid': expected an array of 3 expressions");
  l = toJson(sampleLaunch());
  l["block"][1] = 32;
  EXPECT_EQ(errorOf([&] { launchRuleFromJson(l); }), "LaunchRule: field 'block'[1]: expected a string");

  json r = toJson(sampleReport());
  r["registers"] = 40.5;  // get<int>() would quietly make this 40
  EXPECT_EQ(errorOf([&] { compileReportFromJson(r); }),
            "CompileReport: field 'registers': expected an integer from -2147483648 to 2147483647");
  r = toJson(sampleReport());
  r["ok"] = 1;
  EXPECT_EQ(errorOf([&] { compileReportFromJson(r); }), "CompileReport: field 'ok': expected a boolean");
  r = toJson(sampleReport());
  r["features"]["mma"] = "many";
  EXPECT_EQ(errorOf([&] { compileReportFromJson(r); }),
            "CompileReport: field 'features'['mma']: expected an integer from -2147483648 to 2147483647");
  r = toJson(sampleReport());
  r["diagnostics"][1].erase("message");
  EXPECT_EQ(errorOf([&] { compileReportFromJson(r); }), "CompileReport.diagnostics[1]: missing field 'message'");
  r["diagnostics"] = json::object();
  EXPECT_EQ(errorOf([&] { compileReportFromJson(r); }), "CompileReport: field 'diagnostics': expected an array");

  json trials = toJson(std::vector<ValidationTrial>{sampleTrial(), sampleTrial()});
  trials[1]["seed"] = -1;
  EXPECT_EQ(errorOf([&] { validationTrialsFromJson(trials); }),
            "ValidationTrial[1]: field 'seed': expected an integer from 0 to 18446744073709551615");
  EXPECT_EQ(errorOf([] { validationTrialsFromJson(json::object()); }), "ValidationTrial list: expected an array");

  json t = toJson(sampleTiming());
  t["samplesUs"][2] = "slow";
  EXPECT_EQ(errorOf([&] { timingFromJson(t); }), "Timing: field 'samplesUs'[2]: expected a number");

  json f = toJson(Fingerprint{});
  f.erase("nvrtc");
  EXPECT_EQ(errorOf([&] { fingerprintFromJson(f); }), "Fingerprint: missing field 'nvrtc'");
  json c = toJson(Ceiling{});
  c["measured"] = "fast";
  EXPECT_EQ(errorOf([&] { ceilingFromJson(c); }), "Ceiling: field 'measured': expected a number");
  json task = toJson(Task{});
  task["specVersion"] = json(std::int64_t{1} << 40);
  EXPECT_EQ(errorOf([&] { taskFromJson(task); }),
            "Task: field 'specVersion': expected an integer from -2147483648 to 2147483647");
  EXPECT_EQ(errorOf([] { profileFromJson(json::parse(R"({"x": "y"})")); }),
            "profile['x']: expected a number");
}

TEST(ModelJson, ErrorsAreInvalidArgument) {
  // The store reports std::invalid_argument from a row decoder as a malformed row.
  EXPECT_THROW(taskFromJson(json::object()), std::invalid_argument);
}

TEST(ModelJson, RequiredFieldReadsTheEnvelopeTypes) {
  const json j = {{"pid", 42}, {"seeds", {1, 2, 3}}, {"time", true}};
  EXPECT_EQ(requiredField<std::int64_t>(j, "pid", "Hello"), 42);
  EXPECT_EQ(requiredField<std::vector<std::uint64_t>>(j, "seeds", "Req"), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_TRUE(requiredField<bool>(j, "time", "Req"));
  EXPECT_EQ(errorOf([&] { requiredField<std::string>(j, "detail", "Evaluation"); }),
            "Evaluation: missing field 'detail'");
  EXPECT_EQ(errorOf([&] { requiredMember(json(3), "x", "Hello"); }), "Hello: expected an object");
}

}  // namespace
}  // namespace crucible
