// SPDX-License-Identifier: GPL-3.0-or-later
// The optional `operator` field of a task spec: value expressions (parse,
// evaluate, limits), the operator's checks with errors naming the field, the
// broadcast and row rules, and the round trip through toJson.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <cmath>
#include <functional>
#include "core/task/task_spec.h"
#include "core/task/task_spec_operator.h"
#include "core/task/value_expression.h"
#include "tests/core/task/spec_fixture.h"

namespace crucible {
namespace {

using nlohmann::json;
using testing_support::validSpecJson;

json elementwiseSpec() {
  json j = validSpecJson();
  j["operator"] = {{"kind", "elementwise"}, {"expression", "2 * x"}};
  return j;
}

json rowwiseSpec() {
  json j = validSpecJson();
  j["operator"] = json::parse(R"JSON({"kind": "rowwise",
      "reductions": [{"name": "m", "op": "max", "of": "x"}, {"name": "s", "op": "sum", "of": "exp(x - m)"}],
      "expression": "x - m - log(s)"})JSON");
  return j;
}

TEST(ValueExpression, ParsesAndEvaluatesInDouble) {
  const auto e = parseValueExpression("silu(a) * b - -2 / (1 + .5e1) + max(a, b) - pow(abs(b), 0.5)", {"a", "b"});
  EXPECT_EQ(e.names(), (std::set<std::string>{"a", "b"}));
  const double a = 0.7, b = -1.3;
  const double want = a / (1 + std::exp(-a)) * b + 2.0 / 6.0 + std::fmax(a, b) - std::sqrt(std::fabs(b));
  EXPECT_NEAR(evaluateValue(e, {{"a", a}, {"b", b}}), want, 1e-15);
  // Every listed function evaluates to its formula at a point of its domain.
  const std::map<std::string, double> at = {{"x", 0.3}};
  auto value = [&](const std::string& text) { return evaluateValue(parseValueExpression(text, {"x"}), at); };
  EXPECT_NEAR(value("gelu(x)"), 0.5 * 0.3 * (1 + std::erf(0.3 / std::sqrt(2.0))), 1e-15);
  EXPECT_NEAR(value("gelu_tanh(x)"), value("gelu(x)"), 1e-3);
  EXPECT_NEAR(value("sigmoid(x)"), 1 / (1 + std::exp(-0.3)), 1e-15);
  EXPECT_NEAR(value("rsqrt(x)"), 1 / std::sqrt(0.3), 1e-15);
  EXPECT_NEAR(value("softplus(x)"), std::log1p(std::exp(0.3)), 1e-15);
  EXPECT_EQ(value("relu(-x)"), 0.0);
  EXPECT_EQ(value("min(x, 2)"), 0.3);
  EXPECT_EQ(valueFunctions().size(), 19u);
}

TEST(ValueExpression, ErrorsSayWhatAndWhere) {
  auto error = [](const std::string& text) {
    try {
      parseValueExpression(text, {"x", "bias"});
    } catch (const ExpressionError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(error("x + y"), testing::HasSubstr("unknown name 'y' (names here: bias, x) at column 5"));
  EXPECT_THAT(error("foo(x)"), testing::HasSubstr("unknown function 'foo' (functions: exp, log"));
  EXPECT_THAT(error("max(x)"), testing::HasSubstr("max takes 2 arguments, not 1"));
  EXPECT_THAT(error("exp(x, x)"), testing::HasSubstr("exp takes 1 argument, not 2"));
  EXPECT_THAT(error("exp + x"), testing::HasSubstr("'exp' is a function"));
  EXPECT_THAT(error("x +"), testing::HasSubstr("unexpected end"));
  EXPECT_THAT(error("1e"), testing::HasSubstr("an exponent needs digits"));
  EXPECT_THAT(error("2x"), testing::HasSubstr("a number cannot be followed by a letter"));
  EXPECT_THAT(error("1e999"), testing::HasSubstr("out of range"));
  EXPECT_THAT(error("x ^ 2"), testing::HasSubstr("unexpected '^'"));
  EXPECT_THAT(error(""), testing::HasSubstr("empty expression"));
  // Bounded: nesting and length.
  EXPECT_THAT(error(std::string(65, '(') + "x" + std::string(65, ')')), testing::HasSubstr("nests too deeply"));
  EXPECT_THAT(error(std::string(5000, ' ') + "x"), testing::HasSubstr("longer than the limit of 4096"));
  std::string chain = "x";
  for (int i = 0; i < 1000; ++i) chain += " + x";  // long but flat: fine
  EXPECT_EQ(error(chain), "accepted");
}

ValueSpelling plainSpelling() {
  ValueSpelling s;
  s.name = [](const std::string& n) { return n; };
  s.number = [](double v) { return std::to_string(static_cast<int>(v)); };
  s.call = [](const std::string& f, const std::vector<std::string>& args) {
    std::string text = f + "(";
    for (std::size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + args[i];
    return text + ")";
  };
  return s;
}

TEST(ValueExpression, SpellsEveryNodeWithFullParentheses) {
  const auto e = parseValueExpression("-x * 2 + max(x - 1, -(x)) / exp(3)", {"x"});
  EXPECT_EQ(spellValue(e, plainSpelling()), "(((-x) * 2) + (max((x - 1), (-x)) / exp(3)))");
}

TEST(ValueExpression, AFlatChainAtTheLengthLimitSpellsAsATreeTwoThousandLevelsDeep) {
  // 2048 terms within the 4096-character limit parse to a tree 2047 levels
  // deep. spellValue writes it in one pass (built bottom up, each level's text
  // copied all the levels below it: seconds per candidate in the template
  // proposer). Its time is bounded by the fuzz corpus replay (operator_task's
  // flat_4096 seed); here, that the text is still the tree's, level by level.
  std::string text = "x";
  for (int i = 1; i < 2048; ++i) text += "+x";
  ASSERT_LE(text.size(), kMaxExpressionLength);
  std::string want = std::string(2047, '(') + "x";
  for (int i = 1; i < 2048; ++i) want += " + x)";
  EXPECT_EQ(spellValue(parseValueExpression(text, {"x"}), plainSpelling()), want);
}

TEST(TaskSpecOperator, ParsesBothKindsAndRoundTrips) {
  const TaskSpec e = parseTaskSpec(elementwiseSpec().dump());
  ASSERT_TRUE(e.operation.has_value());
  EXPECT_EQ(e.operation->kind, "elementwise");
  EXPECT_EQ(e.operation->expression, "2 * x");
  const TaskSpec r = parseTaskSpec(rowwiseSpec().dump());
  ASSERT_TRUE(r.operation.has_value());
  ASSERT_EQ(r.operation->reductions.size(), 2u);
  EXPECT_EQ(r.operation->reductions[1].name, "s");
  EXPECT_EQ(r.operation->reductions[1].op, "sum");
  EXPECT_EQ(r.operation->reductions[1].of, "exp(x - m)");
  for (const TaskSpec* s : {&e, &r}) {
    const std::string text = toJson(*s);
    const TaskSpec again = parseTaskSpec(text);
    testing_support::expectSameSpec(*s, again);
    ASSERT_TRUE(again.operation.has_value());
    EXPECT_EQ(again.operation->kind, s->operation->kind);
    EXPECT_EQ(again.operation->expression, s->operation->expression);
    EXPECT_EQ(again.operation->reductions.size(), s->operation->reductions.size());
    EXPECT_EQ(toJson(again), text);
  }
  // A spec without the field has none, and writes none.
  const TaskSpec plain = parseTaskSpec(validSpecJson().dump());
  EXPECT_FALSE(plain.operation.has_value());
  EXPECT_EQ(toJson(plain).find("\"operator\""), std::string::npos);
}

struct Malformed {
  const char* what;
  std::function<void(json&)> mutate;
  const char* field;
  const char* message;
};

TEST(TaskSpecOperator, MalformedOperatorsNameTheField) {
  const std::vector<Malformed> table = {
      {"unknown kind", [](json& j) { j["operator"]["kind"] = "scan"; }, "operator.kind", "unknown operator kind 'scan'"},
      {"missing expression", [](json& j) { j["operator"].erase("expression"); }, "operator.expression", "missing"},
      {"unknown field", [](json& j) { j["operator"]["axis"] = 1; }, "operator.axis", "unknown field"},
      {"not an object", [](json& j) { j["operator"] = "2 * x"; }, "operator", "object"},
      {"unknown function", [](json& j) { j["operator"]["expression"] = "swish(x)"; }, "operator.expression",
       "unknown function 'swish'"},
      {"unknown name", [](json& j) { j["operator"]["expression"] = "x + z"; }, "operator.expression", "unknown name 'z'"},
      {"an output in the expression", [](json& j) { j["operator"]["expression"] = "x + y"; }, "operator.expression",
       "unknown name 'y'"},
      {"reductions of an elementwise operator",
       [](json& j) { j["operator"]["reductions"] = json::array(); }, "operator.reductions", "only a rowwise operator"},
      {"an integer input read", [](json& j) { j["operator"]["expression"] = "x * idx"; }, "inputs[1].dtype",
       "'idx' is i64: an operator's expressions compute in floating point"},
      {"an integer output", [](json& j) { j["outputs"][0]["dtype"] = "i32"; }, "outputs[0].dtype", "floating point"},
      {"an input that does not broadcast",
       [](json& j) {
         j["inputs"][1] = {{"name", "b"}, {"dtype", "f32"}, {"shape", {"N", "M"}}, {"distribution", {{"kind", "normal"}, {"mean", 0}, {"stddev", 1}}}};
         j["operator"]["expression"] = "x + b";
       },
       "inputs[1].shape", "'b' [N, M] = [32, 64] does not broadcast to the output's shape [M, N] = [64, 32]"},
      {"two outputs",
       [](json& j) {
         j["outputs"].push_back({{"name", "z"}, {"dtype", "f32"}, {"shape", {"M", "N"}}});
         j["tolerances"]["z"] = {{"rtol", 0}, {"atol", 0}};
       },
       "outputs", "exactly one output"},
  };
  for (const auto& m : table) {
    SCOPED_TRACE(m.what);
    json j = elementwiseSpec();
    m.mutate(j);
    try {
      parseTaskSpec(j.dump());
      ADD_FAILURE() << "accepted: " << m.what;
    } catch (const TaskSpecError& e) {
      EXPECT_EQ(e.field(), m.field) << e.what();
      EXPECT_THAT(e.what(), testing::HasSubstr(m.message));
    }
  }
}

TEST(TaskSpecOperator, MalformedRowwiseOperatorsNameTheField) {
  const std::vector<Malformed> table = {
      {"no reductions", [](json& j) { j["operator"].erase("reductions"); }, "operator.reductions", "missing"},
      {"empty reductions", [](json& j) { j["operator"]["reductions"] = json::array(); }, "operator.reductions",
       "at least one reduction"},
      {"too many reductions",
       [](json& j) {
         for (int i = 0; i < 8; ++i) j["operator"]["reductions"].push_back({{"name", "r" + std::to_string(i)}, {"op", "sum"}, {"of", "x"}});
       },
       "operator.reductions", "limit"},
      {"unknown reduction", [](json& j) { j["operator"]["reductions"][0]["op"] = "median"; }, "operator.reductions[0].op",
       "unknown reduction 'median'"},
      {"a reduction named like a tensor", [](json& j) { j["operator"]["reductions"][1]["name"] = "x"; },
       "operator.reductions[1].name", "already names a tensor or an earlier reduction"},
      {"a reduction named like a function", [](json& j) { j["operator"]["reductions"][1]["name"] = "exp"; },
       "operator.reductions[1].name", "is an expression function"},
      {"a reserved name", [](json& j) { j["operator"]["reductions"][1]["name"] = "int"; }, "operator.reductions[1].name",
       "int"},
      {"a reduction reading a later one", [](json& j) { j["operator"]["reductions"][0]["of"] = "x - s"; },
       "operator.reductions[0].of", "unknown name 's'"},
      {"a bad epilogue", [](json& j) { j["operator"]["expression"] = "x - m -"; }, "operator.expression", "unexpected end"},
      {"a tensor not on the rows",
       [](json& j) {
         j["inputs"][1] = {{"name", "b"}, {"dtype", "f32"}, {"shape", {"N", "M"}}, {"distribution", {{"kind", "normal"}, {"mean", 0}, {"stddev", 1}}}};
         j["operator"]["expression"] = "x - m + b";
       },
       "inputs[1].shape", "does not line up with the rows of inputs[0]"},
      {"a per-row output reading the row",
       [](json& j) {
         j["outputs"][0]["shape"] = {"M"};
         j["operator"]["expression"] = "x - m";
       },
       "operator.expression", "'x' varies along the row: reduce it first"},
      {"an output of neither shape", [](json& j) { j["outputs"][0]["shape"] = {"N", "M"}; }, "outputs[0].shape",
       "must be the shape of 'x'"},
  };
  for (const auto& m : table) {
    SCOPED_TRACE(m.what);
    json j = rowwiseSpec();
    m.mutate(j);
    try {
      parseTaskSpec(j.dump());
      ADD_FAILURE() << "accepted: " << m.what;
    } catch (const TaskSpecError& e) {
      EXPECT_EQ(e.field(), m.field) << e.what();
      EXPECT_THAT(e.what(), testing::HasSubstr(m.message));
    }
  }
  // A per-row output of reductions and per-row inputs is fine.
  json j = rowwiseSpec();
  j["inputs"][1] = {{"name", "t"}, {"dtype", "f32"}, {"shape", {"M"}}, {"distribution", {{"kind", "normal"}, {"mean", 0}, {"stddev", 1}}}};
  j["outputs"][0]["shape"] = {"M"};
  j["operator"]["expression"] = "m + log(s) * t";
  EXPECT_NO_THROW(parseTaskSpec(j.dump()));
}

TEST(TaskSpecOperator, BroadcastAndRowRules) {
  TaskSpec s;
  s.axes = {{"B", 2}, {"M", 4}, {"N", 8}};
  auto t = [](std::vector<std::string> shape) { return TensorSpec{"t", DType::F32, std::move(shape), {}}; };
  const TensorSpec out = t({"B", "M", "N"});
  EXPECT_EQ(broadcastOf(s, t({"B", "M", "N"}), out), Broadcast::Same);
  EXPECT_EQ(broadcastOf(s, t({"1", "B", "M", "N"}), out), Broadcast::Same);
  EXPECT_EQ(broadcastOf(s, t({"N"}), out), Broadcast::Trailing);
  EXPECT_EQ(broadcastOf(s, t({"1", "N"}), out), Broadcast::Trailing);
  EXPECT_EQ(broadcastOf(s, t({"M", "N"}), out), Broadcast::Trailing);
  EXPECT_EQ(broadcastOf(s, t({"M", "1"}), out), Broadcast::General);
  EXPECT_EQ(broadcastOf(s, t({"B", "1", "N"}), out), Broadcast::General);
  EXPECT_EQ(broadcastOf(s, t({"1"}), out), Broadcast::General);
  EXPECT_EQ(broadcastOf(s, t({"M"}), out), std::nullopt);
  EXPECT_EQ(broadcastOf(s, t({"2", "B", "M", "N"}), out), std::nullopt);
  s.inputs = {t({"B", "M", "N"})};
  EXPECT_EQ(rowRoleOf(s, t({"B", "M", "N"})), RowRole::Full);
  EXPECT_EQ(rowRoleOf(s, t({"N"})), RowRole::Column);
  EXPECT_EQ(rowRoleOf(s, t({"B", "M"})), RowRole::PerRow);
  EXPECT_EQ(rowRoleOf(s, t({"M"})), std::nullopt);
  // Shape texts first: with M == N, [N] is a column and [M] of a [M, N] tensor is per row.
  s.axes["M"] = 8;
  s.inputs = {t({"M", "N"})};
  EXPECT_EQ(rowRoleOf(s, t({"N"})), RowRole::Column);
  EXPECT_EQ(rowRoleOf(s, t({"M"})), RowRole::PerRow);
  // A single row: its per-row shape is [1].
  s.inputs = {t({"N"})};
  EXPECT_EQ(rowRoleOf(s, t({"1"})), RowRole::PerRow);
}

}  // namespace
}  // namespace crucible
