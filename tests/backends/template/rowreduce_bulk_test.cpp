// SPDX-License-Identifier: GPL-3.0-or-later
// fill=bulk in the rowreduce family (row_bulk.h): the copy engine fetches each
// group of rows into shared memory. Legal only where the row lives there
// (memory=smem, or rowsum's single sweep), for rows of whole 16-byte units and
// stages that fit the shared memory; the kernel reads every sweep from the
// stage (no global loads of the row) and takes its shared memory at launch.
#include <gtest/gtest.h>

#include <algorithm>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/template_proposer.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

KernelProblem problem(const std::string& family, DType d, std::int64_t M, std::int64_t N) {
  const std::string cols = family == "cross_entropy" ? "V" : "N";
  return templates::problemFromSpec(testing_support::makeTask(family, d, {{"M", M}, {cols, N}}));
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += e + "\n";
  return s;
}

bool mentions(const std::vector<std::string>& reasons, const std::string& what) {
  return joined(reasons).find(what) != std::string::npos;
}

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A block of 8 warps per row, the row in shared memory, a persistent grid of 2
// blocks per SM with 2 stages each: the starting points' bulk entry.
Genome bulkBlock(const std::string& family, const std::string& vector) {
  Genome g{family,
           {{"granularity", "block"}, {"reduction", "shuffle"}, {"vector", vector}, {"schedule", "persistent"},
            {"fill", "bulk"}},
           {{"WARPS_PER_ROW", 8}, {"BLOCKS_PER_SM", 2}, {"STAGES", 2}}};
  if (family != "rowsum") g.genes["memory"] = "smem";
  if (family == "softmax") g.genes["pass"] = "online";
  if (family == "cross_entropy") g.genes["pass"] = "twopass";
  if (family == "layernorm") g.genes["stats"] = "welford";
  return g;
}

// Each family's bulk genome at a suite shape. cross_entropy (two passes over the
// cached row): one stage of one block per SM, its 125 KiB rows leave room for no more.
struct Case {
  KernelProblem problem;
  Genome genome;
};
std::vector<Case> bulkCases() {
  Genome crossEntropy = bulkBlock("cross_entropy", "4");
  crossEntropy.params["STAGES"] = 1;
  crossEntropy.params["BLOCKS_PER_SM"] = 1;
  return {{problem("softmax", DType::F32, 8192, 4096), bulkBlock("softmax", "4")},
          {problem("layernorm", DType::F32, 8192, 4096), bulkBlock("layernorm", "4")},
          {problem("rmsnorm", DType::BF16, 8192, 8192), bulkBlock("rmsnorm", "8")},
          {problem("rowsum", DType::F32, 8192, 8192), bulkBlock("rowsum", "4")},
          {problem("cross_entropy", DType::F32, 8192, 32000), crossEntropy}};
}

// The kernel's body: what follows its signature (the helpers above it return values).
std::string kernelBodyOf(const std::string& source, const std::string& entry) {
  const auto at = source.find(entry + "(");
  return at == std::string::npos ? "" : source.substr(source.find('{', at));
}

TEST(RowReduceBulk, EveryFamilyTakesItWithTheRowInSharedMemory) {
  for (const auto& [p, g] : bulkCases()) {
    EXPECT_TRUE(templates::isLegal(g, p)) << p.taskName << " " << g.toJson() << "\n"
                                          << joined(templates::checkGenome(g, p));
  }
}

TEST(RowReduceBulk, RefusedWhereTheRowDoesNotLiveInSharedMemory) {
  const auto p = problem("softmax", DType::F32, 8192, 4096);
  for (const std::string memory : {"registers", "global"}) {
    Genome g = bulkBlock("softmax", "4");
    g.genes["memory"] = memory;
    EXPECT_TRUE(mentions(templates::checkGenome(g, p), "it needs memory=smem")) << memory;
  }
  // An online cross-entropy caches nothing (memory=global): no stage to read.
  const auto ce = problem("cross_entropy", DType::F32, 8192, 32000);
  Genome online = bulkBlock("cross_entropy", "4");
  online.genes["memory"] = "global";
  online.genes["pass"] = "online";
  online.params["STAGES"] = 1;
  EXPECT_TRUE(mentions(templates::checkGenome(online, ce), "it needs memory=smem"));
  // hint=no_allocate marks global loads, of which a bulk kernel has none.
  Genome noAllocate = bulkBlock("softmax", "4");
  noAllocate.genes["hint"] = "no_allocate";
  EXPECT_TRUE(mentions(templates::checkGenome(noAllocate, p), "hint=no_allocate"));
}

