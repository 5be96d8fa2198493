// SPDX-License-Identifier: GPL-3.0-or-later
// The persistent schedule of the TMA-fed warp-specialized wgmma GEMM (gene
// schedule=persistent, emit_gemm_wgmma_persistent.cpp): the gene and its fallback
// (stored genomes keep their kernels), which genomes are legal, the launch rule (a grid
// of at most one block per SM, the batch walked inside the kernel), and that every legal
// genome of the suite's bf16 GEMMs, the batched GEMM task and ragged shapes compiles
// through NVRTC + nvJitLink for sm_90a without local memory or spills, with the ring's
// handshake and bulk tensor copies in the PTX; schedule=streamk's rules, launch rule, its
// segmentation arithmetic (on the host) and flags in the PTX. No GPU here: the kernel's results and
// speed are checked on the device (crucible-cli eval).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <nvrtc.h>
#include "backends/cuda/compile/compile_all.h"
#include "backends/cuda/compile/cuda_include_dirs.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/gemm_wgmma.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/expression.h"
#include "core/task/kernel_abi.h"
#include "core/task/launch_variables.h"
#include "core/task/task_library.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;
using templates::KernelProblem;

KernelProblem builtinProblem(const std::string& name) {
  const auto file = findBuiltinTaskFile(name);
  if (!file) throw std::runtime_error("suite task " + name + " not found in " + builtinTasksDir());
  return templates::problemFromSpec(loadTaskSpecFile(*file));
}

TaskSpec bmmSpec() {
  return loadTaskSpecFile(std::string(CRUCIBLE_SOURCE_DIR) + "/tests/tasks/any-operator/bmm_bf16_16x2048x2048x2048.json");
}

// A batched GEMM sharing one B across the entries, its batch axis not passed to the kernel.
TaskSpec sharedBSpec() {
  TaskSpec s = testing_support::makeTask("matmul", DType::BF16, {{"M", 1000}, {"N", 1016}, {"K", 520}});
  s.name = "bmm_shared_b";
  s.axes["Bt"] = 6;
  s.inputs[0].shape = {"Bt", "M", "K"};
  s.outputs[0].shape = {"Bt", "M", "N"};
  return s;
}

templates::GeneMap persistentGenes(const std::string& schedule = "persistent") {
  return {{"tensor_core", "wgmma"}, {"pipeline", "tma"},      {"epilogue", "smem"},
          {"vector", "8"},          {"split_k", "none"},       {"schedule", schedule}};
}

Genome pingpongGenome(const std::string& family, std::int64_t bm = 128, std::int64_t bn = 128, std::int64_t stages = 5,
                      std::int64_t clusterM = 1) {
  return {family, persistentGenes("pingpong"),
          {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WARPGROUPS", 2}, {"STAGES", stages}, {"CLUSTER_M", clusterM}}};
}

Genome persistentGenome(const std::string& family, std::int64_t bm = 128, std::int64_t bn = 256,
                        std::int64_t stages = 4, std::int64_t clusterM = 1) {
  return {family, persistentGenes(),
          {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WARPGROUPS", 2}, {"STAGES", stages}, {"CLUSTER_M", clusterM}}};
}

Genome streamkGenome(const std::string& family, std::int64_t bm = 128, std::int64_t bn = 256, std::int64_t stages = 4,
                     std::int64_t clusterM = 1) {
  return {family, persistentGenes("streamk"),
          {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WARPGROUPS", 2}, {"STAGES", stages}, {"CLUSTER_M", clusterM}}};
}

// The same genome with C stored by the copy engine (epilogue=tma) from `buffers` staging boxes per warpgroup.
Genome withTmaEpilogue(Genome g, std::int64_t buffers = 2) {
  g.genes["epilogue"] = "tma";
  g.params["EPI_BUFFERS"] = buffers;
  return g;
}

std::vector<std::string> violations(const Genome& g, const KernelProblem& p) { return templates::checkGenome(g, p); }

bool mentions(const std::vector<std::string>& reasons, const std::string& word) {
  return std::any_of(reasons.begin(), reasons.end(), [&](const std::string& r) { return r.find(word) != std::string::npos; });
}

templates::EmittedKernel emit(const Genome& g, const KernelProblem& p) { return templates::designSpaceFor(p.family).emit(g, p); }

// The grid on a GPU with `smCount` SMs (the worker resolves sm_count with its GPU's).
std::int64_t gridOf(const templates::EmittedKernel& k, const KernelProblem& p, int smCount = 132) {
  return evaluateAxisExpression(k.launch.grid[0], launchNames(p.axes, smCount));
}

TEST(WgmmaPersistentSpace, ScheduleIsAGeneWithTheGridAsFallback) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  const auto genes = templates::designSpaceFor("matmul").genes(p);
  const auto it = std::find_if(genes.begin(), genes.end(), [](const auto& d) { return d.name == "schedule"; });
  ASSERT_NE(it, genes.end());
  EXPECT_EQ(it->fallback, "grid");
  EXPECT_EQ(it->values, (std::vector<std::string>{"grid", "persistent", "pingpong", "streamk"}));
  // A stored genome without the gene means schedule=grid: it is stored, keyed and emitted as before.
  Genome stored = persistentGenome("matmul");
  stored.genes.erase("schedule");
  Genome spelled = stored;
  spelled.genes["schedule"] = "grid";
  const Candidate a = TemplateProposer::candidateFor(stored, p), b = TemplateProposer::candidateFor(spelled, p);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.architectureKey, b.architectureKey);
  EXPECT_EQ(a.descriptor, b.descriptor);
  EXPECT_EQ(a.genomeJson.find("schedule"), std::string::npos);
  EXPECT_EQ(a.descriptor.count("schedule"), 0u);
  // The persistent genome is another architecture with its own descriptor cell.
  const Candidate c = TemplateProposer::candidateFor(persistentGenome("matmul"), p);
  EXPECT_NE(c.architectureKey, a.architectureKey);
  EXPECT_EQ(c.descriptor.at("schedule"), "persistent");
  EXPECT_NE(c.source, a.source);
}

TEST(WgmmaPersistentSpace, OnlyTheTmaWgmmaKernelIsPersistent) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  EXPECT_TRUE(violations(persistentGenome("matmul"), p).empty());
  for (const char* pipeline : {"warp_specialized", "cp_async"}) {
    Genome g = persistentGenome("matmul");
    g.genes["pipeline"] = pipeline;
    g.params.erase("CLUSTER_M");  // a TMA parameter
    if (std::string(pipeline) == "cp_async") g.genes["epilogue"] = "direct";
    EXPECT_TRUE(mentions(violations(g, p), "persistent")) << pipeline;
  }
  Genome mma{"matmul",
             {{"tensor_core", "mma"}, {"pipeline", "cp_async"}, {"epilogue", "smem"}, {"vector", "8"}, {"split_k", "none"},
              {"schedule", "persistent"}},
             {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 32}, {"WARP_M", 64}, {"WARP_N", 64}, {"STAGES", 3}}};
  EXPECT_TRUE(mentions(violations(mma, p), "persistent"));
  mma.genes["schedule"] = "grid";
  EXPECT_TRUE(violations(mma, p).empty());
}

TEST(WgmmaPersistentSpace, SharedMemoryHoldsTheRingAndTheStagingBuffers) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  // 128 x 256: 4 stages of 48 KiB, two 64 x 64 staging buffers of padded rows, 1 KiB alignment, 8 mbarriers.
  EXPECT_EQ(templates::gemmWgmmaSmemBytes(persistentGenome("matmul")), 4 * 49152 + 128 * (64 * 2 + 16) + 1024 + 8 * 8);
  EXPECT_TRUE(mentions(violations(persistentGenome("matmul", 128, 256, 5), p), "shared memory"));
  EXPECT_TRUE(violations(persistentGenome("matmul", 128, 192, 5), p).empty());
  EXPECT_TRUE(mentions(violations(persistentGenome("matmul", 256, 128, 4), p), "shared memory"));
  EXPECT_TRUE(violations(persistentGenome("matmul", 256, 128, 3), p).empty());
  // The grid kernel's 128 x 256 with 4 stages stays legal and the same size.
  Genome grid = persistentGenome("matmul");
  grid.genes["schedule"] = "grid";
  EXPECT_EQ(templates::gemmWgmmaSmemBytes(grid), 4 * 49152 + 1024 + 8 * 8);
}

// epilogue=tma: only the persistent TMA kernels have it; the parameter it brings; C's map; what
// the staging costs in shared memory; a batched C map must not take a tile into the next entry.
TEST(WgmmaTmaEpilogue, OnlyThePersistentTmaKernelsStoreByTheCopyEngine) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  const auto genes = templates::designSpaceFor("matmul").genes(p);
  const auto epilogue = std::find_if(genes.begin(), genes.end(), [](const auto& d) { return d.name == "epilogue"; });
  ASSERT_NE(epilogue, genes.end());
  EXPECT_EQ(epilogue->values, (std::vector<std::string>{"direct", "smem", "tma"}));  // appended: stored genomes keep theirs
  for (const char* schedule : {"persistent", "pingpong", "streamk"}) {
    templates::GeneMap g = persistentGenes(schedule);
    g["epilogue"] = "tma";
    const auto params = templates::designSpaceFor("matmul").parameters("matmul", g);
    const auto buffers = std::find_if(params.begin(), params.end(), [](const auto& t) { return t.name == "EPI_BUFFERS"; });
    ASSERT_NE(buffers, params.end()) << schedule;
    EXPECT_EQ(buffers->values, (std::vector<std::int64_t>{1, 2, 4}));
  }
  EXPECT_TRUE(violations(withTmaEpilogue(persistentGenome("matmul")), p).empty());
  EXPECT_TRUE(violations(withTmaEpilogue(pingpongGenome("matmul")), p).empty());
  EXPECT_TRUE(violations(withTmaEpilogue(streamkGenome("matmul")), p).empty());
  Genome grid = withTmaEpilogue(persistentGenome("matmul"));
  grid.genes["schedule"] = "grid";
  EXPECT_TRUE(mentions(violations(grid, p), "epilogue=tma")) << testing::PrintToString(violations(grid, p));
  Genome mma{"matmul",
             {{"tensor_core", "mma"}, {"pipeline", "cp_async"}, {"epilogue", "tma"}, {"vector", "8"}, {"split_k", "none"}},
             {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 32}, {"WARP_M", 64}, {"WARP_N", 64}, {"STAGES", 3}}};
  EXPECT_TRUE(mentions(violations(mma, p), "epilogue=tma"));
}

