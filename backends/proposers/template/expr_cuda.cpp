// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/expr_cuda.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/kernel_source.h"

namespace crucible::templates {

MathMode mathMode(const GeneMap& genes) {
  return geneOr(genes, "math", "precise") == "fast" ? MathMode::Fast : MathMode::Precise;
}

const char* cudaExp(MathMode mode) { return mode == MathMode::Fast ? "__expf" : "expf"; }
const char* cudaLog(MathMode mode) { return mode == MathMode::Fast ? "__logf" : "logf"; }

bool computesExpOrLog(const ValueExpression& e) {
  // The value functions whose CUDA spelling (cudaValue, valueFunctionHelpers) calls cudaExp or cudaLog.
  static const std::set<std::string> users = {"exp", "log", "sigmoid", "silu", "softplus"};
  return std::any_of(e.nodes.begin(), e.nodes.end(),
                     [](const ValueNode& n) { return n.kind == ValueNode::Kind::Call && users.count(n.name); });
}

bool computesExpOrLog(const KernelProblem& p) {
  if (!p.operation) return false;
  std::set<std::string> names;
  for (const auto& t : p.inputs) names.insert(t.role);
  for (const auto& r : p.operation->reductions) {
    if (r.op == "logsumexp" || computesExpOrLog(parseValueExpression(r.of, names))) return true;
    names.insert(r.name);
  }
  return computesExpOrLog(parseValueExpression(p.operation->expression, names));
}

std::string cudaFloatLiteral(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  std::string s = buffer;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s + "f";
}

std::string cudaValue(const ValueExpression& e, const std::function<std::string(const std::string&)>& name,
                      MathMode math) {
  static const std::map<std::string, std::string> builtins = {
      {"log1p", "log1pf"}, {"tanh", "tanhf"}, {"erf", "erff"}, {"abs", "fabsf"}, {"sqrt", "sqrtf"},
      {"rsqrt", "rsqrtf"}, {"sin", "sinf"},   {"cos", "cosf"}, {"max", "fmaxf"}, {"min", "fminf"},
      {"pow", "powf"}};  // exp and log: cudaExp, cudaLog
  ValueSpelling spelling;
  spelling.name = name;
  spelling.number = [](double v) { return cudaFloatLiteral(v); };
  spelling.call = [math](const std::string& f, const std::vector<std::string>& args) {
    const auto it = builtins.find(f);
    std::string s = (f == "exp"               ? std::string(cudaExp(math))
                     : f == "log"             ? std::string(cudaLog(math))
                     : it != builtins.end()   ? it->second
                                              : "vf_" + f) +
                    "(";
    for (std::size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    return s + ")";
  };
  return spellValue(e, spelling);
}

std::string valueFunctionHelpers(MathMode math) {
  return render(R"(// The operator's functions without a CUDA built-in (fp32).
__device__ __forceinline__ float vf_sigmoid(float x) { return 1.0f / (1.0f + {{EXP}}(-x)); }
__device__ __forceinline__ float vf_silu(float x) { return x / (1.0f + {{EXP}}(-x)); }
__device__ __forceinline__ float vf_gelu(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
__device__ __forceinline__ float vf_gelu_tanh(float x) {
  return 0.5f * x * (1.0f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));
}
__device__ __forceinline__ float vf_relu(float x) { return fmaxf(x, 0.0f); }
__device__ __forceinline__ float vf_softplus(float x) { return x > 20.0f ? x : log1pf({{EXP}}(x)); }

)",
                {{"EXP", cudaExp(math)}});
}

std::string mixedPackHelpers(const std::set<DType>& dtypes, bool streaming) {
  std::string s = "// Conversions between each tensor's dtype and the fp32 the expressions compute in.\n";
  s += "template <class T> __device__ __forceinline__ T from_f(float v);\n";
  for (DType d : dtypes) {
    const std::string t = cudaTypeName(d);
    s += "__device__ __forceinline__ float to_f(" + t + " v) { return " + toFloat(d, "v") + "; }\n";
    s += "template <> __device__ __forceinline__ " + t + " from_f<" + t + ">(float v) { return " + fromFloat(d, "v") +
         "; }\n";
  }
  s += R"(
// VEC consecutive elements of a tensor moved as one aligned access.
template <class T>
struct alignas(VEC * sizeof(T)) PackOf {
  T v[VEC];
};

template <class T>
__device__ __forceinline__ void load_vec(const T* p, float (&v)[VEC]) {
  const PackOf<T> pack = *reinterpret_cast<const PackOf<T>*>(p);
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = to_f(pack.v[k]);
}

template <class T>
__device__ __forceinline__ void store_vec(T* p, const float (&v)[VEC]) {
  PackOf<T> pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = from_f<T>(v[k]);
  *reinterpret_cast<PackOf<T>*>(p) = pack;
}
)";
  if (streaming)
    s += R"(
// Evict-first accesses (ld.global.cs / st.global.cs) of whole packs, moved as
// the unsigned word of the pack's size: nothing is read twice.
template <int BYTES> struct WordOf;
template <> struct WordOf<4> { using type = unsigned; };
template <> struct WordOf<8> { using type = uint2; };
template <> struct WordOf<16> { using type = uint4; };

template <class T>
__device__ __forceinline__ void load_vec_cs(const T* p, float (&v)[VEC]) {
  using Word = typename WordOf<sizeof(PackOf<T>)>::type;
  const Word bits = __ldcs(reinterpret_cast<const Word*>(p));
  PackOf<T> pack;
  memcpy(&pack, &bits, sizeof pack);
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = to_f(pack.v[k]);
}

template <class T>
__device__ __forceinline__ void store_vec_cs(T* p, const float (&v)[VEC]) {
  using Word = typename WordOf<sizeof(PackOf<T>)>::type;
  PackOf<T> pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = from_f<T>(v[k]);
  Word bits;
  memcpy(&bits, &pack, sizeof bits);
  __stcs(reinterpret_cast<Word*>(p), bits);
}
)";
  return s + "\n";
}

}  // namespace crucible::templates
