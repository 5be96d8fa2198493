// SPDX-License-Identifier: GPL-3.0-or-later
// Emits an elementwise kernel: each thread moves ITEMS_PER_THREAD packs of VEC
// elements, the packs of one load instruction adjacent across the block's
// threads so every access is coalesced.
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {

EmittedKernel emitElementwise(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& x = p.input("x");
  const bool gridStride = g.gene("grid") == "grid_stride";
  const std::int64_t vec = std::stoll(g.gene("vector"));
  const std::string n = p.extentCode(x, 0);

  std::string src = headerComment(g, p,
                                  std::string("elementwise gelu, ") + std::to_string(vec * sizeOf(x.dtype)) +
                                      "-byte accesses, " + (gridStride ? "grid-stride loop" : "one tile per block") +
                                      (g.gene("cache") == "streaming" ? ", evict-first (streaming) loads and stores" : ""));
  src += includes(p) + "\n";
  src += constant("THREADS", g.param("THREADS"));
  src += constant("VEC", vec, "elements per access");
  src += constant("ITEMS_PER_THREAD", g.param("ITEMS_PER_THREAD"), "packs per thread, THREADS apart");
  src += "constexpr int TILE = THREADS * ITEMS_PER_THREAD;  // packs per block per step\n\n";
  if (g.gene("cache") == "streaming") {
    // Evict-first loads (ld.global.cs) and stores (st.global.cs) of whole packs,
    // moved as the unsigned word type of the pack's size (4, 8 or 16 bytes).
    const std::int64_t bytes = vec * static_cast<std::int64_t>(sizeOf(x.dtype));
    const std::string word = bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : "unsigned";
    src += packHelpers(x.dtype, false);
    src += render(R"(
__device__ __forceinline__ void load_pack(const {{T}}* p, float (&v)[VEC]) {
  const {{WORD}} bits = __ldcs(reinterpret_cast<const {{WORD}}*>(p));
  Pack pack;
  memcpy(&pack, &bits, sizeof pack);
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = {{TO_FLOAT}};
}

__device__ __forceinline__ void store_pack({{T}}* p, const float (&v)[VEC]) {
  Pack pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = {{FROM_FLOAT}};
  {{WORD}} bits;
  memcpy(&bits, &pack, sizeof bits);
  __stcs(reinterpret_cast<{{WORD}}*>(p), bits);
}

)",
                  {{"T", cudaTypeName(x.dtype)}, {"WORD", word}, {"TO_FLOAT", toFloat(x.dtype, "pack.v[k]")},
                   {"FROM_FLOAT", fromFloat(x.dtype, "v[k]")}});
  } else {
    src += packHelpers(x.dtype) + "\n";
  }
  src += R"(// GELU with the exact erf form: 0.5 x (1 + erf(x / sqrt(2))).
__device__ __forceinline__ float gelu(float x) {
  return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
}

)";
  src += p.signature("THREADS") + " {\n";
  src += render("  const long long packs = {{N}} / VEC;\n", {{"N", n}});
  const std::string body = R"(  float v[ITEMS_PER_THREAD][VEC];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    const long long pack = first + (long long)i * THREADS;
    if (pack < packs) load_pack(x + pack * VEC, v[i]);
  }
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    const long long pack = first + (long long)i * THREADS;
    if (pack < packs) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) v[i][k] = gelu(v[i][k]);
      store_pack(y + pack * VEC, v[i]);
    }
  }
)";
  if (gridStride) {
    src += R"(  for (long long tile = blockIdx.x; tile * TILE < packs; tile += gridDim.x) {
    const long long first = tile * TILE + threadIdx.x;
)";
    // Indent the body one more level inside the loop.
    std::string indented;
    std::size_t start = 0;
    while (start < body.size()) {
      const std::size_t end = body.find('\n', start);
      const std::string line = body.substr(start, end - start);
      indented += (line.empty() || line[0] == '#' ? "" : "  ") + line + "\n";
      start = end + 1;
    }
    src += indented + "  }\n";
  } else {
    src += "  const long long first = (long long)blockIdx.x * TILE + threadIdx.x;\n" + body;
  }
  src += "}\n";

  EmittedKernel k;
  k.source = std::move(src);
  k.launch.entry = p.entry;
  const std::string tiles = "ceil_div(" + p.extentExpr(x, 0) + ", " +
                            std::to_string(g.param("THREADS") * g.param("ITEMS_PER_THREAD") * vec) + ")";
  k.launch.grid[0] = gridStride ? "min(" + tiles + ", " + std::to_string(g.param("MAX_BLOCKS")) + ")" : tiles;
  k.launch.block[0] = std::to_string(g.param("THREADS"));
  return k;
}

}  // namespace crucible::templates
