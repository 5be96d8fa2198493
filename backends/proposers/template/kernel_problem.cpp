// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/kernel_problem.h"
#include "core/task/kernel_abi.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

namespace crucible::templates {
namespace {

struct RoleSpec {
  const char* role;
  int rank;
  bool integer;  // an index tensor (targets) rather than floating-point data
};

struct FamilyLayout {
  const char* family;
  std::vector<RoleSpec> inputs;
  std::vector<RoleSpec> outputs;
};

const std::vector<FamilyLayout>& layouts() {
  static const std::vector<FamilyLayout> table = {
      {"gelu", {{"x", 1, false}}, {{"y", 1, false}}},
      {"softmax", {{"x", 2, false}}, {{"y", 2, false}}},
      {"layernorm", {{"x", 2, false}, {"weight", 1, false}, {"bias", 1, false}}, {{"y", 2, false}}},
      {"rmsnorm", {{"x", 2, false}, {"weight", 1, false}}, {{"y", 2, false}}},
      {"rowsum", {{"x", 2, false}}, {{"y", 1, false}}},
      {"transpose", {{"x", 2, false}}, {{"y", 2, false}}},
      {"matmul", {{"A", 2, false}, {"B", 2, false}}, {{"C", 2, false}}},
      {"matmul_bias_relu", {{"A", 2, false}, {"B", 2, false}, {"bias", 1, false}}, {{"C", 2, false}}},
      {"cross_entropy", {{"logits", 2, false}, {"targets", 1, true}}, {{"loss", 1, false}}},
  };
  return table;
}

bool isLiteral(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool isFloatData(DType d) { return d == DType::F32 || d == DType::F16 || d == DType::BF16; }

std::vector<ProblemTensor> bind(const std::vector<TensorSpec>& specs, const std::vector<RoleSpec>& roles,
                                const std::string& family, const char* what) {
  if (specs.size() != roles.size())
    throw std::invalid_argument(std::string(what) + ": family '" + family + "' expects " +
                                std::to_string(roles.size()) + " tensors, the spec has " +
                                std::to_string(specs.size()));
  std::vector<ProblemTensor> out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const TensorSpec& t = specs[i];
    const RoleSpec& r = roles[i];
    const std::string field = std::string(what) + "[" + std::to_string(i) + "] (" + t.name + ")";
    if (static_cast<int>(t.shape.size()) != r.rank)
      throw std::invalid_argument(field + ": family '" + family + "' expects rank " + std::to_string(r.rank) +
                                  " for " + r.role + ", got rank " + std::to_string(t.shape.size()));
    if (r.integer ? (t.dtype != DType::I64 && t.dtype != DType::I32) : !isFloatData(t.dtype))
      throw std::invalid_argument(field + ": dtype " + toString(t.dtype) + " is not supported for " + r.role);
    // The kernel the wrapper calls by this name (signature()) would be shadowed by it.
    if (t.name == kRenamedBodyName)
      throw std::invalid_argument(field + ": '" + t.name + "' is a name the " + family +
                                  " template kernels use themselves");
    ProblemTensor pt;
    pt.role = r.role;
    pt.name = t.name;
    pt.dtype = t.dtype;
    pt.shape = t.shape;
    out.push_back(std::move(pt));
  }
  return out;
}

void requireEqual(const KernelProblem& p, const ProblemTensor& a, int da, const ProblemTensor& b, int db) {
  if (p.extent(a, da) != p.extent(b, db))
    throw std::invalid_argument("shapes: " + a.name + " dim " + std::to_string(da) + " (" +
                                std::to_string(p.extent(a, da)) + ") must equal " + b.name + " dim " +
                                std::to_string(db) + " (" + std::to_string(p.extent(b, db)) + ")");
}

bool isShapeEntry(const std::string& s, const std::map<std::string, std::int64_t>& axes) {
  return isLiteral(s) || axes.count(s);
}

// Names the expression kernels define themselves (expr_cuda.cpp, emit_expr_*.cpp):
// a tensor or scalar of the same name would shadow them.
bool clashesWithKernelNames(const std::string& name) {
  static const std::set<std::string> names = {
      "THREADS", "VEC", "ITEMS_PER_THREAD", "TILE", "ROWS_PER_BLOCK", "WARPS_PER_ROW", "THREADS_PER_ROW",
      "PACKS_PER_THREAD", "PACKS_IN_FLIGHT", "to_f", "from_f", "PackOf", "WordOf", "load_vec", "store_vec",
      "load_vec_cs", "store_vec_cs", "MaxSum", "SumOp", "MaxOp", "MinOp", "LseOp", "lse_add", "shfl_xor",
      "row_reduce", "expf", "logf", "log1pf", "tanhf", "erff", "fabsf", "sqrtf", "rsqrtf", "sinf", "cosf",
      "fmaxf", "fminf", "powf", "memcpy"};
  return names.count(name) || name.rfind("cr_", 0) == 0 || name.rfind("vf_", 0) == 0;
}

// A task that states its operator (TaskSpec::operation, already checked by the
// spec parser): tensors keep their names as roles.
KernelProblem operatorProblem(const TaskSpec& spec) {
  const OperatorSpec& op = *spec.operation;
  KernelProblem p;
  p.taskName = spec.name;
  p.family = op.kind == "elementwise" ? kExprElementwise : kExprRowwise;
  p.taskFamily = spec.family;
  p.operation = op;
  p.entry = spec.entry;
  p.axes = spec.axes;
  p.scalars = spec.scalars;
  for (const auto& sc : p.scalars)
    if (clashesWithKernelNames(sc))
      throw std::invalid_argument("scalars: '" + sc + "' is a name the " + p.family +
                                  " template kernels use themselves (names starting cr_ or vf_, and their helpers)");
  const ParsedOperator parsed = parseOperatorExpressions(spec);
  std::set<std::string> read = parsed.expression.names();
  for (const auto& r : parsed.reductions) {
    const auto n = r.names();
    read.insert(n.begin(), n.end());
  }
  const std::string what = std::string("the ") + p.family + " template family";
  auto bind = [&](const std::vector<TensorSpec>& specs, const char* group, bool output) {
    std::vector<ProblemTensor> out;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const TensorSpec& t = specs[i];
      const std::string field = std::string(group) + "[" + std::to_string(i) + "] (" + t.name + ")";
      ProblemTensor pt;
      pt.role = pt.name = t.name;
      pt.dtype = t.dtype;
      pt.shape = t.shape;
      if (clashesWithKernelNames(t.name))
        throw std::invalid_argument(field + ": '" + t.name + "' is a name the " + p.family +
                                    " template kernels use themselves (names starting cr_ or vf_, and their helpers)");
      pt.read = output || read.count(t.name) || (op.kind == "rowwise" && !output && i == 0);
      for (const auto& d : t.shape)
        if (!isShapeEntry(d, spec.axes))
          throw std::invalid_argument(field + ": " + what + " reads shapes of axis names and integers, not '" + d + "'");
      if (pt.read && !isFloatData(t.dtype))
        throw std::invalid_argument(field + ": dtype " + toString(t.dtype) + " is not handled by " + what +
                                    " (f32, f16, bf16)");
      if (op.kind == "elementwise" && !output && pt.read) pt.broadcast = broadcastOf(spec, t, spec.outputs[0]);
      if (op.kind == "rowwise" && pt.read) pt.rowRole = rowRoleOf(spec, t);
      out.push_back(std::move(pt));
    }
    return out;
  };
  p.inputs = bind(spec.inputs, "inputs", false);
  p.outputs = bind(spec.outputs, "outputs", true);
  return p;
}

}  // namespace

