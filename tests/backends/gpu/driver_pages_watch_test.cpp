// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's pages a kernel can name, without a GPU: which spans are
// watched (pagesAround) and what the watch names (a host array as the device).
#include <gtest/gtest.h>
#include <vector>
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/driver_pages_watch.h"

namespace crucible::cuda {
namespace {

constexpr std::size_t kPage = 4096;

TEST(ModulePages, WholePagesAroundTheAnchorsLessTheExcludedSpans) {
  // One variable inside page 1, one straddling pages 3 and 4; the first is excluded (reset every launch).
  const std::vector<DeviceSpan> anchors = {{kPage + 100, 32}, {4 * kPage - 8, 16}};
  const std::vector<DeviceSpan> excluded = {{kPage + 100, 32}};
  const std::vector<DeviceSpan> got = pagesAround(anchors, excluded, kPage);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].begin, kPage);
  EXPECT_EQ(got[0].bytes, 100u);
  EXPECT_EQ(got[1].begin, kPage + 132);
  EXPECT_EQ(got[1].end(), 2 * kPage);
  EXPECT_EQ(got[2].begin, 3 * kPage);
  EXPECT_EQ(got[2].end(), 5 * kPage) << "a variable across a page boundary brings both pages";
}

TEST(ModulePages, OverlappingAnchorsAndExclusionsMergeAndNothingEmptyIsLeft) {
  const std::vector<DeviceSpan> anchors = {{0, 8}, {16, 8}, {kPage - 1, 1}, {kPage * 2, 0}};
  // Exclusions overlap each other and run past the page; an empty one changes nothing.
  const std::vector<DeviceSpan> excluded = {{0, 100}, {50, 200}, {kPage - 10, 100}, {7, 0}};
  const std::vector<DeviceSpan> got = pagesAround(anchors, excluded, kPage);
  ASSERT_EQ(got.size(), 1u) << "an empty anchor brings no page";
  EXPECT_EQ(got[0].begin, 250u);
  EXPECT_EQ(got[0].end(), kPage - 10);
  EXPECT_TRUE(pagesAround(anchors, {{0, kPage}}, kPage).empty()) << "a page excluded in full leaves nothing";
  EXPECT_TRUE(pagesAround({}, {}, kPage).empty()) << "a kernel without variables has no pages to watch";
}

struct FakeDevice {
  std::vector<unsigned char> bytes = std::vector<unsigned char>(4 * kPage, 0);
  HarnessMemoryWatch::Hasher hasher() {
    return [this](CUdeviceptr where, std::size_t n) {
      return hostHash(bytes.data() + where, 1, static_cast<std::int64_t>(n), 0xBEEF);
    };
  }
};

TEST(ModulePages, AWriteBesideTheVariablesIsNamedAndTheirOwnBytesAreNot) {
  FakeDevice dev;
  const DeviceSpan own = {kPage + 64, 32};        // the candidate's writable variable
  const DeviceSpan constant = {kPage + 512, 16};  // its __constant__ table
  DriverPagesWatch watch(dev.hasher(), kPage, {{"the kernel's module variables", {own, constant}}}, {own});
  EXPECT_EQ(watch.watchedBytes(), kPage - 32);
  dev.bytes[own.begin + 5] = 1;  // a launch changes its own variable: reset before the next one
  EXPECT_EQ(watch.damage(), "");
  dev.bytes[constant.begin] = 1;  // its constants are the driver's, not its to write
  EXPECT_NE(watch.damage().find("driver's memory around the kernel's module variables"), std::string::npos);
  dev.bytes[constant.begin] = 0;
  dev.bytes[2 * kPage - 1] = 9;  // the last byte of the page: results kept past the variables
  EXPECT_NE(watch.damage(), "");
  dev.bytes[2 * kPage - 1] = 0;
  dev.bytes[2 * kPage] = 9;  // the next page holds none of its variables
  EXPECT_EQ(watch.damage(), "");
}

// The reference is loaded after the candidate: the driver writes its
// variables, perhaps into the candidate's page. Those spans leave the watch,
// and the rest is recorded as it is then.
TEST(ModulePages, AModuleLoadedLaterIsExcludedAndTheRestRecordedAgain) {
  FakeDevice dev;
  const DeviceSpan own = {kPage, 8};
  DriverPagesWatch watch(dev.hasher(), kPage, {{"the kernel's module variables", {own}}}, {own});
  const DeviceSpan reference = {kPage + 256, 64};
  for (std::size_t i = 0; i < reference.bytes; ++i) dev.bytes[reference.begin + i] = 0xAB;  // the driver's load
  EXPECT_NE(watch.damage(), "") << "before it is excluded, the load shows as a change";
  watch.excludeAndRecord({reference});
  EXPECT_EQ(watch.damage(), "");
  dev.bytes[reference.begin + 3] = 1;  // the reference's launches may change its own variables
  EXPECT_EQ(watch.damage(), "");
  dev.bytes[kPage + 1024] = 1;
  EXPECT_NE(watch.damage(), "");
}

// Two groups of anchors (module variables, launch-parameter slots): each
// region is named by the groups whose pages it lies in.
TEST(DriverPages, ARegionIsNamedByTheAnchorsInItsPage) {
  FakeDevice dev;
  const DeviceSpan variable = {64, 8};               // page 0 only
  const DeviceSpan slotA = {2 * kPage + 16, 1};      // page 2: a slot's parameters
  const DeviceSpan slotB = {3 * kPage + 16, 1};      // page 3, with a variable too
  const DeviceSpan shared = {3 * kPage + 2048, 8};
  const DeviceSpan headA = {2 * kPage, 16 + 64}, headB = {3 * kPage, 16 + 64};  // written at every launch
  DriverPagesWatch watch(dev.hasher(), kPage,
                         {{"the kernel's module variables", {variable, shared}}, {"its launch parameters", {slotA, slotB}}},
                         {headA, headB});
  dev.bytes[2 * kPage + 40] = 1;  // inside a head: the driver's, at every launch
  EXPECT_EQ(watch.damage(), "");
  dev.bytes[2 * kPage + 4000] = 1;  // a slot's tail
  EXPECT_NE(watch.damage().find("driver's memory around its launch parameters, "), std::string::npos) << watch.damage();
  dev.bytes[2 * kPage + 4000] = 0;
  dev.bytes[3 * kPage + 1000] = 1;
  EXPECT_NE(watch.damage().find("around the kernel's module variables and its launch parameters"), std::string::npos)
      << watch.damage();
  dev.bytes[3 * kPage + 1000] = 0;
  dev.bytes[kPage + 5] = 1;  // page 1 holds no anchor
  EXPECT_EQ(watch.damage(), "");
}

}  // namespace
}  // namespace crucible::cuda
