// SPDX-License-Identifier: GPL-3.0-or-later
// Operators stated as expressions (TaskSpec::operation) through the template
// proposer: the user-written tasks of tests/tasks/any-operator get seeds and
// children, the expressions become the CUDA they say, broadcasts and rows are
// indexed as documented, and what the families cannot take is refused with the
// reason in the Proposal, never a crash.
#include <gtest/gtest.h>

#include <set>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/expr_cuda.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "tests/backends/template/operator_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using testing_support::OperatorCase;

MetaPrompt strategy(const std::string& name, const std::string& text = "") {
  MetaPrompt m;
  m.id = 3;
  m.name = name;
  m.text = text;
  return m;
}

void expectLegal(const Candidate& c, const TaskSpec& spec) {
  const Genome g = Genome::fromJson(c.genomeJson);
  const auto errors = templates::checkGenome(g, templates::problemFromSpec(spec));
  EXPECT_TRUE(errors.empty()) << c.genomeJson << ": " << (errors.empty() ? "" : errors[0]);
  EXPECT_EQ(c.launch.entry, spec.entry);
  EXPECT_TRUE(sourceHasSignature(c.source, spec, KernelRole::Candidate, c.launch.entry, c.launch.tensorMaps)) << c.source;
  // The launch rule evaluates at the task's axes, to a grid CUDA accepts; a persistent grid
  // names sm_count: on GPUs from one cluster of blocks (2 SMs; a one-SM device cannot run a
  // pair of blocks at all) to 1024 SMs.
  const std::vector<std::int64_t> smCounts = usesSmCount(c.launch) ? std::vector<std::int64_t>{2, 132, 1024}
                                                                   : std::vector<std::int64_t>{0};
  for (const std::int64_t smCount : smCounts) {
    const auto names = launchNames(spec.axes, smCount);
    for (int i = 0; i < 3; ++i) {
      EXPECT_GT(evalExpression(c.launch.grid[i], names), 0) << c.launch.grid[i] << " at sm_count " << smCount;
      EXPECT_GT(evalExpression(c.launch.block[i], names), 0) << c.launch.block[i];
    }
  }
}

TEST(AnyOperator, TheUserTasksAreSixAndEachGetsSeedsAndChildren) {
  const auto files = testing_support::anyOperatorTaskFiles();
  ASSERT_GE(files.size(), 6u);
  TemplateProposer proposer;
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const TaskSpec spec = testing_support::loadTaskFile(file);
    // Every task of the folder states its operator, or is a batched GEMM.
    ASSERT_TRUE(spec.operation.has_value() || templates::problemFromSpec(spec).batched);
    const auto seeds = proposer.seedsFor(spec, 11);
    ASSERT_GE(seeds.size(), 3u);
    std::set<std::string> architectures;
    for (const auto& s : seeds) {
      ASSERT_TRUE(s.ok) << s.error;
      expectLegal(s.candidate, spec);
      architectures.insert(s.candidate.architectureKey);
    }
    EXPECT_GE(architectures.size(), 3u) << "seeds should differ in architecture";
    // Every strategy makes a legal child from the seeds.
    for (const char* name : {"mutate:gene", "mutate:param", "crossover", "explore:new-architecture"}) {
      const MetaPrompt st = strategy(name);
      ProposalContext ctx;
      ctx.strategy = &st;
      ctx.seed = 5;
      ctx.parents = {&seeds[0].candidate, &seeds[1].candidate};
      const Proposal child = proposer.proposeFor(spec, ctx);
      ASSERT_TRUE(child.ok) << name << ": " << child.error;
      expectLegal(child.candidate, spec);
    }
    // Tuning sees the family's parameters.
    EXPECT_FALSE(proposer.tunables(seeds[0].candidate).empty());
  }
}

TEST(AnyOperator, UserTasksKeepTheirOwnFamilyForKnowledgeAndTheSpaceFamilyInTheGenome) {
  const auto files = testing_support::anyOperatorTaskFiles();
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    const TaskSpec spec = testing_support::loadTaskFile(file);
    const auto p = templates::problemFromSpec(spec);
    EXPECT_EQ(p.taskFamily, spec.family);
    if (!spec.operation) continue;
    EXPECT_EQ(p.family, spec.operation->kind == "elementwise" ? templates::kExprElementwise : templates::kExprRowwise);
  }
}

