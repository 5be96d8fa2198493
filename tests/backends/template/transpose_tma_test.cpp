// SPDX-License-Identifier: GPL-3.0-or-later
// staging=tma in the transpose family (emit_transpose_tma.cpp): the copy engine moves the
// tiles, the threads transpose in shared memory. Genomes without it keep their parameters
// and kernels; the refusals name their reason; the launch rule asks for the two tensor maps
// (boxes the kernel_abi rules accept), a persistent grid and the shared memory it uses; every
// legal genome at fp32 8192x8192, 2048x1024 and ragged 1000x36 and at bf16 / f16 shapes
// compiles through NVRTC for sm_90a without local memory, with bulk tensor copies and only
// 16-byte shared-memory accesses; the starting point compiles for plain sm_90 too. No GPU
// here: results and speed are checked on the device (crucible-cli eval).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <nvrtc.h>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/cuda_include_dirs.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/spaces.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

TaskSpec transposeSpec(DType d, std::int64_t M, std::int64_t N) {
  return testing_support::makeTask("transpose", d, {{"M", M}, {"N", N}});
}

KernelProblem problem(DType d, std::int64_t M, std::int64_t N) { return templates::problemFromSpec(transposeSpec(d, M, N)); }

std::string vector16(DType d) { return d == DType::F32 ? "4" : "8"; }

Genome tmaGenome(DType d, std::int64_t tile, std::int64_t stages, std::int64_t blocksPerSm, std::int64_t threads) {
  return {"transpose",
          {{"staging", "tma"}, {"vector", vector16(d)}, {"hint", "default"}, {"order", "row_major"}},
          {{"TILE", tile}, {"STAGES", stages}, {"BLOCKS_PER_SM", blocksPerSm}, {"THREADS", threads}}};
}

templates::GeneMap tmaGenes(DType d) {
  return {{"staging", "tma"}, {"vector", vector16(d)}, {"hint", "default"}, {"order", "row_major"}};
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += e + "\n";
  return s;
}

bool mentions(const std::vector<std::string>& reasons, const std::string& what) {
  return joined(reasons).find(what) != std::string::npos;
}

templates::EmittedKernel emit(const Genome& g, const KernelProblem& p) { return templates::designSpaceFor("transpose").emit(g, p); }

TEST(TransposeTmaSpace, IsAStagingValueWithItsOwnParameters) {
  const KernelProblem p = problem(DType::F32, 8192, 8192);
  const auto& space = templates::designSpaceFor("transpose");
  const auto genes = space.genes(p);
  EXPECT_EQ(genes[0].name, "staging");
  EXPECT_EQ(genes[0].values, (std::vector<std::string>{"direct", "smem_plain", "smem_padded", "smem_swizzled", "tma"}));
  const auto names = [](const std::vector<TunableParameter>& params) {
    std::vector<std::string> out;
    for (const auto& t : params) out.push_back(t.name);
    return out;
  };
  EXPECT_EQ(names(space.parameters("transpose", tmaGenes(DType::F32))),
            (std::vector<std::string>{"TILE", "STAGES", "BLOCKS_PER_SM", "THREADS"}));
  // The other staging values keep the table they had.
  for (const char* staging : {"direct", "smem_plain", "smem_padded", "smem_swizzled"}) {
    const auto params = space.parameters("transpose", {{"staging", staging}, {"vector", "4"}});
    EXPECT_EQ(names(params), (std::vector<std::string>{"TILE", "ROWS_PER_THREAD"})) << staging;
    EXPECT_EQ(params[0].values, (std::vector<std::int64_t>{16, 32, 64}));
    EXPECT_EQ(params[1].values, (std::vector<std::int64_t>{1, 2, 4, 8}));
  }
  const Candidate c = TemplateProposer::candidateFor(tmaGenome(DType::F32, 64, 3, 2, 128), p);
  EXPECT_EQ(c.descriptor.at("memory"), "tma");
  EXPECT_EQ(c.descriptor.at("bank_conflicts"), "swizzle");
  EXPECT_EQ(c.architectureKey, "template:transpose:staging=tma;vector=4");
}

