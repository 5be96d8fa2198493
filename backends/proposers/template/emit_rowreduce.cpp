// SPDX-License-Identifier: GPL-3.0-or-later
// Emits a row-reduction kernel. THREADS_PER_ROW threads share a row and
// ROWS_PER_BLOCK rows share a block. Each thread owns the packs
// lane, lane + THREADS_PER_ROW, ... of its row, the same packs in every
// sweep, so a row cached in shared memory needs no barrier between sweeps.
//
// Memory traffic: a row cached in registers or shared memory is read from
// global memory once and (for the normalising families) written once. The
// register cache is filled by one unrolled burst of loads before any math, so
// each thread has its whole share of the row in flight; the streaming sweeps
// (global or shared-memory rows) load PACKS_IN_FLIGHT packs before using any.
//
// The shared row genes (row_designs.h): sub-warp rows (LANES_PER_ROW lanes,
// several rows per warp), UNROLL (PACKS_IN_FLIGHT; absent: 64 bytes' worth),
// a persistent grid whose blocks loop over the groups of rows, and cache hints
// on the row's loads from global memory and on the output's stores. A
// genome without them emits the same text as before they existed.
#include <algorithm>
#include <set>
#include <stdexcept>
#include "backends/proposers/template/access_hints.h"
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/row_designs.h"
#include "backends/proposers/template/row_reduce_source.h"
#include "backends/proposers/template/spaces.h"
#include "core/task/expression.h"

namespace crucible::templates {
namespace {

// Bytes each thread of a streaming sweep loads before it uses the first:
// with ~2048 threads per SM that keeps ~128 KiB in flight per SM, well past
// what the H100/H200 memory latency needs to reach full bandwidth.
constexpr std::int64_t kStreamingBytesInFlight = 64;
// ...in at most this many loads: narrow packs each take a register, and a
// 1024-thread block has 64 registers per thread in all.
constexpr std::int64_t kMaxPacksInFlight = 16;

// Reduction value types and the operators that combine them.
enum class Stat { Sum, Max, MaxSum, Welford };

struct StatInfo {
  const char* type;   // C++ type of the value
  const char* op;     // functor combining two values
  const char* tag;    // suffix for its shared scratch array
};

StatInfo info(Stat s) {
  switch (s) {
    case Stat::Sum: return {"float", "Sum", "sum"};
    case Stat::Max: return {"float", "Max", "max"};
    case Stat::MaxSum: return {"MaxSum", "CombineMaxSum", "maxsum"};
    case Stat::Welford: return {"Welford", "CombineWelford", "welford"};
  }
  throw std::logic_error("unknown stat");
}

class RowEmitter {
public:
  RowEmitter(const Genome& g, const KernelProblem& p) : g_(g), p_(p), x_(p.inputs[0]), y_(p.outputs[0]) {
    granularity_ = g.gene("granularity");
    memory_ = g.genes.count("memory") ? g.gene("memory") : "global";
    reduction_ = g.gene("reduction");
    vec_ = std::stoll(g.gene("vector"));
    subWarp_ = granularity_ == "subwarp";
    warpsPerRow_ = granularity_ == "warp" || subWarp_ ? 1 : g.param("WARPS_PER_ROW");
    rowsPerBlock_ = granularity_ == "block" ? 1 : g.param("ROWS_PER_BLOCK");
    threadsPerRow_ = subWarp_ ? g.param("LANES_PER_ROW") : 32 * warpsPerRow_;
    hint_ = geneOr(g.genes, "hint", "default");
    persistent_ = geneOr(g.genes, "schedule", "row_blocks") == "persistent";
    cols_ = p.extent(x_, 1);
    M_ = p.extentCode(x_, 0);
    N_ = p.extentCode(x_, 1);
  }

