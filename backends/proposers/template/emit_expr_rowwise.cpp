// SPDX-License-Identifier: GPL-3.0-or-later
// Emits the kernel of a rowwise operator stated as expressions. THREADS_PER_ROW
// threads share a row and ROWS_PER_BLOCK rows share a block; each thread owns
// the packs lane, lane + THREADS_PER_ROW, ... of its row. The reductions run in
// stages (a reduction that reads another waits for it): one sweep over the row
// per stage accumulates every reduction of the stage, then each is combined
// across the row's threads. A last sweep writes the epilogue per element, or
// lane 0 writes it per row. With the row in registers, the tensors of the row's
// shape are loaded once, in one burst, before any math. Local names start with
// `cr_` (the spec's tensor and axis names may not: kernel_problem.cpp).
//
// Rows of any length take any vector width. When the row length is a multiple
// of VEC every row starts on a pack boundary and the packs are counted from the
// row's start, as always. Otherwise ("ragged" rows) the packs sit on the
// tensor's VEC-element grid (row_packs.h): pack 0 is a partial head, the last
// may be a partial tail, both moved element by element, and the middle moves in
// whole aligned packs. Which tensors move in packs, and why that is safe:
//  - every tensor of the row's shape (x, a residual, the output) has the same
//    shift as the row tensor, whatever its dtype: its base is pack-aligned and
//    its row r starts r * N elements past it, so its element grid is the row
//    tensor's. The kernel reads the shift from the first one's address and stops
//    (__trap) if another's differs, rather than make a misaligned access;
//  - a [N] column tensor (a weight) starts at column 0, on a boundary, so its
//    packs line up with the row's only in rows whose shift is 0: it moves in
//    packs there and element by element elsewhere (load_vec_any; the choice is
//    the same for all of a row's threads). It is small and cache-resident, so
//    the narrower loads cost issue slots, not DRAM bandwidth;
//  - a per-row tensor is one value per row, read once.
//
// The shared row genes (row_designs.h): sub-warp rows (LANES_PER_ROW lanes,
// several rows per warp), UNROLL (PACKS_IN_FLIGHT; absent: 64 bytes' worth),
// a persistent grid whose blocks loop over the groups of rows, and cache hints
// on the whole packs of the row's tensors. lse=pack: a log-sum-exp's running
// (max, sum) takes a whole pack at once in a streaming sweep (the pack's max,
// one rescale, one exponential per element), and a row cached in registers
// is summed around the thread's own maximum (one exponential per element, no
// rescale); the partial packs of ragged rows go element by element as before.
// A genome without these genes emits the same text as before they existed.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include "backends/proposers/template/expr_cuda.h"
#include "backends/proposers/template/access_hints.h"
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/row_designs.h"
#include "backends/proposers/template/row_packs.h"
#include "backends/proposers/template/row_reduce_source.h"
#include "backends/proposers/template/spaces.h"
#include "core/task/expression.h"