TEST(WgmmaTmaEpilogue, CIsAThirdMapOfOneWarpgroupsRowsAndTheStagingFitsBesideTheRing) {
  const KernelProblem p = builtinProblem("matmul_bias_relu_bf16_4096x4096x4096");
  const auto k = emit(withTmaEpilogue(persistentGenome("matmul_bias_relu")), p);
  ASSERT_EQ(k.launch.tensorMaps.size(), 3u);
  EXPECT_EQ(k.launch.tensorMaps[2], (TensorMapRule{"C", 64, 64, "128B"}));  // 128 rows over 2 warpgroups
  EXPECT_NE(k.source.find("const __grid_constant__ CUtensorMap tmap_C"), std::string::npos);
  EXPECT_TRUE(tensorMapProblems(loadTaskSpecFile(*findBuiltinTaskFile("matmul_bias_relu_bf16_4096x4096x4096")),
                                k.launch.tensorMaps)
                  .empty());
  // Pingpong: a warpgroup stores whole tiles.
  EXPECT_EQ(emit(withTmaEpilogue(pingpongGenome("matmul_bias_relu")), p).launch.tensorMaps[2], (TensorMapRule{"C", 128, 64, "128B"}));
  // 128 x 256, 4 stages: the ring, 2 warpgroups x EPI_BUFFERS boxes of 64 rows x 128 bytes, alignment, the
  // ring's mbarriers and a full and a free one per box.
  for (std::int64_t buffers : {1, 2})
    EXPECT_EQ(templates::gemmWgmmaSmemBytes(withTmaEpilogue(persistentGenome("matmul"), buffers)),
              4 * 49152 + 2 * buffers * 64 * 128 + 1024 + 8 * 8 + 2 * 2 * buffers * 8);
  // Four boxes per warpgroup (a 256-column tile's steps never wait for the copy engine) fit
  // beside a 3-stage ring at 128 x 256, not beside 4 stages.
  EXPECT_TRUE(violations(withTmaEpilogue(persistentGenome("matmul_bias_relu", 128, 256, 3), 4), p).empty());
  EXPECT_TRUE(mentions(violations(withTmaEpilogue(persistentGenome("matmul_bias_relu", 128, 256, 4), 4), p), "shared memory"));
  EXPECT_NE(emit(withTmaEpilogue(persistentGenome("matmul_bias_relu", 128, 256, 3), 4), p).source.find("constexpr int EPI_BUFFERS = 4;"),
            std::string::npos);
  // cuBLAS's bmm tile, 256 x 128 with 4 stages, fits with one box per warpgroup only.
  EXPECT_TRUE(violations(withTmaEpilogue(persistentGenome("matmul_bias_relu", 256, 128, 4), 1), p).empty());
  EXPECT_TRUE(mentions(violations(withTmaEpilogue(persistentGenome("matmul_bias_relu", 256, 128, 4), 2), p), "shared memory"));
  // Stream-K's fix-up beside two slabs per warpgroup spilled (ptxas sm_90a, 56-112 bytes): refused.
  EXPECT_TRUE(mentions(violations(withTmaEpilogue(streamkGenome("matmul_bias_relu", 256, 128, 3), 1), p), "epilogue=tma"));
}

