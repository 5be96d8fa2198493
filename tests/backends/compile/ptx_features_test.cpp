// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/ptx_features.h"

#include <gtest/gtest.h>

namespace crucible {
namespace {

int count(const std::map<std::string, int>& f, const std::string& key) {
  auto it = f.find(key);
  return it == f.end() ? 0 : it->second;
}

TEST(PtxFeatures, GlobalAccessesByVectorWidthAndBytes) {
  const auto f = scanPtxFeatures(
      "\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd4];\n"
      "\tld.global.v2.f32 \t{%f5, %f6}, [%rd5];\n"
      "\tld.global.nc.L1::no_allocate.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd6];\n"
      "\t@%p1 ld.global.f32 \t%f7, [%rd7];\n"
      "\tld.global.v2.f64 \t{%fd1, %fd2}, [%rd8];\n"
      "\tst.global.v4.f32 \t[%rd9], {%f1, %f2, %f3, %f4};\n"
      "\tst.global.b128 \t[%rd9], %rq1;\n"
      "\tst.local.v4.f32 \t[%rd10], {%f1, %f2, %f3, %f4};\n"
      "\tld.shared.f32 \t%f8, [%r5];\n"
      "\tld.shared.v4.f32 \t{%f1, %f2, %f3, %f4}, [%r6];\n"
      "// ld.global.v4.f32 in a comment does not count\n");
  EXPECT_EQ(count(f, "ld.global"), 5);
  EXPECT_EQ(count(f, "ld.global.v4"), 2);
  EXPECT_EQ(count(f, "ld.global.v2"), 2);
  EXPECT_EQ(count(f, "ld.global.16B"), 3);  // v4.f32, v4.u32, v2.f64
  EXPECT_EQ(count(f, "ld.global.8B"), 1);
  EXPECT_EQ(count(f, "ld.global.4B"), 1);
  EXPECT_EQ(count(f, "st.global"), 2);
  EXPECT_EQ(count(f, "st.global.v4"), 1);
  EXPECT_EQ(count(f, "st.global.16B"), 2);
  EXPECT_EQ(count(f, "ld.shared"), 2);
  EXPECT_EQ(count(f, "ld.shared.16B"), 1);
  EXPECT_EQ(count(f, "ld.shared.4B"), 1);
  EXPECT_EQ(f.count("st.local"), 0u);
}

TEST(PtxFeatures, TensorCoreAndAsyncInstructions) {
  const auto f = scanPtxFeatures(
      "\t// begin inline asm\n"
      "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, "
      "{%f1,%f2,%f3,%f4};\n"
      "\t// end inline asm\n"
      "\twmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1}, {%r1}, {%r2}, {%f1};\n"
      "\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1}, [%rd1];\n"
      "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r9];\n"
      "{ wgmma.fence.sync.aligned; wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, "
      "1, 1, 1, 0, 0; wgmma.commit_group.sync.aligned; wgmma.wait_group.sync.aligned 0; }\n"
      "\tcp.async.cg.shared.global [%r1], [%rd1], 16;\n"
      "\tcp.async.ca.shared.global [%r1], [%rd1], 4;\n"
      "\tcp.async.commit_group;\n"
      "\tcp.async.wait_group 0;\n"
      "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];\n"
      "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 1024, [%r4];\n"
      "\tcp.async.bulk.commit_group;\n"
      "\tcp.async.bulk.wait_group 0;\n"
      "\tsetmaxnreg.inc.sync.aligned.u32 240;\n");
  EXPECT_EQ(count(f, "mma"), 1);
  EXPECT_EQ(count(f, "wmma"), 1);
  EXPECT_EQ(count(f, "ldmatrix"), 1);
  EXPECT_EQ(count(f, "wgmma"), 1);
  EXPECT_EQ(count(f, "cp.async"), 2);
  EXPECT_EQ(count(f, "cp.async.bulk"), 2);
  EXPECT_EQ(count(f, "cp.async.bulk.tensor"), 1);
  EXPECT_EQ(count(f, "setmaxnreg"), 1);
  // wmma.load from global memory is not an ld.global instruction.
  EXPECT_EQ(f.count("ld.global"), 0u);
}

TEST(PtxFeatures, ShufflesAtomicsBarriers) {
  const auto f = scanPtxFeatures(
      "\tshfl.sync.bfly.b32 \t%r1|%p1, %r2, 16, 31, -1;\n"
      "\tshfl.sync.down.b32 \t%r3|%p2, %r2, 8, 31, -1;\n"
      "\tatom.global.add.f32 \t%f1, [%rd1], %f2;\n"
      "\t@!%p3 atom.shared.cas.b32 \t%r4, [%r5], %r6, %r7;\n"
      "\tred.global.add.f32 \t[%rd1], %f2;\n"
      "\tbar.sync \t0;\n"
      "\tbarrier.sync.aligned \t1, 128;\n"
      "\tbar.arrive \t1, 128;\n"
      "$L__BB0_2:\n"
      "\t.reg .pred \t%p<4>;\n");
  EXPECT_EQ(count(f, "shfl"), 2);
  EXPECT_EQ(count(f, "atom"), 2);
  EXPECT_EQ(count(f, "red"), 1);
  EXPECT_EQ(count(f, "bar.sync"), 2);
}

TEST(PtxFeatures, EmptyPtxHasNoFeatures) { EXPECT_TRUE(scanPtxFeatures("").empty()); }

}  // namespace
}  // namespace crucible
