// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/task_spec_operator.h"

#include <algorithm>
#include "core/task/identifier.h"
#include "core/task/json_fields.h"

namespace crucible {
namespace {

using namespace taskjson;

const std::vector<std::string>& reductionOps() {
  static const std::vector<std::string> ops = {"sum", "mean", "max", "min", "logsumexp"};
  return ops;
}

std::string shapeText(const TaskSpec& spec, const TensorSpec& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + t.shape[i];
  (void)spec;
  return s + "]";
}

std::string sizesText(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// Tensor `name` among inputs: its index, or -1.
int inputIndex(const TaskSpec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.inputs.size(); ++i)
    if (spec.inputs[i].name == name) return static_cast<int>(i);
  return -1;
}

void requireFloating(const TensorSpec& t, const std::string& path) {
  if (!isFloating(t.dtype))
    throw TaskSpecError(path, std::string("'") + t.name + "' is " + toString(t.dtype) +
                                  ": an operator's expressions compute in floating point (f32, f16, bf16, f64)");
}

ValueExpression parseAt(const std::string& text, const std::set<std::string>& names, const std::string& path) {
  try {
    return parseValueExpression(text, names);
  } catch (const ExpressionError& e) {
    throw TaskSpecError(path, e.what());
  }
}

void checkElementwise(const TaskSpec& spec, const ValueExpression& e) {
  if (spec.outputs.size() != 1)
    throw TaskSpecError("outputs", "an elementwise operator has exactly one output, the spec lists " +
                                       std::to_string(spec.outputs.size()));
  const TensorSpec& out = spec.outputs[0];
  requireFloating(out, "outputs[0].dtype");
  for (const auto& name : e.names()) {
    const int i = inputIndex(spec, name);
    const std::string path = "inputs[" + std::to_string(i) + "]";
    const TensorSpec& in = spec.inputs[static_cast<std::size_t>(i)];
    requireFloating(in, path + ".dtype");
    if (!broadcastOf(spec, in, out))
      throw TaskSpecError(path + ".shape", "'" + name + "' " + shapeText(spec, in) + " = " +
                                               sizesText(resolveShape(spec, in)) +
                                               " does not broadcast to the output's shape " + shapeText(spec, out) +
                                               " = " + sizesText(resolveShape(spec, out)) +
                                               " (dimensions aligned at the right must be equal or 1)");
  }
}

void checkRowwise(const TaskSpec& spec, const ParsedOperator& parsed) {
  if (spec.outputs.size() != 1)
    throw TaskSpecError("outputs", "a rowwise operator has exactly one output, the spec lists " +
                                       std::to_string(spec.outputs.size()));
  const TensorSpec& x = spec.inputs[0];
  const TensorSpec& out = spec.outputs[0];
  requireFloating(out, "outputs[0].dtype");
  requireFloating(x, "inputs[0].dtype");
  std::set<std::string> read = parsed.expression.names();
  for (const auto& r : parsed.reductions) {
    const auto n = r.names();
    read.insert(n.begin(), n.end());
  }
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const TensorSpec& t = spec.inputs[i];
    if (!read.count(t.name)) continue;
    const std::string path = "inputs[" + std::to_string(i) + "]";
    requireFloating(t, path + ".dtype");
    if (!rowRoleOf(spec, t))
      throw TaskSpecError(path + ".shape", "'" + t.name + "' " + shapeText(spec, t) +
                                               " does not line up with the rows of inputs[0] ('" + x.name + "' " +
                                               shapeText(spec, x) +
                                               "): a rowwise operator reads tensors of its shape, [" + x.shape.back() +
                                               "] (per column) or its shape without the last axis (per row)");
  }
  const auto outRole = rowRoleOf(spec, out);
  if (!outRole || *outRole == RowRole::Column)
    throw TaskSpecError("outputs[0].shape", "'" + out.name + "' " + shapeText(spec, out) + " must be the shape of '" +
                                                x.name + "' " + shapeText(spec, x) +
                                                " (one value per element) or that shape without its last axis (one value per row)");
  if (*outRole == RowRole::PerRow) {
    for (const auto& name : parsed.expression.names()) {
      const int i = inputIndex(spec, name);
      if (i < 0) continue;  // a reduction
      const auto role = rowRoleOf(spec, spec.inputs[static_cast<std::size_t>(i)]);
      if (role && *role != RowRole::PerRow)
        throw TaskSpecError("operator.expression", "the output has one value per row, but '" + name +
                                                       "' varies along the row: reduce it first");
    }
  }
}

}  // namespace

std::optional<Broadcast> broadcastOf(const TaskSpec& spec, const TensorSpec& input, const TensorSpec& output) {
  auto in = resolveShape(spec, input);
  const auto out = resolveShape(spec, output);
  // Leading 1s change nothing: [1, N] reads like [N].
  std::size_t lead = 0;
  while (lead + 1 < in.size() && in[lead] == 1) ++lead;
  in.erase(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(lead));
  if (in.size() > out.size()) return std::nullopt;
  bool equal = true;
  for (std::size_t k = 1; k <= in.size(); ++k) {
    const std::int64_t a = in[in.size() - k], b = out[out.size() - k];
    if (a != b && a != 1) return std::nullopt;
    if (a != b) equal = false;
  }
  if (!equal) return Broadcast::General;
  std::int64_t outer = 1;  // the output's elements per element of the input's span
  for (std::size_t i = 0; i + in.size() < out.size(); ++i) outer *= out[i];
  return outer == 1 ? Broadcast::Same : Broadcast::Trailing;
}

