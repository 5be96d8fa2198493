// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA pieces shared by the emitters of operators stated as expressions
// (TaskSpec::operation): value expressions in fp32 CUDA, the device functions
// they call, and pack loads/stores for tensors of mixed dtypes.
#pragma once
#include <functional>
#include <set>
#include <string>
#include "backends/proposers/template/genome.h"
#include "backends/proposers/template/kernel_problem.h"
#include "core/task/value_expression.h"

namespace crucible::templates {

// The "math" gene of the expression families: how the operator's exponentials
// and logarithms (exp, log, and sigmoid, silu, softplus and log-sum-exp, which
// are built on them) are computed. precise: expf / logf, libdevice's, within
// 2 ulp. fast: __expf / __logf, the special-function unit's ex2 / lg2
// approximations (what Triton's exp compiles to): fewer instructions, an error
// that grows with |x|. Validation against the task's tolerances decides, as for
// everything else, whether a kernel may use them.
enum class MathMode { Precise, Fast };

// The genome's "math" gene; precise where it has none (genomes from before it).
MathMode mathMode(const GeneMap& genes);
// The CUDA function computing e^x / ln x in fp32 under `mode`.
const char* cudaExp(MathMode mode);
const char* cudaLog(MathMode mode);
// Whether the expression computes an exponential or a logarithm.
bool computesExpOrLog(const ValueExpression& e);
// Whether the operator does (a log-sum-exp, or an exponential or logarithm in a
// reduction's value or in the result): only then has the math gene anything to
// choose. False for a problem with no operator.
bool computesExpOrLog(const KernelProblem& p);

// A float literal CUDA reads exactly as written: 2 -> "2.0f", 1e-05 -> "1e-05f".
std::string cudaFloatLiteral(double v);

// The expression as fp32 CUDA; `name` spells each tensor or reduction it reads.
std::string cudaValue(const ValueExpression& e, const std::function<std::string(const std::string&)>& name,
                      MathMode math);

// Device functions for valueFunctions() with no CUDA built-in of their own
// (vf_sigmoid, vf_silu, vf_gelu, ...), their exponentials under `math`.
std::string valueFunctionHelpers(MathMode math);

// For every dtype of `dtypes` (f32, f16, bf16): to_f(T) -> float and from_f<T>(float);
// PackOf<T> (VEC elements as one aligned access); load_vec / store_vec between
// a T* and float[VEC]; with `streaming`, load_vec_cs / store_vec_cs, the same
// with evict-first hints (__ldcs / __stcs on the pack's 4-, 8- or 16-byte word).
// Expects a constexpr int VEC in scope.
std::string mixedPackHelpers(const std::set<DType>& dtypes, bool streaming);

}  // namespace crucible::templates