const ProblemTensor& KernelProblem::input(const std::string& role) const {
  for (const auto& t : inputs)
    if (t.role == role) return t;
  throw std::logic_error("template problem: no input with role " + role);
}

const ProblemTensor& KernelProblem::output(const std::string& role) const {
  for (const auto& t : outputs)
    if (t.role == role) return t;
  throw std::logic_error("template problem: no output with role " + role);
}

std::int64_t KernelProblem::extent(const ProblemTensor& t, int dim) const {
  const std::string& s = t.shape.at(static_cast<std::size_t>(dim));
  if (isLiteral(s)) return std::stoll(s);
  auto it = axes.find(s);
  if (it == axes.end()) throw std::invalid_argument("shape of " + t.name + ": unknown axis '" + s + "'");
  return it->second;
}

std::string KernelProblem::extentCode(const ProblemTensor& t, int dim) const {
  const std::string& s = t.shape.at(static_cast<std::size_t>(dim));
  if (!isLiteral(s) && std::find(scalars.begin(), scalars.end(), s) != scalars.end()) return s;
  return std::to_string(extent(t, dim)) + "LL";
}

std::string KernelProblem::extentExpr(const ProblemTensor& t, int dim) const {
  return t.shape.at(static_cast<std::size_t>(dim));
}

const std::string& KernelProblem::tensorName(const std::string& role) const {
  for (const auto* group : {&inputs, &outputs})
    for (const auto& t : *group)
      if (t.role == role) return t.name;
  throw std::logic_error("template problem: no tensor with role " + role);
}

bool KernelProblem::renamed() const {
  for (const auto* group : {&inputs, &outputs})
    for (const auto& t : *group)
      if (t.name != t.role) return true;
  return false;
}

