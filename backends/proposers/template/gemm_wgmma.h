// SPDX-License-Identifier: GPL-3.0-or-later
// The Hopper warpgroup tensor-core GEMM (tensor_core = "wgmma"): bf16 inputs,
// fp32 accumulation, sm_90a only. Two kernels, by the pipeline gene:
//
// pipeline "cp_async" (emit_gemm_wgmma.cpp): every thread copies tiles with
// 16-byte cp.async into 128-byte-swizzled shared memory (a STAGES-deep ring)
// and computes; epilogue "direct", vector "8", split_k "none". Parameters:
//   BLOCK_M    {64, 128, 256}  rows of C per block; a multiple of 64 x WARPGROUPS
//   BLOCK_N    {64, 128, 256}  columns of C per block = the N of each wgmma (m64nNk16)
//   BLOCK_K    {64}            k per pipeline stage: one 128-byte swizzle row of bf16
//   WARPGROUPS {1, 2}          128-thread warpgroups; each owns BLOCK_M / WARPGROUPS rows
//   STAGES     {3, 4, 5}       shared-memory ring depth; tiles are fetched STAGES - 2 ahead
//
// pipeline "warp_specialized" (emit_gemm_wgmma_ws.cpp): one producer warpgroup
// only copies (cp.async, completion tracked by per-stage "full" mbarriers), the
// consumer warpgroups only run wgmma and hand stages back through "empty"
// mbarriers; setmaxnreg moves registers from the producer to the consumers;
// the tile leaves through shared memory in 16-byte stores (epilogue "smem").
// vector "8", split_k "none".
//
// pipeline "tma" (the same emitter): the producer is one thread issuing bulk
// tensor copies (TMA, cp.async.bulk.tensor.2d) of A and B's panels straight
// into the swizzled ring; the copy engine does the addressing, swizzling and
// zero-filling past the edges, and completes each stage's "full" mbarrier by
// bytes (expect_tx). The worker passes two tensor maps (LaunchRule::tensorMaps).
// Parameters of both:
//   BLOCK_M    {128, 256}      rows of C per block; each consumer owns BLOCK_M / WARPGROUPS
//   BLOCK_N    {64, 128, 192, 256}  columns of C per block = the N of each wgmma (192: TMA only)
//   BLOCK_K    {64}            as above
//   WARPGROUPS {2}             consumer warpgroups (the block has one more: the producer)
//   STAGES     {3, 4, 5, 6}    ring depth; the producer fills every free stage
//   CLUSTER_M  {1, 2}          (tma only) blocks per cluster along M: the two blocks of a
//                              pair share their B tile, each copying half of its k-rows
//                              into both (TMA multicast), which halves B's L2 traffic.
//                              Valid on the H200 (odd and suite shapes) and within 1-3%
//                              of CLUSTER_M = 1 there, never faster at the suite shapes
//                              (results/2026-11-29-h200-variants.md): the starting points
//                              use 1 and the search measures 2 like any other value.
//
// gene schedule (added after projects stored genomes; fallback "grid"):
//   grid        one block per output tile (and batch entry on grid.z): the kernels above.
//   persistent  (tma only; emit_gemm_wgmma_persistent.cpp) a grid of at most one block per
//               SM (launch rule: min(tiles, sm_count)) whose blocks loop over the output tiles, batch
//               entries included, in the grouped raster order. The producer thread runs
//               one continuous stream of k-tiles through the ring, so it fills the next
//               tile's stages while the consumers run the current tile's epilogue; the
//               epilogue stages C in its own buffer beside the ring, 64 columns at a time.
//   pingpong    (tma only; the same emitter) the persistent kernel whose consumer warpgroups
//               take turns: each owns a whole BLOCK_M x BLOCK_N tile (every other one of the
//               block's), so one's epilogue runs while the other's wgmmas use the tensor cores.
//   streamk     (tma, CLUSTER_M = 1; the same emitter, emit_gemm_wgmma_streamk.cpp) the persistent
//               kernel with hybrid stream-K: all but the last ~1.5 rounds of tiles whole, as
//               persistent; the k-iterations of the rest split evenly over the blocks, a split
//               tile's partial sums handed to the block before through a global workspace.
//               Grid: min(tiles, sm_count, STREAMK_MAX_BLOCKS = 160).
//
// gene epilogue, of the persistent schedules: "smem" (the tile staged in a padded buffer, stored
//   by the consumer threads) or "tma" (staged in 128-byte-swizzled boxes per warpgroup, stored
//   by the copy engine while the warps go on to the next tile; a third tensor map, of C).
//   EPI_BUFFERS {1, 2, 4} (tma only) boxes per warpgroup, used in turn.
//
// tensor_core "wgmma_bf16x3" (emit_gemm_wgmma_split.cpp): fp32 A, B and C with
// fp32 accuracy on bf16 tensor cores: a producer warpgroup splits every fp32
// tile into three bf16 terms (x = x0 + x1 + x2) and the consumers accumulate
// the six term products a_i.b_j with i + j <= 2, per k-tile in the tensor cores,
// across k-tiles in fp32 registers with round-to-nearest (no TF32 anywhere).
// pipeline "warp_specialized" (the producer copies the fp32 tiles with cp.async)
// or "tma" (one producer thread has the copy engine stage them; two tensor maps),
// epilogue "direct", vector "4", split_k "none". Parameters:
//   BLOCK_M    {128, 256}      rows of C per block
//   BLOCK_N    {64, 128}       columns of C per block = the N of each wgmma (two sets of
//                              accumulators: the tile sum and the running sum)
//   BLOCK_K    {32}            k per stage: one 64-byte swizzle row of bf16 (A's planes)
//   WARPGROUPS {2}             consumer warpgroups
//   STAGES     {2, 3, 4}       depth of the ring of split bf16 stages
//   PREFETCH   {1, 2, 3}       fp32 k-tiles copied (cp.async) ahead of the split
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/design_space.h"

