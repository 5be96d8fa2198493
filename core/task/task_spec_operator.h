// SPDX-License-Identifier: GPL-3.0-or-later
// The optional `operator` field of a task spec (TaskSpec::operation): parsing,
// the rules for how tensors line up (broadcasting, rows), and the parsed value
// expressions. The parser (task_spec_parse.cpp) and the template proposer
// share these rules, so a spec that parses is one the proposer understands.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "core/task/task_spec.h"
#include "core/task/value_expression.h"

namespace crucible {

constexpr std::size_t kMaxRowReductions = 8;

// How an input of an elementwise operator meets the output (numpy broadcasting,
// dimensions aligned at the right; each input dimension equals the output's or is 1).
enum class Broadcast {
  Same,      // the output's shape: element i of the output reads element i
  Trailing,  // the output's last dimensions exactly (a bias [N] for [M, N]): element i reads i % size
  General,   // anything else that broadcasts ([M, 1], [1, N] against [B, M, N]...): index from coordinates
};
// nullopt when `input` does not broadcast to `output` (sizes resolved under the spec's axes).
std::optional<Broadcast> broadcastOf(const TaskSpec& spec, const TensorSpec& input, const TensorSpec& output);

// How a tensor of a rowwise operator meets the rows of inputs[0] (the row
// tensor: rows are its last axis, one row per index of its other axes).
enum class RowRole {
  Full,    // the row tensor's shape: one value per element
  Column,  // [N], N the row length: one value per column, the same for every row
  PerRow,  // the row tensor's shape without its last axis ([1] for a rank-1 row tensor): one value per row
};
// Shape texts are compared first (so [N] is a column even when M == N), then sizes.
std::optional<RowRole> rowRoleOf(const TaskSpec& spec, const TensorSpec& t);

// The operator's expressions, parsed. Throws TaskSpecError naming the field
// ("operator.reductions[1].of") when one does not parse.
struct ParsedOperator {
  ValueExpression expression;
  std::vector<ValueExpression> reductions;  // rowwise, in order
};
ParsedOperator parseOperatorExpressions(const TaskSpec& spec);

// The names a reduction may read: the inputs and the reductions before it
// (all reductions for the expression).
std::set<std::string> operatorNamesBefore(const TaskSpec& spec, std::size_t reduction);

// Reads and checks the `operator` object of a spec whose tensors, scalars and
// axes are already parsed; errors name the field by its JSON path.
OperatorSpec parseOperatorField(const nlohmann::json& j, const TaskSpec& spec);

// The JSON the spec writer puts under "operator".
nlohmann::ordered_json operatorToJson(const OperatorSpec& op);

}  // namespace crucible