namespace {

// `head(p1,\n<indent>p2, ...)`: the parameters aligned under the first.
std::string parameterList(std::string head, const std::vector<std::string>& params) {
  const std::string indent(head.size() + 1, ' ');
  head += "(";
  for (std::size_t i = 0; i < params.size(); ++i) head += (i ? ",\n" + indent : "") + params[i];
  return head + ")";
}

}  // namespace

std::string KernelProblem::signature(const std::string& launchBounds, const std::vector<std::string>& tensorMaps) const {
  // by(t) names a tensor's parameter: the role in the family's code, the task's name in the kernel.
  auto params = [&](auto by, bool bodyMaps) {
    std::vector<std::string> out;
    for (const auto& t : inputs) out.push_back(std::string("const ") + cudaTypeName(t.dtype) + "* __restrict__ " + by(t));
    for (const auto& t : outputs) out.push_back(std::string(cudaTypeName(t.dtype)) + "* __restrict__ " + by(t));
    for (const auto& sc : scalars) out.push_back("long long " + sc);
    for (const auto& role : tensorMaps) {
      const std::string mapName = tensorMapParameterName(TensorMapRule{bodyMaps ? role : tensorName(role)});
      // The body takes the kernel's __grid_constant__ map by reference: the same parameter, never a copy.
      out.push_back(bodyMaps ? "const CUtensorMap& " + mapName : tensorMapParameterType() + " " + mapName);
    }
    return out;
  };
  const auto byName = [](const ProblemTensor& t) { return t.name; };
  std::string kernel = "extern \"C\" __global__ void ";
  if (!launchBounds.empty()) kernel += "__launch_bounds__(" + launchBounds + ") ";
  kernel = parameterList(kernel + entry, params(byName, false));
  if (!renamed()) return kernel;

  const std::string body = parameterList(std::string("static __device__ __forceinline__ void ") + kRenamedBodyName,
                                         params([](const ProblemTensor& t) { return t.role; }, true));
  std::vector<std::string> arguments;
  for (const auto* group : {&inputs, &outputs})
    for (const auto& t : *group) arguments.push_back(t.name);
  arguments.insert(arguments.end(), scalars.begin(), scalars.end());
  for (const auto& role : tensorMaps) arguments.push_back(tensorMapParameterName(TensorMapRule{tensorName(role)}));
  std::string call = std::string("  ") + kRenamedBodyName + "(";
  for (std::size_t i = 0; i < arguments.size(); ++i) call += (i ? ", " : "") + arguments[i];
  return "// The task names its tensors differently from this family's code: the kernel passes them on.\n" + body +
         ";\n\n" + kernel + " {\n" + call + ");\n}\n\n" + body;
}

std::size_t KernelProblem::familyCodeStart(const std::string& source) const {
  // The inlined function's definition comes last, after its declaration and the kernel's call.
  const std::size_t head = renamed() ? source.rfind(std::string("void ") + kRenamedBodyName + "(")
                                     : source.find("extern \"C\" __global__");
  const std::size_t open = head == std::string::npos ? head : source.find("{\n", head);
  return open == std::string::npos ? open : open + 2;
}

bool KernelProblem::usesDType(DType d) const {
  auto has = [d](const std::vector<ProblemTensor>& ts) {
    return std::any_of(ts.begin(), ts.end(), [d](const ProblemTensor& t) { return t.dtype == d; });
  };
  return has(inputs) || has(outputs);
}