namespace crucible::templates {

// The fixed facts every wgmma emitter sizes its kernel with (a nested namespace: gemm_space.cpp
// keeps its own names).
namespace wgmma {
inline constexpr std::int64_t kBf16Bytes = 2;
inline constexpr std::int64_t kWarpgroupThreads = 128;
inline constexpr std::int64_t kRowsPerWgmma = 64;               // the M of every wgmma
inline constexpr std::int64_t kSwizzleAlignment = 1024;         // the 128-byte swizzle repeats every 8 rows of 128 bytes
inline constexpr std::int64_t kMbarrierBytes = 8;
inline constexpr std::int64_t kMaxTileOffset = 2147483647;      // 32-bit tile coordinates and grid.x
inline constexpr std::int64_t kRasterGroupM = 8;                // block rows per raster group (L2 reuse of B panels)
// The persistent schedule's grid is one block per SM of the GPU it launches on (its launch
// rule names sm_count; the worker, or an exported launcher, supplies the GPU's). Only its
// legality rule (more tiles than blocks, else schedule=grid runs the same tiles) needs the
// count at proposal time: it takes KernelProblem::smCount, the SM count of the GPU the
// engine evaluates on. A proposal made with no GPU known (smCount 0: the CLI's starting
// points, tests) judges by this count, an H100 SXM's or H200's, and a refusal says so.
inline constexpr std::int64_t kSmCountAssumedWithoutGpu = 132;
// The stream-K schedule's largest grid: its workspace has a slot per block, sized at compile time.
inline constexpr std::int64_t kStreamKMaxBlocks = 160;
}  // namespace wgmma

// The schedule gene of the GEMM family (see above); "grid" is its fallback.
inline constexpr const char* kScheduleGene = "schedule";
inline constexpr const char* kGridSchedule = "grid";
inline constexpr const char* kPersistentSchedule = "persistent";
inline constexpr const char* kPingpongSchedule = "pingpong";
inline constexpr const char* kStreamKSchedule = "streamk";
// Whether a genome (stored with or without its fallbacks) has a persistent schedule
// (persistent, pingpong or streamk: emitGemmWgmmaPersistent), the pingpong one, the stream-K one.
inline bool isPingpongSchedule(const GeneMap& genes) {
  const auto it = genes.find(kScheduleGene);
  return it != genes.end() && it->second == kPingpongSchedule;
}
inline bool isStreamKSchedule(const GeneMap& genes) {
  const auto it = genes.find(kScheduleGene);
  return it != genes.end() && it->second == kStreamKSchedule;
}
inline bool isPersistentSchedule(const GeneMap& genes) {
  const auto it = genes.find(kScheduleGene);
  return it != genes.end() && (it->second == kPersistentSchedule || it->second == kPingpongSchedule ||
                               it->second == kStreamKSchedule);
}

// Registers per thread at launch: the register file split evenly, rounded down to the
// allocation granule of 8 and capped at 255 per thread.
std::int64_t entryRegisters(std::int64_t threads);

inline constexpr const char* kWarpSpecialized = "warp_specialized";
// The warp-specialized kernel with a TMA producer (cp.async.bulk.tensor, one thread).
inline constexpr const char* kTma = "tma";
// Both warp-specialized variants (producer warpgroup + mbarrier ring + staged epilogue).
// The fp32-accurate split kernel's tensor_core gene value.
inline constexpr const char* kWgmmaBf16x3 = "wgmma_bf16x3";
// The persistent kernels' epilogue gene value whose C leaves by bulk tensor stores (the gene's
// values: "direct", "smem", "tma").
inline constexpr const char* kTmaEpilogue = "tma";
inline bool isWarpSpecialized(const std::string& pipeline) { return pipeline == kWarpSpecialized || pipeline == kTma; }

// Either kernel, by the genome's pipeline gene.
EmittedKernel emitGemmWgmma(const Genome& g, const KernelProblem& p);
EmittedKernel emitGemmWgmmaWarpSpecialized(const Genome& g, const KernelProblem& p);
// The TMA kernel with the persistent schedule (emitGemmWgmmaWarpSpecialized routes to it).
// Batched problems are handled inside (each tile knows its batch entry): GemmSpace must not
// add its grid.z batch offsets.
EmittedKernel emitGemmWgmmaPersistent(const Genome& g, const KernelProblem& p);
// Its rules beyond the TMA kernel's, its shared memory (ring, the epilogue's staging buffers,
// the mbarriers), and its launch grid's tile count (batch included) at the task's shapes.
void addWgmmaPersistentViolations(const Genome& g, const KernelProblem& p, Violations& v);
std::int64_t gemmWgmmaPersistentSmemBytes(const Genome& g);
std::int64_t wgmmaPersistentTiles(const Genome& g, const KernelProblem& p);
// Stream-K (emit_gemm_wgmma_streamk.cpp): the device source of the workspace, the flags and
// the walk of a block's segments (streamk_walk / streamk_next); the consumers' fix-up after a
// segment's drain (a start partial hands its sums on, an end partial adds its successor's);
// the schedule's own rule. streamkSegments is the walk on the host, step for step: block
// `block`'s segments (k-tiles [t0, t1) of `tile`) on a grid of `grid` blocks.
struct StreamKSegment {
  std::int64_t tile, t0, t1;
};
std::int64_t streamkDataParallelTiles(std::int64_t tiles, std::int64_t grid);
std::vector<StreamKSegment> streamkSegments(std::int64_t tiles, std::int64_t kTiles, std::int64_t grid,
                                            std::int64_t block);
std::string streamkDeviceHelpers();
std::string streamkFixup();
// The producer warpgroup's thread 32: raises the block's flag once its start partial is stored.
std::string streamkFlagRaiser();
void addWgmmaStreamKViolations(const Genome& g, const KernelProblem& p, Violations& v);
// The helpers of the TMA kernels' clusters (cluster rank and addresses, remote arrival,
// cluster barrier, multicast bulk tensor copy).
std::string wgmmaClusterHelpers();

// The bf16x3 split kernel (fp32 operands): emitter, parameters, rules, shared memory.
EmittedKernel emitGemmWgmmaSplit(const Genome& g, const KernelProblem& p);
std::vector<TunableParameter> wgmmaSplitParameters();
// Its gene rules (fp32 operands, a producer warpgroup, the fixed genes, whole 16-byte chunks
// of K and N), then the rules of its parameters, checked only once the gene rules hold.
void addWgmmaSplitGeneViolations(const GeneMap& genes, const KernelProblem& p, Violations& v);
void addWgmmaSplitViolations(const Genome& g, const KernelProblem& p, Violations& v);
std::int64_t gemmWgmmaSplitSmemBytes(const Genome& g);

// The parameters of a wgmma genome, by its pipeline gene (see above).
std::vector<TunableParameter> wgmmaParameters(const GeneMap& genes);
std::vector<TunableParameter> wgmmaWarpSpecializedParameters(bool tma);

// Why no bf16 wgmma genome with these genes can be emitted for the problem, whatever
// its parameters: each pipeline's epilogue, the fixed vector / split_k genes, bf16
// operands, whole 16-byte chunks of K and N.
void addWgmmaGeneViolations(const GeneMap& genes, const KernelProblem& p, Violations& v);
// Why a wgmma genome whose genes pass addWgmmaGeneViolations cannot be emitted: tile
// divisibility, the accumulator register budget, shared memory, offsets and grid.
void addWgmmaViolations(const Genome& g, const KernelProblem& p, Violations& v);
void addWgmmaWarpSpecializedViolations(const Genome& g, const KernelProblem& p, Violations& v);

// The tile rules both wgmma variants share: the 64-wide k-tile of one swizzle row,
// tile divisibility by warpgroups and swizzle panels, wgmma's largest N, ring depth.
void addWgmmaTileViolations(const Genome& g, Violations& v);

// Dynamic shared memory: STAGES x (A tile + B tile) plus 1 KiB to align the
// ring to the 1024-byte swizzle pattern.
// The warp-specialized kernel adds its 2 x STAGES mbarriers.
std::int64_t gemmWgmmaSmemBytes(const Genome& g);
std::int64_t gemmWgmmaWarpSpecializedSmemBytes(const Genome& g);

// Shared by both emitters: the device helpers (shared addresses, cp.async,
// proxy fence, wgmma fence/commit/wait, matrix descriptors) and the inline-asm
// wrapper of wgmma.mma_async m64n<n>k16 bf16 with both operands in shared memory.
// `cpAsync` = false leaves out the cp.async and proxy-fence helpers (a TMA-fed kernel has no use for them).
std::string wgmmaDeviceHelpers(bool cpAsync = true);
// `accumulateArgument` adds an `int accumulate` argument (0: overwrite d instead of adding to it).
std::string wgmmaInstructionWrapper(std::int64_t n, bool accumulateArgument = false);
// The same instruction with scale-d = 0 and d an output only ("=f"): d = A * B. A tile's first
// k16 step, so the accumulators' old values are dead before it (no zeroing, no live range
// across the epilogue).
std::string wgmmaOverwriteWrapper(std::int64_t n);
// What both emitters render with: the extents ({{M}}, {{K}}, {{N}}) and the name of the
// wgmma wrapper for BLOCK_N ({{WGMMA}}); and the start of their header summary,
// "GEMM[ + bias + ReLU] on Hopper warpgroup tensor cores (wgmma m64n<N>k16 ...), ".
std::map<std::string, std::string> wgmmaRenderVars(const KernelProblem& p, std::int64_t blockN);
// The kernel with the launch all wgmma emitters share: one block per BLOCK_M x BLOCK_N tile of C
// on grid.x (the kernel maps it to a tile in grouped raster order), `threads` threads, `smemBytes`.
EmittedKernel wgmmaKernel(std::string source, const KernelProblem& p, std::int64_t blockM, std::int64_t blockN,
                          std::int64_t threads, std::int64_t smemBytes);
std::string wgmmaSummaryHead(const KernelProblem& p, std::int64_t blockN);

// Source fragments both wgmma kernels share; placeholders ({{M}}, {{N}}, {{K}},
// {{WGMMA}}) are left for the caller's render.
std::string wgmmaTileLayout();            // ROW_BYTES .. STAGE_BYTES constants
std::string wgmmaRasterOrder();           // block_row / block_col in grouped raster order
std::string wgmmaSwizzledDestinations();  // a thread's a_dst, b_dst, b_swizzle
std::string wgmmaCopyBTile();             // the B chunks of k-tile k0 into b_tile (inside a loop body)
std::string wgmmaZeroAccumulators();      // float acc[SLABS][BLOCK_N / 2] = 0
std::string wgmmaDescriptors(const std::string& groupIndex);  // a_desc / b_desc of stage 0
// One k-tile's wgmmas on `stage`, committed; with `overwriteFirst`, its first k16 step is
// {{WGMMA}}_overwrite (wgmmaOverwriteWrapper): a tile's first k-tile, with no zeroing before it.
std::string wgmmaIssueTile(bool overwriteFirst = false);
std::string wgmmaDrain();                 // waits for every wgmma, pins the accumulators

// The mbarrier helpers of the warp-specialized kernels: mbarrier_init and mbarrier_arrive;
// then mbarrier_wait (parity) and consumers_sync (named barrier 1 over CONSUMER_THREADS).
std::string mbarrierInitArriveHelpers();
// mbarrier_arrive_expect_tx and tma_load_2d (one 2D box by the copy engine, completing on an mbarrier).
std::string tmaCopyHelpers();
// The other way (epilogue=tma): fence_shared_to_async, tma_store_2d (a box of shared memory to a
// tensor, one bulk group), tma_store_wait_read<pending> and tma_store_wait_all.
std::string tmaStoreHelpers();
std::string mbarrierWaitHelpers();


}  // namespace crucible::templates
