// SPDX-License-Identifier: GPL-3.0-or-later
// What the template emitters need to know about a task: its family, the
// tensors in ABI order with their role names, the axes and which of them
// arrive as kernel scalars. Built from a TaskSpec; a spec whose tensors do not
// match the family's layout is rejected with a message naming the mismatch.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "core/task/task_spec.h"
#include "core/task/task_spec_operator.h"

namespace crucible::templates {

struct ProblemTensor {
  std::string role;                 // the emitter's name for it: "x", "weight", "A"...
  std::string name;                 // the task's name for it: its kernel parameter and tensor map
  DType dtype = DType::F32;
  std::vector<std::string> shape;   // axis names or integer literals, from the spec
  // Operators stated as expressions (TaskSpec::operation): how the tensor meets
  // the output (elementwise) or the rows (rowwise), and whether the expressions read it.
  std::optional<Broadcast> broadcast;
  std::optional<RowRole> rowRole;
  bool read = false;
};

struct KernelProblem {
  std::string taskName;
  std::string family;               // the design space's family: TaskSpec::family, or
                                    // "expr_elementwise" / "expr_rowwise" for a stated operator
  std::string taskFamily;           // TaskSpec::family (knowledge is scoped by it)
  std::optional<OperatorSpec> operation;  // TaskSpec::operation
  // Batched GEMM (matmul, matmul_bias_relu with A [Bt, M, K], C [Bt, M, N], and B
  // [Bt, K, N] or a shared [K, N]): the tensors above are the [M, K], [K, N], [M, N]
  // matrices of one batch entry, and the batch is the grid's z axis.
  bool batched = false;
  bool batchedB = false;            // B has the batch axis (else every entry shares it)
  std::string batchAxis;            // the batch dimension's shape entry ("Bt" or a literal)
  std::int64_t batch = 1;
  std::string entry;                // the __global__ function's name
  std::map<std::string, std::int64_t> axes;
  std::vector<ProblemTensor> inputs;
  std::vector<ProblemTensor> outputs;
  std::vector<std::string> scalars; // axis names passed as `long long`, in order
  // The SM count of the GPU the engine evaluates on (Proposer::setDevice), for the rules
  // that judge a design by it (the persistent GEMM's tile count); 0: no GPU is known.
  // Launch rules never take it from here: they name sm_count, resolved where they launch.
  int smCount = 0;

  const ProblemTensor& input(const std::string& role) const;
  const ProblemTensor& output(const std::string& role) const;
  // The task's name for the tensor of this role (a launch rule's tensor maps name it).
  const std::string& tensorName(const std::string& role) const;
  // Whether the task calls a tensor other than the family's role for it (a matmul's
  // inputs "lhs", "rhs"). The families write their code with the roles.
  bool renamed() const;

  // The value of a tensor dimension at the task's shapes.
  std::int64_t extent(const ProblemTensor& t, int dim) const;
  // How kernel code names that dimension: the scalar parameter when the axis
  // is passed ("N"), otherwise its value as a literal ("4096LL").
  std::string extentCode(const ProblemTensor& t, int dim) const;
  // How a launch rule names it: the axis name or the literal.
  std::string extentExpr(const ProblemTensor& t, int dim) const;

  // `extern "C" __global__ void <entry>(const float* __restrict__ x, ..., long long M, ...)`
  // A non-empty `launchBounds` ("THREADS") adds __launch_bounds__(launchBounds).
  // Each role in `tensorMaps` appends `const __grid_constant__ CUtensorMap tmap_<role>`
  // (core/task/kernel_abi.h), for a launch rule that asks the worker for those maps.
  // A renamed() task gets the kernel with its own names (the ABI's), which calls the
  // family's code as an inlined device function with the role names: the text returned
  // then ends with that function's head, so the emitter's body follows it as before.
  // The body never sees the task's names, nor the kernel the roles, so neither can
  // shadow the other.
  std::string signature(const std::string& launchBounds, const std::vector<std::string>& tensorMaps = {}) const;
  // Where the family's code begins in a source written with signature(): just past the
  // "{\n" that opens the kernel, or a renamed() task's inlined function; npos if absent.
  std::size_t familyCodeStart(const std::string& source) const;
  bool usesDType(DType d) const;
};

// The inlined function that holds a renamed() task's kernel body (see signature()).
inline constexpr const char* kRenamedBodyName = "cr_kernel_body";

// The design-space families of operators stated as expressions.
inline constexpr const char* kExprElementwise = "expr_elementwise";
inline constexpr const char* kExprRowwise = "expr_rowwise";

// Throws std::invalid_argument naming the spec field that does not fit the family
// (or, for a stated operator, what the template families cannot take: a dtype,
// a shape that is not axis names and integers).
KernelProblem problemFromSpec(const TaskSpec& spec);

}  // namespace crucible::templates