// matmul_bias_relu: the tile's bias slice reaches shared memory under the k-loop (cp.async by
// warp 0 of each consumer warpgroup), and the epilogue reads it there, never from global memory.
TEST(WgmmaBiasSlice, TheEpilogueReadsTheBiasFromSharedMemoryCopiedUnderTheKLoop) {
  const KernelProblem p = builtinProblem("matmul_bias_relu_bf16_4096x4096x4096");
  for (const Genome& g : {withTmaEpilogue(persistentGenome("matmul_bias_relu")), persistentGenome("matmul_bias_relu"),
                          withTmaEpilogue(streamkGenome("matmul_bias_relu")), pingpongGenome("matmul_bias_relu")}) {
    ASSERT_TRUE(violations(g, p).empty()) << g.toJson() << testing::PrintToString(violations(g, p));
    const std::string src = emit(g, p).source;
    const std::size_t copy = src.find("cp_async_16(slice + c * 16, bias + bias_col + c * 8, bias_col + c * 8 < N);");
    const std::size_t kloop = src.find("mbarrier_wait(full_bars + stage * 8, phase);", src.find("------ consumers"));
    const std::size_t wait = src.find("if (warp == 0) cp_async_wait<0>();");
    const std::size_t read = src.find("bias_slice[slice_col]");
    ASSERT_NE(copy, std::string::npos) << g.toJson();
    ASSERT_NE(wait, std::string::npos) << g.toJson();
    ASSERT_NE(read, std::string::npos) << g.toJson();
    EXPECT_LT(copy, kloop) << g.toJson();
    EXPECT_LT(kloop, wait) << g.toJson();
    EXPECT_LT(wait, read) << g.toJson();
    EXPECT_EQ(src.find("bias[col]"), std::string::npos) << g.toJson();
    // One slab a warpgroup reads the slice unguarded (zeros past N); two keep the guard on N.
    const bool twoSlabs = templates::isPingpongSchedule(g.genes) || g.param("BLOCK_M") / g.param("WARPGROUPS") > 64;
    EXPECT_EQ(src.find("const float bias0 = col < N ?") != std::string::npos, twoSlabs) << g.toJson();
    // Stream-K copies only for a segment that stores its tile.
    EXPECT_EQ(src.find("if (warp == 0 && t0 == 0) {") != std::string::npos, templates::isStreamKSchedule(g.genes));
    // The slices sit between the staging and the barriers: BLOCK_N bf16 per consumer warpgroup.
    Genome plain = g;
    plain.family = "matmul";
    EXPECT_EQ(templates::gemmWgmmaSmemBytes(g), templates::gemmWgmmaSmemBytes(plain) + 2 * g.param("BLOCK_N") * 2);
  }
  EXPECT_EQ(emit(persistentGenome("matmul"), builtinProblem("matmul_bf16_8192x8192x8192")).source.find("bias_slice"),
            std::string::npos);
}

// epilogue=tma stages a warp's fragments with stmatrix.x4 (16 bytes a lane, the accumulator
// fragment is stmatrix's), each lane addressing one 16-byte row of one of the four 8 x 8 matrices
// in the 128-byte swizzle; no 4-byte stores are left in the staging. The threads' epilogue
// (epilogue=smem) keeps its padded buffer and 4-byte stores.
TEST(WgmmaTmaEpilogue, WarpsStageTheirFragmentsWithStmatrixInTheSwizzledBuffer) {
  for (const char* family : {"matmul", "matmul_bias_relu"}) {
    const KernelProblem p = builtinProblem(std::string(family) == "matmul" ? "matmul_bf16_8192x8192x8192"
                                                                           : "matmul_bias_relu_bf16_4096x4096x4096");
    for (const Genome& g : {withTmaEpilogue(persistentGenome(family), 2), withTmaEpilogue(persistentGenome(family, 128, 256, 3), 4),
                            withTmaEpilogue(pingpongGenome(family)), withTmaEpilogue(streamkGenome(family)),
                            withTmaEpilogue(persistentGenome(family, 256, 128, 3), 1)}) {
      ASSERT_TRUE(violations(g, p).empty()) << g.toJson() << testing::PrintToString(violations(g, p));
      const std::string src = emit(g, p).source;
      EXPECT_NE(src.find("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"), std::string::npos) << g.toJson();
      // Lanes 8m .. 8m + 7: matrix m's rows, 8 (m % 2) rows down and m / 2 chunks along.
      EXPECT_NE(src.find("const int address_row = s * 64 + warp * 16 + (lane & 7) + (lane >> 3 & 1) * 8;"), std::string::npos);
      EXPECT_NE(src.find("const int chunk = j0 + (lane >> 4);"), std::string::npos);
      EXPECT_NE(src.find("stmatrix_x4(buffer + address_row * 128 + ((chunk ^ (address_row & 7)) << 4), packed);"),
                std::string::npos);
      EXPECT_EQ(src.find("*reinterpret_cast<__nv_bfloat162*>("), std::string::npos) << g.toJson();
      // The bias (and only the bias) needs the lane's column.
      EXPECT_EQ(src.find("const int tile_col = j * 8 + lane % 4 * 2;") != std::string::npos,
                std::string(family) == "matmul_bias_relu");
    }
    const std::string threads = emit(persistentGenome(family), p).source;
    EXPECT_EQ(threads.find("stmatrix_x4("), std::string::npos);
    EXPECT_NE(threads.find("*reinterpret_cast<__nv_bfloat162*>(staging + (row + half * 8) * EPI_STRIDE + tile_col)"),
              std::string::npos);
  }
}

TEST(WgmmaTmaEpilogue, ABatchedTileMustNotStoreIntoTheNextEntry) {
  const KernelProblem bmm = templates::problemFromSpec(bmmSpec());  // M = 2048
  EXPECT_TRUE(violations(withTmaEpilogue(persistentGenome("matmul")), bmm).empty());
  const KernelProblem shared = templates::problemFromSpec(sharedBSpec());  // M = 1000: the last tile row is ragged
  EXPECT_TRUE(violations(persistentGenome("matmul", 128, 128, 6), shared).empty());
  const auto refused = violations(withTmaEpilogue(persistentGenome("matmul", 128, 128, 6)), shared);
  EXPECT_TRUE(mentions(refused, "M (1000)")) << testing::PrintToString(refused);
  EXPECT_TRUE(mentions(refused, "next")) << testing::PrintToString(refused);
  // Unbatched, the map clips rows past M: a ragged M is fine.
  const KernelProblem ragged = templates::problemFromSpec(
      testing_support::makeTask("matmul_bias_relu", DType::BF16, {{"M", 3000}, {"N", 2008}, {"K", 1000}}));
  EXPECT_TRUE(violations(withTmaEpilogue(persistentGenome("matmul_bias_relu", 128, 128, 6)), ragged).empty());
}

TEST(WgmmaPersistentSpace, NeedsMoreTilesThanItsGrid) {
  KernelProblem small = builtinProblem("matmul_bf16_1024x1024x1024");
  // 8 x 4 tiles of 128 x 256: every block of the grid kernel would run one. No GPU is known to
  // the proposer here: the refusal says which SM count it assumed.
  ASSERT_EQ(small.smCount, 0);
  const auto unknown = violations(persistentGenome("matmul"), small);
  EXPECT_TRUE(mentions(unknown, "schedule=grid"));
  EXPECT_TRUE(mentions(unknown, "than its grid of 132 blocks (one per SM, 132 SMs assumed: no GPU is known to the proposer)"))
      << testing::PrintToString(unknown);
  EXPECT_TRUE(mentions(violations(persistentGenome("matmul", 128, 64, 4), small), "schedule=grid"));
  // The GPU the engine evaluates on decides: 32 tiles keep 16 SMs busy twice over, not 132.
  small.smCount = 16;
  EXPECT_TRUE(violations(persistentGenome("matmul"), small).empty());
  small.smCount = 32;
  EXPECT_TRUE(mentions(violations(persistentGenome("matmul"), small), "than its grid of 32 blocks (one per SM of the GPU)"));
  // The batched task: 16 entries x 16 x 8 tiles.
  const KernelProblem bmm = templates::problemFromSpec(bmmSpec());
  EXPECT_EQ(templates::wgmmaPersistentTiles(persistentGenome("matmul"), bmm), 16 * 16 * 8);
  EXPECT_TRUE(violations(persistentGenome("matmul"), bmm).empty());
  // Cluster pairs need an even number of block rows, as in the grid kernel.
  KernelProblem odd = builtinProblem("matmul_bf16_8192x8192x8192");
  odd.axes["M"] = 9 * 128 * 4;
  EXPECT_TRUE(violations(persistentGenome("matmul", 128, 256, 4, 2), odd).empty());
  odd.axes["M"] = 9 * 128;
  EXPECT_TRUE(mentions(violations(persistentGenome("matmul", 128, 256, 4, 2), odd), "CLUSTER_M"));
}

