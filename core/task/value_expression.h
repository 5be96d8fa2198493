// SPDX-License-Identifier: GPL-3.0-or-later
// Floating-point value expressions over named tensors ("silu(a) * b",
// "x - m - log(s)"): how a task's optional `operator` field states what an
// operator computes, element by element (resources/tasks/README.md, "Operators
// stated as expressions"). Parsed into a small tree that a template emitter
// turns into CUDA and that tests evaluate in double precision.
//
// The integer axis expressions of shapes and launch rules are a different
// language (core/task/expression.h): these are real-valued, and their names
// are tensors and reductions, not axes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "core/task/expression.h"

namespace crucible {

// Grammar:
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := ('+' | '-') unary | primary
//   primary := NUMBER | NAME | FUNC '(' expr (',' expr)* ')' | '(' expr ')'
// NUMBER is a decimal literal (`2`, `0.5`, `1e-5`, `.25`); NAME a C identifier
// that must be one of the names the caller allows; FUNC one of valueFunctions().
// Length and nesting are bounded like the axis expressions' (kMaxExpressionLength,
// kMaxExpressionNesting). Errors are ExpressionError, saying what and where.
struct ValueNode {
  enum class Kind { Number, Name, Negate, Binary, Call };
  Kind kind = Kind::Number;
  double number = 0;          // Number
  std::string name;           // Name: the referenced name; Call: the function
  char op = 0;                // Binary: '+', '-', '*', '/'
  std::vector<int> args;      // Negate: 1, Binary: 2, Call: the function's arity (indices into nodes)
};

struct ValueExpression {
  std::string text;
  std::vector<ValueNode> nodes;  // children before parents
  int root = -1;

  // The names it reads, each once, sorted.
  std::set<std::string> names() const;
};

struct ValueFunction {
  const char* name;
  int arity;
  const char* meaning;  // for the README and error messages
};
// exp, log, log1p, tanh, erf, sigmoid, silu, gelu, gelu_tanh, relu, softplus,
// abs, sqrt, rsqrt, sin, cos, max, min, pow.
const std::vector<ValueFunction>& valueFunctions();
bool isValueFunction(const std::string& name);

// Parses `text`; every NAME must be in `allowed`.
ValueExpression parseValueExpression(const std::string& text, const std::set<std::string>& allowed);

// Evaluates in double precision (tests, reference checks). Throws
// std::out_of_range for a name missing from `values`.
double evaluateValue(const ValueExpression& e, const std::map<std::string, double>& values);

// Writes the expression in another language, node by node: `name(n)` spells a
// referenced name, `number(v)` a literal, `call(f, args)` a function call;
// arithmetic is written with full parentheses. Used by the CUDA emitters.
struct ValueSpelling {
  std::function<std::string(const std::string&)> name;
  std::function<std::string(double)> number;
  std::function<std::string(const std::string&, const std::vector<std::string>&)> call;
};
std::string spellValue(const ValueExpression& e, const ValueSpelling& spelling);

}  // namespace crucible
