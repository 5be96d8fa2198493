// SPDX-License-Identifier: GPL-3.0-or-later
// The Qt-free details core: which figures it gives, from what, and why one is missing.
#include "views/details/candidate_details.h"

#include <gtest/gtest.h>

using namespace crucible;
using namespace crucible::views;

namespace {
TaskSpec geluSpec() {
  TaskSpec s;
  s.name = "gelu";
  s.family = "gelu";
  s.axes = {{"N", 1048576}};
  s.flops = "5*N";
  s.minBytes = "4*N + 4*N";
  s.entry = "gelu_kernel";
  return s;
}
}  // namespace

TEST(SampleSpread, QuantilesInterpolateAsTheTimerDoes) {
  // The worker's median of {1, 2, 3, 4} is 2.5 and its IQR 3.25 - 1.75.
  const auto s = sampleSpread({4, 1, 3, 2});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->count, 4u);
  EXPECT_DOUBLE_EQ(s->min, 1);
  EXPECT_DOUBLE_EQ(s->q1, 1.75);
  EXPECT_DOUBLE_EQ(s->median, 2.5);
  EXPECT_DOUBLE_EQ(s->q3, 3.25);
  EXPECT_DOUBLE_EQ(s->max, 4);
  EXPECT_DOUBLE_EQ(s->mean, 2.5);
  EXPECT_FALSE(sampleSpread({}));
}

TEST(FigureDifference, AbsoluteAndPercentInTheSameUnitOnly) {
  DetailRow a, b;
  a.value = 10;
  b.value = 8;
  a.unit = b.unit = "µs";
  auto d = figureDifference(a, b);
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->absolute, 2);
  ASSERT_TRUE(d->percent);
  EXPECT_DOUBLE_EQ(*d->percent, 25);
  b.value = 0;
  d = figureDifference(a, b);
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->percent) << "no percentage of nothing";
  b.unit = "B";
  EXPECT_FALSE(figureDifference(a, b)) << "different units do not subtract";
  b.unit = "µs";
  b.value.reset();
  b.missing = Missing{MissingKind::NotTimed, {}, {}, {}};
  EXPECT_FALSE(figureDifference(a, b));
}

TEST(DetailsContext, RoofsOfTheOneDeviceOrMissingWithWhy) {
  std::vector<Ceiling> ceilings{{"GPU A", "dram_bw", 4e12, 0, "B/s", 0}, {"GPU B", "dram_bw", 3e12, 0, "B/s", 0}};
  DetailsContext ctx = detailsContext("", ceilings);
  EXPECT_EQ(ctx.specProblem.kind, MissingKind::SpecNotStored);
  EXPECT_TRUE(ctx.device.empty());
  EXPECT_EQ(ctx.ceilingProblem.kind, MissingKind::SeveralGpus);
  ctx = detailsContext("", ceilings, "GPU B");
  EXPECT_EQ(ctx.device, "GPU B");
  ASSERT_EQ(ctx.ceilings.size(), 1u);
  EXPECT_DOUBLE_EQ(ctx.ceilings[0].measured, 3e12);
  ctx = detailsContext("{not json", {});
  EXPECT_EQ(ctx.specProblem.kind, MissingKind::SpecDoesNotParse);
  EXPECT_FALSE(ctx.specProblem.detail.empty()) << "the parser's own error is kept";
  EXPECT_EQ(ctx.ceilingProblem.kind, MissingKind::NoCeilings);
}

TEST(CandidateDetails, DerivedFiguresFromStoredOnes) {
  Candidate c;
  c.id = 5;
  c.launch.grid[0] = "ceil_div(N, 256)";
  c.launch.block[0] = "256";
  c.timing = Timing{};
  c.timing->medianUs = 10;
  c.timing->samplesUs = {9, 10, 11};
  c.profile = {{"dram__bytes_read.sum", 4e6}, {"dram__bytes_write.sum", 4e6}, {"lts__t_bytes.sum", 1e7}};
  DetailsContext ctx;
  ctx.spec = geluSpec();
  ctx.device = "GPU A";
  ctx.ceilings = {{"GPU A", "dram_bw", 4e12, 0, "B/s", 0}};
  const auto groups = candidateDetails(c, ctx);
  ASSERT_GE(groups.size(), 7u);
  EXPECT_EQ(groups[0].name, "Throughput");
  EXPECT_EQ(groups[6].name, "Validation");
  auto value = [&](const char* key) {
    const DetailRow* r = findDetail(groups, key);
    EXPECT_TRUE(r) << key;
    EXPECT_TRUE(r && r->value) << key << ": missing kind " << (r ? static_cast<int>(r->missing.kind) : -1);
    return r && r->value ? *r->value : -1.0;
  };
  EXPECT_DOUBLE_EQ(value("throughput.dram_bytes"), 8e6);
  EXPECT_DOUBLE_EQ(value("throughput.dram_bandwidth"), 8e6 / 10e-6);
  EXPECT_DOUBLE_EQ(value("throughput.dram_roof"), 100.0 * 8e11 / 4e12);
  EXPECT_DOUBLE_EQ(value("throughput.min_bytes"), 8.0 * 1048576);
  EXPECT_DOUBLE_EQ(value("compute.task_flops"), 5.0 * 1048576);
  EXPECT_DOUBLE_EQ(value("launch.blocks"), 4096);
  EXPECT_DOUBLE_EQ(value("launch.threads"), 4096.0 * 256);
  EXPECT_DOUBLE_EQ(value("occupancy.warps_per_block"), 8);
  EXPECT_DOUBLE_EQ(value("timing.min"), 9);
  EXPECT_DOUBLE_EQ(value("timing.samples"), 3);
  const DetailRow* l2roof = findDetail(groups, "throughput.l2_roof");
  ASSERT_TRUE(l2roof);
  EXPECT_EQ(l2roof->missing, (Missing{MissingKind::NoCeilingOnDevice, "l2_bw", "GPU A", {}}));
  const DetailRow* fp32 = findDetail(groups, "compute.fp32_flops");
  ASSERT_TRUE(fp32);
  EXPECT_EQ(fp32->missing.kind, MissingKind::NoSassFlopCounters);
  const DetailRow* grid = findDetail(groups, "launch.grid");
  ASSERT_TRUE(grid);
  EXPECT_EQ(grid->textKind, TextKind::Verbatim);
  EXPECT_EQ(grid->text, "4096 × 1 × 1");
  EXPECT_EQ(grid->source, (Source{SourceKind::LaunchRuleAtAxes, "ceil_div(N, 256) × 1 × 1", "N=1048576"}));
  const DetailRow* rate = findDetail(groups, "throughput.dram_bandwidth");
  ASSERT_TRUE(rate);
  EXPECT_EQ(rate->source, (Source{SourceKind::PerMedianTime, "throughput.dram_bytes", "DRAM bytes"}));
}

TEST(CandidateDetails, AHugeLogIsShownInPart) {
  Candidate c;
  c.compile = CompileReport{};
  c.compile->ok = true;
  for (int i = 0; i < 5000; ++i) c.compile->log += "ptxas info    : line " + std::to_string(i) + "\n";
  const auto groups = candidateDetails(c, DetailsContext{});
  const DetailRow* log = findDetail(groups, "compile.log");
  ASSERT_TRUE(log);
  EXPECT_EQ(log->textKind, TextKind::LogLines);
  EXPECT_EQ(log->counts, std::vector<std::int64_t>{5000});
  ASSERT_EQ(log->lines.size(), 2000u);
  EXPECT_EQ(log->lines.back(), "ptxas info    : line 1999");
  EXPECT_EQ(log->linesNotShown, 3000u);
}
