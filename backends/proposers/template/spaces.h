// SPDX-License-Identifier: GPL-3.0-or-later
// The four design spaces and their emitters (one emitter file per space).
#pragma once
#include "backends/proposers/template/design_space.h"

namespace crucible::templates {

const DesignSpace& elementwiseSpace();  // gelu
const DesignSpace& rowReduceSpace();    // softmax, layernorm, rmsnorm, rowsum, cross_entropy
const DesignSpace& transposeSpace();    // transpose
const DesignSpace& gemmSpace();         // matmul, matmul_bias_relu

EmittedKernel emitElementwise(const Genome& g, const KernelProblem& p);
EmittedKernel emitRowReduce(const Genome& g, const KernelProblem& p);
EmittedKernel emitTranspose(const Genome& g, const KernelProblem& p);
EmittedKernel emitGemmSimt(const Genome& g, const KernelProblem& p);
EmittedKernel emitGemmMma(const Genome& g, const KernelProblem& p);
// Dynamic shared memory of a tensor-core GEMM genome: its pipeline stages or its epilogue tile.
std::int64_t gemmMmaSmemBytes(const Genome& g);

}  // namespace crucible::templates