std::optional<RowRole> rowRoleOf(const TaskSpec& spec, const TensorSpec& t) {
  const TensorSpec& x = spec.inputs.at(0);
  const std::vector<std::string> leading(x.shape.begin(), x.shape.end() - 1);
  const std::vector<std::string> column = {x.shape.back()};
  if (t.shape == x.shape) return RowRole::Full;
  if (t.shape == column) return RowRole::Column;
  if (!leading.empty() && t.shape == leading) return RowRole::PerRow;
  const auto dims = resolveShape(spec, t);
  const auto xdims = resolveShape(spec, x);
  if (dims == xdims) return RowRole::Full;
  if (dims.size() == 1 && dims[0] == xdims.back()) return RowRole::Column;
  const std::vector<std::int64_t> lead(xdims.begin(), xdims.end() - 1);
  if (lead.empty() ? dims == std::vector<std::int64_t>{1} : dims == lead) return RowRole::PerRow;
  return std::nullopt;
}

std::set<std::string> operatorNamesBefore(const TaskSpec& spec, std::size_t reduction) {
  std::set<std::string> names;
  for (const auto& t : spec.inputs) names.insert(t.name);
  if (spec.operation)
    for (std::size_t i = 0; i < reduction && i < spec.operation->reductions.size(); ++i)
      names.insert(spec.operation->reductions[i].name);
  return names;
}

ParsedOperator parseOperatorExpressions(const TaskSpec& spec) {
  if (!spec.operation) throw TaskSpecError("operator", "the task states no operator");
  const OperatorSpec& op = *spec.operation;
  ParsedOperator out;
  for (std::size_t i = 0; i < op.reductions.size(); ++i)
    out.reductions.push_back(parseAt(op.reductions[i].of, operatorNamesBefore(spec, i),
                                     "operator.reductions[" + std::to_string(i) + "].of"));
  out.expression = parseAt(op.expression, operatorNamesBefore(spec, op.reductions.size()), "operator.expression");
  return out;
}

OperatorSpec parseOperatorField(const nlohmann::json& j, const TaskSpec& spec) {
  const Fields f(j, "operator");
  f.rejectUnknown({"kind", "expression", "reductions"});
  OperatorSpec op;
  op.kind = asString(f.required("kind"), f.path("kind"));
  if (op.kind != "elementwise" && op.kind != "rowwise")
    throw TaskSpecError(f.path("kind"), "unknown operator kind " + quotedValue(op.kind) + " (elementwise or rowwise)");
  op.expression = asNonEmptyString(f.required("expression"), f.path("expression"));
  if (op.kind == "elementwise") {
    if (f.optional("reductions")) throw TaskSpecError(f.path("reductions"), "only a rowwise operator has reductions");
  } else {
    const std::string path = f.path("reductions");
    const json& list = asArray(f.required("reductions"), path, kMaxRowReductions);
    if (list.empty()) throw TaskSpecError(path, "a rowwise operator needs at least one reduction");
    std::set<std::string> taken;
    for (const auto& t : spec.inputs) taken.insert(t.name);
    for (const auto& t : spec.outputs) taken.insert(t.name);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Fields r(list[i], index(path, i));
      r.rejectUnknown({"name", "op", "of"});
      RowReduction red;
      red.name = asString(r.required("name"), r.path("name"));
      if (const auto problem = identifierFormProblem(red.name)) throw TaskSpecError(r.path("name"), *problem);
      if (const auto problem = reservedNameProblem(red.name)) throw TaskSpecError(r.path("name"), *problem);
      if (isValueFunction(red.name))
        throw TaskSpecError(r.path("name"), "'" + red.name + "' is an expression function");
      if (!taken.insert(red.name).second)
        throw TaskSpecError(r.path("name"), "'" + red.name + "' already names a tensor or an earlier reduction");
      red.op = asString(r.required("op"), r.path("op"));
      const auto& ops = reductionOps();
      if (std::find(ops.begin(), ops.end(), red.op) == ops.end())
        throw TaskSpecError(r.path("op"), "unknown reduction " + quotedValue(red.op) + " (sum, mean, max, min, logsumexp)");
      red.of = asNonEmptyString(r.required("of"), r.path("of"));
      op.reductions.push_back(std::move(red));
    }
  }
  TaskSpec withOp = spec;
  withOp.operation = op;
  const ParsedOperator parsed = parseOperatorExpressions(withOp);
  if (op.kind == "elementwise") checkElementwise(spec, parsed.expression);
  else checkRowwise(withOp, parsed);
  return op;
}

nlohmann::ordered_json operatorToJson(const OperatorSpec& op) {
  nlohmann::ordered_json j;
  j["kind"] = op.kind;
  j["expression"] = op.expression;
  if (op.kind == "rowwise") {
    j["reductions"] = nlohmann::ordered_json::array();
    for (const auto& r : op.reductions) j["reductions"].push_back({{"name", r.name}, {"op", r.op}, {"of", r.of}});
  }
  return j;
}

}  // namespace crucible
