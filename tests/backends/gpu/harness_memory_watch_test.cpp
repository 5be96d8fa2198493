// SPDX-License-Identifier: GPL-3.0-or-later
// HarnessMemoryWatch without a GPU: "device memory" is a host array and the
// hash is the host mirror of the harness's keyed hash.
#include <gtest/gtest.h>
#include <cstring>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/harness_memory_watch.h"

namespace crucible::cuda {
namespace {

struct FakeDevice {
  std::vector<unsigned char> bytes = std::vector<unsigned char>(4096, 0);
  int hashes = 0;
  HarnessMemoryWatch::Hasher hasher() {
    return [this](CUdeviceptr where, std::size_t n) {
      ++hashes;
      return hostHash(bytes.data() + where, 1, static_cast<std::int64_t>(n), 0xC0FFEE);
    };
  }
};

TEST(HarnessMemoryWatch, NamesTheFirstRegionThatNoLongerHashesAsRecorded) {
  FakeDevice dev;
  HarnessMemoryWatch watch(dev.hasher());
  watch.record("kept set", 0, 1024);
  watch.record("guard", 2048, 512);
  watch.record("nothing", 3000, 0);  // empty regions are not watched
  EXPECT_EQ(watch.regionCount(), 2u);
  EXPECT_EQ(watch.firstChange(), "");
  dev.bytes[2048 + 511] = 1;  // the guard's last byte
  EXPECT_EQ(watch.firstChange(), "guard");
  EXPECT_FALSE(watch.unchanged(2048));
  EXPECT_TRUE(watch.unchanged(0));
  dev.bytes[10] = 7;
  EXPECT_EQ(watch.firstChange(), "kept set") << "regions are checked in the order they were recorded";
  dev.bytes[1500] = 9;  // between the regions: nobody's
  dev.bytes[10] = 0;
  dev.bytes[2048 + 511] = 0;
  EXPECT_EQ(watch.firstChange(), "");
}

// What a kernel wrote before the harness records a region is part of the
// record (the harness records when it writes); what it writes after is a change.
TEST(HarnessMemoryWatch, ARecordIsTakenWhenTheHarnessWritesAndReplacesTheOldOne) {
  FakeDevice dev;
  HarnessMemoryWatch watch(dev.hasher());
  watch.record("kept set 1", 0, 64);
  dev.bytes[3] = 42;  // a kernel's write
  EXPECT_EQ(watch.firstChange(), "kept set 1");
  std::memset(dev.bytes.data(), 5, 64);  // the harness keeps a new set there
  watch.record("kept set 1 again", 0, 64);
  EXPECT_EQ(watch.regionCount(), 1u);
  EXPECT_EQ(watch.firstChange(), "");
  dev.bytes[63] = 6;
  EXPECT_EQ(watch.firstChange(), "kept set 1 again");
  EXPECT_FALSE(watch.unchanged(4000)) << "an address never recorded is not vouched for";
}

// Swapping two words or moving a value changes the hash: it depends on where
// each element is, and (keyed) on a key a kernel does not know.
// Regions start wherever a variable ends: the word must divide the address too.
TEST(HarnessMemoryWatch, HashWordsDivideTheAddressAndTheSize) {
  EXPECT_EQ(hashWordWidth(0x200000, 4096), 8);
  EXPECT_EQ(hashWordWidth(0x200004, 4096), 4) << "past a 4-byte variable: no 8-byte loads";
  EXPECT_EQ(hashWordWidth(0x200000, 4092), 4);
  EXPECT_EQ(hashWordWidth(0x200002, 4096), 1);
  EXPECT_EQ(hashWordWidth(0x200000, 4093), 1);
}

TEST(HarnessMemoryWatch, TheKeyedHashSeesMovesAndDependsOnTheKey) {
  std::vector<std::uint32_t> v(256);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const std::uint64_t h = hostHash(v.data(), 4, 256, 0x1234);
  EXPECT_NE(h, hostHash(v.data(), 4, 256, 0x1235));
  std::swap(v[3], v[200]);
  EXPECT_NE(h, hostHash(v.data(), 4, 256, 0x1234));
}

TEST(WholePages, RoundUpToAtLeastOnePage) {
  EXPECT_EQ(wholePagesFor(0, 2 << 20), std::size_t{2} << 20);
  EXPECT_EQ(wholePagesFor(1, 2 << 20), std::size_t{2} << 20);
  EXPECT_EQ(wholePagesFor(2 << 20, 2 << 20), std::size_t{2} << 20);
  EXPECT_EQ(wholePagesFor((2 << 20) + 1, 2 << 20), std::size_t{4} << 20);
  EXPECT_THROW(wholePagesFor(5, 0), std::logic_error);
}

}  // namespace
}  // namespace crucible::cuda