TEST(RowReduceBulk, RowsOfPartialSixteenByteUnitsAreRefused) {
  const Genome warpRows{"rowsum",
                        {{"granularity", "warp"}, {"reduction", "shuffle"}, {"vector", "1"}, {"schedule", "persistent"},
                         {"fill", "bulk"}},
                        {{"ROWS_PER_BLOCK", 8}, {"BLOCKS_PER_SM", 1}, {"STAGES", 2}}};
  const auto odd = problem("rowsum", DType::F32, 8192, 1001);  // 4004 bytes a row
  const auto reasons = templates::checkGenome(warpRows, odd);
  EXPECT_TRUE(mentions(reasons, "a row of 4004 bytes is not")) << joined(reasons);
  const auto whole = problem("rowsum", DType::F32, 8192, 1004);  // 4016 bytes: 251 units
  EXPECT_TRUE(templates::isLegal(warpRows, whole)) << joined(templates::checkGenome(warpRows, whole));
}

TEST(RowReduceBulk, StagesPastTheSharedMemoryAreRefusedAndReplaceTheCache) {
  const auto p = problem("rmsnorm", DType::BF16, 8192, 8192);  // 16 KiB rows
  // 8 blocks per SM of 4 stages: 8 x (64 KiB + scratch) is far past an SM's 228 KiB.
  Genome perSm = bulkBlock("rmsnorm", "8");
  perSm.params["BLOCKS_PER_SM"] = 8;
  perSm.params["STAGES"] = 4;
  EXPECT_TRUE(mentions(templates::checkGenome(perSm, p), "an SM's shared memory")) << joined(templates::checkGenome(perSm, p));
  // 4 stages of 8 rows (512 KiB) are past a block's.
  Genome perBlock{"rmsnorm",
                  {{"granularity", "multiwarp"}, {"memory", "smem"}, {"reduction", "shuffle"}, {"vector", "8"},
                   {"schedule", "persistent"}, {"fill", "bulk"}},
                  {{"ROWS_PER_BLOCK", 8}, {"WARPS_PER_ROW", 2}, {"BLOCKS_PER_SM", 1}, {"STAGES", 4}}};
  EXPECT_TRUE(mentions(templates::checkGenome(perBlock, p), "shared memory per block (fill=bulk stages)"));
  // 3 stages of 4 rows (192 KiB) fit beside the scratch: the stages are the cache, not
  // another copy of it (with the memory=smem cache counted too, 256 KiB would not fit).
  Genome fits = perBlock;
  fits.params["ROWS_PER_BLOCK"] = 4;
  fits.params["STAGES"] = 3;
  EXPECT_TRUE(templates::isLegal(fits, p)) << joined(templates::checkGenome(fits, p));
  fits.params["STAGES"] = 4;
  EXPECT_FALSE(templates::isLegal(fits, p));
}

TEST(RowReduceBulk, SweepsReadTheStageAndTheCopyEngineReadsTheRow) {
  for (const auto& [p, g] : bulkCases()) {
    ASSERT_TRUE(templates::isLegal(g, p)) << joined(templates::checkGenome(g, p));
    const Candidate c = TemplateProposer::candidateFor(g, p);
    const std::string where = p.taskName + " " + g.toJson();
    const std::string& s = c.source;
    const std::int64_t stages = g.param("STAGES");
    EXPECT_NE(s.find("cp.async.bulk.shared::cluster.global"), std::string::npos) << where;
    EXPECT_NE(s.find("constexpr int STAGES = " + std::to_string(stages) + ";"), std::string::npos) << where;
    EXPECT_NE(s.find("rows fetched into shared memory by the copy engine, " + std::to_string(stages) +
                     (stages == 1 ? " stage," : " stages,")),
              std::string::npos)
        << where;
    // No thread loads the row from global memory, nor writes it into shared memory.
    EXPECT_EQ(s.find("row_in +"), std::string::npos) << where << "\n" << s;
    EXPECT_EQ(s.find("row_in["), std::string::npos) << where;
    EXPECT_EQ(s.find("store_pack(row_cache"), std::string::npos) << where;
    EXPECT_EQ(s.find("hinted_load"), std::string::npos) << where;
    // Every sweep reads the stage: the statistics' and the output's.
    const int sweeps = p.family == "rowsum" ? 1 : 2;
    EXPECT_EQ(occurrences(s, "*reinterpret_cast<const Pack*>(row_cache + col)"), sweeps) << where << "\n" << s;
    if (p.family == "cross_entropy") EXPECT_NE(s.find("row_cache[target]"), std::string::npos) << where;
    // One dynamic shared array (the stages), the scratch still declared, and no early exits
    // from a trip: every thread reaches every barrier.
    EXPECT_EQ(occurrences(s, "extern __shared__"), 1) << where;
    EXPECT_NE(s.find("[1][WARPS_PER_ROW];"), std::string::npos) << where;  // the shuffles' scratch
    const std::string body = kernelBodyOf(s, c.launch.entry);
    ASSERT_FALSE(body.empty()) << where;
    EXPECT_EQ(body.find("return"), std::string::npos) << where;
    EXPECT_EQ(body.find("continue"), std::string::npos) << where;
    const std::int64_t rowBytes = stages * static_cast<std::int64_t>(sizeOf(p.inputs[0].dtype));
    EXPECT_EQ(c.launch.dynamicSmemBytes, std::to_string(rowBytes) + " * " + p.extentExpr(p.inputs[0], 1)) << where;
    EXPECT_EQ(c.launch.grid[0].rfind("min(", 0), 0u) << where << ": " << c.launch.grid[0];
  }
}