// The engine tells the proposer its GPU (Proposer::setDevice, before any proposal): the
// persistent schedule is then judged by that GPU's SM count, not by an assumed one.
TEST(WgmmaPersistentSpace, TheProposerJudgesByTheDeviceItIsTold) {
  const TaskSpec spec = loadTaskSpecFile(*findBuiltinTaskFile("matmul_bf16_1024x1024x1024"));
  KernelProblem p = templates::problemFromSpec(spec);
  p.smCount = 16;
  const Candidate base = TemplateProposer::candidateFor(persistentGenome("matmul"), p);  // 32 tiles, 16 SMs
  TemplateProposer proposer;
  const Proposal assumed = proposer.withParametersFor(spec, base, {{"STAGES", 3}});
  EXPECT_FALSE(assumed.ok);
  EXPECT_NE(assumed.error.find("132 SMs assumed"), std::string::npos) << assumed.error;
  Fingerprint gpu;
  gpu.gpu = "a MIG slice";
  gpu.smCount = 16;
  proposer.setDevice(gpu);
  const Proposal told = proposer.withParametersFor(spec, base, {{"STAGES", 3}});
  EXPECT_TRUE(told.ok) << told.error;
  EXPECT_EQ(told.candidate.launch.grid[0], "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count)");
}

TEST(WgmmaPersistentEmit, GridIsOneBlockPerSmAtMostAndTheBatchIsWalkedInside) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  const auto k = emit(persistentGenome("matmul"), p);
  // One block per SM of the GPU it launches on, whatever GPU the proposal was made for.
  EXPECT_EQ(k.launch.grid[0], "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count)");
  EXPECT_EQ(gridOf(k, p, 132), 132);   // H100 SXM, H200
  EXPECT_EQ(gridOf(k, p, 148), 148);   // B200
  EXPECT_EQ(gridOf(k, p, 114), 114);   // H100 PCIe
  KernelProblem told = p;
  told.smCount = 16;
  EXPECT_EQ(emit(persistentGenome("matmul"), told).launch.grid[0], k.launch.grid[0]);
  EXPECT_EQ(k.launch.block[0], "384");
  EXPECT_EQ(k.launch.dynamicSmemBytes, std::to_string(templates::gemmWgmmaSmemBytes(persistentGenome("matmul"))));
  // Fewer tiles than SMs at another shape (the kernel's scalars): one block per tile.
  KernelProblem small = p;
  small.axes = {{"M", 1000}, {"N", 1000}, {"K", 64}};
  EXPECT_EQ(gridOf(k, small), 8 * 4);

  const TaskSpec spec = bmmSpec();
  const KernelProblem bmm = templates::problemFromSpec(spec);
  const auto b = emit(persistentGenome("matmul"), bmm);
  EXPECT_EQ(b.launch.grid[0], "min(ceil_div(N, 256) * ceil_div(M, 128) * Bt, sm_count)");
  EXPECT_EQ(b.launch.grid[1], "1");
  EXPECT_EQ(b.launch.grid[2], "1");
  EXPECT_EQ(b.source.find("blockIdx.z"), std::string::npos);  // no grid.z offsets
  EXPECT_NE(b.source.find("static_cast<int>(entry * M + block_row)"), std::string::npos);
  EXPECT_NE(b.source.find("k0 + static_cast<int>(entry * K)"), std::string::npos);
  EXPECT_NE(b.source.find("C + (entry * M + out_row) * N + out_col"), std::string::npos);
  EXPECT_NE(b.source.find("tiles_m * tiles_n * static_cast<int>(Bt)"), std::string::npos);
  EXPECT_TRUE(tensorMapProblems(spec, b.launch.tensorMaps).empty());
  EXPECT_TRUE(sourceHasSignature(b.source, spec, KernelRole::Candidate, b.launch.entry, b.launch.tensorMaps));
  // The grid kernel still walks the batch on grid.z.
  Genome grid = persistentGenome("matmul");
  grid.genes["schedule"] = "grid";
  EXPECT_EQ(emit(grid, bmm).launch.grid[2], "Bt");

  // One B for every entry, the batch a literal: B's rows are not offset by the entry.
  const KernelProblem shared = templates::problemFromSpec(sharedBSpec());
  ASSERT_TRUE(violations(persistentGenome("matmul", 128, 128, 4), shared).empty());
  const auto s = emit(persistentGenome("matmul", 128, 128, 4), shared);
  EXPECT_EQ(s.launch.grid[0], "min(ceil_div(N, 128) * ceil_div(M, 128) * Bt, sm_count)");
  EXPECT_NE(s.source.find("const int b_row = k0;"), std::string::npos);
  EXPECT_NE(s.source.find("static_cast<int>(6LL)"), std::string::npos);
}

TEST(WgmmaPersistentEmit, ClustersKeepTheirGridEvenAndMulticastB) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  const auto k = emit(persistentGenome("matmul", 128, 256, 4, 2), p);
  EXPECT_EQ(k.launch.tensorMaps[1], (TensorMapRule{"B", 32, 64, "128B"}));
  EXPECT_NE(k.source.find("__cluster_dims__(CLUSTER_M, 1, 1)"), std::string::npos);
  // Pairs of blocks: the SM count rounded down to an even grid.
  EXPECT_EQ(k.launch.grid[0], "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count / 2 * 2)");
  EXPECT_EQ(gridOf(k, p, 132), 132);
  EXPECT_EQ(gridOf(k, p, 133), 132);
  EXPECT_EQ(gridOf(k, p, 113), 112);
  // Both releases (in the loop and the tile's last stage) go to both blocks.
  std::size_t remote = 0;
  for (std::size_t at = 0; (at = k.source.find("mbarrier_arrive_cluster(cluster_address(", at)) != std::string::npos; ++at) ++remote;
  EXPECT_EQ(remote, 2u);
}

// The tile's last stage goes back to the producer before the epilogue (the grid kernel never
// returns it): without that arrival the stream of k-tiles would fall out of step.
TEST(WgmmaPersistentEmit, TheLastStageOfEveryTileIsReleasedBeforeTheEpilogue) {
  const KernelProblem p = builtinProblem("matmul_bias_relu_bf16_4096x4096x4096");
  const std::string src = emit(persistentGenome(p.family), p).source;
  const std::size_t drain = src.find("wgmma_wait<0>();");
  const std::size_t last = src.find("    if (lane == 0) {\n      const int previous = stage == 0 ? STAGES - 1 : stage - 1;\n"
                                    "      mbarrier_arrive(empty_bars + previous * 8);");
  const std::size_t epilogue = src.find("warpgroup_sync(consumer);");
  ASSERT_NE(drain, std::string::npos);
  ASSERT_NE(last, std::string::npos);
  ASSERT_NE(epilogue, std::string::npos);
  EXPECT_LT(drain, last);
  EXPECT_LT(last, epilogue);
  // The fused epilogue applies the bias and the ReLU.
  EXPECT_NE(src.find("fmaxf(acc[s][a + half * 2] + bias0, 0.0f)"), std::string::npos);
}

