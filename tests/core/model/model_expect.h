// SPDX-License-Identifier: GPL-3.0-or-later
// Field-by-field comparisons of the domain types for tests of anything that
// carries them (the JSON codec, the worker protocol, the store). Written out
// field by field so a field an encoder forgets fails the test that uses them.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>

#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/model/task.h"

namespace crucible::model_test {

// Equal, or both NaN (a figure that was not a number stays one).
inline void expectSameFigure(double a, double b, const char* name) {
  if (std::isnan(a))
    EXPECT_TRUE(std::isnan(b)) << name << ": " << b;
  else
    EXPECT_EQ(a, b) << name;
}

inline void expectSame(const LaunchRule& a, const LaunchRule& b) {
  EXPECT_EQ(a.entry, b.entry);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.grid[i], b.grid[i]) << "grid " << i;
    EXPECT_EQ(a.block[i], b.block[i]) << "block " << i;
  }
  EXPECT_EQ(a.dynamicSmemBytes, b.dynamicSmemBytes);
  EXPECT_EQ(a.tensorMaps, b.tensorMaps);
}

inline void expectSame(const CompileDiagnostic& a, const CompileDiagnostic& b) {
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(a.column, b.column);
  EXPECT_EQ(a.severity, b.severity);
  EXPECT_EQ(a.message, b.message);
}

inline void expectSame(const CompileReport& a, const CompileReport& b) {
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.arch, b.arch);
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) expectSame(a.diagnostics[i], b.diagnostics[i]);
  EXPECT_EQ(a.log, b.log);
  EXPECT_EQ(a.registers, b.registers);
  EXPECT_EQ(a.staticSmemBytes, b.staticSmemBytes);
  EXPECT_EQ(a.localBytes, b.localBytes);
  EXPECT_EQ(a.spillStoreBytes, b.spillStoreBytes);
  EXPECT_EQ(a.spillLoadBytes, b.spillLoadBytes);
  EXPECT_EQ(a.maxThreadsPerBlock, b.maxThreadsPerBlock);
  EXPECT_EQ(a.features, b.features);
  expectSameFigure(a.seconds, b.seconds, "seconds");
}

inline void expectSame(const ValidationTrial& a, const ValidationTrial& b) {
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.passed, b.passed);
  EXPECT_EQ(a.reason, b.reason);
  expectSameFigure(a.maxAbsError, b.maxAbsError, "maxAbsError");
  expectSameFigure(a.maxRelError, b.maxRelError, "maxRelError");
  EXPECT_EQ(a.mismatches, b.mismatches);
}

inline void expectSame(const Fingerprint& a, const Fingerprint& b);

inline void expectSame(const Timing& a, const Timing& b) {
  ASSERT_EQ(a.samplesUs.size(), b.samplesUs.size());
  for (std::size_t i = 0; i < a.samplesUs.size(); ++i) expectSameFigure(a.samplesUs[i], b.samplesUs[i], "sample");
  expectSameFigure(a.medianUs, b.medianUs, "medianUs");
  expectSameFigure(a.iqrUs, b.iqrUs, "iqrUs");
  expectSameFigure(a.referenceMedianUs, b.referenceMedianUs, "referenceMedianUs");
  expectSameFigure(a.referenceIqrUs, b.referenceIqrUs, "referenceIqrUs");
  expectSameFigure(a.speedup, b.speedup, "speedup");
  expectSameFigure(a.smClockMHz, b.smClockMHz, "smClockMHz");
  expectSame(a.device, b.device);
}

inline void expectSame(const Fingerprint& a, const Fingerprint& b) {
  EXPECT_EQ(a.gpu, b.gpu);
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.driver, b.driver);
  EXPECT_EQ(a.cudaRuntime, b.cudaRuntime);
  EXPECT_EQ(a.nvrtc, b.nvrtc);
  EXPECT_EQ(a.smClockMHz, b.smClockMHz);
  EXPECT_EQ(a.memClockMHz, b.memClockMHz);
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.smCount, b.smCount);
}

inline void expectSame(const Ceiling& a, const Ceiling& b) {
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.measured, b.measured);
  EXPECT_EQ(a.datasheet, b.datasheet);
  EXPECT_EQ(a.unit, b.unit);
  EXPECT_EQ(a.measuredAt, b.measuredAt);
}

inline void expectSame(const Task& a, const Task& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.specJson, b.specJson);
  EXPECT_EQ(a.specVersion, b.specVersion);
}

}  // namespace crucible::model_test