TEST(RowReduceBulk, RowBlocksGridFetchesOneGroupPerBlock) {
  const auto p = problem("softmax", DType::F32, 8192, 4096);
  Genome g{"softmax",
           {{"granularity", "multiwarp"}, {"memory", "smem"}, {"pass", "multipass"}, {"reduction", "smem"},
            {"vector", "4"}, {"fill", "bulk"}},
           {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 4}}};
  ASSERT_TRUE(templates::isLegal(g, p)) << joined(templates::checkGenome(g, p));
  const Candidate c = TemplateProposer::candidateFor(g, p);
  EXPECT_NE(c.source.find("constexpr int STAGES = 1;"), std::string::npos);
  EXPECT_NE(c.source.find("rows fetched into shared memory by the copy engine, 1 stage,"), std::string::npos);
  EXPECT_NE(c.source.find("const float* row_cache = stage_x + row_in_block * N;"), std::string::npos) << c.source;
  EXPECT_EQ(c.launch.grid[0], "ceil_div(" + p.extentExpr(p.inputs[0], 0) + ", 2)");
  EXPECT_EQ(c.launch.dynamicSmemBytes, "8 * " + p.extentExpr(p.inputs[0], 1));  // 1 stage x 2 rows x 4 bytes
  EXPECT_EQ(occurrences(c.source, "*reinterpret_cast<const Pack*>(row_cache + col)"), 3);  // max, sum, write
  EXPECT_NE(c.source.find("[THREADS];"), std::string::npos);  // the tree's scratch
}

TEST(RowReduceBulk, EvictFirstHintsTheCopyAndTheStores) {
  const auto p = problem("rmsnorm", DType::BF16, 8192, 8192);
  Genome g = bulkBlock("rmsnorm", "8");
  g.genes["hint"] = "evict_first";
  ASSERT_TRUE(templates::isLegal(g, p)) << joined(templates::checkGenome(g, p));
  const std::string s = TemplateProposer::candidateFor(g, p).source;
  EXPECT_NE(s.find("L2::cache_hint"), std::string::npos);
  EXPECT_NE(s.find("store_pack_hinted(row_out + col, v);"), std::string::npos);
  EXPECT_EQ(s.find("hinted_load<Pack>(row"), std::string::npos);
  g.genes["hint"] = "default";
  EXPECT_EQ(TemplateProposer::candidateFor(g, p).source.find("L2::cache_hint"), std::string::npos);
}

// fill=threads is what the kernels did before the gene: a genome that names it
// emits the text of one that does not.
TEST(RowReduceBulk, FillThreadsIsTheKernelWithoutTheGene) {
  int checked = 0;
  for (const auto& family : {"softmax", "layernorm", "rmsnorm", "rowsum", "cross_entropy"})
    for (const auto& sc : testing_support::shapeCases(family)) {
      const auto p = templates::problemFromSpec(sc.spec);
      for (const auto& g : templates::designSpaceFor(p.family).startingPoints(p)) {
        if (g.genes.count("fill") || !templates::isLegal(g, p)) continue;
        Genome named = g;
        named.genes["fill"] = "threads";
        const std::string before = TemplateProposer::candidateFor(g, p).source;
        const std::string after = TemplateProposer::candidateFor(named, p).source;
        // Past the header comment, which spells out the genes it was given.
        EXPECT_EQ(before.substr(before.find("\n\n")), after.substr(after.find("\n\n"))) << p.taskName << " " << g.toJson();
        ++checked;
      }
    }
  EXPECT_GE(checked, 30);
}

}  // namespace
}  // namespace crucible