namespace crucible::templates {
namespace {

constexpr std::int64_t kStreamingBytesInFlight = 64;
constexpr std::int64_t kMaxPacksInFlight = 16;

class RowwiseEmitter {
public:
  RowwiseEmitter(const Genome& g, const KernelProblem& p) : g_(g), p_(p), x_(p.inputs.at(0)), y_(p.outputs.at(0)) {
    const OperatorSpec& op = *p.operation;
    std::set<std::string> names;
    for (const auto& t : p.inputs) names.insert(t.role);
    for (const auto& r : op.reductions) {
      reductions_.push_back(parseValueExpression(r.of, names));
      names.insert(r.name);
    }
    expression_ = parseValueExpression(op.expression, names);
    registers_ = g.gene("memory") == "registers";
    shuffle_ = g.gene("reduction") == "shuffle";
    vec_ = std::stoll(g.gene("vector"));
    subWarp_ = g.gene("granularity") == "subwarp";
    warpsPerRow_ = g.gene("granularity") == "warp" || subWarp_ ? 1 : g.param("WARPS_PER_ROW");
    rowsPerBlock_ = g.gene("granularity") == "block" ? 1 : g.param("ROWS_PER_BLOCK");
    threadsPerRow_ = subWarp_ ? g.param("LANES_PER_ROW") : 32 * warpsPerRow_;
    hint_ = geneOr(g.genes, "hint", "default");
    persistent_ = geneOr(g.genes, "schedule", "row_blocks") == "persistent";
    lsePack_ = geneOr(g.genes, "lse", "element") == "pack";
    math_ = mathMode(g.genes);
    const int last = static_cast<int>(x_.shape.size()) - 1;
    N_ = p.extentCode(x_, last);
    cols_ = p.extent(x_, last);
    ragged_ = vec_ > 1 && cols_ % vec_ != 0;
    for (int d = 0; d < last; ++d) rows_ += (rows_.empty() ? "" : " * ") + p.extentCode(x_, d);
    rows_ = rows_.empty() ? "1LL" : "(" + rows_ + ")";
    for (const auto& t : p.inputs)
      if (t.read && t.rowRole) {
        if (*t.rowRole == RowRole::Full) full_.push_back(&t);
        if (*t.rowRole == RowRole::Column) column_.push_back(&t);
        if (*t.rowRole == RowRole::PerRow) perRow_.push_back(&t);
      }
  }

  EmittedKernel emit() {
    std::set<DType> dtypes = {y_.dtype};
    for (const auto& t : p_.inputs)
      if (t.read) dtypes.insert(t.dtype);
    const std::string body = kernelBody();
    std::string src = headerComment(g_, p_, summary());
    src += includes(p_) + "\n";
    src += constants() + "\n";
    src += mixedPackHelpers(dtypes, false);
    if (ragged_) src += rowPackCuda();
    if (hint_ != "default") src += hintedVecHelpers();
    src += valueFunctionHelpers(math_);
    src += reductionHelpers();
    src += p_.signature("THREADS") + " {\n" + body + "}\n";

    EmittedKernel k;
    k.source = std::move(src);
    k.launch.entry = p_.entry;
    std::string rows;
    for (int d = 0; d + 1 < static_cast<int>(x_.shape.size()); ++d) rows += (rows.empty() ? "" : " * ") + p_.extentExpr(x_, d);
    if (rows.empty()) rows = "1";
    k.launch.grid[0] = rowsPerBlock_ == 1 ? rows : "ceil_div(" + rows + ", " + std::to_string(rowsPerBlock_) + ")";
    if (persistent_)  // at most BLOCKS_PER_SM blocks per SM of the GPU it launches on, all resident at once
      k.launch.grid[0] = "min(" + k.launch.grid[0] + ", " + std::to_string(g_.param("BLOCKS_PER_SM")) + " * " +
                         kSmCountName + ")";
    k.launch.block[0] = std::to_string(threadsPerRow_ * rowsPerBlock_);
    return k;
  }

private:
  // load_vec_hinted / store_vec_hinted: load_vec / store_vec with the hint's cache policy.
  std::string hintedVecHelpers() const {
    return accessHintCuda(hint_) + R"(template <class T>
__device__ __forceinline__ void load_vec_hinted(const T* p, float (&v)[VEC]) {
  const PackOf<T> pack = hinted_load<PackOf<T>>(p);
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = to_f(pack.v[k]);
}

template <class T>
__device__ __forceinline__ void store_vec_hinted(T* p, const float (&v)[VEC]) {
  PackOf<T> pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = from_f<T>(v[k]);
  hinted_store(p, pack);
}

)";
  }

  std::string summary() const {
    std::string s = "rowwise " + y_.role + " = " + p_.operation->expression + " over reductions";
    for (const auto& r : p_.operation->reductions) s += " " + r.name + " = " + r.op + "(" + r.of + ")";
    s += subWarp_                ? "; " + std::to_string(threadsPerRow_) + " lanes per row (several rows per warp)"
         : warpsPerRow_ == 1     ? "; one warp per row"
         : rowsPerBlock_ == 1    ? "; one block per row"
                                 : "; several warps per row";
    s += registers_ ? ", row in registers" : ", row re-read from global";
    s += shuffle_ ? ", warp-shuffle reduction" : ", shared-memory tree reduction";
    s += ", " + std::to_string(vec_) + "-element packs" + (ragged_ ? " with a partial head and tail per row" : "");
    if (persistent_) s += ", persistent grid looping over the rows";
    if (hint_ != "default") s += ", " + hint_ + " cache hints";
    if (lsePack_) s += ", log-sum-exp taken a pack at a time";
    if (math_ == MathMode::Fast) s += ", fast exponentials and logarithms (__expf, __logf)";
    return s;
  }

