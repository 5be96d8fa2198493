// SPDX-License-Identifier: GPL-3.0-or-later
// A task spec: an operator at given shapes and dtypes. The file format is
// JSON, documented in resources/tasks/README.md; parseTaskSpec validates it.
//
// Kernel ABI (fixed for every task, candidates and baselines alike):
//   extern "C" __global__ void <entry>(
//       const T_in0* __restrict__ in0, ..., const T_inN* __restrict__ inN,   // inputs, in spec order
//       T_out0* __restrict__ out0, ...,                                       // outputs, in spec order
//       <scalars>)                                                            // abi.scalars, in order, as `long long`
// The oracle (validation reference) takes the same inputs, but writes every
// output as `double*` and is computed in double precision. A candidate or
// baseline whose launch rule asks for TMA tensor maps (LaunchRule::tensorMaps)
// takes one `const __grid_constant__ CUtensorMap tmap_<tensor>` per map after
// these parameters (core/task/kernel_abi.h); the oracle takes none.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include "core/model/candidate.h"

namespace crucible {

enum class DType { F32, F16, BF16, F64, I32, I64 };
const char* toString(DType d);           // "f32", "f16", "bf16", "f64", "i32", "i64"
const char* cudaTypeName(DType d);       // "float", "__half", "__nv_bfloat16", "double", "int", "long long"
std::size_t sizeOf(DType d);
std::optional<DType> dtypeFromString(const std::string& s);  // inverse of toString; nullopt if unknown
bool isFloating(DType d);                // f32, f16, bf16, f64

// How an input is drawn. Never all zeros: validation depends on it.
struct Distribution {
  std::string kind = "normal";   // "normal" (mean a, stddev b) | "uniform" [a, b) | "randint" [a, b)
  double a = 0;
  double b = 1;
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::string> shape;  // axis names or integer literals
  Distribution distribution;       // inputs only
};

struct Tolerance {
  double rtol = 1e-5;
  double atol = 1e-6;
};

// A reduction over the last axis of the operator's row tensor (rowwise operators).
struct RowReduction {
  std::string name;        // how later reductions and the expression refer to its value
  std::string op;          // "sum", "mean", "max", "min", "logsumexp"
  std::string of;          // value expression reduced, element by element (core/task/value_expression.h)
};

// Optional: what the operator computes, stated as value expressions over its
// tensors (resources/tasks/README.md, "Operators stated as expressions"), so
// the template proposer can generate kernels for operators outside the
// built-in families.
//   elementwise: output = expression(inputs), inputs broadcast to the output's shape
//   rowwise:     the reductions over the last axis of inputs[0], in order, then
//                output = expression(inputs, reductions) per element (or per row)
struct OperatorSpec {
  std::string kind;                     // "elementwise" | "rowwise"
  std::string expression;
  std::vector<RowReduction> reductions; // rowwise only, at least one
};

// Optional: inputs drawn far from the task's distributions, where a kernel
// that is right only for ordinary values goes wrong (a softmax without the
// max subtraction overflows for large logits; a layer norm's one-pass
// E[x^2] - E[x]^2 cancels for a large mean). Each case is one more validation
// launch, checked against the oracle and never timed (resources/tasks/README.md,
// "Stress cases").
struct StressCase {
  std::string name;                               // "large logits": named in a failure's reason
  std::map<std::string, Distribution> inputs;     // input name -> its distribution here; the others keep theirs
  std::map<std::string, Tolerance> tolerances;    // output name -> its tolerance here; the others keep the task's
};

// A kernel given in the spec (the baseline, or the oracle).
struct SpecKernel {
  std::string source;              // CUDA C++
  LaunchRule launch;               // grid/block/smem as expressions over the axes
};

struct TaskSpec {
  int formatVersion = 1;
  std::string name;
  std::string family;              // "softmax", "layernorm", "rmsnorm", "gelu", "rowsum", "transpose", "matmul", "cross_entropy"...
  std::string description;
  std::map<std::string, std::int64_t> axes;   // "M" -> 8192
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<std::string> scalars;           // axis names passed to kernels, in order
  std::map<std::string, Tolerance> tolerances;  // per output name
  std::string flops;               // expression over the axes
  std::string minBytes;            // expression over the axes: bytes that must move
  std::string entry;               // the candidate's kernel name
  SpecKernel baseline;             // a correct, straightforward kernel: the first reference
  SpecKernel oracle;               // double-precision reference for validation
  std::string libraryReference;    // optional: "cublas_sgemm", "cublaslt_bf16_gemm", "cublaslt_bf16_gemm_bias_relu", ""
  // Optional: smaller values of some axes at which the sanitizers run a
  // candidate before a seal (compute-sanitizer slows kernels down by orders
  // of magnitude). Each names an axis of `axes`, with a value in [1, its
  // value]; a task author keeps the divisibility its kernels need.
  std::map<std::string, std::int64_t> sanitizeAxes;
  // Optional: the operator stated as expressions (absent for the built-in families).
  std::optional<OperatorSpec> operation;
  // Optional: validation launches on inputs far from the distributions above.
  std::vector<StressCase> stress;
};

// Output `output`'s tolerance: the stress case's where it names one, else the task's.
Tolerance toleranceOf(const TaskSpec& spec, const std::string& output, const StressCase* stress = nullptr);
// Input `input`'s distribution: the stress case's where it names one, else the task's.
const Distribution& distributionOf(const TaskSpec& spec, std::size_t input, const StressCase* stress = nullptr);

// The spec with its axes replaced by sanitizeAxes where it names them: the
// shape at which the sanitizers run (the spec itself when it names none).
TaskSpec atSanitizeShape(TaskSpec spec);
// "M=256, N=4096": the axes of a spec, for messages.
std::string describeAxes(const std::map<std::string, std::int64_t>& axes);

class TaskSpecError : public std::runtime_error {
public:
  TaskSpecError(const std::string& field, const std::string& message)
      : std::runtime_error(field + ": " + message), field_(field) {}
  const std::string& field() const { return field_; }
private:
  std::string field_;
};

// Parses and validates; throws TaskSpecError naming the offending field.
TaskSpec parseTaskSpec(const std::string& json);
std::string toJson(const TaskSpec& spec);

// Integer expression over named axes: + - * / % ( ), ceil_div(a,b), min(a,b), max(a,b).
// Throws TaskSpecError("expression", ...) on a syntax error or unknown name.
std::int64_t evalExpression(const std::string& expr, const std::map<std::string, std::int64_t>& axes);

// Element count of a tensor under the spec's axes.
std::int64_t elementCount(const TaskSpec& spec, const TensorSpec& t);

// The tensor's dimensions under the spec's axes, outermost first.
std::vector<std::int64_t> resolveShape(const TaskSpec& spec, const TensorSpec& t);

// The library references a spec may name (backends provide them); "" = none.
const std::vector<std::string>& knownLibraryReferences();

}  // namespace crucible