TEST(AnyOperator, EveryGeneratedCaseSeedsAndAllOfItsArchitecturesEmit) {
  auto cases = testing_support::elementwiseOperatorCases();
  const auto rows = testing_support::rowwiseOperatorCases();
  cases.insert(cases.end(), rows.begin(), rows.end());
  const auto gemms = testing_support::batchedGemmCases();
  cases.insert(cases.end(), gemms.begin(), gemms.end());
  TemplateProposer proposer;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.label);
    const auto seeds = proposer.seedsFor(c.spec, 1);
    ASSERT_FALSE(seeds.empty());
    for (const auto& s : seeds) ASSERT_TRUE(s.ok) << s.error;
    const auto p = templates::problemFromSpec(c.spec);
    templates::Rng rng(4);
    for (const auto& genes : templates::legalArchitectures(p)) {
      const auto points = templates::legalParameterPoints(p, genes);
      ASSERT_FALSE(points.empty());
      const Genome g{p.family, genes, points[rng() % points.size()]};
      expectLegal(TemplateProposer::candidateFor(g, p), c.spec);
    }
  }
}

TEST(AnyOperator, ExpressionsBecomeFp32Cuda) {
  using templates::MathMode;
  const auto e = parseValueExpression("silu(a) * b - 2 + max(a, 1e-5) / -b", {"a", "b"});
  const std::string code = templates::cudaValue(e, [](const std::string& n) { return "v_" + n; }, MathMode::Precise);
  EXPECT_EQ(code, "(((vf_silu(v_a) * v_b) - 2.0f) + (fmaxf(v_a, 1e-05f) / (-v_b)))");
  EXPECT_EQ(templates::cudaFloatLiteral(0.5), "0.5f");
  EXPECT_EQ(templates::cudaFloatLiteral(3), "3.0f");
  const auto expLogGelu = parseValueExpression("exp(x) + log(x) + gelu(x)", {"x"});
  const auto same = [](const std::string& n) { return n; };
  EXPECT_EQ(templates::cudaValue(expLogGelu, same, MathMode::Precise), "((expf(x) + logf(x)) + vf_gelu(x))");
  EXPECT_EQ(templates::cudaValue(expLogGelu, same, MathMode::Fast), "((__expf(x) + __logf(x)) + vf_gelu(x))");
  // Every function the format lists has a CUDA spelling that the helpers define or CUDA provides.
  for (const MathMode math : {MathMode::Precise, MathMode::Fast}) {
    const std::string helpers = templates::valueFunctionHelpers(math);
    for (const auto& f : valueFunctions()) {
      std::string call = std::string(f.name) + "(x" + (f.arity == 2 ? ", x)" : ")");
      const std::string code = templates::cudaValue(parseValueExpression(call, {"x"}), same, math);
      if (code.rfind("vf_", 0) == 0) {
        EXPECT_NE(helpers.find("float " + code.substr(0, code.find('('))), std::string::npos) << code;
      }
    }
  }
  // The fast helpers' exponentials are the intrinsic, the precise ones libdevice's.
  EXPECT_NE(templates::valueFunctionHelpers(MathMode::Fast).find("1.0f + __expf(-x)"), std::string::npos);
  EXPECT_EQ(templates::valueFunctionHelpers(MathMode::Fast).find(" expf("), std::string::npos);
  EXPECT_EQ(templates::valueFunctionHelpers(MathMode::Precise).find("__expf"), std::string::npos);
}

TEST(AnyOperator, TheMathGeneMattersOnlyWhereAnExponentialOrLogarithmIsComputed) {
  for (const char* text : {"exp(x)", "x - log(x)", "sigmoid(x) * x", "silu(x)", "softplus(x) + 1"})
    EXPECT_TRUE(templates::computesExpOrLog(parseValueExpression(text, {"x"}))) << text;
  for (const char* text : {"x * 2", "gelu(x)", "tanh(x) + erf(x)", "max(x, 0)", "relu(x) + sqrt(abs(x))"})
    EXPECT_FALSE(templates::computesExpOrLog(parseValueExpression(text, {"x"}))) << text;
  EXPECT_EQ(templates::mathMode({}), templates::MathMode::Precise);  // genomes from before the gene
  EXPECT_EQ(templates::mathMode({{"math", "fast"}}), templates::MathMode::Fast);
}

const std::string& sourceOfSeed(const TaskSpec& spec, std::vector<Proposal>& keep) {
  TemplateProposer proposer;
  keep = proposer.seedsFor(spec, 2);
  EXPECT_FALSE(keep.empty());
  EXPECT_TRUE(keep[0].ok) << keep[0].error;
  return keep[0].candidate.source;
}