  std::string constants() const {
    std::string s;
    if (warpsPerRow_ > 1) s += constant("WARPS_PER_ROW", warpsPerRow_);
    if (subWarp_) s += constant("LANES_PER_ROW", threadsPerRow_, "several rows per warp");
    if (rowsPerBlock_ > 1) s += constant("ROWS_PER_BLOCK", rowsPerBlock_);
    s += "constexpr int THREADS_PER_ROW = " +
         std::string(subWarp_ ? "LANES_PER_ROW" : warpsPerRow_ > 1 ? "32 * WARPS_PER_ROW" : "32") + ";\n";
    s += "constexpr int THREADS = THREADS_PER_ROW" + std::string(rowsPerBlock_ > 1 ? " * ROWS_PER_BLOCK" : "") + ";\n";
    s += constant("VEC", vec_, "elements per access");
    const std::int64_t threadsPerRow = threadsPerRow_;
    if (registers_) {
      // A ragged row spans up to VEC - 1 more slots: its head pack starts before it.
      const std::int64_t span = cols_ + (ragged_ ? vec_ - 1 : 0);
      s += constant("PACKS_PER_THREAD", (span + threadsPerRow * vec_ - 1) / (threadsPerRow * vec_),
                    "a row of " + std::to_string(cols_) + " lives in registers");
    } else {
      const std::int64_t packBytes = vec_ * 4 * std::max<std::int64_t>(1, static_cast<std::int64_t>(full_.size()));
      s += constant("PACKS_IN_FLIGHT",
                    g_.params.count("UNROLL")
                        ? g_.param("UNROLL")
                        : std::clamp<std::int64_t>(kStreamingBytesInFlight / packBytes, 1, kMaxPacksInFlight),
                    "packs a thread loads before using the first");
    }
    return s;
  }

  bool usesLse() const {
    return std::any_of(p_.operation->reductions.begin(), p_.operation->reductions.end(),
                       [](const RowReduction& r) { return r.op == "logsumexp"; });
  }
  bool usesFloat() const {
    return std::any_of(p_.operation->reductions.begin(), p_.operation->reductions.end(),
                       [](const RowReduction& r) { return r.op != "logsumexp"; });
  }