  EmittedKernel emit() {
    const std::string body = kernelBody();  // first: it records which statistics and helpers are used
    std::string src = headerComment(g_, p_, summary());
    src += includes(p_) + "\n";
    src += constants() + "\n";
    src += packHelpers(x_.dtype) + "\n";
    if (hinted()) src += hintedPackHelpers();
    src += helpers();
    src += p_.signature("THREADS") + " {\n" + body + "}\n";

    EmittedKernel k;
    k.source = std::move(src);
    k.launch.entry = p_.entry;
    k.launch.grid[0] = rowsPerBlock_ == 1 ? p_.extentExpr(x_, 0)
                                          : "ceil_div(" + p_.extentExpr(x_, 0) + ", " + std::to_string(rowsPerBlock_) + ")";
    if (persistent_)  // at most BLOCKS_PER_SM blocks per SM of the GPU it launches on, all resident at once
      k.launch.grid[0] = "min(" + k.launch.grid[0] + ", " + std::to_string(g_.param("BLOCKS_PER_SM")) + " * " +
                         kSmCountName + ")";
    k.launch.block[0] = std::to_string(threadsPerRow_ * rowsPerBlock_);
    if (memory_ == "smem")
      k.launch.dynamicSmemBytes =
          std::to_string(rowsPerBlock_ * static_cast<std::int64_t>(sizeOf(x_.dtype))) + " * " + p_.extentExpr(x_, 1);
    return k;
  }

private:
  bool cachedInRegisters() const { return memory_ == "registers"; }
  bool hinted() const { return hint_ != "default"; }

  // Hinted loads of the row's packs and stores of the output's (access_hints.h).
  std::string hintedPackHelpers() const {
    return accessHintCuda(hint_) + render(R"(__device__ __forceinline__ void store_pack_hinted({{T}}* p, const float (&v)[VEC]) {
  Pack pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = {{FROM_FLOAT}};
  hinted_store(p, pack);
}

)",
                                          {{"T", cudaTypeName(x_.dtype)}, {"FROM_FLOAT", fromFloat(x_.dtype, "v[k]")}});
  }

  // The statement loading the row's pack at `col` as a Pack (hinted or plain). hint=evict_last:
  // `readAgain` (a later sweep reads the row again) keeps it in the caches, the last read lets it go.
  std::string rowPackLoad(const std::string& from, bool readAgain = false) const {
    if (hinted() && from == "row_in")
      return std::string(readAgain && hint_ == kRereadHint ? "hinted_load_keep" : "hinted_load") + "<Pack>(row_in + col)";
    return "*reinterpret_cast<const Pack*>(" + from + " + col)";
  }
  // Loads the per-column parameter `name` (a weight or bias of the row's dtype) into `float into[VEC]`:
  // every row reads it, so hint=evict_last keeps it cached.
  std::string parameterLoad(const std::string& name, const std::string& into) const {
    if (hint_ == kRereadHint) return "load_pack(hinted_load_keep<Pack>(" + name + " + col).v, " + into + ");\n";
    return "load_pack(" + name + " + col, " + into + ");\n";
  }
  std::string storeRow() const {
    return hinted() ? "store_pack_hinted(row_out + col, v);\n" : "store_pack(row_out + col, v);\n";
  }
  // 2-byte rows stay packed in the register cache (half the registers, so
  // more resident threads) and widen to fp32 in each sweep. Softmax keeps
  // fp32: its cache is overwritten with the exponentials. (rowreduce_space.cpp
  // budgets registers by the same rule.)
  bool packedCache() const { return cachedInRegisters() && x_.dtype != DType::F32 && p_.family != "softmax"; }