TEST(AnyOperator, BroadcastInputsAreIndexedAsDocumented) {
  using testing_support::makeOperatorTask;
  const DType F = DType::F32;
  // bias [N] of an [M, N] output: packs read at the index modulo N.
  std::vector<Proposal> keep;
  std::string src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "x + bias", {}}, {{"x", F, {"M", "N"}}, {"bias", F, {"N"}}},
                                                  {"y", F, {"M", "N"}}, {{"M", 64}, {"N", 128}}),
                                 keep);
  EXPECT_NE(src.find("cr_size_bias = (N)"), std::string::npos) << src;
  EXPECT_NE(src.find("bias + (long long)((unsigned)(cr_pack * VEC) % (unsigned)cr_size_bias)"), std::string::npos)
      << "a 32-bit remainder below 2^31 output elements\n" << src;
  // Past 2^31 output elements the remainder is taken in 64 bits.
  src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "x + bias", {}}, {{"x", F, {"M", "N"}}, {"bias", F, {"N"}}},
                                      {"y", F, {"M", "N"}}, {{"M", 65536}, {"N", 32768}}),
                     keep);
  EXPECT_NE(src.find("bias + cr_pack * VEC % cr_size_bias"), std::string::npos) << src;
  // A per-row [M, 1] scale is read element by element from the coordinates: row = e / N.
  src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "x * s", {}}, {{"x", F, {"M", "N"}}, {"s", F, {"M", "1"}}},
                                      {"y", F, {"M", "N"}}, {{"M", 64}, {"N", 128}}),
                     keep);
  EXPECT_NE(src.find("auto cr_index_s = [&](long long cr_element)"), std::string::npos) << src;
  EXPECT_NE(src.find("cr_e /= (unsigned)N;\n    cr_at += (cr_e % (unsigned)M) * (unsigned)1LL;"), std::string::npos) << src;
  // Past 2^31 output elements the index is computed in 64 bits.
  src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "x * s", {}}, {{"x", F, {"M", "N"}}, {"s", F, {"M", "1"}}},
                                      {"y", F, {"M", "N"}}, {{"M", 65536}, {"N", 32768}}),
                     keep);
  EXPECT_NE(src.find("long long cr_e = (long long)cr_element;\n    long long cr_at = 0;\n    cr_e /= N;"), std::string::npos)
      << src;
  src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "x * s", {}}, {{"x", F, {"M", "N"}}, {"s", F, {"M", "1"}}},
                                      {"y", F, {"M", "N"}}, {{"M", 64}, {"N", 128}}),
                     keep);
  // ... once per pack, whose elements share it.
  EXPECT_NE(src.find("const float cr_value = to_f(s[cr_index_s(cr_pack * VEC)]);"), std::string::npos) << src;
  // A row of an odd length leaves only vector 1 with such an input.
  const TaskSpec odd = makeOperatorTask("t", {"elementwise", "x * s", {}}, {{"x", F, {"M", "N"}}, {"s", F, {"M", "1"}}},
                                        {"y", F, {"M", "N"}}, {{"M", 64}, {"N", 127}});
  for (const auto& genes : templates::legalArchitectures(templates::problemFromSpec(odd))) EXPECT_EQ(genes.at("vector"), "1");
  // [B, 1, N] against [B, M, N]: a pack of the input's row, loaded whole.
  src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "x + r", {}}, {{"x", F, {"B", "M", "N"}}, {"r", F, {"B", "1", "N"}}},
                                      {"y", F, {"B", "M", "N"}}, {{"B", 2}, {"M", 3}, {"N", 128}}),
                     keep);
  EXPECT_NE(src.find("load_vec(r + cr_index_r(cr_pack * VEC), cr_r[cr_i]);"), std::string::npos) << src;
  // An odd length leaves a tail computed by block 0.
  src = sourceOfSeed(makeOperatorTask("t", {"elementwise", "relu(x)", {}}, {{"x", F, {"N"}}}, {"y", F, {"N"}}, {{"N", 1001}}),
                     keep);
  EXPECT_NE(src.find("if (blockIdx.x == 0 && threadIdx.x < cr_n - cr_packs * VEC)"), std::string::npos) << src;
  EXPECT_NE(src.find("y[cr_e] = from_f<float>(vf_relu(cr_tail_x));"), std::string::npos) << src;
}