  std::string reductionHelpers() const {
    std::string s = render(R"(__device__ __forceinline__ float cr_neg_inf() { return __int_as_float(0xff800000); }
__device__ __forceinline__ float cr_pos_inf() { return __int_as_float(0x7f800000); }

// Combine operators of the reductions. A log-sum-exp is a running (max, sum of exp(v - max)).
struct MaxSum {
  float max;
  float sum;
};
struct SumOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};
struct MaxOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct MinOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return fminf(a, b); }
};
struct LseOp {
  __device__ __forceinline__ MaxSum operator()(MaxSum a, MaxSum b) const {
    const float m = fmaxf(a.max, b.max);
    if (m == cr_neg_inf()) return {m, 0.0f};  // nothing but -inf yet
    return {m, a.sum * {{EXP}}(a.max - m) + b.sum * {{EXP}}(b.max - m)};
  }
};
__device__ __forceinline__ MaxSum lse_add(MaxSum a, float v) { return LseOp()(a, MaxSum{v, 1.0f}); }

)",
                           {{"EXP", cudaExp(math_)}});
    if (shuffle_) {
      s += "__device__ __forceinline__ float shfl_xor(float v, int offset) {\n"
           "  return __shfl_xor_sync(0xffffffffu, v, offset);\n}\n";
      s += "__device__ __forceinline__ MaxSum shfl_xor(MaxSum v, int offset) {\n"
           "  return {__shfl_xor_sync(0xffffffffu, v.max, offset), __shfl_xor_sync(0xffffffffu, v.sum, offset)};\n}\n\n";
      s += subWarp_ ? subWarpRowReduceSource() : rowReduceSource(RowReduceKind::Shuffle, warpsPerRow_);
    } else {
      s += rowReduceSource(RowReduceKind::SharedTree, warpsPerRow_);
    }
    return s;
  }

  bool needsScratch() const { return !(shuffle_ && warpsPerRow_ == 1); }

  // How the expressions name each value inside a sweep (cr_i: the pack, cr_k: the element).
  std::string spell(const std::string& name) const {
    for (const auto* t : full_)
      if (t->role == name) return "cr_v_" + name + "[cr_i][cr_k]";
    for (const auto* t : column_)
      if (t->role == name) return "cr_c_" + name + "[cr_k]";
    return "cr_" + name;  // a per-row input or a reduction: one value per row
  }

  // The statements of a pack, given whether it is a partial one (ragged rows only):
  // a partial pack's slots outside the row must not count or be stored.
  using PackBody = std::function<std::string(bool partial)>;

  // `body` for a pack at cr_col: as is for rows of whole packs; for ragged rows,
  // whole packs and the partial head and tail in separate branches, so the
  // middle of the row runs without per-element checks.
  std::string packCode(const PackBody& body) const {
    if (!ragged_) return body(false);
    return "if (cr_pack_whole(cr_col, cr_cols, VEC)) {\n" + indentLines(body(false), 2) +
           "} else {  // the row's partial head or tail\n" + indentLines(body(true), 2) + "}\n";
  }

  // The first column of this thread's pack cr_i (a ragged row's packs start cr_shift before it).
  std::string packColumn(const std::string& pack) const {
    return "(" + pack + ") * VEC" + std::string(ragged_ ? " - cr_shift" : "");
  }

  // Loads pack `index` of every tensor of the row's shape into cr_v_<role>[index].
  std::string loadFullPacks(const std::string& index) const {
    return packCode([&](bool partial) {
      std::string s;
      for (const auto* t : full_)
        s += partial ? "load_part(cr_row_" + t->role + ", cr_col, cr_cols, cr_v_" + t->role + "[" + index + "]);\n"
                     : std::string(hint_ != "default" ? "load_vec_hinted" : "load_vec") + "(cr_row_" + t->role +
                           " + cr_col, cr_v_" + t->role + "[" + index + "]);\n";
      return s;
    });
  }

  // One sweep over this thread's packs of the row; `body` sees cr_i, cr_col and the loaded packs.
  std::string sweep(const PackBody& body, const std::set<std::string>& reads) const {
    const PackBody withColumns = [&](bool partial) {
      std::string columns;
      for (const auto* t : column_) {
        if (!reads.count(t->role)) continue;
        const std::string v = "cr_c_" + t->role;
        columns += "float " + v + "[VEC];\n";
        columns += partial  ? "load_part(" + t->role + ", cr_col, cr_cols, " + v + ");\n"
                   : ragged_ ? "load_vec_any(" + t->role + " + cr_col, " + v + ");\n"
                             : "load_vec(" + t->role + " + cr_col, " + v + ");\n";
      }
      return columns + body(partial);
    };
    std::string s;
    if (registers_) {
      s += "#pragma unroll\n  for (int cr_i = 0; cr_i < PACKS_PER_THREAD; ++cr_i) {\n";
      s += "    const int cr_col = " + packColumn("cr_i * THREADS_PER_ROW + cr_lane") + ";\n";
      s += "    if (cr_col < cr_cols) {\n" + indentLines(packCode(withColumns), 6) + "    }\n  }\n";
      return s;
    }
    s += "  for (int cr_base = " + std::string(ragged_ ? "cr_lane * VEC - cr_shift" : "cr_lane * VEC") +
         "; cr_base < cr_cols; cr_base += PACKS_IN_FLIGHT * THREADS_PER_ROW * VEC) {\n";
    for (const auto* t : full_) s += "    float cr_v_" + t->role + "[PACKS_IN_FLIGHT][VEC];\n";
    s += "#pragma unroll\n    for (int cr_i = 0; cr_i < PACKS_IN_FLIGHT; ++cr_i) {\n";
    s += "      const int cr_col = cr_base + cr_i * THREADS_PER_ROW * VEC;\n";
    s += "      if (cr_col < cr_cols) {\n" + indentLines(loadFullPacks("cr_i"), 8) + "      }\n    }\n";
    s += "#pragma unroll\n    for (int cr_i = 0; cr_i < PACKS_IN_FLIGHT; ++cr_i) {\n";
    s += "      const int cr_col = cr_base + cr_i * THREADS_PER_ROW * VEC;\n";
    s += "      if (cr_col < cr_cols) {\n" + indentLines(packCode(withColumns), 8) + "      }\n    }\n  }\n";
    return s;
  }

  // A row's (max, sum) pairs held by the lanes of its warp (or part of one), combined by two
  // plain shuffle reductions: the maximum first, then the sums rescaled to it once. Combining the
  // pairs (LseOp) puts two exponentials and a branch at every step of the shuffle tree, on the
  // critical path at the end of each row: on the H200 the two-step form took row_logsumexp
  // 16384x1000 from 20.6 to 20.2 us (results/2026-12-03-h200-read-roof.md).
  std::string lseByTwoShuffleReductions(const std::string& acc) const {
    return render(R"(  {
    const float cr_m = row_reduce({{ACC}}.max, MaxOp());
    const float cr_s = {{ACC}}.max == cr_neg_inf() ? 0.0f : {{ACC}}.sum * {{EXP}}({{ACC}}.max - cr_m);
    {{ACC}} = MaxSum{cr_m, row_reduce(cr_s, SumOp())};
  }
)",
                  {{"ACC", acc}, {"EXP", cudaExp(math_)}});
  }

  std::string reduceCall(const std::string& op, const std::string& value) const {
    const bool lse = op == "logsumexp";
    std::string call = "row_reduce(" + value + ", " +
                       (lse ? "LseOp()" : op == "max" ? "MaxOp()" : op == "min" ? "MinOp()" : "SumOp()");
    if (needsScratch()) call += lse ? ", cr_scratch_lse" : ", cr_scratch_f";
    return call + ")";
  }

  // The stage of each reduction: 0 when it reads no reduction, else one past the latest it reads.
  std::vector<int> stages() const {
    const auto& rs = p_.operation->reductions;
    std::vector<int> stage(rs.size(), 0);
    for (std::size_t j = 0; j < rs.size(); ++j)
      for (std::size_t i = 0; i < j; ++i)
        if (reductions_[j].names().count(rs[i].name)) stage[j] = std::max(stage[j], stage[i] + 1);
    return stage;
  }

  // A ragged row's shift off the VEC-element grid (row_packs.h), read from the
  // address of its first tensor of the row's shape; every other one must share
  // it (see the top of this file), else the kernel stops before a misaligned access.
  std::string rowShift() const {
    std::vector<std::pair<std::string, std::string>> rows;  // pointer expression, element type
    for (const auto* t : full_) rows.push_back({"cr_row_" + t->role, cudaTypeName(t->dtype)});
    if (y_.rowRole == RowRole::Full) rows.push_back({"(" + y_.role + " + cr_row * " + N_ + ")", cudaTypeName(y_.dtype)});
    if (rows.empty()) return "  const int cr_shift = 0;  // no tensor of the row's shape\n";
    auto shiftOf = [](const std::pair<std::string, std::string>& r) {
      return "cr_row_shift((unsigned long long)" + r.first + ", (int)sizeof(" + r.second + "), VEC)";
    };
    std::string s = "  // The row's shift off the VEC-element grid: its head pack starts cr_shift columns before it.\n";
    s += "  const int cr_shift = " + shiftOf(rows[0]) + ";\n";
    for (std::size_t i = 1; i < rows.size(); ++i)
      s += "  if (" + shiftOf(rows[i]) + " != cr_shift) __trap();  // a base off its pack alignment\n";
    return s;
  }

  // The row's setup: its index (from `group`: the block, or the persistent
  // loop's group), its length, the checks, its tensors' row pointers, its shift
  // and its per-row inputs.
  std::string rowSetup(const std::string& group) const {
    std::string s;
    if (rowsPerBlock_ > 1) {
      s += "  const long long cr_row = " + group + " * ROWS_PER_BLOCK + threadIdx.x / THREADS_PER_ROW;\n";
      s += "  // Rows past the end sweep no columns but still reach every barrier.\n";
      s += "  const int cr_cols = cr_row < cr_rows ? (int)" + N_ + " : 0;  // rows are < 2^30 long\n";
    } else {
      s += "  const long long cr_row = " + std::string(group == "(long long)blockIdx.x" ? "blockIdx.x" : group) + ";\n";
      s += "  const int cr_cols = (int)" + N_ + ";  // rows are < 2^30 long\n";
    }
    if (registers_)
      s += "  if (" + N_ + (ragged_ ? " + VEC - 1" : "") +
           " > PACKS_PER_THREAD * THREADS_PER_ROW * VEC) __trap();  // compiled for rows of " + std::to_string(cols_) +
           (ragged_ ? " and a head of up to VEC - 1" : "") + "\n";
    if (vec_ > 1 && !ragged_) s += "  if (" + N_ + " % VEC != 0) __trap();  // rows must be whole packs (aligned)\n";
    for (const auto* t : full_)
      s += "  const " + std::string(cudaTypeName(t->dtype)) + "* cr_row_" + t->role + " = " + t->role + " + cr_row * " +
           N_ + ";\n";
    if (ragged_) s += rowShift();
    for (const auto* t : perRow_)
      s += "  const float cr_" + t->role + " = cr_row < cr_rows ? to_f(" + t->role + "[cr_row]) : 0.0f;\n";
    return s;
  }

  std::string scratchDeclarations() const {
    std::string s;
    if (needsScratch()) {
      const std::string dims = shuffle_ ? std::string("[") + (rowsPerBlock_ > 1 ? "ROWS_PER_BLOCK" : "1") + "][WARPS_PER_ROW]"
                                        : "[THREADS]";
      if (usesFloat()) s += "  __shared__ float cr_scratch_f" + dims + ";\n";
      if (usesLse()) s += "  __shared__ MaxSum cr_scratch_lse" + dims + ";\n";
    }
    return s;
  }

  std::string kernelBody() const {
    std::string s;
    s += "  const int cr_lane = threadIdx.x % THREADS_PER_ROW;  // this thread's place in its row\n";
    s += "  const long long cr_rows = " + rows_ + ";\n";
    if (!persistent_) return s + rowSetup("(long long)blockIdx.x") + scratchDeclarations() + rowWork();
    // A persistent grid: the groups of rows are the same for all of a block's
    // threads, so every thread makes the same trips and meets every barrier;
    // the scratch is free again after each reduction (row_reduce ends on a barrier).
    s += scratchDeclarations();
    s += "  // A persistent grid (at most BLOCKS_PER_SM blocks per SM): each block takes every gridDim.x-th group of rows.\n";
    s += "  const long long cr_groups = " +
         (rowsPerBlock_ > 1 ? "(cr_rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK" : std::string("cr_rows")) + ";\n";
    s += "  for (long long cr_group = blockIdx.x; cr_group < cr_groups; cr_group += gridDim.x) {\n";
    s += indentLines(rowSetup("cr_group") + rowWork(), 2) + "  }\n";
    return s;
  }

  // The row's work once set up: the register cache, the stages of reductions, the epilogue.
  std::string rowWork() const {
    const auto& rs = p_.operation->reductions;
    std::string s;
    if (registers_) {
      for (const auto* t : full_) s += "  float cr_v_" + t->role + "[PACKS_PER_THREAD][VEC];\n";
      s += "#pragma unroll\n  for (int cr_i = 0; cr_i < PACKS_PER_THREAD; ++cr_i) {\n";
      s += "    const int cr_col = " + packColumn("cr_i * THREADS_PER_ROW + cr_lane") + ";\n";
      s += "    if (cr_col < cr_cols) {\n" + indentLines(loadFullPacks("cr_i"), 6) + "    }\n  }\n";
    }
    const auto stage = stages();
    const int lastStage = stage.empty() ? -1 : *std::max_element(stage.begin(), stage.end());
    for (int st = 0; st <= lastStage; ++st) {
      s += "\n  // Stage " + std::to_string(st) + " of the reductions.\n";
      // Each reduction's update of an element (cr_k), and, where it takes whole packs at once, of a whole pack.
      std::vector<std::string> updates, packUpdates;
      std::set<std::string> reads, maxReads;
      std::vector<std::string> maxUpdates;  // lse=pack with the row in registers: the thread's maximum first
      for (std::size_t j = 0; j < rs.size(); ++j) {
        if (stage[j] != st) continue;
        const auto names = reductions_[j].names();
        reads.insert(names.begin(), names.end());
        const std::string acc = "cr_acc_" + rs[j].name;
        const std::string& op = rs[j].op;
        if (op == "logsumexp") s += "  MaxSum " + acc + " = {cr_neg_inf(), 0.0f};\n";
        else s += "  float " + acc + " = " + (op == "max" ? "cr_neg_inf()" : op == "min" ? "cr_pos_inf()" : "0.0f") + ";\n";
        const std::string v = cudaValue(reductions_[j], [&](const std::string& n) { return spell(n); }, math_);
        if (op == "logsumexp" && lsePack_ && registers_) {
          // Sum exp(v - the thread's max) over the cache; the pair merges exactly across threads.
          const std::string tmax = "cr_tmax_" + rs[j].name, tsum = "cr_tsum_" + rs[j].name;
          s += "  float " + tmax + " = cr_neg_inf();\n  float " + tsum + " = 0.0f;\n";
          maxReads.insert(names.begin(), names.end());
          maxUpdates.push_back(tmax + " = fmaxf(" + tmax + ", " + v + ");");
          updates.push_back(tsum + " += " + cudaExp(math_) + "(" + v + " - cr_shift_" + rs[j].name + ");");
          packUpdates.push_back("");
          continue;
        }
        const std::string update = op == "logsumexp" ? acc + " = lse_add(" + acc + ", " + v + ");"
                                   : op == "max"     ? acc + " = fmaxf(" + acc + ", " + v + ");"
                                   : op == "min"     ? acc + " = fminf(" + acc + ", " + v + ");"
                                                     : acc + " += " + v + ";";
        updates.push_back(update);
        if (op == "logsumexp" && lsePack_)
          // A whole pack at once: its max, one rescale of the running sum, one exponential per element.
          packUpdates.push_back(render(R"({
  float cr_e[VEC];
#pragma unroll
  for (int cr_k = 0; cr_k < VEC; ++cr_k) cr_e[cr_k] = {{V}};
  float cr_m = {{ACC}}.max;
#pragma unroll
  for (int cr_k = 0; cr_k < VEC; ++cr_k) cr_m = fmaxf(cr_m, cr_e[cr_k]);
  if (cr_m != cr_neg_inf()) {  // else nothing but -inf so far: the pair stays as it is
    float cr_s = {{ACC}}.sum * {{EXP}}({{ACC}}.max - cr_m);
#pragma unroll
    for (int cr_k = 0; cr_k < VEC; ++cr_k) cr_s += {{EXP}}(cr_e[cr_k] - cr_m);
    {{ACC}} = MaxSum{cr_m, cr_s};
  }
}
)",
                                          {{"V", v}, {"ACC", acc}, {"EXP", cudaExp(math_)}}));
        else
          packUpdates.push_back("");
      }
      auto elementLoops = [&](const std::vector<std::string>& list, const std::vector<std::string>* whole, bool partial) {
        std::string body;
        for (std::size_t u = 0; u < list.size(); ++u) {
          if (!partial && whole && !(*whole)[u].empty()) {
            body += (*whole)[u];
            continue;
          }
          body += "#pragma unroll\nfor (int cr_k = 0; cr_k < VEC; ++cr_k) " +
                  std::string(partial ? "if (cr_in_row(cr_col + cr_k, cr_cols)) " : "") + list[u] + "\n";
        }
        return body;
      };
      if (!maxUpdates.empty()) {
        s += sweep([&](bool partial) { return elementLoops(maxUpdates, nullptr, partial); }, maxReads);
        for (std::size_t j = 0; j < rs.size(); ++j)
          if (stage[j] == st && rs[j].op == "logsumexp")
            s += "  // A share of only -inf values (or none) sums to 0 around any shift.\n"
                 "  const float cr_shift_" + rs[j].name + " = cr_tmax_" + rs[j].name + " == cr_neg_inf() ? 0.0f : cr_tmax_" +
                 rs[j].name + ";\n";
      }
      s += sweep([&](bool partial) { return elementLoops(updates, &packUpdates, partial); }, reads);
      for (std::size_t j = 0; j < rs.size(); ++j) {
        if (stage[j] != st) continue;
        const std::string acc = "cr_acc_" + rs[j].name;
        const std::string& op = rs[j].op;
        if (op == "logsumexp" && lsePack_ && registers_)
          s += "  " + acc + " = MaxSum{cr_tmax_" + rs[j].name + ", cr_tsum_" + rs[j].name + "};\n";
        if (op == "logsumexp" && !needsScratch())
          s += lseByTwoShuffleReductions(acc);
        else
          s += "  " + acc + " = " + reduceCall(op, acc) + ";\n";
        if (op == "logsumexp")
          s += "  const float cr_" + rs[j].name + " = " + acc + ".max == cr_neg_inf() ? cr_neg_inf() : " + acc +
               ".max + " + cudaLog(math_) + "(" + acc + ".sum);\n";
        else if (op == "mean")
          s += "  const float cr_" + rs[j].name + " = " + acc + " / (float)" + N_ + ";\n";
        else
          s += "  const float cr_" + rs[j].name + " = " + acc + ";\n";
      }
    }
    const std::string value = cudaValue(expression_, [&](const std::string& n) { return spell(n); }, math_);
    s += "\n  // The epilogue.\n";
    if (y_.rowRole == RowRole::Full) {
      s += "  " + std::string(cudaTypeName(y_.dtype)) + "* cr_row_out = " + y_.role + " + cr_row * " + N_ + ";\n";
      s += sweep(
          [&](bool partial) {
            return "float cr_out[VEC];\n#pragma unroll\nfor (int cr_k = 0; cr_k < VEC; ++cr_k) cr_out[cr_k] = " + value +
                   ";\n" +
                   (partial                   ? "store_part(cr_row_out, cr_col, cr_cols, cr_out);\n"
                    : hint_ == "evict_first" ? "store_vec_hinted(cr_row_out + cr_col, cr_out);\n"
                    : ragged_                 ? "store_whole(cr_row_out + cr_col, cr_out);\n"
                                              : "store_vec(cr_row_out + cr_col, cr_out);\n");
          },
          expression_.names());
    } else {
      s += "  if (cr_lane == 0 && cr_row < cr_rows) " + y_.role + "[cr_row] = from_f<" + cudaTypeName(y_.dtype) + ">(" +
           value + ");\n";
    }
    return s;
  }

  const Genome& g_;
  const KernelProblem& p_;
  const ProblemTensor& x_;
  const ProblemTensor& y_;
  std::vector<ValueExpression> reductions_;
  ValueExpression expression_;
  bool registers_ = true, shuffle_ = true;
  bool subWarp_ = false, persistent_ = false, lsePack_ = false;
  MathMode math_ = MathMode::Precise;
  std::string hint_ = "default";
  std::int64_t threadsPerRow_ = 32;
  bool ragged_ = false;  // VEC > 1 and rows that are not whole packs: partial head and tail packs
  std::int64_t vec_ = 1, warpsPerRow_ = 1, rowsPerBlock_ = 1, cols_ = 0;
  std::string N_, rows_;
  std::vector<const ProblemTensor*> full_, column_, perRow_;
};

}  // namespace

EmittedKernel emitExprRowwise(const Genome& g, const KernelProblem& p) { return RowwiseEmitter(g, p).emit(); }

}  // namespace crucible::templates