// A tile's accumulators are not zeroed: its first k-tile is issued before the k-loop, and its
// first k16 step is the overwrite wrapper (scale-d = 0, the accumulators outputs only, "=f"), so
// they are dead from the epilogue's last read on. Every schedule, stream-K's segments included.
TEST(WgmmaPersistentEmit, EachTilesFirstKStepOverwritesTheAccumulatorsInsteadOfAZeroingLoop) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  for (const Genome& g : {persistentGenome("matmul"), withTmaEpilogue(persistentGenome("matmul", 128, 256, 3), 4),
                          pingpongGenome("matmul"), withTmaEpilogue(streamkGenome("matmul"))}) {
    SCOPED_TRACE(g.gene("schedule"));
    const std::string src = emit(g, p).source;
    const std::string wgmma = "wgmma_m64n" + std::to_string(g.param("BLOCK_N")) + "k16";
    const std::size_t wrapper = src.find("void " + wgmma + "_overwrite(");
    ASSERT_NE(wrapper, std::string::npos);
    const std::string body = src.substr(wrapper, src.find("\n}\n", wrapper) - wrapper);
    EXPECT_NE(body.find("\"=f\"(d[0])"), std::string::npos);
    EXPECT_EQ(body.find("\"+f\""), std::string::npos);
    EXPECT_NE(body.find("\"r\"(0)"), std::string::npos);  // scale-d = 0: d = A * B
    EXPECT_EQ(src.find("acc[s][i] = 0.0f"), std::string::npos) << "no zeroing loop";
    // Before the k-loop, which now starts at the tile's second k-tile and always releases k-tile t - 1's stage.
    const std::size_t first = src.find("          " + wgmma + "_overwrite(acc[s]");
    const std::size_t loop = src.find(g.gene("schedule") == "streamk" ? "for (int t = t0 + 1; t < t1; ++t)"
                                                                       : "for (int t = 0 + 1; t < k_tiles; ++t)");
    ASSERT_NE(first, std::string::npos);
    ASSERT_NE(loop, std::string::npos);
    EXPECT_LT(first, loop);
    EXPECT_EQ(src.find("if (t > "), std::string::npos);
  }
}

// Pingpong: each consumer warpgroup owns whole tiles (twice the accumulators of a cooperative
// one), takes every other tile of the block, skips the other's k-tiles in the ring's stream and
// waits for its turn before its k-loop.
TEST(WgmmaPingpong, WarpgroupsOwnAlternateTilesAndTakeTurns) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  EXPECT_TRUE(violations(pingpongGenome("matmul"), p).empty());
  EXPECT_TRUE(mentions(violations(pingpongGenome("matmul", 128, 256, 3), p), "accumulators per consumer thread"));
  EXPECT_TRUE(mentions(violations(pingpongGenome("matmul", 256, 64, 3), p), "slabs per pingpong warpgroup"));  // spilled
  EXPECT_TRUE(violations(pingpongGenome("matmul", 128, 64, 6), p).empty());
  // 64 x 256: one slab a warpgroup, as in the cooperative 128 x 256 kernel (BLOCK_M = 64 is the
  // pingpong kernel's alone: the cooperative ones split BLOCK_M over two warpgroups).
  EXPECT_TRUE(violations(pingpongGenome("matmul", 64, 256, 4), p).empty());
  EXPECT_TRUE(mentions(violations(persistentGenome("matmul", 64, 256, 4), p), "64 x WARPGROUPS"));
  // 5 stages of 32 KiB, two staging buffers of 128 padded rows x 64 columns, 1 KiB, 10 + 2 mbarriers.
  EXPECT_EQ(templates::gemmWgmmaSmemBytes(pingpongGenome("matmul")), 5 * 32768 + 2 * 128 * 144 + 1024 + 12 * 8);
  EXPECT_TRUE(mentions(violations(pingpongGenome("matmul", 128, 128, 6), p), "shared memory"));
  const auto k = emit(pingpongGenome("matmul"), p);
  EXPECT_EQ(k.launch.grid[0], "min(ceil_div(N, 128) * ceil_div(M, 128), sm_count)");
  const std::string& src = k.source;
  for (const char* piece : {"constexpr int SLABS = BLOCK_M / 64;", "skip_k_tiles(consumer * k_tiles, stage, phase);",
                            "skip_k_tiles((CONSUMERS - 1) * k_tiles, stage, phase);",
                            "tile = static_cast<int>(blockIdx.x + consumer * gridDim.x)",
                            "mbarrier_init(empty_bars + s * 8, 128 / 32);",
                            "mbarrier_wait(turn_bars + consumer * 8, turn);",
                            "mbarrier_arrive(turn_bars + (consumer + 1) % CONSUMERS * 8);",
                            "const long long out_row = block_row + row,"})
    EXPECT_NE(src.find(piece), std::string::npos) << piece;
  // The turn is passed after the k-loop (every full barrier of the tile waited for), before the drain.
  EXPECT_LT(src.find("mbarrier_wait(full_bars + stage * 8, phase);"), src.find("mbarrier_arrive(turn_bars"));
  EXPECT_LT(src.find("mbarrier_arrive(turn_bars"), src.find("wgmma_wait<0>();"));
  const Candidate c = TemplateProposer::candidateFor(pingpongGenome("matmul"), p);
  EXPECT_EQ(c.descriptor.at("schedule"), "pingpong");
}