  std::string summary() const {
    std::string s = p_.family + ", ";
    s += granularity_ == "warp"    ? "one warp per row"
         : granularity_ == "block" ? "one block per row"
         : subWarp_                ? std::to_string(threadsPerRow_) + " lanes per row (several rows per warp)"
                                   : "several warps per row";
    s += memory_ == "registers" ? ", row cached in registers"
         : memory_ == "smem"    ? ", row cached in shared memory"
                                : (p_.family == "rowsum" ? ", row streamed from global" : ", row re-read from global");
    s += reduction_ == "shuffle" ? ", warp-shuffle reduction" : ", shared-memory tree reduction";
    s += ", " + std::to_string(vec_ * sizeOf(x_.dtype)) + "-byte accesses";
    if (persistent_) s += ", persistent grid looping over the rows";
    if (hinted()) s += ", " + hint_ + " cache hints";
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
    if (cachedInRegisters()) {
      s += constant("PACKS_PER_THREAD", (cols_ + threadsPerRow_ * vec_ - 1) / (threadsPerRow_ * vec_),
                    "a row of " + std::to_string(cols_) + " lives in registers");
    } else {
      const std::int64_t packBytes = vec_ * static_cast<std::int64_t>(sizeOf(x_.dtype));
      const std::int64_t packs =
          g_.params.count("UNROLL") ? g_.param("UNROLL")
                                    : std::clamp<std::int64_t>(kStreamingBytesInFlight / packBytes, 1, kMaxPacksInFlight);
      s += constant("PACKS_IN_FLIGHT", packs,
                    "packs a thread loads before using the first: " + std::to_string(packs * packBytes) +
                        " bytes in flight");
    }
    if (p_.family == "layernorm") s += "constexpr float EPS = 1e-5f;\n";
    if (p_.family == "rmsnorm") s += "constexpr float EPS = 1e-6f;\n";
    return s;
  }

  // Reduction value types, their combine operators and the row_reduce helper.
  std::string helpers() const {
    std::string s;
    if (usesNegInf()) s += "__device__ __forceinline__ float neg_inf() { return -__int_as_float(0x7f800000); }\n\n";
    if (usesFastExp_)
      s += R"(// exp(x) for x <= 0 (x minus a maximum): ex2.approx has a relative error near
// 1e-6 there, far inside the task's tolerance, at a fraction of expf's cost.
__device__ __forceinline__ float fast_exp(float x) { return __expf(x); }

)";
    for (Stat st : stats_) {
      switch (st) {
        case Stat::Sum:
          s += "struct Sum {\n  __device__ float operator()(float a, float b) const { return a + b; }\n};\n\n";
          break;
        case Stat::Max:
          s += "struct Max {\n  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }\n};\n\n";
          break;
        case Stat::MaxSum:
          s += R"(// Online softmax statistics: the running maximum and the sum of exp(x - max).
struct MaxSum {
  float max;
  float sum;
};

struct CombineMaxSum {
  __device__ MaxSum operator()(MaxSum a, MaxSum b) const {
    const float max = fmaxf(a.max, b.max);
    if (max == neg_inf()) return a;  // both empty
    return {max, a.sum * fast_exp(a.max - max) + b.sum * fast_exp(b.max - max)};
  }
};

)";
          if (usesPackOnline_)
            s += R"(// Folds one pack into the running statistics: one rescale per pack, not per element.
__device__ __forceinline__ MaxSum online_add(MaxSum a, const float (&v)[VEC]) {
  float max = a.max;
#pragma unroll
  for (int k = 0; k < VEC; ++k) max = fmaxf(max, v[k]);
  if (max == neg_inf()) return a;  // nothing but -inf so far
  float sum = a.sum * fast_exp(a.max - max);
#pragma unroll
  for (int k = 0; k < VEC; ++k) sum += fast_exp(v[k] - max);
  return {max, sum};
}

)";
          break;
        case Stat::Welford:
          s += R"(// Count, mean and sum of squared deviations of a set of values: partial
// results combine exactly (Chan et al.), so no pass ever subtracts large sums.
struct Welford {
  float count;
  float mean;
  float m2;
};

struct CombineWelford {
  __device__ Welford operator()(Welford a, Welford b) const {
    const float count = a.count + b.count;
    if (count == 0.0f) return a;
    const float delta = b.mean - a.mean;
    const float weight_b = b.count / count;
    return {count, a.mean + delta * weight_b, a.m2 + b.m2 + delta * delta * a.count * weight_b};
  }
};

)";
          if (usesPackWelford_)
            s += R"(// Folds one pack into the running statistics: the pack's own mean and
// deviations, then one combine (one division per pack, not per element).
__device__ __forceinline__ Welford welford_add(Welford a, const float (&v)[VEC]) {
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < VEC; ++k) sum += v[k];
  const float mean = sum * (1.0f / VEC);
  float m2 = 0.0f;