TEST(TransposeTmaSpace, GenomesWithoutItEmitTheTransposeKernelAsBefore) {
  // Every legal genome of the other staging values goes to emitTranspose, untouched by this design.
  int checked = 0;
  for (const KernelProblem& p : {problem(DType::F32, 2048, 1024), problem(DType::BF16, 1000, 72)})
    for (const auto& genes : templates::geneCombinations(p)) {
      if (genes.at("staging") == "tma") continue;
      for (const auto& params : templates::legalParameterPoints(p, genes)) {
        const Genome g{"transpose", genes, params};
        const auto a = emit(g, p), b = templates::emitTranspose(g, p);
        ASSERT_EQ(a.source, b.source) << g.toJson();
        EXPECT_TRUE(a.launch.tensorMaps.empty());
        EXPECT_EQ(a.source.find("cp.async.bulk"), std::string::npos);
        ++checked;
      }
    }
  EXPECT_GT(checked, 100);
}

TEST(TransposeTmaSpace, StartingPointIsLegalAtTheSuiteShapes) {
  for (const KernelProblem& p : {problem(DType::F32, 8192, 8192), problem(DType::F32, 2048, 1024),
                                 problem(DType::BF16, 4096, 2048), problem(DType::F16, 1024, 1024)}) {
    const auto starts = templates::designSpaceFor("transpose").startingPoints(p);
    const auto it = std::find_if(starts.begin(), starts.end(), [](const Genome& g) { return g.gene("staging") == "tma"; });
    ASSERT_NE(it, starts.end());
    EXPECT_TRUE(templates::isLegal(*it, p)) << p.taskName << "\n" << joined(templates::checkGenome(*it, p));
  }
}

TEST(TransposeTmaSpace, RefusalsNameTheirReason) {
  const KernelProblem f32 = problem(DType::F32, 8192, 8192), bf16 = problem(DType::BF16, 4096, 2048);
  auto reasons = [](const Genome& g, const KernelProblem& p) { return templates::checkGenome(g, p); };
  EXPECT_TRUE(reasons(tmaGenome(DType::F32, 32, 4, 4, 64), f32).empty());
  EXPECT_TRUE(reasons(tmaGenome(DType::F32, 64, 2, 3, 256), f32).empty());
  EXPECT_TRUE(reasons(tmaGenome(DType::BF16, 64, 4, 4, 64), bf16).empty());
  // 2-byte elements: a 32-wide tile is half a 128-byte swizzle row.
  EXPECT_TRUE(mentions(reasons(tmaGenome(DType::BF16, 32, 2, 1, 64), bf16), "a 128-byte swizzle row of elements"));
  // A 32 x 32 fp32 tile has 64 sub-blocks: not for 128 threads.
  EXPECT_TRUE(mentions(reasons(tmaGenome(DType::F32, 32, 2, 1, 128), f32), "THREADS (every thread transposes as many)"));
  // Shared memory: 64 x 64 fp32 with 4 stages is 99 KB, two blocks fit an SM, three do not.
  EXPECT_TRUE(reasons(tmaGenome(DType::F32, 64, 4, 2, 128), f32).empty());
  EXPECT_TRUE(mentions(reasons(tmaGenome(DType::F32, 64, 4, 3, 128), f32), "an SM's shared memory"));
  // The genes of the threads' global accesses do not apply.
  Genome g = tmaGenome(DType::F32, 64, 3, 2, 128);
  g.genes["vector"] = "2";
  EXPECT_TRUE(mentions(reasons(g, f32), "vector=4"));
  g = tmaGenome(DType::F32, 64, 3, 2, 128);
  g.genes["hint"] = "evict_first";
  EXPECT_TRUE(mentions(reasons(g, f32), "staging=tma has none"));
  g = tmaGenome(DType::F32, 64, 3, 2, 128);
  g.genes["order"] = "diagonal";
  EXPECT_TRUE(mentions(reasons(g, f32), "order=row_major"));
  // TMA's stride rule: rows of whole 16 bytes, x's (N) and y's (M).
  EXPECT_TRUE(mentions(reasons(tmaGenome(DType::F32, 32, 2, 1, 64), problem(DType::F32, 77, 333)), "x's rows (N = 333"));
  EXPECT_TRUE(mentions(reasons(tmaGenome(DType::F32, 32, 2, 1, 64), problem(DType::F32, 1001, 36)), "y's rows (M = 1001"));
  // Ragged shapes with whole strides are legal: the copy engine zero-fills and clips the edges.
  EXPECT_TRUE(reasons(tmaGenome(DType::F32, 64, 3, 2, 128), problem(DType::F32, 1000, 36)).empty());
}

