// SPDX-License-Identifier: GPL-3.0-or-later
// The persistent schedule of the TMA-fed warp-specialized wgmma GEMM (gene
// schedule=persistent, emit_gemm_wgmma_persistent.cpp): the gene and its fallback
// (stored genomes keep their kernels), which genomes are legal, the launch rule (a grid
// of at most one block per SM, the batch walked inside the kernel), and that every legal
// genome of the suite's bf16 GEMMs, the batched GEMM task and ragged shapes compiles
// through NVRTC + nvJitLink for sm_90a without local memory or spills, with the ring's
// handshake and bulk tensor copies in the PTX. No GPU here: the kernel's results and
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
  EXPECT_EQ(it->values, (std::vector<std::string>{"grid", "persistent", "pingpong"}));
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

// Pingpong: each consumer warpgroup owns whole tiles (twice the accumulators of a cooperative
// one), takes every other tile of the block, skips the other's k-tiles in the ring's stream and
// waits for its turn before its k-loop.
TEST(WgmmaPingpong, WarpgroupsOwnAlternateTilesAndTakeTurns) {
  const KernelProblem p = builtinProblem("matmul_bf16_8192x8192x8192");
  EXPECT_TRUE(violations(pingpongGenome("matmul"), p).empty());
  EXPECT_TRUE(mentions(violations(pingpongGenome("matmul", 128, 256, 3), p), "accumulators per consumer thread"));
  EXPECT_TRUE(mentions(violations(pingpongGenome("matmul", 256, 64, 3), p), "slabs per pingpong warpgroup"));  // spilled
  EXPECT_TRUE(violations(pingpongGenome("matmul", 128, 64, 6), p).empty());
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

struct Emitted {
  std::string label;
  Genome genome;
  templates::EmittedKernel kernel;
};

// Every parameter point of both persistent schedules that the space accepts for `p`.
std::vector<Genome> legalPersistentGenomes(const KernelProblem& p) {
  std::vector<Genome> out;
  for (const char* schedule : {"persistent", "pingpong"})
    for (const auto& point : templates::legalParameterPoints(p, persistentGenes(schedule)))
      out.push_back({p.family, persistentGenes(schedule), point});
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
    EXPECT_EQ(count("cp.async"), 0) << where;
    EXPECT_EQ(count("setmaxnreg"), 0) << where;
    EXPECT_GT(count("st.global.16B"), 0) << where;
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
  const KernelProblem gemm = builtinProblem("matmul_bf16_8192x8192x8192");
  checkKernelFile(persistentGenome("matmul"), gemm, gemm.taskName, "wgmma_persistent_gemm_bf16.cu");
}

}  // namespace
}  // namespace crucible