TEST(AnyOperator, RowReductionsRunInStagesAndOddRowsTakeEveryVectorWidth) {
  using testing_support::makeOperatorTask;
  const TaskSpec spec = makeOperatorTask(
      "t", {"rowwise", "x - m - log(s)", {{"m", "max", "x"}, {"s", "sum", "exp(x - m)"}}}, {{"x", DType::F32, {"M", "N"}}},
      {"y", DType::F32, {"M", "N"}}, {{"M", 64}, {"N", 5003}});
  const auto p = templates::problemFromSpec(spec);
  std::set<std::string> vectors;
  for (const auto& genes : templates::legalArchitectures(p)) vectors.insert(genes.at("vector"));
  EXPECT_EQ(vectors, (std::set<std::string>{"1", "2", "4"}));
  std::vector<Proposal> keep;
  const std::string src = sourceOfSeed(spec, keep);
  // The seeds move 16-byte packs: the row's middle whole, its head and tail element by element.
  EXPECT_EQ(Genome::fromJson(keep[0].candidate.genomeJson).gene("vector"), "4");
  EXPECT_NE(src.find("// Stage 0 of the reductions."), std::string::npos);
  EXPECT_NE(src.find("// Stage 1 of the reductions."), std::string::npos);
  EXPECT_NE(src.find("for (int cr_k = 0; cr_k < VEC; ++cr_k) cr_acc_s += expf((cr_v_x[cr_i][cr_k] - cr_m));"),
            std::string::npos)
      << src;
  EXPECT_NE(src.find("if (cr_in_row(cr_col + cr_k, cr_cols)) cr_acc_s += expf((cr_v_x[cr_i][cr_k] - cr_m));"),
            std::string::npos)
      << src;
  EXPECT_NE(src.find("cr_out[cr_k] = ((cr_v_x[cr_i][cr_k] - cr_m) - logf(cr_s));"), std::string::npos) << src;
  EXPECT_NE(src.find("store_whole(cr_row_out + cr_col, cr_out);"), std::string::npos) << src;
  EXPECT_NE(src.find("store_part(cr_row_out, cr_col, cr_cols, cr_out);"), std::string::npos) << src;
  EXPECT_EQ(src.find("% VEC != 0) __trap();"), std::string::npos) << src;
}

TEST(AnyOperator, BatchedGemmsPutTheBatchInTheGridAndStackTheirEntriesForTma) {
  TemplateProposer proposer;
  for (const auto& c : testing_support::batchedGemmCases()) {
    SCOPED_TRACE(c.label);
    const auto p = templates::problemFromSpec(c.spec);
    ASSERT_TRUE(p.batched);
    EXPECT_EQ(p.batchedB, c.spec.inputs[1].shape.size() == 3);
    EXPECT_EQ(p.input("A").shape, (std::vector<std::string>{"M", "K"}));  // one batch entry's matrix
    // TMA's maps see the entries stacked row-wise; a batched B's k-tiles must stay in their entry.
    const auto architectures = templates::legalArchitectures(p);
    const bool tmaLegal = std::any_of(architectures.begin(), architectures.end(),
                                      [](const auto& genes) { return genes.at("pipeline") == "tma"; });
    if (p.batchedB && p.extent(p.input("A"), 1) % 64 != 0) {
      EXPECT_FALSE(tmaLegal);
    }
    if (c.label == "bmatmul_bf16_16x512x512x128") {
      ASSERT_TRUE(tmaLegal);
      const std::vector<Proposal> seeds = proposer.seedsFor(c.spec, 1);
      ASSERT_TRUE(seeds.at(0).ok) << seeds.at(0).error;
      const std::string& src = seeds[0].candidate.source;
      ASSERT_NE(src.find("cp.async.bulk.tensor"), std::string::npos) << "the best seed is TMA-fed";
      EXPECT_NE(src.find("tma_load_2d(a_tile, tmap_A, k0, static_cast<int>(block_row + static_cast<int>(blockIdx.z) * M), full);"),
                std::string::npos) << src;
      EXPECT_NE(src.find("k0 + static_cast<int>(blockIdx.z) * K, full);"), std::string::npos) << src;
      EXPECT_EQ(seeds[0].candidate.launch.tensorMaps.size(), 2u);
    }
    for (const auto& s : proposer.seedsFor(c.spec, 2)) {
      ASSERT_TRUE(s.ok) << s.error;
      if (s.candidate.architectureKey.find("schedule=") != std::string::npos) {
        // Persistent tiles: one block per SM walks every entry's tiles (the batch is in the tile loop).
        EXPECT_EQ(s.candidate.launch.grid[2], "1") << s.candidate.architectureKey;
        EXPECT_NE(s.candidate.source.find("tile_position("), std::string::npos);
        continue;
      }
      EXPECT_EQ(s.candidate.launch.grid[2], "Bt");
      EXPECT_NE(s.candidate.source.find("A += (long long)blockIdx.z * (M * K);"), std::string::npos);
      EXPECT_EQ(s.candidate.source.find("B += (long long)blockIdx.z") != std::string::npos, p.batchedB);
      EXPECT_NE(s.candidate.source.find("C += (long long)blockIdx.z * (M * N);"), std::string::npos);
    }
  }
  // A batch dimension that differs between A and C is a clear refusal.
  TaskSpec bad = testing_support::batchedGemmCases()[0].spec;
  bad.axes["Bu"] = 8;
  bad.outputs[0].shape[0] = "Bu";
  const auto seeds = proposer.seedsFor(bad, 1);
  ASSERT_EQ(seeds.size(), 1u);
  EXPECT_FALSE(seeds[0].ok);
  EXPECT_NE(seeds[0].error.find("batch dimension 'Bu' differs from A's 'Bt'"), std::string::npos) << seeds[0].error;
}