TEST(TransposeTmaEmit, LaunchAsksForTwoSwizzledMapsAPersistentGridAndItsSharedMemory) {
  struct Case {
    DType dtype;
    std::int64_t tile, stages, blocksPerSm, threads;
    int boxCols;
    std::int64_t smem;
  };
  const std::vector<Case> cases = {
      {DType::F32, 32, 4, 4, 64, 32, 1024 + 6 * 4096 + 4 * 8},
      {DType::F32, 64, 3, 2, 128, 32, 1024 + 5 * 16384 + 3 * 8},
      {DType::BF16, 64, 2, 4, 64, 64, 1024 + 4 * 8192 + 2 * 8},
  };
  for (const Case& c : cases) {
    const TaskSpec spec = transposeSpec(c.dtype, 8192, 4096);
    const KernelProblem p = templates::problemFromSpec(spec);
    const Genome g = tmaGenome(c.dtype, c.tile, c.stages, c.blocksPerSm, c.threads);
    ASSERT_TRUE(templates::isLegal(g, p)) << joined(templates::checkGenome(g, p));
    const auto k = emit(g, p);
    const int tile = static_cast<int>(c.tile);
    ASSERT_EQ(k.launch.tensorMaps.size(), 2u);
    EXPECT_EQ(k.launch.tensorMaps[0], (TensorMapRule{"x", tile, c.boxCols, "128B"}));  // TILE rows of x x one swizzle row
    EXPECT_EQ(k.launch.tensorMaps[1], (TensorMapRule{"y", tile, c.boxCols, "128B"}));  // TILE rows of y (x's columns)
    EXPECT_TRUE(tensorMapProblems(spec, k.launch.tensorMaps).empty()) << joined(tensorMapProblems(spec, k.launch.tensorMaps));
    EXPECT_TRUE(sourceHasSignature(k.source, spec, KernelRole::Candidate, k.launch.entry, k.launch.tensorMaps));
    EXPECT_EQ(k.launch.dynamicSmemBytes, std::to_string(c.smem));
    EXPECT_EQ(std::to_string(templates::transposeTmaSmemBytes(g, p)), k.launch.dynamicSmemBytes);
    EXPECT_EQ(k.launch.block[0], std::to_string(c.threads));
    EXPECT_EQ(k.launch.block[1], "1");
    // min(tiles, BLOCKS_PER_SM x SMs): 132 SMs, and a GPU with more SMs than the tiles need.
    const std::int64_t tiles = (8192 / c.tile) * (4096 / c.tile);
    EXPECT_EQ(evaluateAxisExpression(k.launch.grid[0], launchNames(p.axes, 132)), std::min(tiles, c.blocksPerSm * 132));
    EXPECT_EQ(evaluateAxisExpression(k.launch.grid[0], launchNames(p.axes, 100000)), tiles);
    EXPECT_NE(k.source.find("constexpr int TILE = " + std::to_string(c.tile) + ";"), std::string::npos);
    EXPECT_NE(k.source.find("__launch_bounds__(THREADS, BLOCKS_PER_SM)"), std::string::npos);
    EXPECT_EQ(k.source.find("{{"), std::string::npos);
  }
}

// Every legal parameter point of staging=tma at `p`.
std::vector<Genome> legalTmaGenomes(const KernelProblem& p) {
  std::vector<Genome> out;
  const DType d = p.input("x").dtype;
  for (const auto& point : templates::legalParameterPoints(p, tmaGenes(d))) out.push_back({"transpose", tmaGenes(d), point});
  return out;
}