// Stream-K: the persistent kernel without clusters, its grid capped at the workspace's 160
// slots, walking its segments (data-parallel tiles, then a range of k-iterations) in both
// the producer and the consumers, with the fix-up between the drain and the epilogue.
TEST(WgmmaStreamK, IsThePersistentKernelWithoutClustersAndACappedGrid) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  EXPECT_TRUE(violations(streamkGenome("matmul"), p).empty());
  EXPECT_TRUE(mentions(violations(streamkGenome("matmul", 128, 256, 4, 2), p), "CLUSTER_M=1"));
  // Two more mbarriers than the persistent kernel: the fix-up's copy and the start partial's stores.
  EXPECT_EQ(templates::gemmWgmmaSmemBytes(streamkGenome("matmul")),
            templates::gemmWgmmaSmemBytes(persistentGenome("matmul")) + 2 * 8);
  // Too few tiles: 32 at 1024^3; and a GPU of 200 SMs gets a grid of 160 blocks.
  KernelProblem small = builtinProblem("matmul_bf16_1024x1024x1024");
  EXPECT_TRUE(mentions(violations(streamkGenome("matmul"), small), "schedule=grid"));
  small.smCount = 16;
  EXPECT_TRUE(violations(streamkGenome("matmul"), small).empty());
  KernelProblem wide = builtinProblem("matmul_bf16_8192x8192x8192");
  wide.axes = {{"M", 4096}, {"N", 4096}, {"K", 4096}};  // 512 tiles of 128 x 256
  wide.smCount = 200;
  EXPECT_TRUE(violations(streamkGenome("matmul"), wide).empty());
  wide.axes = {{"M", 4096}, {"N", 1280}, {"K", 4096}};  // 32 x 5 = 160 tiles: one per block
  EXPECT_TRUE(mentions(violations(streamkGenome("matmul"), wide), "than its grid of 160 blocks (one per SM of the GPU)"));

  const KernelProblem bmm = templates::problemFromSpec(bmmSpec());
  ASSERT_TRUE(violations(streamkGenome("matmul"), bmm).empty());
  const auto k = emit(streamkGenome("matmul"), bmm);
  EXPECT_EQ(k.launch.grid[0], "min(ceil_div(N, 256) * ceil_div(M, 128) * Bt, min(sm_count, 160))");
  EXPECT_EQ(gridOf(k, bmm, 132), 132);
  EXPECT_EQ(gridOf(k, bmm, 200), 160);
  EXPECT_EQ(k.launch.grid[2], "1");
  const std::string& src = k.source;
  for (const char* piece : {"constexpr int STREAMK_MAX_BLOCKS = 160;",
                            "__device__ __align__(128) float4 streamk_partials[STREAMK_MAX_BLOCKS][STREAMK_SLOT_GROUPS];",
                            "__device__ int streamk_flags[STREAMK_MAX_BLOCKS];", "for (int t = t0; t < t1; ++t) {",
                            "for (int t = t0 + 1; t < t1; ++t) {", "streamk_flag_wait(streamk_flags + blockIdx.x + 1);",
                            "streamk_flag_store(streamk_flags + blockIdx.x, 1);", "mbarrier_arrive(partial_bar);",
                            "mbarrier_wait(partial_bar, 0);", "mbarrier_init(partial_bar, CONSUMER_THREADS);",
                            "mbarrier_init(fixup_bar, 1);", "bulk_copy_to_shared(ring, streamk_partials[blockIdx.x + 1]",
                            "streamk_flag_store(streamk_flags + blockIdx.x + 1, 0);"})
    EXPECT_NE(src.find(piece), std::string::npos) << piece;
  // Producer and consumers walk the same segments.
  std::size_t walks = 0;
  for (std::size_t at = 0; (at = src.find("while (streamk_next(walk, k_tiles, tile, t0, t1)) {", at)) != std::string::npos; ++at)
    ++walks;
  EXPECT_EQ(walks, 2u);
  // Drain, release of the segment's last stage, fix-up, epilogue.
  const std::size_t drain = src.find("wgmma_wait<0>();"), last = src.find("    if (lane == 0) {\n      const int previous");
  const std::size_t fixup = src.find("if (t0 > 0) {"), epilogue = src.find("warpgroup_sync(consumer);");
  EXPECT_LT(drain, last);
  EXPECT_LT(last, fixup);
  EXPECT_LT(fixup, epilogue);
  EXPECT_EQ(TemplateProposer::candidateFor(streamkGenome("matmul"), bmm).descriptor.at("schedule"), "streamk");
  // A starting point only with the copy engine's epilogue (with the threads' stores it was slower
  // than the persistent seed where measured: gemm_space.cpp), on the 128 x 256 tile.
  const auto seeds = templates::designSpaceFor("matmul").startingPoints(bmm);
  const auto streamkSeeds = std::count_if(seeds.begin(), seeds.end(), [](const Genome& g) {
    return templates::isStreamKSchedule(g.genes);
  });
  EXPECT_EQ(streamkSeeds, 1);
  for (const Genome& g : seeds)
    if (templates::isStreamKSchedule(g.genes)) {
      EXPECT_EQ(g.gene("epilogue"), "tma");
      EXPECT_EQ(g.param("BLOCK_N"), 256);
      EXPECT_TRUE(violations(g, bmm).empty());
    }
  const Genome bmmGenome = streamkGenome("matmul");
  EXPECT_EQ(bmmGenome.param("BLOCK_N"), 256);
  EXPECT_TRUE(violations(bmmGenome, bmm).empty());
}

// The walk the kernel's streamk_walk / streamk_next generate, on the host (streamkSegments
// mirrors them step for step): every k-tile of every tile is done exactly once; a tile is whole
// or split between two consecutive blocks, the first ending its range with [0, t1), the second
// starting its stream-K range (right after its data-parallel tiles) with [t1, k_tiles).
TEST(WgmmaStreamK, SegmentsCoverEveryKTileOnceAndSplitTilesBetweenNeighbours) {
  int checked = 0;
  for (std::int64_t grid : {1, 2, 3, 5, 8, 131, 132, 160})
    for (std::int64_t kTiles : {1, 2, 3, 7, 32, 129})
      for (std::int64_t tiles : {grid, grid + 1, 2 * grid - 1, 2 * grid, 2 * grid + 1, 3 * grid + 7, 15 * grid + grid / 2,
                                 std::int64_t{2048}, std::int64_t{2047}}) {
        if (tiles < grid) continue;
        SCOPED_TRACE("tiles " + std::to_string(tiles) + " k_tiles " + std::to_string(kTiles) + " grid " + std::to_string(grid));
        const std::int64_t dpTiles = templates::streamkDataParallelTiles(tiles, grid);
        ASSERT_EQ(dpTiles % grid, 0);
        ASSERT_GE(tiles - dpTiles, grid);
        ASSERT_LT(tiles - dpTiles, 2 * grid);
        std::vector<int> done(static_cast<std::size_t>(tiles * kTiles), 0);
        std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> owners(static_cast<std::size_t>(tiles));  // (block, segment)
        std::vector<std::vector<templates::StreamKSegment>> walks;
        for (std::int64_t b = 0; b < grid; ++b) {
          walks.push_back(templates::streamkSegments(tiles, kTiles, grid, b));
          const auto& w = walks.back();
          for (std::size_t i = 0; i < w.size(); ++i) {
            const auto& s = w[i];
            ASSERT_TRUE(s.tile >= 0 && s.tile < tiles && s.t0 >= 0 && s.t0 < s.t1 && s.t1 <= kTiles);
            // Data-parallel tiles first, whole, b + n grid.
            if (i < static_cast<std::size_t>(dpTiles / grid)) {
              ASSERT_EQ(s.tile, b + static_cast<std::int64_t>(i) * grid);
              ASSERT_EQ(s.t1 - s.t0, kTiles);
            } else {
              ASSERT_GE(s.tile, dpTiles);
            }
            // A start partial is the first of the stream-K range, an end partial its last.
            if (s.t0 > 0) {
              ASSERT_EQ(i, static_cast<std::size_t>(dpTiles / grid));
            }
            if (s.t1 < kTiles) {
              ASSERT_EQ(i + 1, w.size());
            }
            for (std::int64_t t = s.t0; t < s.t1; ++t) ++done[static_cast<std::size_t>(s.tile * kTiles + t)];
            owners[static_cast<std::size_t>(s.tile)].push_back({b, static_cast<std::int64_t>(i)});
          }
        }
        ASSERT_TRUE(std::all_of(done.begin(), done.end(), [](int n) { return n == 1; }));
        for (std::int64_t tile = 0; tile < tiles; ++tile) {
          const auto& o = owners[static_cast<std::size_t>(tile)];
          ASSERT_TRUE(o.size() == 1 || o.size() == 2) << tile;
          if (o.size() == 1) continue;
          ASSERT_EQ(o[1].first, o[0].first + 1) << tile;  // the end partial's block, then the next
          const auto& end = walks[static_cast<std::size_t>(o[0].first)][static_cast<std::size_t>(o[0].second)];
          const auto& start = walks[static_cast<std::size_t>(o[1].first)][static_cast<std::size_t>(o[1].second)];
          ASSERT_EQ(end.t0, 0);
          ASSERT_EQ(start.t0, end.t1);
          ASSERT_EQ(start.t1, kTiles);
        }
        // The last block never waits: its range ends with a whole tile's end.
        ASSERT_EQ(walks.back().back().t1, kTiles);
        ++checked;
      }
  EXPECT_GT(checked, 300);
  // The batched task on an H200: 14 rounds of whole tiles, the last 200 tiles split over 132 blocks.
  EXPECT_EQ(templates::streamkDataParallelTiles(2048, 132), 14 * 132);
}