TEST(AnyOperator, WhatTheFamiliesCannotTakeIsRefusedWithTheReason) {
  using testing_support::makeOperatorTask;
  TemplateProposer proposer;
  auto refusal = [&](const TaskSpec& spec) {
    const auto seeds = proposer.seedsFor(spec, 1);
    EXPECT_EQ(seeds.size(), 1u);
    EXPECT_FALSE(seeds.at(0).ok);
    return seeds.at(0).error;
  };
  // A dtype the families do not handle.
  std::string error = refusal(makeOperatorTask("t", {"elementwise", "exp(x)", {}}, {{"x", DType::F64, {"N"}}},
                                               {"y", DType::F64, {"N"}}, {{"N", 100}}));
  EXPECT_NE(error.find("dtype f64 is not handled by the expr_elementwise template family"), std::string::npos) << error;
  // A shape entry that is an expression rather than an axis.
  error = refusal(makeOperatorTask("t", {"elementwise", "x", {}}, {{"x", DType::F32, {"2*N"}}}, {"y", DType::F32, {"2*N"}},
                                   {{"N", 100}}));
  EXPECT_NE(error.find("reads shapes of axis names and integers, not '2*N'"), std::string::npos) << error;
  // A tensor named like a local of the generated kernels.
  error = refusal(makeOperatorTask("t", {"elementwise", "cr_n", {}}, {{"cr_n", DType::F32, {"N"}}}, {"y", DType::F32, {"N"}},
                                   {{"N", 100}}));
  EXPECT_NE(error.find("'cr_n' is a name the expr_elementwise template kernels use themselves"), std::string::npos) << error;
  // A row longer than the kernels' 32-bit column indices: no legal genome.
  error = refusal(makeOperatorTask("t", {"rowwise", "x - m", {{"m", "max", "x"}}}, {{"x", DType::F32, {"M", "N"}}},
                                   {"y", DType::F32, {"M", "N"}}, {{"M", 1}, {"N", (std::int64_t{1} << 31) + 1}}));
  EXPECT_NE(error.find("no legal template kernel exists"), std::string::npos) << error;
  // The family names of the stated operators cannot be claimed without the field.
  TaskSpec claimed = makeOperatorTask("t", {"elementwise", "x", {}}, {{"x", DType::F32, {"N"}}}, {"y", DType::F32, {"N"}},
                                      {{"N", 8}});
  claimed.operation.reset();
  claimed.family = templates::kExprElementwise;
  error = refusal(claimed);
  EXPECT_NE(error.find("this task states none"), std::string::npos) << error;
}

// A user's bmm whose tensors have their own names (the operator_task fuzz target's finding:
// every kernel had the family's parameter names, not the task's, and the worker refused them).
TEST(AnyOperator, ABatchedGemmWithItsOwnTensorNamesGetsKernelsWithThem) {
  TaskSpec renamed;
  for (const auto& file : testing_support::anyOperatorTaskFiles())
    if (file.find("bmm_") != std::string::npos) renamed = testing_support::loadTaskFile(file);
  ASSERT_EQ(renamed.inputs.at(0).name, "A");
  renamed.inputs[0].name = "lhs";
  renamed.inputs[1].name = "rhs";
  renamed.outputs[0].name = "out";
  TemplateProposer proposer;
  const auto seeds = proposer.seedsFor(renamed, 4);
  ASSERT_FALSE(seeds.empty());
  bool tma = false;
  for (const auto& s : seeds) {
    ASSERT_TRUE(s.ok) << s.error;
    expectLegal(s.candidate, renamed);
    for (const auto& m : s.candidate.launch.tensorMaps) {
      EXPECT_TRUE(m.tensor == "lhs" || m.tensor == "rhs" || m.tensor == "out") << m.tensor;
      tma = true;
    }
  }
  EXPECT_TRUE(tma) << "the bmm's seeds include a TMA-fed kernel";
}

}  // namespace
}  // namespace crucible