TEST(TransposeTmaCompile, EveryLegalGenomeCompilesForSm90aWithOnly16ByteSharedAccesses) {
  struct Item {
    std::string where;
    templates::EmittedKernel kernel;
  };
  std::vector<Item> items;
  const std::vector<KernelProblem> problems = {problem(DType::F32, 8192, 8192), problem(DType::F32, 2048, 1024),
                                               problem(DType::F32, 1000, 36), problem(DType::BF16, 4096, 2048),
                                               problem(DType::F16, 1000, 72)};
  for (const auto& p : problems) {
    const auto genomes = legalTmaGenomes(p);
    ASSERT_FALSE(genomes.empty()) << p.taskName;
    for (const auto& g : genomes) items.push_back({p.taskName + " " + g.toJson(), emit(g, p)});
  }
  // fp32: 12 points of 32 x 32 tiles (64 threads) + 21 of 64 x 64, per shape; 2-byte: 12 (64 x 64, 64 threads).
  EXPECT_EQ(items.size(), 3u * 33u + 2u * 12u);
  std::vector<CompileRequest> requests;
  for (const auto& i : items) requests.push_back({i.kernel.source, i.kernel.launch.entry, "sm_90a", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), items.size());
  int failures = 0, maxRegisters = 0;
  for (std::size_t n = 0; n < items.size(); ++n) {
    const CompileReport& r = results[n].report;
    const std::string& where = items[n].where;
    if (!r.ok) {
      if (++failures <= 2) ADD_FAILURE() << where << "\n" << r.log << "\n" << items[n].kernel.source;
      continue;
    }
    EXPECT_EQ(r.arch, "sm_90a") << where;
    EXPECT_EQ(r.localBytes, 0) << where;
    EXPECT_EQ(r.spillStoreBytes, 0) << where;
    EXPECT_EQ(r.spillLoadBytes, 0) << where;
    maxRegisters = std::max(maxRegisters, r.registers);
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    EXPECT_GE(count("cp.async.bulk.tensor"), 2) << where;  // the loads of x, the stores of y
    EXPECT_EQ(count("ld.global"), 0) << where;               // the threads never touch global memory
    EXPECT_EQ(count("st.global"), 0) << where;
    EXPECT_GT(count("ld.shared.16B"), 0) << where;
    EXPECT_EQ(count("ld.shared"), count("ld.shared.16B")) << where;
    EXPECT_GT(count("st.shared.16B"), 0) << where;
    EXPECT_EQ(count("st.shared"), count("st.shared.16B")) << where;
  }
  EXPECT_EQ(failures, 0);
  std::cout << items.size() << " staging=tma transposes compiled, at most " << maxRegisters << " registers per thread\n";
}

TEST(TransposeTmaCompile, TheStartingPointNeedsNoArchSpecificTarget) {
  std::vector<CompileRequest> requests;
  for (const KernelProblem& p : {problem(DType::F32, 8192, 8192), problem(DType::BF16, 4096, 2048)})
    for (const auto& g : templates::designSpaceFor("transpose").startingPoints(p))
      if (g.gene("staging") == "tma") {
        const Candidate c = TemplateProposer::candidateFor(g, p);
        requests.push_back({c.source, c.launch.entry, "sm_90", {}});
      }
  ASSERT_EQ(requests.size(), 2u);
  NvrtcCompiler compiler;
  for (const auto& result : compileAll(compiler, requests, 2)) {
    EXPECT_TRUE(result.report.ok) << result.report.log;
    EXPECT_EQ(result.report.arch, "sm_90");
  }
  // Older architectures are refused by the source itself, with the reason.
  requests.resize(1);
  requests[0].arch = "sm_80";
  const CompileResult old = compiler.compile(requests[0]);
  EXPECT_FALSE(old.report.ok);
  EXPECT_NE(old.report.log.find("staging=tma needs sm_90 or later"), std::string::npos) << old.report.log;
}

std::string ptxOf(const std::string& source) {
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, source.c_str(), "candidate.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return {};
  std::vector<std::string> options{"--gpu-architecture=compute_90a", "-std=c++17"};
  for (const auto& dir : nvrtcIncludeDirs(findCudaIncludeDir())) options.push_back("-I" + dir);
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  std::string ptx;
  std::size_t size = 0;
  if (nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data()) == NVRTC_SUCCESS &&
      nvrtcGetPTXSize(program, &size) == NVRTC_SUCCESS) {
    ptx.resize(size);
    nvrtcGetPTX(program, ptx.data());
  }
  nvrtcDestroyProgram(&program);
  return ptx;
}

TEST(TransposeTmaCompile, PtxLoadsAndStoresByTheCopyEngineOnARingOfMbarriers) {
  for (const DType d : {DType::F32, DType::BF16}) {
    const std::string ptx = ptxOf(emit(tmaGenome(d, 64, 3, 2, d == DType::F32 ? 128 : 64), problem(d, 4096, 2048)).source);
    ASSERT_FALSE(ptx.empty());
    for (const char* op : {"cp.async.bulk.tensor.2d.shared::cluster.global", "mbarrier.arrive.expect_tx",
                           "mbarrier.try_wait.parity", "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group",
                           "cp.async.bulk.commit_group", "cp.async.bulk.wait_group.read 0", "cp.async.bulk.wait_group 0",
                           "fence.proxy.async.shared::cta", "ld.shared.v4", "st.shared.v4"})
      EXPECT_NE(ptx.find(op), std::string::npos) << "no " << op << " in the PTX (" << toString(d) << ")";
    // 2-byte elements are regrouped by byte permutes; fp32 words only move.
    EXPECT_EQ(ptx.find("prmt") != std::string::npos, d != DType::F32) << toString(d);
  }
}

}  // namespace
}  // namespace crucible