struct Emitted {
  std::string label;
  Genome genome;
  templates::EmittedKernel kernel;
};

// Every parameter point of both persistent schedules that the space accepts for `p`.
// Both epilogues (threads' stores, the copy engine's).
std::vector<Genome> legalPersistentGenomes(const KernelProblem& p) {
  std::vector<Genome> out;
  for (const char* schedule : {"persistent", "pingpong", "streamk"})
    for (const char* epilogue : {"smem", "tma"}) {
      templates::GeneMap genes = persistentGenes(schedule);
      genes["epilogue"] = epilogue;
      for (const auto& point : templates::legalParameterPoints(p, genes)) out.push_back({p.family, genes, point});
    }
  return out;
}

TEST(WgmmaPersistentCompile, EveryLegalGenomeCompilesForSm90aWithoutSpills) {
  std::vector<KernelProblem> problems = {builtinProblem("matmul_bf16_8192x8192x8192"),
                                         builtinProblem("matmul_bias_relu_bf16_4096x4096x4096"),
                                         templates::problemFromSpec(bmmSpec()), templates::problemFromSpec(sharedBSpec()),
                                         templates::problemFromSpec(testing_support::makeTask(
                                             "matmul_bias_relu", DType::BF16, {{"M", 3000}, {"N", 2008}, {"K", 1000}}))};
  std::vector<Emitted> all;
  for (const auto& p : problems) {
    const auto genomes = legalPersistentGenomes(p);
    ASSERT_FALSE(genomes.empty()) << p.taskName;
    EXPECT_TRUE(std::any_of(genomes.begin(), genomes.end(), [](const Genome& g) { return templates::isStreamKSchedule(g.genes); }))
        << p.taskName << ": no legal streamk genome";
    // The shared-B task's M (1000) is no multiple of a tile: its batched C map would spill into the next entry.
    const bool tmaLegal = std::any_of(genomes.begin(), genomes.end(), [](const Genome& g) { return g.gene("epilogue") == "tma"; });
    EXPECT_EQ(tmaLegal, p.taskName != "bmm_shared_b") << p.taskName;
    for (const auto& g : genomes) all.push_back({p.taskName, g, emit(g, p)});
  }
  std::vector<CompileRequest> requests;
  for (const auto& e : all) requests.push_back({e.kernel.source, e.kernel.launch.entry, "sm_90", {}});
  NvrtcCompiler compiler;
  const auto results = compileAll(compiler, requests, 2);
  ASSERT_EQ(results.size(), all.size());
  int failures = 0;
  int maxRegisters = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CompileReport& r = results[i].report;
    const std::string where = all[i].label + " " + all[i].genome.toJson();
    if (!r.ok) {
      if (++failures <= 2) ADD_FAILURE() << where << "\n" << r.log << "\n" << all[i].kernel.source;
      continue;
    }
    EXPECT_EQ(r.arch, "sm_90a") << where;
    EXPECT_EQ(r.localBytes, 0) << where;
    EXPECT_EQ(r.spillStoreBytes, 0) << where;
    EXPECT_EQ(r.spillLoadBytes, 0) << where;
    EXPECT_LE(r.registers, 168) << where;  // the launch share of 384 threads: no setmaxnreg
    maxRegisters = std::max(maxRegisters, r.registers);
    auto count = [&](const std::string& key) {
      auto it = r.features.find(key);
      return it == r.features.end() ? 0 : it->second;
    };
    const std::int64_t slabs = all[i].genome.param("BLOCK_M") / all[i].genome.param("WARPGROUPS") / 64;
    EXPECT_GE(count("wgmma"), 4 * slabs) << where;
    EXPECT_GE(count("cp.async.bulk.tensor"), 2) << where;
    // cp.async (not bulk) only for matmul_bias_relu's slice of the bias, under the k-loop.
    if (all[i].genome.family == "matmul_bias_relu")
      EXPECT_GT(count("cp.async"), 0) << where;
    else
      EXPECT_EQ(count("cp.async"), 0) << where;
    EXPECT_EQ(count("setmaxnreg"), 0) << where;
    // The copy engine stores C (epilogue=tma), or the consumer threads do in 16-byte chunks.
    // Stream-K's only 16-byte stores from threads are a start partial's float4 groups.
    const std::int64_t partialStores =
        templates::isStreamKSchedule(all[i].genome.genes) ? slabs * all[i].genome.param("BLOCK_N") / 8 : 0;
    if (all[i].genome.gene("epilogue") == "tma") {
      EXPECT_EQ(count("st.global.16B"), partialStores) << where;
      EXPECT_GE(count("cp.async.bulk.tensor"), 3) << where;
    } else {
      EXPECT_GT(count("st.global.16B"), 0) << where;
    }
    EXPECT_EQ(r.log.find("serialized"), std::string::npos) << where << "\n" << r.log;
    EXPECT_EQ(r.log.find("is injected"), std::string::npos) << where << "\n" << r.log;
  }
  EXPECT_EQ(failures, 0);
  std::cout << all.size() << " persistent kernels compiled, at most " << maxRegisters << " registers per thread\n";
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

TEST(WgmmaPersistentCompile, PtxRunsTheRingOnTmaAndTheEpilogueOnWarpgroupBarriers) {
  const KernelProblem p = templates::problemFromSpec(bmmSpec());
  const std::string ptx = ptxOf(emit(persistentGenome("matmul"), p).source);
  ASSERT_FALSE(ptx.empty());
  for (const char* op : {"mbarrier.try_wait.parity", "mbarrier.arrive.expect_tx", "cp.async.bulk.tensor.2d",
                         "wgmma.mma_async", "bar.sync"})
    EXPECT_NE(ptx.find(op), std::string::npos) << "no " << op << " in the PTX";
  EXPECT_EQ(ptx.find("setmaxnreg"), std::string::npos);
}

TEST(WgmmaTmaEpilogue, PtxStoresBoxesByTheCopyEngineAndWaitsOnlyForTheirReads) {
  const KernelProblem p = templates::problemFromSpec(bmmSpec());
  for (std::int64_t buffers : {1, 2}) {
    const std::string ptx = ptxOf(emit(withTmaEpilogue(persistentGenome("matmul"), buffers), p).source);
    ASSERT_FALSE(ptx.empty());
    const std::vector<std::string> ops = {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group",
                                          "cp.async.bulk.commit_group",
                                          "cp.async.bulk.wait_group.read 0",
                                          "cp.async.bulk.wait_group 0", "fence.proxy.async.shared::cta"};
    for (const std::string& op : ops)
      EXPECT_NE(ptx.find(op), std::string::npos) << "no " << op << " in the PTX (EPI_BUFFERS " << buffers << ")";
    EXPECT_EQ(ptx.find("st.global.v4"), std::string::npos) << "the threads store no C";
  }
}