KernelProblem problemFromSpec(const TaskSpec& spec) {
  if (spec.operation) return operatorProblem(spec);
  if (spec.family == kExprElementwise || spec.family == kExprRowwise)
    throw std::invalid_argument("family: '" + spec.family +
                                "' is the template proposer's name for operators stated in the `operator` field, "
                                "and this task states none");
  const FamilyLayout* layout = nullptr;
  for (const auto& l : layouts())
    if (spec.family == l.family) layout = &l;
  // A batched GEMM: the emitters see one batch entry's matrices; the batch is the grid's z.
  if (layout && (spec.family == "matmul" || spec.family == "matmul_bias_relu") && spec.inputs.size() >= 2 &&
      !spec.outputs.empty() && spec.inputs[0].shape.size() == 3) {
    TaskSpec entry = spec;
    const std::string batchAxis = spec.inputs[0].shape[0];
    auto strip = [&](TensorSpec& t, const char* field, bool optional) {
      if (optional && t.shape.size() == 2) return false;
      if (t.shape.size() != 3)
        throw std::invalid_argument(std::string(field) + " (" + t.name + "): a batched GEMM takes rank 3 here, got rank " +
                                    std::to_string(t.shape.size()));
      if (t.shape[0] != batchAxis)
        throw std::invalid_argument(std::string(field) + " (" + t.name + "): batch dimension '" + t.shape[0] +
                                    "' differs from A's '" + batchAxis + "'");
      t.shape.erase(t.shape.begin());
      return true;
    };
    strip(entry.inputs[0], "inputs[0]", false);
    const bool batchedB = strip(entry.inputs[1], "inputs[1]", true);
    strip(entry.outputs[0], "outputs[0]", false);
    KernelProblem p = problemFromSpec(entry);
    p.batched = true;
    p.batchedB = batchedB;
    p.batchAxis = batchAxis;
    p.batch = isLiteral(batchAxis) ? std::stoll(batchAxis) : spec.axes.count(batchAxis) ? spec.axes.at(batchAxis) : 0;
    if (p.batch <= 0)
      throw std::invalid_argument("inputs[0] (" + spec.inputs[0].name + "): the batch dimension '" + batchAxis +
                                  "' must be an axis name or an integer");
    return p;
  }
  if (!layout) throw std::invalid_argument("family: the template proposer has no kernels for '" + spec.family + "'");
  if (spec.entry.empty()) throw std::invalid_argument("entry: empty kernel name");

  KernelProblem p;
  p.taskName = spec.name;
  p.family = spec.family;
  p.taskFamily = spec.family;
  p.entry = spec.entry;
  p.axes = spec.axes;
  p.scalars = spec.scalars;
  p.inputs = bind(spec.inputs, layout->inputs, spec.family, "inputs");
  p.outputs = bind(spec.outputs, layout->outputs, spec.family, "outputs");
  for (const auto& sc : p.scalars) {
    if (!p.axes.count(sc)) throw std::invalid_argument("scalars: '" + sc + "' is not an axis");
    // The family's code takes the scalars beside its role names (signature()).
    for (const auto* group : {&p.inputs, &p.outputs})
      for (const auto& t : *group)
        if (sc == t.role || sc == tensorMapParameterName(TensorMapRule{t.role}) || sc == kRenamedBodyName)
          throw std::invalid_argument("scalars: '" + sc + "' is a name the " + spec.family +
                                      " template kernels give to the tensor " + t.name + " or use themselves");
  }

  // Every extent must resolve, and the tensors must agree with each other.
  for (const auto* group : {&p.inputs, &p.outputs})
    for (const auto& t : *group)
      for (int d = 0; d < static_cast<int>(t.shape.size()); ++d)
        if (p.extent(t, d) <= 0) throw std::invalid_argument("shape of " + t.name + ": extent must be positive");

  const std::string& f = p.family;
  if (f == "gelu") {
    requireEqual(p, p.input("x"), 0, p.output("y"), 0);
  } else if (f == "softmax" || f == "layernorm" || f == "rmsnorm") {
    requireEqual(p, p.input("x"), 0, p.output("y"), 0);
    requireEqual(p, p.input("x"), 1, p.output("y"), 1);
    if (f != "softmax") requireEqual(p, p.input("x"), 1, p.input("weight"), 0);
    if (f == "layernorm") requireEqual(p, p.input("x"), 1, p.input("bias"), 0);
    if (p.input("x").dtype != p.output("y").dtype || p.input("x").dtype != p.inputs.back().dtype)
      throw std::invalid_argument("dtypes: x, its parameters and y must share one dtype");
  } else if (f == "rowsum") {
    requireEqual(p, p.input("x"), 0, p.output("y"), 0);
  } else if (f == "transpose") {
    requireEqual(p, p.input("x"), 0, p.output("y"), 1);
    requireEqual(p, p.input("x"), 1, p.output("y"), 0);
    if (p.input("x").dtype != p.output("y").dtype) throw std::invalid_argument("dtypes: x and y must match");
  } else if (f == "matmul" || f == "matmul_bias_relu") {
    requireEqual(p, p.input("A"), 1, p.input("B"), 0);
    requireEqual(p, p.input("A"), 0, p.output("C"), 0);
    requireEqual(p, p.input("B"), 1, p.output("C"), 1);
    const DType d = p.input("A").dtype;
    if (p.input("B").dtype != d || p.output("C").dtype != d ||
        (f == "matmul_bias_relu" && p.input("bias").dtype != d))
      throw std::invalid_argument("dtypes: A, B" + std::string(f == "matmul" ? "" : ", bias") +
                                  " and C must share one dtype");
    if (d == DType::F16) throw std::invalid_argument("dtypes: f16 GEMM is not supported (use f32 or bf16)");
    if (f == "matmul_bias_relu") requireEqual(p, p.input("bias"), 0, p.output("C"), 1);
  } else if (f == "cross_entropy") {
    requireEqual(p, p.input("logits"), 0, p.input("targets"), 0);
    requireEqual(p, p.input("logits"), 0, p.output("loss"), 0);
  }
  return p;
}

}  // namespace crucible::templates