#pragma unroll
  for (int k = 0; k < VEC; ++k) m2 += (v[k] - mean) * (v[k] - mean);
  return CombineWelford()(a, Welford{(float)VEC, mean, m2});
}

)";
          break;
      }
    }
    if (reduction_ == "shuffle") {
      for (Stat st : stats_) {
        if (st == Stat::MaxSum)
          s += "__device__ __forceinline__ MaxSum shfl_xor(MaxSum v, int offset) {\n"
               "  return {__shfl_xor_sync(0xffffffffu, v.max, offset), __shfl_xor_sync(0xffffffffu, v.sum, offset)};\n}\n\n";
        else if (st == Stat::Welford)
          s += "__device__ __forceinline__ Welford shfl_xor(Welford v, int offset) {\n"
               "  return {__shfl_xor_sync(0xffffffffu, v.count, offset), __shfl_xor_sync(0xffffffffu, v.mean, offset),\n"
               "          __shfl_xor_sync(0xffffffffu, v.m2, offset)};\n}\n\n";
      }
      if (stats_.count(Stat::Sum) || stats_.count(Stat::Max))
        s += "__device__ __forceinline__ float shfl_xor(float v, int offset) {\n"
             "  return __shfl_xor_sync(0xffffffffu, v, offset);\n}\n\n";
      s += subWarp_ ? subWarpRowReduceSource() : rowReduceSource(RowReduceKind::Shuffle, warpsPerRow_);
    } else {
      s += rowReduceSource(RowReduceKind::SharedTree, warpsPerRow_);
    }
    return s;
  }

  bool usesNegInf() const { return stats_.count(Stat::MaxSum) || stats_.count(Stat::Max) || usesNegInf_; }

  bool needsScratch() const { return !(reduction_ == "shuffle" && warpsPerRow_ == 1); }

  // `row_reduce(value, Op())` with the scratch array this gene combination needs.
  std::string reduce(Stat st, const std::string& value) {
    stats_.insert(st);
    if (st == Stat::MaxSum) usesFastExp_ = true;
    const StatInfo i = info(st);
    std::string call = std::string("row_reduce(") + value + ", " + i.op + "()";
    if (needsScratch()) call += std::string(", scratch_") + i.tag;
    return call + ")";
  }

  // Fills the register cache: every load of the thread's share of the row is
  // issued before any of it is used.
  std::string loadRowIntoRegisters() const {
    if (packedCache()) {
      std::string s = R"(  Pack cache[PACKS_PER_THREAD];  // the row's own dtype: widened to fp32 where used
#pragma unroll
  for (int i = 0; i < PACKS_PER_THREAD; ++i) {
    const int col = (i * THREADS_PER_ROW + lane) * VEC;
    if (col < cols) cache[i] = @LOAD@;
  }
)";
      s.replace(s.find("@LOAD@"), 6, rowPackLoad("row_in"));
      return s;
    }
    if (hinted())
      return R"(  float cache[PACKS_PER_THREAD][VEC];
#pragma unroll
  for (int i = 0; i < PACKS_PER_THREAD; ++i) {
    const int col = (i * THREADS_PER_ROW + lane) * VEC;
    if (col < cols) {
      const Pack pack = hinted_load<Pack>(row_in + col);
      load_pack(pack.v, cache[i]);
    }
  }
)";
    return R"(  float cache[PACKS_PER_THREAD][VEC];
