// SPDX-License-Identifier: GPL-3.0-or-later
// Pieces every template emitter writes: the header comment stating the genome,
// the includes a dtype needs, the Pack type for vector accesses, conversions,
// and a small placeholder renderer that keeps the emitters' code templates readable.
#pragma once
#include <map>
#include <string>
#include "backends/proposers/template/genome.h"
#include "backends/proposers/template/kernel_problem.h"

namespace crucible::templates {

// Replaces every {{NAME}} in `text` with vars.at(NAME); throws std::logic_error
// on a placeholder with no value (an emitter bug, never a user error).
std::string render(const std::string& text, const std::map<std::string, std::string>& vars);

// "// Crucible template kernel: <summary>\n// task ... genes ... params ...\n"
std::string headerComment(const Genome& g, const KernelProblem& p, const std::string& summary);

// #include lines for the dtypes the problem uses (cuda_bf16.h, cuda_fp16.h).
std::string includes(const KernelProblem& p);

// Indents every line of `text` by `spaces`, leaving preprocessor lines and empty lines alone.
std::string indentLines(const std::string& text, int spaces);

// `constexpr int NAME = value;  // why` lines.
std::string constant(const std::string& name, std::int64_t value, const std::string& why = "");

// Expression converting `expr` of dtype `d` to float, and float `expr` to `d`.
std::string toFloat(DType d, const std::string& expr);
std::string fromFloat(DType d, const std::string& expr);

// A vector of VEC elements of `d` as one aligned access, and helpers that load
// it into / store it from a float[VEC] array:
//   struct alignas(16) Pack { float v[VEC]; };
//   load_pack(const T* p, float (&v)[VEC]);  store_pack(T* p, const float (&v)[VEC]);
// Expects `VEC` to be a constexpr in scope. `withConversions` = false emits only the Pack type.
std::string packHelpers(DType d, bool withConversions = true);

// smem_address(p), cp_async_16(dst, src, valid) (16 bytes global -> shared,
// zeros when !valid), cp_async_commit(), cp_async_wait<PENDING>().
std::string cpAsyncHelpers();
// The cp.async copy, commit and wait alone (for kernels that define smem_address themselves).
std::string cpAsyncCopyHelpers();

// The multistage main loop over k-tiles: STAGES - 1 tiles in flight, one
// commit group per iteration. Expects in scope: STAGES, `k_tiles`, and the
// lambdas load_tile(k_tile, stage) and compute_tile(stage).
std::string cpAsyncMainLoop();

}  // namespace crucible::templates
