// SPDX-License-Identifier: GPL-3.0-or-later
// The designs added to the memory-bound spaces after projects stored genomes
// (row_designs.h: sub-warp rows, UNROLL, a persistent grid, cache hints;
// lse=pack for a log-sum-exp; indexing=rows for elementwise operators with
// broadcast inputs): a genome without them keeps its meaning (legal, the same
// kernel), illegal combinations are refused with a reason, the genes survive
// the JSON round trip, and each design emits the code it names.
#include <gtest/gtest.h>

#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/task_library.h"
#include "tests/backends/template/operator_tasks.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

KernelProblem suiteProblem(const std::string& family, DType d, std::int64_t M, std::int64_t N) {
  return templates::problemFromSpec(testing_support::makeTask(family, d, {{"M", M}, {"N", N}}));
}

KernelProblem anyOperatorProblem(const std::string& stem) {
  for (const auto& file : testing_support::anyOperatorTaskFiles())
    if (file.find(stem) != std::string::npos) return templates::problemFromSpec(testing_support::loadTaskFile(file));
  throw std::runtime_error("no any-operator task " + stem);
}

// The kernel text below the header comment (which spells out the genome it was given).
std::string codeOf(const Genome& g, const KernelProblem& p) {
  const std::string source = TemplateProposer::candidateFor(g, p).source;
  const auto params = source.find("// params:");
  return source.substr(source.find('\n', params) + 1);
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

// A block per row re-reading its row from global memory with hint=evict_last, plus the family's `extra` genes.
Genome rereadGenome(const std::string& family, const std::string& vector, const templates::GeneMap& extra,
                    const templates::ParamMap& params) {
  templates::GeneMap genes = {{"granularity", "block"}, {"memory", "global"}, {"reduction", "shuffle"},
                              {"vector", vector},       {"schedule", "row_blocks"}, {"hint", "evict_last"}};
  genes.insert(extra.begin(), extra.end());
  return Genome{family, genes, params};
}

// Every problem of the memory-bound families the new genes touch.
std::vector<KernelProblem> touchedProblems() {
  std::vector<KernelProblem> out;
  for (const auto& family : {"softmax", "layernorm", "rmsnorm", "rowsum", "cross_entropy", "transpose"})
    for (const auto& sc : testing_support::shapeCases(family)) out.push_back(templates::problemFromSpec(sc.spec));
  for (const auto& file : testing_support::anyOperatorTaskFiles()) {
    const KernelProblem p = templates::problemFromSpec(testing_support::loadTaskFile(file));
    if (p.family == templates::kExprRowwise || p.family == templates::kExprElementwise) out.push_back(p);
  }
  return out;
}

TEST(NewDesigns, GenomesWithoutTheNewGenesKeepTheirMeaning) {
  int checked = 0;
  for (const auto& p : touchedProblems()) {
    for (const auto& old : templates::designSpaceFor(p.family).startingPoints(p)) {
      if (!templates::isLegal(old, p)) continue;
      // The starting points of the designs added since (the L2 re-read rows) carry their genes.
      if (old.genes.count("hint") + old.genes.count("schedule") + old.genes.count("indexing") + old.genes.count("order"))
        continue;
      const Genome explicitOne = templates::withFallbacks(old, p);
      bool hasNewGenes = false;
      for (const auto& def : templates::designSpaceFor(p.family).genes(p)) hasNewGenes |= !def.fallback.empty();
      if (hasNewGenes) {
        EXPECT_NE(explicitOne, old) << p.taskName << ": the fallbacks add the new genes";
      }
      EXPECT_TRUE(templates::isLegal(explicitOne, p)) << p.taskName << " " << explicitOne.toJson();
      if (p.family != templates::kExprElementwise && p.family != "transpose") {
        EXPECT_EQ(explicitOne.gene("hint"), "default");
        EXPECT_EQ(explicitOne.gene("schedule"), "row_blocks");
      }
      EXPECT_EQ(codeOf(old, p), codeOf(explicitOne, p)) << p.taskName << " " << old.toJson();
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
}

// Candidates are stored without the genes at their fallbacks: keys stay those
// of older projects, and a child differs from its parent in what changed only.
TEST(NewDesigns, StoredGenomesLeaveFallbacksOutSoPairsDifferInOneGene) {
  const auto p = suiteProblem("rowsum", DType::F32, 8192, 8192);
  for (const Genome& old : templates::designSpaceFor("rowsum").startingPoints(p)) {
    if (!templates::isLegal(old, p)) continue;
    const Genome full = templates::withFallbacks(old, p);
    EXPECT_EQ(templates::withoutFallbacks(full, p), old) << old.toJson();
    const Candidate parent = TemplateProposer::candidateFor(full, p);
    EXPECT_EQ(parent.genomeJson, old.toJson()) << "stored without the fallbacks";
    EXPECT_EQ(parent.architectureKey, old.architectureKey());
    Genome child = full;
    child.genes["hint"] = "evict_first";
    if (!templates::isLegal(child, p)) continue;
    const Genome stored = Genome::fromJson(TemplateProposer::candidateFor(child, p).genomeJson);
    Genome expected = old;
    expected.genes["hint"] = "evict_first";
    EXPECT_EQ(stored, expected) << "the child names the one gene that changed, nothing else";
  }
}

TEST(NewDesigns, UnrollFallbackIsWhatTheStreamingSweepsLoadedBefore) {
  const auto p = suiteProblem("rowsum", DType::F32, 1024, 4096);
  for (const auto& [vector, packs] : std::vector<std::pair<std::string, std::int64_t>>{{"1", 16}, {"2", 8}, {"4", 4}}) {
    const Genome old{"rowsum", {{"granularity", "warp"}, {"reduction", "shuffle"}, {"vector", vector}}, {{"ROWS_PER_BLOCK", 8}}};
    ASSERT_TRUE(templates::isLegal(old, p)) << joined(templates::checkGenome(old, p));
    EXPECT_EQ(templates::withFallbacks(old, p).param("UNROLL"), packs) << vector;
    EXPECT_NE(codeOf(old, p).find("constexpr int PACKS_IN_FLIGHT = " + std::to_string(packs) + ";"), std::string::npos);
  }
}

TEST(NewDesigns, OperatorsTakeStoredGenomesWithoutTheNewGenes) {
  const auto p = suiteProblem("rowsum", DType::F32, 8192, 8192);
  const Genome old{"rowsum", {{"granularity", "warp"}, {"reduction", "shuffle"}, {"vector", "4"}}, {{"ROWS_PER_BLOCK", 8}}};
  templates::Rng rng(7);
  for (int i = 0; i < 20; ++i) {
    const auto m = templates::mutateParams(old, p, rng, 1 + i % 3);
    EXPECT_TRUE(templates::isLegal(m.child, p)) << m.child.toJson();
    const auto gm = templates::mutateGene(templates::nearestLegal(old, p, rng), p, rng);
    EXPECT_TRUE(templates::isLegal(gm.child, p)) << gm.child.toJson();
    const Genome other = templates::randomGenome(p, rng);
    EXPECT_TRUE(templates::isLegal(templates::crossover(old, other, p, rng), p));
  }
}

TEST(NewDesigns, LogSumExpStartingPointsTakeWholePacks) {
  const auto lse = anyOperatorProblem("row_logsumexp");
  int legal = 0;
  for (const auto& g : templates::designSpaceFor(lse.family).startingPoints(lse)) {
    EXPECT_EQ(g.gene("lse"), "pack") << g.toJson();
    legal += templates::isLegal(g, lse) ? 1 : 0;
  }
  EXPECT_GE(legal, 3);
  // A rowwise task without a log-sum-exp keeps its starting points as they were.
  const auto logsoftmax = anyOperatorProblem("logsoftmax");
  for (const auto& g : templates::designSpaceFor(logsoftmax.family).startingPoints(logsoftmax))
    EXPECT_EQ(g.genes.count("lse"), 0u);
}

// math=fast: the operator's exponentials and logarithms are the intrinsics (__expf, __logf). The
// gene is offered only where the operator computes one; precise is what a genome without it meant.
TEST(NewDesigns, TheMathGeneChoosesTheIntrinsicsWhereTheOperatorComputesExponentials) {
  auto offersMath = [](const KernelProblem& p) {
    const auto genes = templates::designSpaceFor(p.family).genes(p);
    return std::any_of(genes.begin(), genes.end(), [](const templates::GeneDef& d) { return d.name == "math"; });
  };
  for (const char* stem : {"row_logsumexp", "logsoftmax", "swiglu"}) EXPECT_TRUE(offersMath(anyOperatorProblem(stem))) << stem;
  for (const char* stem : {"add_rmsnorm", "add_gelu", "scale_bias"}) EXPECT_FALSE(offersMath(anyOperatorProblem(stem))) << stem;

  const auto lse = anyOperatorProblem("row_logsumexp");
  Genome g{lse.family,
           {{"granularity", "warp"}, {"memory", "registers"}, {"reduction", "shuffle"}, {"vector", "4"},
            {"hint", "evict_first"}, {"lse", "pack"}},
           {{"ROWS_PER_BLOCK", 8}}};
  ASSERT_TRUE(templates::isLegal(g, lse)) << joined(templates::checkGenome(g, lse));
  const std::string before = codeOf(g, lse);
  g.genes["math"] = "precise";
  EXPECT_EQ(codeOf(g, lse), before);  // the fallback: stored genomes keep their kernels
  EXPECT_EQ(before.find("__expf"), std::string::npos);
  g.genes["math"] = "fast";
  ASSERT_TRUE(templates::isLegal(g, lse)) << joined(templates::checkGenome(g, lse));
  const std::string fast = codeOf(g, lse);
  // Every exponential and logarithm of the kernel: the sum, the rescale, the combine and the result.
  auto count = [](const std::string& s, const std::string& what) {
    int n = 0;
    for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_GE(count(fast, "__expf("), 3);
  EXPECT_EQ(count(fast, "__logf("), 1);
  EXPECT_EQ(count(fast, "__expf(") + count(fast, " expf(") + count(fast, "(expf("),
            count(before, " expf(") + count(before, "(expf("));
  EXPECT_EQ(count(fast, " expf(") + count(fast, "(expf(") + count(fast, " logf("), 0) << fast;
  EXPECT_NE(TemplateProposer::candidateFor(g, lse).source.find("fast exponentials"), std::string::npos);

  const auto swiglu = anyOperatorProblem("swiglu");
  for (const auto& start : templates::designSpaceFor(swiglu.family).startingPoints(swiglu)) {
    if (!templates::isLegal(start, swiglu)) continue;
    Genome f = start;
    f.genes["math"] = "fast";
    const std::string code = codeOf(f, swiglu);
    EXPECT_NE(code.find("vf_silu(float x) { return x / (1.0f + __expf(-x)); }"), std::string::npos);
    EXPECT_EQ(code.find(" expf("), std::string::npos);
    break;
  }
}

TEST(NewDesigns, GenomeJsonRoundTripKeepsTheNewGenes) {
  const auto p = anyOperatorProblem("row_logsumexp");
  const Genome g{p.family,
                 {{"granularity", "subwarp"}, {"memory", "registers"}, {"reduction", "shuffle"}, {"vector", "4"},
                  {"schedule", "persistent"}, {"hint", "no_allocate"}, {"lse", "pack"}},
                 {{"LANES_PER_ROW", 16}, {"ROWS_PER_BLOCK", 16}, {"BLOCKS_PER_SM", 4}}};
  ASSERT_TRUE(templates::isLegal(g, p)) << joined(templates::checkGenome(g, p));
  const Genome back = Genome::fromJson(g.toJson());
  EXPECT_EQ(back, g);
  EXPECT_EQ(back.architectureKey(), g.architectureKey());
  const auto e = anyOperatorProblem("scale_bias");
  const Genome rows{e.family, {{"grid", "one_shot"}, {"vector", "8"}, {"cache", "default"}, {"indexing", "rows"}},
                    {{"THREADS", 128}, {"ITEMS_PER_THREAD", 2}}};
  ASSERT_TRUE(templates::isLegal(rows, e)) << joined(templates::checkGenome(rows, e));
  EXPECT_EQ(Genome::fromJson(rows.toJson()), rows);
}

// Register budgets that the NVRTC compile sweeps found too loose (each genome below spilled on sm_90
// while legal): hinted streaming sweeps, expression rows cached one element per pack, and packs in
// flight raised past a thread's share of the row.
TEST(NewDesigns, RegisterBudgetsCountHintsElementPacksAndShortRows) {
  // hint=no_allocate: a 512-thread persistent softmax at 16 packs of 2 (60 bytes spilled).
  const auto softmax = suiteProblem("softmax", DType::F32, 1000, 1000);
  Genome hinted{"softmax",
                {{"granularity", "multiwarp"}, {"memory", "global"}, {"pass", "multipass"}, {"reduction", "shuffle"},
                 {"vector", "2"}, {"schedule", "persistent"}, {"hint", "no_allocate"}},
                {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 8}, {"UNROLL", 16}, {"BLOCKS_PER_SM", 1}}};
  const auto big = suiteProblem("softmax", DType::F32, 8192, 4096);
  EXPECT_TRUE(mentions(templates::checkGenome(hinted, big), "estimated registers per streaming thread"))
      << joined(templates::checkGenome(hinted, big));
  hinted.genes["hint"] = "default";  // the same genome unhinted fits the estimate as before
  EXPECT_TRUE(templates::isLegal(hinted, big)) << joined(templates::checkGenome(hinted, big));

  using testing_support::makeOperatorTask;
  const OperatorSpec layerNorm{"rowwise", "(x - mu) * rsqrt(var + 1e-5)",
                               {{"mu", "mean", "x"}, {"var", "mean", "(x - mu) * (x - mu)"}}};
  const auto ln = templates::problemFromSpec(makeOperatorTask(
      "ln", layerNorm, {{"x", DType::BF16, {"M", "N"}}}, {"y", DType::BF16, {"M", "N"}}, {{"M", 1024}, {"N", 4096}}));
  // 512 threads caching 32 bf16 values each as 1-element packs (12 bytes spilled); 2-element packs fit.
  Genome elements{ln.family,
                  {{"granularity", "multiwarp"}, {"memory", "registers"}, {"reduction", "smem"}, {"vector", "1"}},
                  {{"ROWS_PER_BLOCK", 4}, {"WARPS_PER_ROW", 4}}};
  EXPECT_TRUE(mentions(templates::checkGenome(elements, ln), "estimated registers per thread"))
      << joined(templates::checkGenome(elements, ln));
  elements.genes["vector"] = "2";
  EXPECT_TRUE(templates::isLegal(elements, ln)) << joined(templates::checkGenome(elements, ln));

  // Rows of 8 elements, 8 lanes a row, 4-element packs: one pack a thread; UNROLL 16 (160 bytes spilled).
  const OperatorSpec addRmsNorm{"rowwise", "(x + r) * rsqrt(ms + 1e-6) * w", {{"ms", "mean", "(x + r) * (x + r)"}}};
  const auto rows8 = templates::problemFromSpec(makeOperatorTask(
      "arms", addRmsNorm, {{"x", DType::F16, {"M", "N"}}, {"r", DType::F16, {"M", "N"}}, {"w", DType::F32, {"N"}}},
      {"y", DType::F16, {"M", "N"}}, {{"M", 3000}, {"N", 8}}));
  Genome unrolled{rows8.family,
                  {{"granularity", "subwarp"}, {"memory", "global"}, {"reduction", "smem"}, {"vector", "4"}},
                  {{"LANES_PER_ROW", 8}, {"ROWS_PER_BLOCK", 8}, {"UNROLL", 16}}};
  EXPECT_TRUE(mentions(templates::checkGenome(unrolled, rows8), "exceeds the packs a thread has in a row (1)"))
      << joined(templates::checkGenome(unrolled, rows8));
  unrolled.params.erase("UNROLL");  // its fallback stays legal, as stored genomes have it
  EXPECT_TRUE(templates::isLegal(unrolled, rows8)) << joined(templates::checkGenome(unrolled, rows8));
}

TEST(NewDesigns, IllegalCombinationsAreRefusedWithAReason) {
  const auto softmax = suiteProblem("softmax", DType::F32, 8192, 4096);
  // A hint on a row re-read from global memory (the second sweep would find it evicted).
  const Genome reread{"softmax",
                      {{"granularity", "block"}, {"memory", "global"}, {"pass", "multipass"}, {"reduction", "shuffle"},
                       {"vector", "4"}, {"schedule", "row_blocks"}, {"hint", "evict_first"}},
                      {{"WARPS_PER_ROW", 8}, {"UNROLL", 4}}};
  EXPECT_TRUE(mentions(templates::checkGenome(reread, softmax), "re-reads the row"));
  Genome cached = reread;
  cached.genes["memory"] = "registers";
  cached.params.erase("UNROLL");
  EXPECT_TRUE(templates::isLegal(cached, softmax)) << joined(templates::checkGenome(cached, softmax));

  // Hints move whole 8- or 16-byte words: 2- and 4-byte packs cannot take them.
  const auto rms = suiteProblem("rmsnorm", DType::BF16, 8192, 8192);
  const Genome narrow{"rmsnorm",
                      {{"granularity", "block"}, {"memory", "registers"}, {"reduction", "shuffle"}, {"vector", "1"},
                       {"schedule", "row_blocks"}, {"hint", "no_allocate"}},
                      {{"WARPS_PER_ROW", 32}}};
  EXPECT_TRUE(mentions(templates::checkGenome(narrow, rms), "8- or 16-byte words"));
  Genome fourBytes = cached;
  fourBytes.genes["vector"] = "1";
  fourBytes.genes["granularity"] = "warp";
  fourBytes.params = {{"ROWS_PER_BLOCK", 1}};
  const auto shortRows = suiteProblem("softmax", DType::F32, 1024, 1024);
  EXPECT_TRUE(mentions(templates::checkGenome(fourBytes, shortRows), "8- or 16-byte words"));

  // A persistent grid no smaller than the row_blocks grid is the same kernel.
  const auto small = suiteProblem("rowsum", DType::F32, 1024, 1024);
  const Genome persistent{"rowsum",
                          {{"granularity", "warp"}, {"reduction", "shuffle"}, {"vector", "4"}, {"schedule", "persistent"},
                           {"hint", "default"}},
                          {{"ROWS_PER_BLOCK", 8}, {"UNROLL", 4}, {"BLOCKS_PER_SM", 1}}};
  EXPECT_TRUE(mentions(templates::checkGenome(persistent, small), "needs more row groups"));
  const auto big = suiteProblem("rowsum", DType::F32, 8192, 8192);
  EXPECT_TRUE(templates::isLegal(persistent, big)) << joined(templates::checkGenome(persistent, big));
  // ... and one that cannot be resident at once is two waves.
  Genome crowded = persistent;
  crowded.params["ROWS_PER_BLOCK"] = 16;  // 512 threads
  crowded.params["BLOCKS_PER_SM"] = 8;
  EXPECT_TRUE(mentions(templates::checkGenome(crowded, big), "resident-thread limit"));

  // Too many 16-byte packs in flight for a 1024-thread block's registers.
  const Genome unrolled{"rowsum",
                        {{"granularity", "block"}, {"reduction", "shuffle"}, {"vector", "4"}, {"schedule", "row_blocks"},
                         {"hint", "default"}},
                        {{"WARPS_PER_ROW", 32}, {"UNROLL", 16}}};
  EXPECT_TRUE(mentions(templates::checkGenome(unrolled, big), "registers per streaming thread"));
  Genome fewer = unrolled;
  fewer.params["UNROLL"] = 4;  // what the sweeps always loaded (the fallback): legal at any block size
  EXPECT_TRUE(templates::isLegal(fewer, big)) << joined(templates::checkGenome(fewer, big));
  Genome eight = unrolled;
  eight.params["UNROLL"] = 8;
  EXPECT_TRUE(mentions(templates::checkGenome(eight, big), "registers per streaming thread"));
  eight.params["WARPS_PER_ROW"] = 16;  // 512 threads: 128 registers each
  EXPECT_TRUE(templates::isLegal(eight, big)) << joined(templates::checkGenome(eight, big));
  // The persistent loop costs registers: at 1024 threads even the fallback's packs do not fit.
  Genome loop = fewer;
  loop.genes["schedule"] = "persistent";
  loop.params["BLOCKS_PER_SM"] = 1;
  loop.params["WARPS_PER_ROW"] = 32;
  EXPECT_TRUE(mentions(templates::checkGenome(loop, big), "registers per streaming thread"));

  // UNROLL belongs to streaming rows only, BLOCKS_PER_SM to the persistent schedule only.
  Genome stray = cached;
  stray.params["UNROLL"] = 4;
  EXPECT_TRUE(mentions(templates::checkGenome(stray, softmax), "parameter UNROLL does not belong"));
  Genome stray2 = fewer;
  stray2.params["BLOCKS_PER_SM"] = 2;
  EXPECT_TRUE(mentions(templates::checkGenome(stray2, big), "parameter BLOCKS_PER_SM does not belong"));

  // lse=pack on 1-element packs of a streaming sweep is lse=element.
  const auto lse = anyOperatorProblem("row_logsumexp");
  const Genome onePack{lse.family,
                       {{"granularity", "warp"}, {"memory", "global"}, {"reduction", "shuffle"}, {"vector", "1"},
                        {"schedule", "row_blocks"}, {"hint", "default"}, {"lse", "pack"}},
                       {{"ROWS_PER_BLOCK", 8}, {"UNROLL", 4}}};
  EXPECT_TRUE(mentions(templates::checkGenome(onePack, lse), "lse=pack"));
  // ... and a task without a log-sum-exp has no lse gene.
  const auto logsoftmax = anyOperatorProblem("logsoftmax");
  Genome noLse = onePack;
  noLse.family = logsoftmax.family;
  EXPECT_TRUE(mentions(templates::checkGenome(noLse, logsoftmax), "unknown gene 'lse'"));

  // indexing=rows: a block's tile must fit in a row; a family without broadcasts has no such gene.
  const auto scaleBias = anyOperatorProblem("scale_bias");  // rows of 4096 halves: 512 packs of 8
  const Genome wide{scaleBias.family, {{"grid", "one_shot"}, {"vector", "8"}, {"cache", "default"}, {"indexing", "rows"}},
                    {{"THREADS", 256}, {"ITEMS_PER_THREAD", 4}}};
  EXPECT_TRUE(mentions(templates::checkGenome(wide, scaleBias), "must fit in a row"));
  const auto sameShape = anyOperatorProblem("add_gelu");  // x + bias: the bias [N] repeats, so it has the gene
  const auto geneNames = [](const KernelProblem& p) {
    std::string names;
    for (const auto& def : templates::designSpaceFor(p.family).genes(p)) names += def.name + " ";
    return names;
  };
  EXPECT_NE(geneNames(sameShape).find("indexing"), std::string::npos);
  const auto swiglu = anyOperatorProblem("swiglu");  // silu(gate) * up: no broadcast, no row tiles to gain
  EXPECT_EQ(geneNames(swiglu).find("indexing"), std::string::npos) << geneNames(swiglu);
}

// hint=evict_last (access_hints.h): a row re-read from global memory is loaded evict-last by every
// sweep but the last, which loads it evict-first; weights and biases evict-last. Only kernels that
// re-read their rows take it, and only the families whose emitter knows the last sweep.
TEST(NewDesigns, EvictLastKeepsAReReadRowCachedUntilItsLastSweep) {
  const std::string keep = "hinted_load_keep<Pack>(row_in + col)", last = "hinted_load<Pack>(row_in + col)";

  const auto rms = suiteProblem("rmsnorm", DType::BF16, 8192, 8192);
  const Genome reread = rereadGenome("rmsnorm", "8", {}, {{"WARPS_PER_ROW", 16}, {"UNROLL", 1}});
  ASSERT_TRUE(templates::isLegal(reread, rms)) << joined(templates::checkGenome(reread, rms));
  const std::string code = codeOf(reread, rms);
  EXPECT_EQ(occurrences(code, keep), 1) << code;  // the sum of squares
  EXPECT_EQ(occurrences(code, last), 1) << code;  // the write sweep
  EXPECT_LT(code.find(keep), code.find(last));
  EXPECT_EQ(occurrences(code, "load_pack(hinted_load_keep<Pack>(weight + col).v, w);"), 1) << code;
  EXPECT_EQ(occurrences(code, "store_pack_hinted(row_out + col, v);"), 1) << code;
  EXPECT_NE(code.find("createpolicy.fractional.L2::evict_last.b64"), std::string::npos);
  EXPECT_NE(code.find("ld.global.L1::evict_first.L2::cache_hint.v4.u32"), std::string::npos);

  // Layernorm in two passes reads the row three times; softmax in several passes too; a two-pass
  // cross-entropy twice. Only the last read lets the row go.
  const auto layernorm = suiteProblem("layernorm", DType::F32, 8192, 4096);
  const Genome twoPass =
      rereadGenome("layernorm", "4", {{"stats", "twopass"}}, {{"WARPS_PER_ROW", 16}, {"UNROLL", 1}});
  ASSERT_TRUE(templates::isLegal(twoPass, layernorm)) << joined(templates::checkGenome(twoPass, layernorm));
  const std::string ln = codeOf(twoPass, layernorm);
  EXPECT_EQ(occurrences(ln, keep), 2) << ln;
  EXPECT_EQ(occurrences(ln, last), 1) << ln;
  EXPECT_LT(ln.rfind(keep), ln.find(last));
  EXPECT_EQ(occurrences(ln, "hinted_load_keep<Pack>(bias + col)"), 1) << ln;
  const auto softmax = suiteProblem("softmax", DType::F32, 8192, 4096);
  const Genome multipass =
      rereadGenome("softmax", "4", {{"pass", "multipass"}}, {{"WARPS_PER_ROW", 8}, {"UNROLL", 4}});
  ASSERT_TRUE(templates::isLegal(multipass, softmax)) << joined(templates::checkGenome(multipass, softmax));
  EXPECT_EQ(occurrences(codeOf(multipass, softmax), keep), 2);
  EXPECT_EQ(occurrences(codeOf(multipass, softmax), last), 1);
  const auto ce =
      templates::problemFromSpec(testing_support::makeTask("cross_entropy", DType::F32, {{"M", 8192}, {"V", 32000}}));
  const Genome ceTwoPass =
      rereadGenome("cross_entropy", "4", {{"pass", "twopass"}}, {{"WARPS_PER_ROW", 8}, {"UNROLL", 4}});
  ASSERT_TRUE(templates::isLegal(ceTwoPass, ce)) << joined(templates::checkGenome(ceTwoPass, ce));
  EXPECT_EQ(occurrences(codeOf(ceTwoPass, ce), keep), 1);
  EXPECT_EQ(occurrences(codeOf(ceTwoPass, ce), last), 1);

  // A row read once (cached in registers) has nothing to keep; the read-once hints stay refused on re-reads.
  Genome cached = reread;
  cached.genes["memory"] = "registers";
  cached.params = {{"WARPS_PER_ROW", 8}};
  EXPECT_TRUE(mentions(templates::checkGenome(cached, rms), "reads each row from global memory once"));
  cached.genes["hint"] = "evict_first";
  EXPECT_TRUE(templates::isLegal(cached, rms)) << joined(templates::checkGenome(cached, rms));
  Genome first = reread;
  first.genes["hint"] = "evict_first";
  EXPECT_TRUE(mentions(templates::checkGenome(first, rms), "re-reads the row"));
  const auto rowsum = suiteProblem("rowsum", DType::F32, 8192, 8192);  // one streaming sweep
  const Genome sum{"rowsum",
                   {{"granularity", "block"}, {"reduction", "shuffle"}, {"vector", "4"}, {"schedule", "row_blocks"},
                    {"hint", "evict_last"}},
                   {{"WARPS_PER_ROW", 8}, {"UNROLL", 4}}};
  EXPECT_TRUE(mentions(templates::checkGenome(sum, rowsum), "reads each row from global memory once"));

  // The expression rows do not offer it (their sweeps do not say which is last).
  const auto lse = anyOperatorProblem("row_logsumexp");
  for (const auto& def : templates::designSpaceFor(lse.family).genes(lse))
    if (def.name == "hint") {
      EXPECT_EQ(std::count(def.values.begin(), def.values.end(), "evict_last"), 0);
    }
  for (const auto& def : templates::designSpaceFor("rmsnorm").genes(rms))
    if (def.name == "hint") {
      EXPECT_EQ(std::count(def.values.begin(), def.values.end(), "evict_last"), 1);
    }
}

TEST(NewDesigns, EachDesignEmitsWhatItNames) {
  const auto big = suiteProblem("rowsum", DType::F32, 8192, 8192);
  const Genome base{"rowsum",
                    {{"granularity", "warp"}, {"reduction", "shuffle"}, {"vector", "4"}, {"schedule", "row_blocks"},
                     {"hint", "default"}},
                    {{"ROWS_PER_BLOCK", 8}, {"UNROLL", 8}}};
  const Candidate plain = TemplateProposer::candidateFor(base, big);
  EXPECT_NE(plain.source.find("constexpr int PACKS_IN_FLIGHT = 8;"), std::string::npos);
  EXPECT_EQ(plain.launch.grid[0], "ceil_div(M, 8)");

  Genome persistent = base;
  persistent.genes["schedule"] = "persistent";
  persistent.params["BLOCKS_PER_SM"] = 2;
  const Candidate looped = TemplateProposer::candidateFor(persistent, big);
  EXPECT_NE(looped.source.find("for (long long group = blockIdx.x; group < groups; group += gridDim.x)"), std::string::npos);
  EXPECT_EQ(looped.launch.grid[0], "min(ceil_div(M, 8), 2 * sm_count)");

  Genome evict = base;
  evict.genes["hint"] = "evict_first";
  EXPECT_NE(TemplateProposer::candidateFor(evict, big).source.find("hinted_load<Pack>(row_in + col)"), std::string::npos);
  EXPECT_NE(TemplateProposer::candidateFor(evict, big).source.find("__ldcs("), std::string::npos);
  Genome noAllocate = base;
  noAllocate.genes["hint"] = "no_allocate";
  EXPECT_NE(TemplateProposer::candidateFor(noAllocate, big).source.find("ld.global.nc.L1::no_allocate.v4.u32"),
            std::string::npos);

  const auto softmax = suiteProblem("softmax", DType::F32, 8192, 4096);
  const Genome stored{"softmax",
                      {{"granularity", "block"}, {"memory", "registers"}, {"pass", "online"}, {"reduction", "shuffle"},
                       {"vector", "4"}, {"schedule", "row_blocks"}, {"hint", "evict_first"}},
                      {{"WARPS_PER_ROW", 8}}};
  EXPECT_NE(TemplateProposer::candidateFor(stored, softmax).source.find("store_pack_hinted(row_out + col, v);"),
            std::string::npos);

  const auto lse = anyOperatorProblem("row_logsumexp");
  const Genome sub{lse.family,
                   {{"granularity", "subwarp"}, {"memory", "registers"}, {"reduction", "shuffle"}, {"vector", "4"},
                    {"schedule", "row_blocks"}, {"hint", "default"}, {"lse", "pack"}},
                   {{"LANES_PER_ROW", 16}, {"ROWS_PER_BLOCK", 16}}};
  const Candidate subCandidate = TemplateProposer::candidateFor(sub, lse);
  EXPECT_NE(subCandidate.source.find("constexpr int LANES_PER_ROW = 16;"), std::string::npos);
  EXPECT_NE(subCandidate.source.find("for (int offset = THREADS_PER_ROW / 2;"), std::string::npos);
  EXPECT_NE(subCandidate.source.find("cr_tmax_"), std::string::npos);
  EXPECT_EQ(subCandidate.launch.block[0], "256");
  Genome streamedPack = sub;
  streamedPack.genes["memory"] = "global";
  streamedPack.params["UNROLL"] = 2;
  EXPECT_NE(TemplateProposer::candidateFor(streamedPack, lse).source.find("float cr_s = cr_acc_"), std::string::npos);

  const auto scaleBias = anyOperatorProblem("scale_bias");
  const Genome rows{scaleBias.family, {{"grid", "one_shot"}, {"vector", "8"}, {"cache", "default"}, {"indexing", "rows"}},
                    {{"THREADS", 128}, {"ITEMS_PER_THREAD", 2}}};
  const Candidate tiled = TemplateProposer::candidateFor(rows, scaleBias);
  EXPECT_NE(tiled.source.find("cr_row_tiles"), std::string::npos);
  EXPECT_NE(tiled.source.find("const float cr_value_scale"), std::string::npos);  // [M, 1]: one load per tile
  EXPECT_EQ(tiled.launch.grid[0], "max(M * ceil_div(N, 2048), 1)");

  const auto transpose = suiteProblem("transpose", DType::F32, 8192, 8192);
  const Genome staged{"transpose",
                      {{"staging", "smem_padded"}, {"vector", "4"}, {"hint", "evict_first"}, {"order", "diagonal"}},
                      {{"TILE", 64}, {"ROWS_PER_THREAD", 8}}};
  const std::string t = TemplateProposer::candidateFor(staged, transpose).source;
  EXPECT_NE(t.find("hinted_load<Pack>("), std::string::npos);
  EXPECT_NE(t.find("hinted_store(reinterpret_cast<Pack*>(y + out_row * M + row0) + threadIdx.x, out);"), std::string::npos);
  EXPECT_NE(t.find("(blockIdx.x + blockIdx.y) % gridDim.x"), std::string::npos);
  Genome direct = staged;
  direct.genes["staging"] = "direct";
  EXPECT_TRUE(mentions(templates::checkGenome(direct, transpose), "not with staging=direct"));

  // Column-major order: blockIdx.x walks the tile rows of x, blockIdx.y its tile columns, and the
  // grid is laid out to match: every tile of a 8192 x 4096 x is taken once.
  const auto wide = suiteProblem("transpose", DType::F32, 8192, 4096);
  Genome columns = staged;
  columns.genes["order"] = "column_major";
  ASSERT_TRUE(templates::checkGenome(columns, wide).empty());
  const Candidate c = TemplateProposer::candidateFor(columns, wide);
  EXPECT_NE(c.source.find("const long long row0 = (long long)blockIdx.x * TILE;"), std::string::npos);
  EXPECT_NE(c.source.find("const long long col0 = (long long)blockIdx.y * TILE;"), std::string::npos);
  EXPECT_EQ(c.source.find("gridDim.x"), std::string::npos);
  EXPECT_EQ(c.launch.grid[0], "ceil_div(M, 64)");
  EXPECT_EQ(c.launch.grid[1], "ceil_div(N, 64)");
  const Candidate rowMajor = TemplateProposer::candidateFor(Genome{"transpose", {{"staging", "smem_padded"}, {"vector", "4"}},
                                                                   {{"TILE", 64}, {"ROWS_PER_THREAD", 8}}},
                                                            wide);
  EXPECT_EQ(rowMajor.launch.grid[0], "ceil_div(N, 64)");
  EXPECT_EQ(rowMajor.launch.grid[1], "ceil_div(M, 64)");
}


TEST(NewDesigns, ALogSumExpInsideAWarpIsReducedAsTheMaximumThenTheRescaledSums) {
  // Shuffles inside one warp: two plain reductions, with no (max, sum) pair combined per step.
  const auto lse = anyOperatorProblem("row_logsumexp");
  const Genome warp{lse.family,
                    {{"granularity", "warp"}, {"memory", "registers"}, {"reduction", "shuffle"}, {"vector", "4"},
                     {"lse", "pack"}},
                    {{"ROWS_PER_BLOCK", 4}}};
  const std::string inWarp = codeOf(warp, lse);
  EXPECT_NE(inWarp.find("const float cr_m = row_reduce(cr_acc_r.max, MaxOp());"), std::string::npos) << inWarp;
  EXPECT_NE(inWarp.find("cr_acc_r.sum * expf(cr_acc_r.max - cr_m)"), std::string::npos) << inWarp;
  EXPECT_NE(inWarp.find("cr_acc_r = MaxSum{cr_m, row_reduce(cr_s, SumOp())};"), std::string::npos) << inWarp;
  EXPECT_EQ(inWarp.find("row_reduce(cr_acc_r, LseOp())"), std::string::npos) << inWarp;
  // Across warps the pairs meet in shared memory, combined as before.
  Genome block = warp;
  block.genes["granularity"] = "multiwarp";
  block.params = {{"ROWS_PER_BLOCK", 2}, {"WARPS_PER_ROW", 4}};
  const std::string acrossWarps = codeOf(block, lse);
  EXPECT_NE(acrossWarps.find("row_reduce(cr_acc_r, LseOp(), cr_scratch_lse)"), std::string::npos) << acrossWarps;
  EXPECT_EQ(acrossWarps.find("row_reduce(cr_acc_r.max, MaxOp())"), std::string::npos) << acrossWarps;
}

}  // namespace
}  // namespace crucible