#pragma unroll
  for (int i = 0; i < PACKS_PER_THREAD; ++i) {
    const int col = (i * THREADS_PER_ROW + lane) * VEC;
    if (col < cols) load_pack(row_in + col, cache[i]);
  }
)";
  }

  // One sweep over this thread's packs of the row. `body` sees `col` and
  // `float v[VEC]` (a reference into the register cache when the row lives
  // there). With the row in registers every sweep works on the cache (filled
  // by loadRowIntoRegisters); otherwise the first sweep streams the row from
  // global memory (filling the shared-memory cache, if any) and later sweeps
  // read it again from where it lives. `last`: no sweep after this one reads the row (the
  // hint=evict_last kernels let it leave the caches there).
  std::string sweep(bool first, const std::string& body, bool last = false) const {
    std::string s;
    if (cachedInRegisters()) {
      s += "#pragma unroll\n  for (int i = 0; i < PACKS_PER_THREAD; ++i) {\n";
      s += "    const int col = (i * THREADS_PER_ROW + lane) * VEC;\n";
      s += "    if (col < cols) {\n";
      if (packedCache())
        s += "      float v[VEC];\n      load_pack(cache[i].v, v);  // widen from registers\n";
      else
        s += "      float (&v)[VEC] = cache[i];\n";
      s += indentLines(body, 6) + "    }\n  }\n";
      return s;
    }
    const bool fromSmem = memory_ == "smem" && !first;
    const bool fillSmem = memory_ == "smem" && first;
    s += "  for (int base = lane * VEC; base < cols; base += PACKS_IN_FLIGHT * THREADS_PER_ROW * VEC) {\n";
    s += "    Pack chunk[PACKS_IN_FLIGHT];  // in the row's dtype: widened to fp32 where used\n";
    s += "#pragma unroll\n    for (int i = 0; i < PACKS_IN_FLIGHT; ++i) {\n";
    s += "      const int col = base + i * THREADS_PER_ROW * VEC;\n";
    s += "      if (col < cols) chunk[i] = " + rowPackLoad(fromSmem ? "row_cache" : "row_in", !last) + ";\n";
    s += "    }\n";
    s += "#pragma unroll\n    for (int i = 0; i < PACKS_IN_FLIGHT; ++i) {\n";
    s += "      const int col = base + i * THREADS_PER_ROW * VEC;\n";
    s += "      if (col < cols) {\n";
    s += "        float v[VEC];\n        load_pack(chunk[i].v, v);\n";
    if (fillSmem) s += "        store_pack(row_cache + col, v);  // exact: the values came from this dtype\n";
    s += indentLines(body, 8) + "      }\n    }\n  }\n";
    return s;
  }

  static std::string forEach(const std::string& statement) {
    return "#pragma unroll\nfor (int k = 0; k < VEC; ++k) " + statement + "\n";
  }

  // The persistent grid's body: the per-row code of kernelBody() inside a loop
  // over the groups of rows. A group is the same for all of a block's threads,
  // so every thread makes the same trips and meets every barrier; the scratch
  // arrays are free again after each reduction (row_reduce ends on a barrier),
  // and a row cached in shared memory is only ever read by the thread that wrote it.
  std::string persistentKernelBody() {
    const std::string T = cudaTypeName(x_.dtype);
    std::string s;
    s += "  const int lane = threadIdx.x % THREADS_PER_ROW;  // this thread's place in its row\n";
    if (rowsPerBlock_ > 1) s += "  const int row_in_block = threadIdx.x / THREADS_PER_ROW;\n";
    if (memory_ == "smem") {
      s += "  extern __shared__ __align__(16) unsigned char smem[];\n";
      s += "  " + T + "* row_cache = reinterpret_cast<" + T + "*>(smem)" +
           (rowsPerBlock_ > 1 ? " + row_in_block * " + N_ : "") + ";\n";
    }
    const std::string scratchMarker = "@SCRATCH@\n";
    s += scratchMarker;
    s += "  // A persistent grid (at most BLOCKS_PER_SM blocks per SM): each block takes every gridDim.x-th group of rows.\n";
    s += "  const long long groups = " + (rowsPerBlock_ > 1 ? "(" + M_ + " + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK" : M_) + ";\n";
    s += "  for (long long group = blockIdx.x; group < groups; group += gridDim.x) {\n";
    std::string inner;
    if (rowsPerBlock_ > 1) {
      inner += "  const long long row = group * ROWS_PER_BLOCK + row_in_block;\n";
      inner += render("  // Rows past the end sweep no columns but still reach every barrier.\n"
                      "  const int cols = row < {{M}} ? (int){{N}} : 0;  // 32-bit column indices: rows are < 2^30 long\n",
                      {{"M", M_}, {"N", N_}});
    } else {
      inner += "  const long long row = group;\n";
      inner += render("  const int cols = (int){{N}};  // 32-bit column indices: rows are < 2^30 long\n", {{"N", N_}});
    }
    inner += render("  const {{T}}* row_in = {{X}} + row * {{N}};\n", {{"T", T}, {"X", x_.role}, {"N", N_}});
    if (y_.shape.size() == 2)
      inner += render("  {{T}}* row_out = {{Y}} + row * {{N}};\n", {{"T", cudaTypeName(y_.dtype)}, {"Y", y_.role}, {"N", N_}});
    if (cachedInRegisters())
      inner += render("  if ({{N}} > PACKS_PER_THREAD * THREADS_PER_ROW * VEC) __trap();  // compiled for rows of " +
                          std::to_string(cols_) + "\n",
                      {{"N", N_}});
    if (cachedInRegisters()) inner += loadRowIntoRegisters();
    inner += "\n" + familyBody();
    s += indentLines(inner, 2) + "  }\n";
    s.replace(s.find(scratchMarker), scratchMarker.size(), scratchDeclarations());
    return s;
  }

  // The shared scratch arrays of the reductions the body asked for.
  std::string scratchDeclarations() const {
    std::string scratch;
    if (needsScratch()) {
      for (Stat st : stats_) {
        const StatInfo i = info(st);
        if (reduction_ == "shuffle")
          scratch += std::string("  __shared__ ") + i.type + " scratch_" + i.tag + "[" +
                     (rowsPerBlock_ > 1 ? "ROWS_PER_BLOCK" : "1") + "][WARPS_PER_ROW];\n";
        else
          scratch += std::string("  __shared__ ") + i.type + " scratch_" + i.tag + "[THREADS];\n";
      }
    }
    return scratch;
  }

  std::string kernelBody() {
    if (persistent_) return persistentKernelBody();
    const std::string T = cudaTypeName(x_.dtype);
    std::string s;
    s += "  const int lane = threadIdx.x % THREADS_PER_ROW;  // this thread's place in its row\n";
    if (rowsPerBlock_ > 1) {
      s += "  const int row_in_block = threadIdx.x / THREADS_PER_ROW;\n";
      s += "  const long long row = (long long)blockIdx.x * ROWS_PER_BLOCK + row_in_block;\n";
      s += render("  // Rows past the end sweep no columns but still reach every barrier.\n"
                  "  const int cols = row < {{M}} ? (int){{N}} : 0;  // 32-bit column indices: rows are < 2^30 long\n",
                  {{"M", M_}, {"N", N_}});
    } else {
      s += "  const long long row = blockIdx.x;\n";
      s += render("  const int cols = (int){{N}};  // 32-bit column indices: rows are < 2^30 long\n", {{"N", N_}});
    }
    s += render("  const {{T}}* row_in = {{X}} + row * {{N}};\n", {{"T", T}, {"X", x_.role}, {"N", N_}});
    const bool rowOutput = y_.shape.size() == 2;
    if (rowOutput)
      s += render("  {{T}}* row_out = {{Y}} + row * {{N}};\n", {{"T", cudaTypeName(y_.dtype)}, {"Y", y_.role}, {"N", N_}});
    if (cachedInRegisters())
      s += render("  if ({{N}} > PACKS_PER_THREAD * THREADS_PER_ROW * VEC) __trap();  // compiled for rows of " +
                      std::to_string(cols_) + "\n",
                  {{"N", N_}});
    if (memory_ == "smem") {
      s += "  extern __shared__ __align__(16) unsigned char smem[];\n";
      s += "  " + T + "* row_cache = reinterpret_cast<" + T + "*>(smem)" +
           (rowsPerBlock_ > 1 ? " + row_in_block * " + N_ : "") + ";\n";
    }
    const std::string scratchMarker = "@SCRATCH@\n";
    s += scratchMarker;
    if (cachedInRegisters()) s += loadRowIntoRegisters();
    s += "\n" + familyBody();
    // The scratch arrays are known only once the body has asked for its reductions.
    s.replace(s.find(scratchMarker), scratchMarker.size(), scratchDeclarations());
    return s;
  }

  // softmax and cross_entropy: the row's maximum and sum of exp(x - max).
  // Sets `row_max` and `row_sum` (softmax: `inv_sum`), or, for softmax with the
  // row in registers, leaves exp(x - thread's max) in the cache and sets the
  // per-thread `scale` that turns it into the output.
  std::string maxAndSum(bool online, bool keepExponentials) {
    usesFastExp_ = true;
    std::string s;
    if (online && cachedInRegisters()) {
      usesNegInf_ = true;
      // Each thread first finds the maximum of its own values (no exponentials),
      // sums exp(x - that maximum) once, and a single reduction merges the pairs.
      s += "  float thread_max = neg_inf();\n";
      s += sweep(false, forEach("thread_max = fmaxf(thread_max, v[k]);"));
      s += "  // A share of only -inf values (or none) sums to 0 around any shift.\n";
      s += "  const float shift = thread_max == neg_inf() ? 0.0f : thread_max;\n";
      s += "  float thread_sum = 0.0f;\n";
      if (keepExponentials)
        s += sweep(false, forEach("{\n  v[k] = fast_exp(v[k] - shift);\n  thread_sum += v[k];\n}"));
      else
        s += sweep(false, forEach("thread_sum += fast_exp(v[k] - shift);"));
      s += "  const MaxSum stat = " + reduce(Stat::MaxSum, "MaxSum{thread_max, thread_sum}") + ";\n";
      s += "  const float row_max = stat.max;\n  const float row_sum = stat.sum;\n";
      if (keepExponentials)
        s += "  // The cache holds exp(x - this thread's max): one factor moves it to the row's max.\n"
             "  const float scale = fast_exp(shift - row_max) / row_sum;\n";
      return s;
    }
    if (online) {
      usesPackOnline_ = true;
      s += "  MaxSum stat = {neg_inf(), 0.0f};\n";
      s += sweep(true, "stat = online_add(stat, v);\n");
      s += "  stat = " + reduce(Stat::MaxSum, "stat") + ";\n";
      s += "  const float row_max = stat.max;\n  const float row_sum = stat.sum;\n";
    } else {
      s += "  float row_max = neg_inf();\n";
      s += sweep(true, forEach("row_max = fmaxf(row_max, v[k]);"));
      s += "  row_max = " + reduce(Stat::Max, "row_max") + ";\n";
      s += "  float row_sum = 0.0f;\n";
      // With the row in registers the exponentials replace it: the write sweep only scales.
      if (keepExponentials && cachedInRegisters())
        s += sweep(false, forEach("{\n  v[k] = fast_exp(v[k] - row_max);\n  row_sum += v[k];\n}"));
      else  // the last read of the row unless a softmax writes it next
        s += sweep(false, forEach("row_sum += fast_exp(v[k] - row_max);"), !keepExponentials);
      s += "  row_sum = " + reduce(Stat::Sum, "row_sum") + ";\n";
      if (keepExponentials && cachedInRegisters()) s += "  const float scale = 1.0f / row_sum;\n";
    }
    return s;
  }

  std::string familyBody() {
    const std::string& f = p_.family;
    const std::string Nf = "(float)" + N_;
    std::string s;
    if (f == "softmax") {
      s += maxAndSum(g_.gene("pass") == "online", true);
      if (cachedInRegisters()) {
        s += sweep(false, forEach("v[k] *= scale;") + storeRow());
      } else {
        s += "  const float inv_sum = 1.0f / row_sum;\n";
        s += sweep(false, forEach("v[k] = fast_exp(v[k] - row_max) * inv_sum;") + storeRow(), true);
      }
    } else if (f == "layernorm") {
      if (g_.gene("stats") == "welford") {
        if (cachedInRegisters()) {
          // The thread's own mean and deviations from its cache, then one exact merge.
          s += "  float thread_sum = 0.0f;\n  int thread_count = 0;\n";
          s += sweep(false, forEach("thread_sum += v[k];") + "thread_count += VEC;\n");
          s += "  const float thread_mean = thread_count > 0 ? thread_sum / (float)thread_count : 0.0f;\n";
          s += "  float thread_m2 = 0.0f;\n";
          s += sweep(false, forEach("thread_m2 += (v[k] - thread_mean) * (v[k] - thread_mean);"));
          s += "  const Welford stat = " +
               reduce(Stat::Welford, "Welford{(float)thread_count, thread_mean, thread_m2}") + ";\n";
        } else {
          usesPackWelford_ = true;
          s += "  Welford stat = {0.0f, 0.0f, 0.0f};\n";
          s += sweep(true, "stat = welford_add(stat, v);\n");
          s += "  stat = " + reduce(Stat::Welford, "stat") + ";\n";
        }
        s += "  const float mean = stat.mean;\n";
        s += "  const float rstd = rsqrtf(stat.m2 / " + Nf + " + EPS);\n";
      } else {
        s += "  float sum = 0.0f;\n";
        s += sweep(true, forEach("sum += v[k];"));
        s += "  const float mean = " + reduce(Stat::Sum, "sum") + " / " + Nf + ";\n";
        s += "  float squares = 0.0f;\n";
        s += sweep(false, forEach("squares += (v[k] - mean) * (v[k] - mean);"));
        s += "  const float rstd = rsqrtf(" + reduce(Stat::Sum, "squares") + " / " + Nf + " + EPS);\n";
      }
      s += sweep(false, "float w[VEC], b[VEC];\n" + parameterLoad("weight", "w") + parameterLoad("bias", "b") +
                            forEach("v[k] = (v[k] - mean) * rstd * w[k] + b[k];") + storeRow(),
                 true);
    } else if (f == "rmsnorm") {
      s += "  float squares = 0.0f;\n";
      s += sweep(true, forEach("squares += v[k] * v[k];"));
      s += "  const float rstd = rsqrtf(" + reduce(Stat::Sum, "squares") + " / " + Nf + " + EPS);\n";
      s += sweep(false, "float w[VEC];\n" + parameterLoad("weight", "w") + forEach("v[k] = v[k] * rstd * w[k];") +
                            storeRow(),
                 true);
    } else if (f == "rowsum") {
      s += "  float sum = 0.0f;\n";
      s += sweep(true, forEach("sum += v[k];"));
      s += "  sum = " + reduce(Stat::Sum, "sum") + ";\n";
      s += render("  if (lane == 0 && row < {{M}}) {{Y}}[row] = {{VALUE}};\n",
                  {{"M", M_}, {"Y", y_.role}, {"VALUE", fromFloat(y_.dtype, "sum")}});
    } else if (f == "cross_entropy") {
      s += maxAndSum(g_.gene("pass") == "online", false);
      s += "  const float log_sum_exp = row_max + logf(row_sum);\n";
      s += render(R"(  if (lane == 0 && row < {{M}}) {
    const long long target = targets[row];
    // A target outside the row is an input error: report NaN rather than read out of bounds.
    const float loss_value = (target >= 0 && target < {{N}}) ? log_sum_exp - {{TARGET_LOGIT}}
                                                           : __int_as_float(0x7fffffff);
    {{Y}}[row] = {{VALUE}};
  }
)",
                  {{"M", M_},
                   {"N", N_},
                   {"Y", y_.role},
                   {"TARGET_LOGIT", toFloat(x_.dtype, "row_in[target]")},
                   {"VALUE", fromFloat(y_.dtype, "loss_value")}});
    } else {
      throw std::logic_error("rowreduce emitter: family " + f);
    }
    return s;
  }

  const Genome& g_;
  const KernelProblem& p_;
  const ProblemTensor& x_;
  const ProblemTensor& y_;
  std::string granularity_, memory_, reduction_, hint_;
  bool subWarp_ = false, persistent_ = false;
  std::int64_t vec_ = 1, warpsPerRow_ = 1, rowsPerBlock_ = 1, threadsPerRow_ = 32, cols_ = 0;
  std::string M_, N_;
  std::set<Stat> stats_;
  bool usesFastExp_ = false, usesNegInf_ = false, usesPackOnline_ = false, usesPackWelford_ = false;
};

}  // namespace

EmittedKernel emitRowReduce(const Genome& g, const KernelProblem& p) { return RowEmitter(g, p).emit(); }

}  // namespace crucible::templates
