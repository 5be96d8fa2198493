// SPDX-License-Identifier: GPL-3.0-or-later
// The scanning both expression parsers share (expression.cpp: integers over a
// task's axes; value_expression.cpp: the floating-point operators of a task):
// the position, errors that say where, the length and nesting limits, white
// space and one-character tokens. Internal to core/task.
#pragma once
#include <cctype>
#include <string>
#include "core/task/expression.h"

namespace crucible::task_detail {

class ExpressionCursor {
protected:
  explicit ExpressionCursor(const std::string& text) : text_(text) {}

  // Refuses text over the length limit and empty text, then stands on the first token.
  void begin() {
    if (text_.size() > kMaxExpressionLength)
      throw ExpressionError("expression of " + std::to_string(text_.size()) + " characters is longer than the limit of " +
                            std::to_string(kMaxExpressionLength));
    skipSpace();
    if (pos_ == text_.size()) fail("empty expression");
  }
  // Refuses anything left after a whole expression.
  void end() {
    skipSpace();
    if (pos_ != text_.size()) fail(std::string("unexpected '") + text_[pos_] + "'");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw ExpressionError(what + " at column " + std::to_string(pos_ + 1) + " in expression '" + text_ + "'");
  }

  // One level of recursion (a parenthesis, a call or a unary sign) while it lives.
  class Nesting {
  public:
    explicit Nesting(ExpressionCursor& c) : c_(c) {
      if (++c_.depth_ > kMaxExpressionNesting)
        c_.fail("the expression nests too deeply (more than " + std::to_string(kMaxExpressionNesting) +
                " levels of parentheses, calls and unary signs)");
    }
    ~Nesting() { --c_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

  private:
    ExpressionCursor& c_;
  };

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace crucible::task_detail
