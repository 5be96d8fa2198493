// SPDX-License-Identifier: GPL-3.0-or-later
// The Hopper warpgroup tensor-core GEMM (tensor_core = "wgmma"): bf16 inputs,
// fp32 accumulation, sm_90a only. Its genes are fixed by the kernel's design:
// pipeline "cp_async" (16-byte cp.async into 128-byte-swizzled shared memory,
// a STAGES-deep ring), epilogue "direct", vector "8", split_k "none".
// Parameters:
//   BLOCK_M    {64, 128, 256}  rows of C per block; a multiple of 64 x WARPGROUPS
//   BLOCK_N    {64, 128, 256}  columns of C per block = the N of each wgmma (m64nNk16)
//   BLOCK_K    {64}            k per pipeline stage: one 128-byte swizzle row of bf16
//   WARPGROUPS {1, 2}          128-thread warpgroups; each owns BLOCK_M / WARPGROUPS rows
//   STAGES     {3, 4, 5}       shared-memory ring depth; tiles are fetched STAGES - 2 ahead
#pragma once
#include <cstdint>
#include <vector>
#include "backends/proposers/template/constraints.h"
#include "backends/proposers/template/design_space.h"

namespace crucible::templates {

EmittedKernel emitGemmWgmma(const Genome& g, const KernelProblem& p);

// The parameters of a wgmma genome (its genes are fixed, see above).
std::vector<TunableParameter> wgmmaParameters(const GeneMap& genes);

// Why a wgmma genome cannot be emitted for the problem: the fixed genes, bf16
// operands, tile divisibility, the accumulator register budget, shared memory.
void addWgmmaViolations(const Genome& g, const KernelProblem& p, Violations& v);

// Dynamic shared memory: STAGES x (A tile + B tile) plus 1 KiB to align the
// ring to the 1024-byte swizzle pattern.
std::int64_t gemmWgmmaSmemBytes(const Genome& g);

}  // namespace crucible::templates
