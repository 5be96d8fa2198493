// SPDX-License-Identifier: GPL-3.0-or-later
// Fingerprints: when two of them are the same hardware, and how a timing
// keeps the device it was taken on in the project file and the protocol.
#include "core/model/fingerprint.h"

#include <gtest/gtest.h>

#include "core/model/model_json.h"
#include "tests/core/model/model_expect.h"

namespace crucible {
namespace {

using nlohmann::json;
using model_test::expectSame;

Fingerprint h200(const std::string& host = "node-1") {
  return Fingerprint{"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980, 3201, host, 132};
}

TEST(Fingerprint, TwoGpusOfOneModelAndDriverAreTheSameHardware) {
  Fingerprint other = h200("node-2");
  other.smClockMHz = 1755;           // clocks move between readings: recorded, not compared
  other.memClockMHz = 2619;
  other.cudaRuntime = "12.8";        // the worker's toolkit is not the GPU
  other.nvrtc = "12.8";
  EXPECT_EQ(hardwareDifference(h200(), other), std::nullopt);
}

TEST(Fingerprint, ModelArchitectureSmCountAndDriverMakeDifferentHardware) {
  Fingerprint a100 = h200();
  a100.gpu = "NVIDIA A100-SXM4-80GB";
  a100.arch = "sm_80";
  a100.smCount = 108;
  const auto model = hardwareDifference(a100, h200());
  ASSERT_TRUE(model);
  EXPECT_EQ(*model, "timed on NVIDIA A100-SXM4-80GB (sm_80, 108 SMs, driver 580.159.04), the reference on "
                    "NVIDIA H200 (sm_90, 132 SMs, driver 580.159.04): different GPU models");

  Fingerprint arch = h200();
  arch.arch = "sm_90a";
  EXPECT_NE(hardwareDifference(arch, h200()).value_or("").find("different architectures"), std::string::npos);

  Fingerprint slice = h200();
  slice.smCount = 16;  // a MIG slice under the same name
  EXPECT_NE(hardwareDifference(slice, h200()).value_or("").find("different SM counts"), std::string::npos);
  slice.smCount = 0;   // not recorded on one side: the name, arch and driver decide
  EXPECT_EQ(hardwareDifference(slice, h200()), std::nullopt);

  Fingerprint driver = h200();
  driver.driver = "575.57.08";
  EXPECT_NE(hardwareDifference(driver, h200()).value_or("").find("different drivers"), std::string::npos);
}

TEST(Fingerprint, AnUnrecordedSideIsNeverAMatch) {
  const auto why = hardwareDifference(Fingerprint{}, h200(), "timed", "the run's reference");
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "timed on an unrecorded GPU, the run's reference on NVIDIA H200 (sm_90, 132 SMs, driver "
                  "580.159.04): the GPU is not recorded on both sides");
  EXPECT_TRUE(hardwareDifference(Fingerprint{}, Fingerprint{}));
  EXPECT_FALSE(recorded(Fingerprint{}));
  EXPECT_TRUE(recorded(h200()));
}

TEST(Fingerprint, RoundTripsWithItsSmCountAndReadsOneWithoutIt) {
  expectSame(fingerprintFromJson(json::parse(toJson(h200()).dump())), h200());
  json old = toJson(h200());
  old.erase("smCount");  // written before the SM count was kept
  EXPECT_EQ(fingerprintFromJson(old).smCount, 0);
  old["smCount"] = "many";
  EXPECT_THROW(fingerprintFromJson(old), ModelJsonError);
}

TEST(Fingerprint, ATimingKeepsTheDeviceItWasTakenOn) {
  Timing t;
  t.samplesUs = {2.0, 2.2};
  t.medianUs = 2.1;
  t.referenceMedianUs = 4.2;
  t.speedup = 2.0;
  t.device = h200();
  expectSame(timingFromJson(json::parse(toJson(t).dump())), t);
  expectSame(timingFromJson(json::parse(toJson(t).dump()), MissingFigures::ReadAsNaN), t);
}

TEST(Fingerprint, AProjectRowWithoutADeviceReadsAsUnrecordedButTheProtocolNeedsOne) {
  Timing t;
  t.samplesUs = {2.0};
  t.medianUs = 2.0;
  t.device = h200();
  json row = toJson(t);
  row.erase("device");
  EXPECT_FALSE(recorded(timingFromJson(row, MissingFigures::ReadAsNaN).device));
  EXPECT_THROW(timingFromJson(row, MissingFigures::Reject), ModelJsonError);
}

}  // namespace
}  // namespace crucible
