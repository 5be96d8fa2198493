// SPDX-License-Identifier: GPL-3.0-or-later
// Genes and parameters both row families share (rowreduce_space.cpp and
// expr_rowwise_space.cpp), added after projects stored genomes, so each has a
// fallback that means the code written before it:
//  - granularity=subwarp: LANES_PER_ROW (4, 8 or 16) lanes per row, several
//    rows per warp, shuffles inside the row's group of lanes (short rows);
//  - UNROLL: packs a thread of a streaming sweep (the row not cached in
//    registers) loads before it uses the first; fallback: 64 bytes' worth;
//  - schedule: one block per group of rows (row_blocks, the fallback), or a
//    persistent grid of BLOCKS_PER_SM blocks per SM looping over the groups
//    (no last partial wave of short-lived blocks, no block launch per group);
//  - hint: cache policy of the row's streamed loads and the output's stores
//    (access_hints.h): evict_first and no_allocate where each row is read from
//    global memory once, evict_last where a later sweep reads it again.
#pragma once
#include <algorithm>
#include <string>
#include <vector>
#include "backends/proposers/template/access_hints.h"
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/design_space.h"

namespace crucible::templates {

// The persistent grid has BLOCKS_PER_SM blocks per SM of the GPU it launches on
// (launch rule "BLOCKS_PER_SM * sm_count"). Whether a task has enough row groups
// to fill it is judged at an H100/H200's 132 SMs: the design check has no GPU.
inline constexpr std::int64_t kRowGridSms = 132;
inline constexpr std::int64_t kMaxResidentThreadsPerSm = 2048;
// Registers a streaming thread needs besides its values in flight, and what the
// persistent loop adds to any row kernel. Calibrated on NVRTC + nvJitLink sm_90:
// a 1024-thread softmax sweep took 40 registers in a row_blocks grid and 64 with
// a spill in the loop; a 512-thread softmax with its row in shared memory took
// 126 for 32 values in flight in the loop; a cross-entropy loop of 64 values in
// flight at 512 threads spilled.
inline constexpr std::int64_t kStreamingRegisterOverhead = 40;
inline constexpr std::int64_t kPersistentRegisterOverhead = 48;
// What hinted loads and stores add (NVRTC sm_90, hint=no_allocate: a 512-thread persistent softmax
// at 16 packs of 2 in flight spilled 60 bytes within the estimate above, a 1024-thread rmsnorm
// sweep at its fallback 10 bytes).
inline constexpr std::int64_t kHintRegisterOverhead = 16;
// hint=evict_last's loads take two cache policies and stay in program order (NVRTC sm_90: a
// 512-thread layernorm sweep of 16 packs of 4 floats in flight spilled 40 bytes within the above).
inline constexpr std::int64_t kRereadHintRegisterOverhead = 32;

// What the streaming sweeps loaded before UNROLL existed: 64 bytes in at most 16 packs.
inline std::int64_t unrollFallback(std::int64_t packBytes) {
  return std::clamp<std::int64_t>(64 / std::max<std::int64_t>(packBytes, 1), 1, 16);
}

// `rereadHint`: the family's emitter knows its last sweep over a row, so hint=evict_last applies
// (emit_rowreduce.cpp; the expression rows' sweeps do not say which is last).
inline std::vector<GeneDef> rowScheduleGenes(bool rereadHint) {
  std::vector<std::string> hints = accessHintValues();
  if (rereadHint) hints.push_back(kRereadHint);
  return {{"schedule", {"row_blocks", "persistent"}, "row_blocks"}, {"hint", hints, "default"}};
}

// The parameters of a granularity (subwarp included), then UNROLL for
// streaming rows and BLOCKS_PER_SM for the persistent schedule.
inline std::vector<TunableParameter> rowParameters(const GeneMap& genes, bool streaming) {
  const std::string& granularity = genes.at("granularity");
  std::vector<TunableParameter> out;
  if (granularity == "warp") out = {{"ROWS_PER_BLOCK", {1, 2, 4, 8, 16}}};
  else if (granularity == "multiwarp") out = {{"ROWS_PER_BLOCK", {2, 4, 8}}, {"WARPS_PER_ROW", {2, 4, 8}}};
  // Sub-warp blocks stop at 512 threads, as warp rows do: at 1024 (64 registers a thread) the
  // streaming sweeps of multi-stage operators spilled (NVRTC sm_90, logsoftmax at 16 lanes x 64 rows).
  else if (granularity == "subwarp") out = {{"LANES_PER_ROW", {4, 8, 16}}, {"ROWS_PER_BLOCK", {8, 16, 32}}};
  else out = {{"WARPS_PER_ROW", {2, 4, 8, 16, 32}}};
  if (streaming) out.push_back({"UNROLL", {1, 2, 4, 8, 16}});
  if (geneOr(genes, "schedule", "row_blocks") == "persistent") out.push_back({"BLOCKS_PER_SM", {1, 2, 4, 8}});
  return out;
}

inline std::int64_t rowThreadsPerRow(const Genome& g) {
  const std::string& granularity = g.gene("granularity");
  if (granularity == "subwarp") return g.param("LANES_PER_ROW");
  return granularity == "warp" ? kWarp : kWarp * g.param("WARPS_PER_ROW");
}
inline std::int64_t rowRowsPerBlock(const Genome& g) {
  return g.gene("granularity") == "block" ? 1 : g.param("ROWS_PER_BLOCK");
}

inline std::int64_t persistentOverhead(const Genome& g) {
  return g.gene("schedule") == "persistent" ? kPersistentRegisterOverhead : 0;
}

// The shared genes' rules. `rowGroups`: blocks of the row_blocks grid;
// `packBytes`: the narrowest pack a hint would move; `valuesPerPack`: the fp32
// values one pack in flight becomes (the compiler may widen a whole chunk
// before using it); `unrollWas`: the UNROLL fallback (what the sweeps loaded
// before the parameter, known to compile); `readOnce`: every row is read from
// global memory once (a hint's condition).
inline void rowDesignViolations(Violations& v, const Genome& g, std::int64_t rowGroups, std::int64_t packBytes,
                                std::int64_t valuesPerPack, std::int64_t unrollWas, bool readOnce) {
  const std::int64_t threads = rowThreadsPerRow(g) * rowRowsPerBlock(g);
  if (g.gene("granularity") == "subwarp" && threads % kWarp != 0)
    v.add("LANES_PER_ROW x ROWS_PER_BLOCK (" + std::to_string(threads) + ") must be whole warps (a multiple of 32)");
  // More values in flight than the sweeps always had, the persistent loop's extra registers, or
  // hinted accesses' must fit the per-thread share of the register file (__launch_bounds__(THREADS)).
  const std::int64_t hintOverhead = g.gene("hint") == kRereadHint ? kRereadHintRegisterOverhead
                                    : g.gene("hint") != "default" ? kHintRegisterOverhead
                                                                  : 0;
  if (g.params.count("UNROLL") && (g.param("UNROLL") > unrollWas || persistentOverhead(g) > 0 || hintOverhead > 0)) {
    const std::int64_t registers = g.param("UNROLL") * valuesPerPack;
    v.atMost(registers + kStreamingRegisterOverhead + persistentOverhead(g) + hintOverhead,
             "estimated registers per streaming thread",
             std::min(kMaxRegistersPerThread, kRegistersPerSm / std::max<std::int64_t>(threads, 1)),
             "the per-thread share of the register file");
  }
  if (g.gene("schedule") == "persistent") {
    const std::int64_t perSm = g.param("BLOCKS_PER_SM");
    v.atMost(perSm * threads, "threads of a persistent grid's blocks on one SM", kMaxResidentThreadsPerSm,
             "the resident-thread limit (a second wave defeats the persistent grid)");
    if (rowGroups <= perSm * kRowGridSms)
      v.add("a persistent grid of " + std::to_string(perSm * kRowGridSms) + " blocks needs more row groups than that (" +
            std::to_string(rowGroups) + "): the row_blocks grid is the same kernel");
  }
  const std::string& hint = g.gene("hint");
  if (hint != "default") {
    if (const std::string why = accessHintViolation(hint, packBytes); !why.empty()) v.add(why);
    if (hint == kRereadHint && readOnce)
      v.add("hint=" + hint + " keeps a row in L2 for the sweep that reads it again; this kernel reads each row from "
            "global memory once");
    if (hint != kRereadHint && !readOnce)
      v.add("hint=" + hint + " is for rows read from global memory once (the row in registers or shared memory, or a "
            "single sweep); this kernel re-reads the row");
  }
}

}  // namespace crucible::templates
