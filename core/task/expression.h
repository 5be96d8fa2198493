// SPDX-License-Identifier: GPL-3.0-or-later
// Integer expressions over a task's named axes ("ceil_div(M, 128)", "2*M*N*K"):
// used for shapes, launch rules, flops and minBytes. A small recursive-descent
// evaluator; every error says what is wrong and where in the text. Launch rules
// may also name sm_count, the SM count of the GPU they launch on
// (core/task/launch_variables.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace crucible {

// Thrown by evaluateAxisExpression; the message does not name a spec field,
// callers that know the field (parseTaskSpec) wrap it into a TaskSpecError.
class ExpressionError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Grammar (integers are 64-bit signed; overflow and division by zero are errors):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/' | '%') unary)*
//   unary   := ('+' | '-') unary | primary
//   primary := INTEGER | NAME | FUNC '(' expr ',' expr ')' | '(' expr ')'
//   FUNC    := ceil_div | min | max
// '/' and '%' truncate toward zero as in C; ceil_div rounds toward +infinity.
// Longer text is refused before it is read; deeper nesting is refused where it happens.
constexpr std::size_t kMaxExpressionLength = 4096;
constexpr int kMaxExpressionNesting = 64;

std::int64_t evaluateAxisExpression(const std::string& expr, const std::map<std::string, std::int64_t>& axes);

// True for the function names above: they cannot be axis names.
bool isExpressionFunction(const std::string& name);

// The names `text` uses besides those functions, each once, in the order they
// first appear (a word that starts with a digit is a number, not a name).
std::vector<std::string> namesInExpression(const std::string& text);

// The one name a launch rule may use besides the task's axes (and a tunable
// kernel's parameters): the SM count of the GPU the kernel is launched on. No
// axis or parameter may take it. An expression evaluated over names that lack
// it (a shape, flops, a restriction, or a launch rule where no GPU is known)
// refuses it with a message that says where it is known.
inline constexpr const char* kSmCountName = "sm_count";

}  // namespace crucible
