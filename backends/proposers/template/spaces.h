// SPDX-License-Identifier: GPL-3.0-or-later
// The design spaces and their emitters (one emitter file per space).
#pragma once
#include "backends/proposers/template/design_space.h"

namespace crucible::templates {

const DesignSpace& elementwiseSpace();  // gelu
const DesignSpace& rowReduceSpace();    // softmax, layernorm, rmsnorm, rowsum, cross_entropy
const DesignSpace& transposeSpace();    // transpose
const DesignSpace& gemmSpace();         // matmul, matmul_bias_relu
const DesignSpace& exprElementwiseSpace();  // expr_elementwise: an elementwise operator stated as an expression
const DesignSpace& exprRowwiseSpace();      // expr_rowwise: reductions over the last axis, then an epilogue

// The elementwise families' genes (narrow: 2-byte elements, up to 8 a 16-byte access), parameters,
// and starting genomes (one-shot, grid-stride, streaming) at a vector width.
std::vector<GeneDef> elementwiseGenes(bool narrow);
std::vector<TunableParameter> elementwiseParameters(const GeneMap& genes);
std::vector<Genome> elementwiseStartingGenomes(const std::string& family, const std::string& vector);

EmittedKernel emitElementwise(const Genome& g, const KernelProblem& p);
EmittedKernel emitRowReduce(const Genome& g, const KernelProblem& p);
EmittedKernel emitExprElementwise(const Genome& g, const KernelProblem& p);
EmittedKernel emitExprRowwise(const Genome& g, const KernelProblem& p);
EmittedKernel emitTranspose(const Genome& g, const KernelProblem& p);
EmittedKernel emitGemmSimt(const Genome& g, const KernelProblem& p);
EmittedKernel emitGemmSimtAsync(const Genome& g, const KernelProblem& p);  // fp32, cp.async pipeline
EmittedKernel emitGemmMma(const Genome& g, const KernelProblem& p);
// The tensor-core GEMMs' store of a lane's two adjacent bf16 outputs in rows `row`
// and `row + 8` at column `col` (bias loaded first when fused); leaves {{M}},
// {{N}}, {{V0}}, {{V1}} for the caller's render.
std::string bf16PairStore(const KernelProblem& p);
// The SIMT GEMMs' epilogue for fp32 C (N a multiple of 4): each thread's runs
// of 4 columns stored as one float4. `rowOfI` is its row i relative to
// warp_row; `biasLine` declares bias_value (fused bias) or is empty. The
// placeholders {{M}}, {{N}} and {{EPILOGUE}} are left for the caller's render.
std::string simtFloat4Epilogue(const std::string& rowOfI, const std::string& biasLine);
// Dynamic shared memory of the cp.async SIMT GEMM: STAGES x (padded A tile + B tile), fp32.
std::int64_t gemmSimtAsyncSmemBytes(const Genome& g);
// Dynamic shared memory of a tensor-core GEMM genome: its pipeline stages or its epilogue tile.
std::int64_t gemmMmaSmemBytes(const Genome& g);

}  // namespace crucible::templates
