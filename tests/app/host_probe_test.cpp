// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "app/gui/host_probe.h"

using crucible::GpuInfo;
using crucible::GpuProbe;

TEST(HostProbe, WithoutADriverTheStatusSaysReviewOnly) {
  GpuProbe probe;
  probe.message = "No CUDA driver found: review only (projects open, nothing can be evaluated here).";
  const auto host = crucible::app::hostInfoFrom(probe);
  EXPECT_FALSE(host.driverFound);
  EXPECT_TRUE(host.gpus.isEmpty());
  EXPECT_TRUE(host.statusLine.contains(QStringLiteral("review only")));
}

TEST(HostProbe, NamesTheFirstGpuAndTheDriver) {
  GpuProbe probe;
  probe.driverFound = true;
  probe.driverVersion = "13.0";
  probe.gpus = {GpuInfo{0, "NVIDIA H200", 9, 0}, GpuInfo{1, "NVIDIA H200", 9, 0}};
  const auto host = crucible::app::hostInfoFrom(probe);
  EXPECT_EQ(host.gpus, (QStringList{QStringLiteral("0: NVIDIA H200 (sm_90)"), QStringLiteral("1: NVIDIA H200 (sm_90)")}));
  EXPECT_TRUE(host.statusLine.startsWith(QStringLiteral("GPU: NVIDIA H200 (sm_90), CUDA driver 13.0")))
      << host.statusLine.toStdString();
  EXPECT_TRUE(host.statusLine.contains(QStringLiteral("1 more")));
}
