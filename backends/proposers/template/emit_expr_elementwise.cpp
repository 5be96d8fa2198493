// SPDX-License-Identifier: GPL-3.0-or-later
// Emits the kernel of an elementwise operator stated as an expression. Each
// thread moves ITEMS_PER_THREAD packs of VEC output elements, the packs of one
// load instruction adjacent across the block's threads (coalesced); every
// input of a pack is loaded before any is used. The last n % VEC elements are
// computed one per thread by block 0. An input broadcast otherwise ([M, 1],
// [B, 1, N]) has its index computed once per pack: a pack never crosses an
// output row (expr_elementwise_space.cpp). Local names start with `cr_` (the spec's
// tensor and axis names may not: kernel_problem.cpp).
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/expr_cuda.h"
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {
namespace {

std::string product(const KernelProblem& p, const ProblemTensor& t) {
  std::string s;
  for (int d = 0; d < static_cast<int>(t.shape.size()); ++d) s += (s.empty() ? "" : " * ") + p.extentCode(t, d);
  return "(" + s + ")";
}

// `auto cr_index_<t> = [&](long long e) { ... }`: the element of broadcast
// input t read by output element e (dimensions aligned at the right; an input
// dimension of 1 is read at 0).
// Outputs of fewer than 2^31 elements (at the task's shape; the sanitizers'
// shapes are smaller) index in 32-bit unsigned arithmetic: a 64-bit division
// costs several times as much, and this one runs once per pack.
std::int64_t outputElements(const KernelProblem& p, const ProblemTensor& out) {
  std::int64_t n = 1;
  for (int d = 0; d < static_cast<int>(out.shape.size()); ++d) n *= p.extent(out, d);
  return n;
}

std::string indexLambda(const KernelProblem& p, const ProblemTensor& t, const ProblemTensor& out) {
  const int outRank = static_cast<int>(out.shape.size());
  const int inRank = static_cast<int>(t.shape.size());
  const bool narrow = outputElements(p, out) < (std::int64_t{1} << 31);
  const std::string type = narrow ? "unsigned" : "long long";
  auto cast = [&](const std::string& code) { return narrow ? "(unsigned)" + code : code; };
  std::string s = "  auto cr_index_" + t.role + " = [&](long long cr_element) -> long long {\n";
  s += "    " + type + " cr_e = (" + type + ")cr_element;\n";
  s += "    " + type + " cr_at = 0;\n";
  std::string stride = "1";
  for (int k = 1; k <= outRank && k <= inRank; ++k) {
    const int od = outRank - k, id = inRank - k;
    const std::string dim = cast(p.extentCode(out, od));
    if (p.extent(t, id) != 1) s += "    cr_at += (cr_e % " + dim + ") * " + stride + ";\n";
    if (k < outRank && k < inRank) s += "    cr_e /= " + dim + ";\n";
    stride = stride == "1" ? cast(p.extentCode(t, id)) : stride + " * " + cast(p.extentCode(t, id));
  }
  return s + "    return (long long)cr_at;\n  };\n";
}

// indexing=rows: the output as [rows, cols] (cols its last dimension), each
// block's tile of TILE packs inside one row (a row of more packs has several
// tiles; its last one may be partial). Per tile: one division for the row,
// then each broadcast input's offset in that row, and an input constant along
// the row ([M, 1]) loaded once; per pack only additions. Correct at any shape
// whose last dimension is a multiple of VEC (else it stops: __trap).
// `body` and the caller's prologue: returns the statements after the signature.
std::string rowTiledBody(const KernelProblem& p, const ProblemTensor& out, const std::vector<const ProblemTensor*>& read,
                         const ValueExpression& expr, bool gridStride, bool streaming, MathMode math) {
  const int last = static_cast<int>(out.shape.size()) - 1;
  std::string rows;
  for (int d = 0; d < last; ++d) rows += (rows.empty() ? "" : " * ") + p.extentCode(out, d);
  std::string s;
  s += "  const long long cr_cols = " + p.extentCode(out, last) + ";  // the output's last dimension\n";
  s += "  const long long cr_rows = " + (rows.empty() ? std::string("1LL") : "(" + rows + ")") + ";\n";
  s += "  if (cr_cols % VEC != 0) __trap();  // a pack must not cross an output row\n";
  s += "  const long long cr_row_packs = cr_cols / VEC;\n";
  s += "  const long long cr_row_tiles = (cr_row_packs + TILE - 1) / TILE;  // tiles per row\n";
  s += "  const long long cr_tiles = cr_rows * cr_row_tiles;\n";
  for (const auto* t : read) {
    if (*t->broadcast == Broadcast::Trailing)
      s += "  const long long cr_size_" + t->role + " = " + product(p, *t) + ";  // repeats along the leading axes\n";
    if (*t->broadcast == Broadcast::General) s += indexLambda(p, *t, out);
  }
  // An input broadcast otherwise whose last dimension is 1 holds one value per output row.
  auto constantAlongRow = [&](const ProblemTensor& t) {
    return *t.broadcast == Broadcast::General && p.extent(t, static_cast<int>(t.shape.size()) - 1) == 1;
  };
  // 32-bit division and remainder where the output allows it (as indexLambda): a 64-bit one by a
  // runtime value is a long call, paid here once per tile by every thread.
  const bool narrow = outputElements(p, out) < (std::int64_t{1} << 31);
  std::string tile;
  tile += narrow ? "const long long cr_row = (long long)((unsigned)cr_tile / (unsigned)cr_row_tiles);\n"
                 : "const long long cr_row = cr_tile / cr_row_tiles;\n";
  tile += "const long long cr_first = (cr_tile - cr_row * cr_row_tiles) * TILE + threadIdx.x;  // a pack of the row\n";
  tile += "const long long cr_row_start = cr_row * cr_cols;  // the row's first element\n";
  for (const auto* t : read) {
    if (*t->broadcast == Broadcast::Trailing && t->shape.size() == 1)
      tile += "const long long cr_base_" + t->role + " = 0;  // [cols]: the same row for every output row\n";
    else if (*t->broadcast == Broadcast::Trailing)
      // Its last dimension is the output's: the row's offset in it is a whole number of its rows.
      tile += narrow ? "const long long cr_base_" + t->role + " = (long long)(((unsigned)cr_row % (unsigned)(cr_size_" +
                           t->role + " / cr_cols)) * (unsigned)cr_cols);\n"
                     : "const long long cr_base_" + t->role + " = (cr_row % (cr_size_" + t->role + " / cr_cols)) * cr_cols;\n";
    else if (constantAlongRow(*t))
      tile += "const float cr_value_" + t->role + " = to_f(" + t->role + "[cr_index_" + t->role + "(cr_row_start)]);\n";
    else if (*t->broadcast == Broadcast::General)
      // Its row is the output's: VEC-aligned (its last dimension is cols, a multiple of VEC).
      tile += "const long long cr_base_" + t->role + " = cr_index_" + t->role + "(cr_row_start);\n";
  }
  for (const auto* t : read)
    if (!constantAlongRow(*t)) tile += "float cr_" + t->role + "[ITEMS_PER_THREAD][VEC];\n";
  tile += "#pragma unroll\nfor (int cr_i = 0; cr_i < ITEMS_PER_THREAD; ++cr_i) {\n";
  tile += "  const long long cr_pack = cr_first + (long long)cr_i * THREADS;\n  if (cr_pack < cr_row_packs) {\n";
  tile += "    const long long cr_col = cr_pack * VEC;\n";
  for (const auto* t : read) {
    const std::string dst = "cr_" + t->role + "[cr_i]";
    if (*t->broadcast == Broadcast::Same)
      tile += "    " + std::string(streaming ? "load_vec_cs" : "load_vec") + "(" + t->role + " + cr_row_start + cr_col, " +
              dst + ");\n";
    else if (!constantAlongRow(*t))
      tile += "    load_vec(" + t->role + " + cr_base_" + t->role + " + cr_col, " + dst + ");  // reused: cached\n";
  }
  tile += "  }\n}\n";
  const std::string value = cudaValue(expr, [&](const std::string& name) {
    for (const auto* t : read)
      if (t->role == name && constantAlongRow(*t)) return "cr_value_" + name;
    return "cr_" + name + "[cr_i][cr_k]";
  }, math);
  tile += "#pragma unroll\nfor (int cr_i = 0; cr_i < ITEMS_PER_THREAD; ++cr_i) {\n";
  tile += "  const long long cr_pack = cr_first + (long long)cr_i * THREADS;\n  if (cr_pack < cr_row_packs) {\n";
  tile += "    float cr_out[VEC];\n";
  tile += "#pragma unroll\n    for (int cr_k = 0; cr_k < VEC; ++cr_k) cr_out[cr_k] = " + value + ";\n";
  tile += "    " + std::string(streaming ? "store_vec_cs" : "store_vec") + "(" + out.role +
          " + cr_row_start + cr_pack * VEC, cr_out);\n";
  tile += "  }\n}\n";
  if (gridStride)
    s += "  for (long long cr_tile = blockIdx.x; cr_tile < cr_tiles; cr_tile += gridDim.x) {\n" + indentLines(tile, 4) +
         "  }\n";
  else
    s += "  const long long cr_tile = blockIdx.x;\n  if (cr_tile < cr_tiles) {\n" + indentLines(tile, 4) + "  }\n";
  return s;
}

}  // namespace

EmittedKernel emitExprElementwise(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& out = p.outputs.at(0);
  const bool gridStride = g.gene("grid") == "grid_stride";
  const bool streaming = g.gene("cache") == "streaming";
  const bool rowTiles = geneOr(g.genes, "indexing", "flat") == "rows";
  const MathMode math = mathMode(g.genes);
  const std::int64_t vec = std::stoll(g.gene("vector"));
  const bool narrowIndex = outputElements(p, out) < (std::int64_t{1} << 31);
  const ValueExpression expr = parseValueExpression(p.operation->expression, [&] {
    std::set<std::string> names;
    for (const auto& t : p.inputs) names.insert(t.role);
    return names;
  }());

  std::set<DType> dtypes = {out.dtype};
  std::vector<const ProblemTensor*> read;
  for (const auto& t : p.inputs)
    if (t.read) read.push_back(&t), dtypes.insert(t.dtype);

  std::string src = headerComment(g, p,
                                  "elementwise " + out.role + " = " + p.operation->expression + ", " +
                                      std::to_string(vec) + "-element packs, " +
                                      (gridStride ? "grid-stride loop" : "one tile per block") +
                                      (streaming ? ", evict-first (streaming) loads and stores" : "") +
                                      (rowTiles ? ", tiles inside output rows (broadcast offsets once per tile)" : "") +
                                      (math == MathMode::Fast ? ", fast exponentials and logarithms (__expf, __logf)" : ""));
  src += includes(p) + "\n";
  src += constant("THREADS", g.param("THREADS"));
  src += constant("VEC", vec, "elements per access");
  src += constant("ITEMS_PER_THREAD", g.param("ITEMS_PER_THREAD"), "packs per thread, THREADS apart");
  src += "constexpr int TILE = THREADS * ITEMS_PER_THREAD;  // packs per block per step\n\n";
  src += mixedPackHelpers(dtypes, streaming);
  src += valueFunctionHelpers(math);
  src += p.signature("THREADS") + " {\n";
  if (rowTiles) {
    src += rowTiledBody(p, out, read, expr, gridStride, streaming, math) + "}\n";
    EmittedKernel k;
    k.source = std::move(src);
    k.launch.entry = p.entry;
    const int last = static_cast<int>(out.shape.size()) - 1;
    std::string rows;
    for (int d = 0; d < last; ++d) rows += (rows.empty() ? "" : " * ") + p.extentExpr(out, d);
    // At least one block; a grid of whole rows of tiles (the kernel skips tiles past the end).
    const std::string tiles = "max(" + (rows.empty() ? std::string("1") : rows) + " * ceil_div(" + p.extentExpr(out, last) +
                              ", " + std::to_string(vec * g.param("THREADS") * g.param("ITEMS_PER_THREAD")) + "), 1)";
    k.launch.grid[0] = gridStride ? "min(" + tiles + ", " + std::to_string(g.param("MAX_BLOCKS")) + ")" : tiles;
    k.launch.block[0] = std::to_string(g.param("THREADS"));
    return k;
  }
  src += "  const long long cr_n = " + product(p, out) + ";\n";
  src += "  const long long cr_packs = cr_n / VEC;\n";
  bool rowGuard = false;
  for (const auto* t : read) {
    if (*t->broadcast == Broadcast::Trailing) {
      src += "  const long long cr_size_" + t->role + " = " + product(p, *t) + ";  // repeats along the leading axes\n";
      // Packs are whole within each repetition only at shapes that keep the divisibility (the
      // sanitizers run smaller shapes): anything else stops loudly rather than reading across.
      if (vec > 1) src += "  if (cr_size_" + t->role + " % VEC != 0) __trap();\n";
    }
    if (*t->broadcast == Broadcast::General) {
      src += indexLambda(p, *t, out);
      rowGuard = true;
    }
  }
  if (rowGuard && vec > 1)
    src += "  if (" + p.extentCode(out, static_cast<int>(out.shape.size()) - 1) +
           " % VEC != 0) __trap();  // a pack must not cross an output row\n";

  // One pack: loads of every input, then the expression, then the store.
  std::string body;
  for (const auto* t : read) body += "float cr_" + t->role + "[ITEMS_PER_THREAD][VEC];\n";
  body += "#pragma unroll\nfor (int cr_i = 0; cr_i < ITEMS_PER_THREAD; ++cr_i) {\n";
  body += "  const long long cr_pack = cr_first + (long long)cr_i * THREADS;\n  if (cr_pack < cr_packs) {\n";
  for (const auto* t : read) {
    const std::string dst = "cr_" + t->role + "[cr_i]";
    if (*t->broadcast == Broadcast::Same)
      body += "    " + std::string(streaming ? "load_vec_cs" : "load_vec") + "(" + t->role + " + cr_pack * VEC, " + dst + ");\n";
    else if (*t->broadcast == Broadcast::Trailing)
      // A 32-bit remainder where the output allows it, as indexLambda does: a 64-bit one is a
      // long instruction sequence, paid once per pack of a memory-bound kernel.
      body += "    load_vec(" + t->role + " + " +
              (narrowIndex ? "(long long)((unsigned)(cr_pack * VEC) % (unsigned)cr_size_" + t->role + ")"
                           : "cr_pack * VEC % cr_size_" + t->role) +
              ", " + dst + ");  // reused: cached\n";
    else if (p.extent(*t, static_cast<int>(t->shape.size()) - 1) == 1)
      // A pack lies in one output row (the row length is a multiple of VEC), and
      // the input repeats along that row: one element for the whole pack.
      body += "    {\n      const float cr_value = to_f(" + t->role + "[cr_index_" + t->role +
              "(cr_pack * VEC)]);\n#pragma unroll\n      for (int cr_k = 0; cr_k < VEC; ++cr_k) " + dst +
              "[cr_k] = cr_value;\n    }\n";
    else
      // The input's row is the output's: the pack is VEC consecutive, aligned elements of it.
      body += "    load_vec(" + t->role + " + cr_index_" + t->role + "(cr_pack * VEC), " + dst + ");\n";
  }
  body += "  }\n}\n";
  const std::string value = cudaValue(expr, [](const std::string& name) { return "cr_" + name + "[cr_i][cr_k]"; }, math);
  body += "#pragma unroll\nfor (int cr_i = 0; cr_i < ITEMS_PER_THREAD; ++cr_i) {\n";
  body += "  const long long cr_pack = cr_first + (long long)cr_i * THREADS;\n  if (cr_pack < cr_packs) {\n";
  body += "    float cr_out[VEC];\n";
  body += "#pragma unroll\n    for (int cr_k = 0; cr_k < VEC; ++cr_k) cr_out[cr_k] = " + value + ";\n";
  body += "    " + std::string(streaming ? "store_vec_cs" : "store_vec") + "(" + out.role + " + cr_pack * VEC, cr_out);\n";
  body += "  }\n}\n";

  if (gridStride) {
    src += "  for (long long cr_tile = blockIdx.x; cr_tile * TILE < cr_packs; cr_tile += gridDim.x) {\n";
    src += "    const long long cr_first = cr_tile * TILE + threadIdx.x;\n";
    src += indentLines(body, 4) + "  }\n";
  } else {
    src += "  const long long cr_first = (long long)blockIdx.x * TILE + threadIdx.x;\n";
    src += indentLines(body, 2);
  }
  if (vec > 1) {
    // The n % VEC elements past the last whole pack.
    src += "  if (blockIdx.x == 0 && threadIdx.x < cr_n - cr_packs * VEC) {\n";
    src += "    const long long cr_e = cr_packs * VEC + threadIdx.x;\n";
    for (const auto* t : read) {
      const std::string at = *t->broadcast == Broadcast::Same       ? "cr_e"
                             : *t->broadcast == Broadcast::Trailing ? "cr_e % cr_size_" + t->role
                                                                    : "cr_index_" + t->role + "(cr_e)";
      src += "    const float cr_tail_" + t->role + " = to_f(" + t->role + "[" + at + "]);\n";
    }
    src += "    " + out.role + "[cr_e] = from_f<" + cudaTypeName(out.dtype) + ">(" +
           cudaValue(expr, [](const std::string& name) { return "cr_tail_" + name; }, math) + ");\n";
    src += "  }\n";
  }
  src += "}\n";

  EmittedKernel k;
  k.source = std::move(src);
  k.launch.entry = p.entry;
  std::string n;
  for (int d = 0; d < static_cast<int>(out.shape.size()); ++d) n += (n.empty() ? "" : " * ") + p.extentExpr(out, d);
  // At least one block: the tail is block 0's.
  const std::string tiles = "max(ceil_div(" + n + " / " + std::to_string(vec) + ", " +
                            std::to_string(g.param("THREADS") * g.param("ITEMS_PER_THREAD")) + "), 1)";
  k.launch.grid[0] = gridStride ? "min(" + tiles + ", " + std::to_string(g.param("MAX_BLOCKS")) + ")" : tiles;
  k.launch.block[0] = std::to_string(g.param("THREADS"));
  return k;
}

}  // namespace crucible::templates
