// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/kernel_source.h"

#include <stdexcept>

namespace crucible::templates {

std::string render(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string out;
  out.reserve(text.size() + 256);
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    const std::size_t close = text.find("}}", open);
    if (close == std::string::npos) throw std::logic_error("render: unterminated placeholder");
    const std::string name = text.substr(open + 2, close - open - 2);
    auto it = vars.find(name);
    if (it == vars.end()) throw std::logic_error("render: no value for placeholder {{" + name + "}}");
    out.append(text, pos, open - pos);
    out += it->second;
    pos = close + 2;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

std::string headerComment(const Genome& g, const KernelProblem& p, const std::string& summary) {
  std::string s = "// Crucible template kernel: " + summary + "\n";
  s += "// task:   " + p.taskName + " (" + p.family;
  for (const auto& [axis, value] : p.axes) s += ", " + axis + "=" + std::to_string(value);
  s += ")\n";
  s += "// genes:  " + g.genesText() + "\n";
  s += "// params: " + g.paramsText() + "\n";
  return s;
}

std::string includes(const KernelProblem& p) {
  std::string s;
  if (p.usesDType(DType::BF16)) s += "#include <cuda_bf16.h>\n";
  if (p.usesDType(DType::F16)) s += "#include <cuda_fp16.h>\n";
  return s;
}

std::string indentLines(const std::string& text, int spaces) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    out += (line.empty() || line[0] == '#' ? "" : std::string(static_cast<std::size_t>(spaces), ' ')) + line + "\n";
    start = end + 1;
  }
  return out;
}

std::string constant(const std::string& name, std::int64_t value, const std::string& why) {
  std::string s = "constexpr int " + name + " = " + std::to_string(value) + ";";
  if (!why.empty()) s += "  // " + why;
  return s + "\n";
}

std::string toFloat(DType d, const std::string& expr) {
  switch (d) {
    case DType::F32: return expr;
    case DType::BF16: return "__bfloat162float(" + expr + ")";
    case DType::F16: return "__half2float(" + expr + ")";
    default: throw std::logic_error(std::string("toFloat: unsupported dtype ") + toString(d));
  }
}

std::string fromFloat(DType d, const std::string& expr) {
  switch (d) {
    case DType::F32: return expr;
    case DType::BF16: return "__float2bfloat16(" + expr + ")";
    case DType::F16: return "__float2half(" + expr + ")";
    default: throw std::logic_error(std::string("fromFloat: unsupported dtype ") + toString(d));
  }
}

std::string packHelpers(DType d, bool withConversions) {
  const std::string t = cudaTypeName(d);
  const std::string pack = render(R"(// VEC consecutive elements moved as one aligned access.
struct alignas(VEC * sizeof({{T}})) Pack {
  {{T}} v[VEC];
};
)", {{"T", t}});
  if (!withConversions) return pack;
  return pack + render(R"(
__device__ __forceinline__ void load_pack(const {{T}}* p, float (&v)[VEC]) {
  const Pack pack = *reinterpret_cast<const Pack*>(p);
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = {{TO_FLOAT}};
}

__device__ __forceinline__ void store_pack({{T}}* p, const float (&v)[VEC]) {
  Pack pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = {{FROM_FLOAT}};
  *reinterpret_cast<Pack*>(p) = pack;
}
)",
                {{"T", t}, {"TO_FLOAT", toFloat(d, "pack.v[k]")}, {"FROM_FLOAT", fromFloat(d, "v[k]")}});
}

std::string cpAsyncHelpers() {
  return R"(
__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
)" + cpAsyncCopyHelpers();
}

std::string cpAsyncCopyHelpers() {
  return R"(
// 16 bytes global -> shared without a register round trip; `valid` = false writes zeros.
__device__ __forceinline__ void cp_async_16(void* dst, const void* src, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address(dst)), "l"(src),
               "r"(valid ? 16 : 0));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}
)";
}

std::string cpAsyncMainLoop() {
  return R"(  // Prologue: STAGES - 1 tiles in flight. Every iteration commits one group
  // (possibly empty) so the wait count below always means the same tile.
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    cp_async_commit();
  }
  for (long long t = 0; t < k_tiles; ++t) {
    cp_async_wait<STAGES - 2>();  // tile t has landed
    __syncthreads();              // ... for every thread, and stage (t - 1) % STAGES is free
    const long long next = t + STAGES - 1;
    if (next < k_tiles) load_tile(next, next % STAGES);
    cp_async_commit();
    compute_tile(t % STAGES);
  }
)";
}

}  // namespace crucible::templates
