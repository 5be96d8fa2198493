// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "tests/backends/dispatch/scoped_env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

namespace crucible {
namespace {

using testing_support::ScopedEnv;

GpuProbe twoFakeGpus() {
  GpuProbe probe;
  probe.driverFound = true;
  probe.driverVersion = "13.0";
  probe.gpus = {GpuInfo{0, "Fake GPU", 9, 0}, GpuInfo{1, "Fake GPU", 9, 0}};
  probe.message = "2 GPU(s): Fake GPU (sm_90), CUDA driver 13.0";
  return probe;
}

TEST(LocalGpuDispatcher, OneWorkerPerGpuEachSeeingOnlyItsGpu) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", nullptr);
  LocalGpuDispatcherOptions options;
  options.workerExecutable = CRUCIBLE_FAKE_WORKER;
  LocalGpuDispatcher d(twoFakeGpus(), options);
  EXPECT_TRUE(d.canEvaluate());
  EXPECT_EQ(d.name(), "local");
  const auto evaluators = d.evaluators();
  ASSERT_EQ(evaluators.size(), 2u);
  EXPECT_EQ(evaluators[0]->device().host, "visible=0");
  EXPECT_EQ(evaluators[1]->device().host, "visible=1");
  EXPECT_NE(d.status().find("2 GPU worker(s)"), std::string::npos) << d.status();
}

TEST(LocalGpuDispatcher, HonoursTheEnginesOwnVisibleDevices) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", "2,3");
  EXPECT_EQ(LocalGpuDispatcher::visibleDeviceFor(0), "2");
  EXPECT_EQ(LocalGpuDispatcher::visibleDeviceFor(1), "3");
  ScopedEnv none("CUDA_VISIBLE_DEVICES", nullptr);
  EXPECT_EQ(LocalGpuDispatcher::visibleDeviceFor(1), "1");
}

TEST(LocalGpuDispatcher, WithoutGpusSaysNothingCanBeEvaluated) {
  GpuProbe none;
  none.message = "No CUDA driver found: review only (projects open, nothing can be evaluated here).";
  LocalGpuDispatcherOptions options;
  options.workerExecutable = CRUCIBLE_FAKE_WORKER;
  LocalGpuDispatcher d(none, options);
  EXPECT_FALSE(d.canEvaluate());
  EXPECT_TRUE(d.evaluators().empty());
  EXPECT_NE(d.status().find("Nothing can be evaluated here"), std::string::npos) << d.status();
  EXPECT_NE(d.status().find("No CUDA driver found"), std::string::npos) << d.status();
}

TEST(LocalGpuDispatcher, WithoutTheWorkerExecutableSaysSo) {
  LocalGpuDispatcherOptions options;
  options.workerExecutable = "/nonexistent/crucible-worker";
  LocalGpuDispatcher d(twoFakeGpus(), options);
  EXPECT_FALSE(d.canEvaluate());
  EXPECT_TRUE(d.evaluators().empty());
  EXPECT_NE(d.status().find("'/nonexistent/crucible-worker' is missing"), std::string::npos) << d.status();
}

TEST(LocalGpuDispatcher, DefaultWorkerSitsNextToTheRunningExecutable) {
  const std::string path = LocalGpuDispatcher::defaultWorkerExecutable();
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string dir = self.substr(0, self.rfind('/'));
  EXPECT_EQ(path, dir + "/crucible-worker");
}

}  // namespace
}  // namespace crucible