// epilogue=tma: the consumers stage each step and arrive on its box's full barrier; thread 64 of
// the producer warpgroup issues every store of C and frees the box once the copy engine has
// read it. No consumer waits for a store or for the other warps of its warpgroup (with the bias
// slice, two warpgroup barriers a tile guard the slice instead).
TEST(WgmmaTmaEpilogue, AStoreIssuerStoresCAndTheConsumersNeverWaitForEachOther) {
  const KernelProblem bmm = templates::problemFromSpec(bmmSpec());
  const KernelProblem fused = builtinProblem("matmul_bias_relu_bf16_4096x4096x4096");
  const auto count = [](const std::string& text, const std::string& piece) {
    std::size_t n = 0;
    for (std::size_t at = 0; (at = text.find(piece, at)) != std::string::npos; at += piece.size()) ++n;
    return n;
  };
  const std::string consumersMark = "// ------------------------------------------------------------------ consumers";
  for (const Genome& g : {withTmaEpilogue(persistentGenome("matmul"), 2), withTmaEpilogue(persistentGenome("matmul", 128, 256, 3), 4),
                          withTmaEpilogue(streamkGenome("matmul"), 2), withTmaEpilogue(pingpongGenome("matmul"), 1),
                          withTmaEpilogue(persistentGenome("matmul", 128, 256, 4, 2), 1),
                          withTmaEpilogue(persistentGenome("matmul_bias_relu"), 2)}) {
    const KernelProblem& p = g.family == "matmul" ? bmm : fused;
    ASSERT_TRUE(violations(g, p).empty()) << violations(g, p).front();
    const std::string src = emit(g, p).source;
    const std::size_t split = src.find(consumersMark);
    ASSERT_NE(split, std::string::npos);
    const std::string producers = src.substr(0, split), consumers = src.substr(split);
    const std::string what = g.gene("schedule") + " EPI_BUFFERS " + std::to_string(g.param("EPI_BUFFERS"));
    EXPECT_NE(producers.find("if (threadIdx.x == 64) {"), std::string::npos) << what;
    EXPECT_EQ(count(src, "tma_store_2d(tmap_C,"), 1u) << what << ": only the issuer stores C";
    EXPECT_NE(producers.find("mbarrier_wait(epi_full_bars"), std::string::npos) << what;
    EXPECT_NE(producers.find("tma_store_wait_read<0>();  // the copy engine has read the buffer: the warpgroup may write it again\n"
                             "            mbarrier_arrive(epi_free_bars"), std::string::npos) << what;
    EXPECT_NE(producers.find("tma_store_wait_all();"), std::string::npos) << what;
    EXPECT_EQ(consumers.find("tma_store_"), std::string::npos) << what;
    EXPECT_NE(consumers.find("mbarrier_wait(epi_free_bars"), std::string::npos) << what;
    EXPECT_NE(consumers.find("fence_shared_to_async();  // this thread's writes, visible to the copy engine\n      __syncwarp();"),
              std::string::npos) << what;
    EXPECT_NE(consumers.find("if (lane == 0) mbarrier_arrive(epi_full_bars"), std::string::npos) << what;
    EXPECT_EQ(count(consumers, "warpgroup_sync(consumer);"), g.family == "matmul" ? 0u : 2u) << what;
    // Four warps fill a box; the issuer frees it.
    EXPECT_NE(src.find("mbarrier_init(epi_full_bars + b * 8, 128 / 32);"), std::string::npos) << what;
    EXPECT_NE(src.find("mbarrier_init(epi_free_bars + b * 8, 1);"), std::string::npos) << what;
  }
  // Stream-K's start partials store no C, so the issuer skips them; a pingpong tile has one owner.
  const std::string streamk = emit(withTmaEpilogue(streamkGenome("matmul"), 2), bmm).source;
  EXPECT_NE(streamk.find("if (t0 > 0) continue;  // a start partial"), std::string::npos);
  const std::string pingpong = emit(withTmaEpilogue(pingpongGenome("matmul"), 1), bmm).source;
  EXPECT_NE(pingpong.find("for (int c = owner; c < owner + 1; ++c)"), std::string::npos);
  EXPECT_NE(pingpong.find("if (++owner == CONSUMERS) owner = 0;"), std::string::npos);
}

TEST(WgmmaStreamK, PtxHasTheFlagsReleaseAndAcquire) {
  const KernelProblem p = templates::problemFromSpec(bmmSpec());
  const std::string ptx = ptxOf(emit(streamkGenome("matmul"), p).source);
  ASSERT_FALSE(ptx.empty());
  // The start partial in 16-byte stores; the end partial's copy of it by the copy engine, after
  // the proxy fence, into shared memory.
  for (const char* op : {"st.release.gpu.global", "ld.acquire.gpu.global", "nanosleep", "bar.sync 1, 256",
                         "st.global.cg.v4.f32", "fence.proxy.async.global",
                         "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", "ld.shared.v4.f32",
                         "cp.async.bulk.tensor.2d", "wgmma.mma_async"})
    EXPECT_NE(ptx.find(op), std::string::npos) << "no " << op << " in the PTX";
}

// Kernels for the device (tests/gpu/kernels): a launch note, then the emitter's output for `g`
// on `p` (regenerate with CRUCIBLE_REGENERATE_KERNELS=1). `task` is what the note passes to --task.
void checkKernelFile(const Genome& g, const KernelProblem& p, const std::string& task, const std::string& file) {
  const auto k = emit(g, p);
  std::string note = "// Launch: crucible-cli eval --task " + task + " --kernel tests/gpu/kernels/" + file + " --grid '" +
                     k.launch.grid[0] + "' --block " + k.launch.block[0] + " --smem " + k.launch.dynamicSmemBytes;
  for (const TensorMapRule& m : k.launch.tensorMaps)
    note += " --tensor-map " + m.tensor + ":" + std::to_string(m.boxRows) + "x" + std::to_string(m.boxCols) + ":" + m.swizzle;
  const std::string expected = note + "\n" + k.source;
  const std::string path = std::string(CRUCIBLE_SOURCE_DIR) + "/tests/gpu/kernels/" + file;
  if (const char* regen = std::getenv("CRUCIBLE_REGENERATE_KERNELS"); regen && std::string(regen) == "1")
    std::ofstream(path, std::ios::binary) << expected;
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing (CRUCIBLE_REGENERATE_KERNELS=1 writes it)";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), expected) << path << " differs from the emitter (CRUCIBLE_REGENERATE_KERNELS=1 rewrites it)";
}

TEST(WgmmaPersistentKernelFile, AreTheEmittersPersistentAndPingpongKernels) {
  const KernelProblem bmm = templates::problemFromSpec(bmmSpec());
  const std::string bmmTask = "tests/tasks/any-operator/bmm_bf16_16x2048x2048x2048.json";
  checkKernelFile(persistentGenome("matmul"), bmm, bmmTask, "wgmma_persistent_bmm_bf16.cu");
  checkKernelFile(pingpongGenome("matmul"), bmm, bmmTask, "wgmma_pingpong_bmm_bf16.cu");
  checkKernelFile(streamkGenome("matmul"), bmm, bmmTask, "wgmma_streamk_bmm_bf16.cu");
  checkKernelFile(withTmaEpilogue(persistentGenome("matmul")), bmm, bmmTask, "wgmma_persistent_tma_store_bmm_bf16.cu");
  const KernelProblem gemm = builtinProblem("matmul_bf16_8192x8192x8192");
  checkKernelFile(persistentGenome("matmul"), gemm, gemm.taskName, "wgmma_persistent_gemm_bf16.cu");
}

}  // namespace
}  // namespace crucible
