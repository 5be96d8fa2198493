// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/expression.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include "core/task/expression_cursor.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

class Parser : task_detail::ExpressionCursor {
public:
  Parser(const std::string& text, const std::map<std::string, std::int64_t>& axes) : ExpressionCursor(text), axes_(axes) {}

  std::int64_t parseAll() {
    begin();
    std::int64_t v = expr();
    end();
    return v;
  }

private:
  [[noreturn]] void overflow(const char* op) const {
    throw ExpressionError(std::string("integer overflow in '") + op + "' in expression '" + text_ + "'");
  }

  std::int64_t expr() {
    std::int64_t v = term();
    for (;;) {
      std::int64_t r;
      if (accept('+')) {
        if (__builtin_add_overflow(v, term(), &r)) overflow("+");
      } else if (accept('-')) {
        if (__builtin_sub_overflow(v, term(), &r)) overflow("-");
      } else {
        return v;
      }
      v = r;
    }
  }

  std::int64_t term() {
    std::int64_t v = unary();
    for (;;) {
      if (accept('*')) {
        std::int64_t r;
        if (__builtin_mul_overflow(v, unary(), &r)) overflow("*");
        v = r;
      } else if (accept('/')) {
        v = divide(v, unary(), '/');
      } else if (accept('%')) {
        v = divide(v, unary(), '%');
      } else {
        return v;
      }
    }
  }

  std::int64_t divide(std::int64_t a, std::int64_t b, char op) {
    if (b == 0) fail(std::string("division by zero in '") + op + "'");
    if (a == INT64_MIN && b == -1) overflow(op == '/' ? "/" : "%");
    return op == '/' ? a / b : a % b;
  }

  std::int64_t unary() {
    if (accept('-')) {
      const Nesting level(*this);
      std::int64_t v = unary();
      if (v == INT64_MIN) overflow("-");
      return -v;
    }
    if (accept('+')) {
      const Nesting level(*this);
      return unary();
    }
    return primary();
  }

  std::int64_t primary() {
    skipSpace();
    if (pos_ == text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (c == '(') {
      const Nesting level(*this);
      ++pos_;
      std::int64_t v = expr();
      expect(')');
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return integer();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return nameOrCall();
    fail(std::string("unexpected '") + c + "'");
  }

  std::int64_t integer() {
    std::int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text_[pos_] - '0', &v))
        throw ExpressionError("integer literal too large in expression '" + text_ + "'");
      ++pos_;
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      fail("a number cannot be followed by a letter");
    return v;
  }

  std::int64_t nameOrCall() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string name = text_.substr(start, pos_ - start);
    if (isExpressionFunction(name)) {
      const Nesting level(*this);
      expect('(');
      const std::int64_t a = expr();
      expect(',');
      const std::int64_t b = expr();
      expect(')');
      if (name == "min") return std::min(a, b);
      if (name == "max") return std::max(a, b);
      if (b == 0) fail("division by zero in 'ceil_div'");
      // Round toward +infinity for any signs: C truncation is already the
      // ceiling when the exact quotient is negative.
      const std::int64_t q = divide(a, b, '/');
      const bool exact = a % b == 0;
      return (!exact && ((a < 0) == (b < 0))) ? q + 1 : q;
    }
    auto it = axes_.find(name);
    if (it == axes_.end() && name == kSmCountName)
      throw ExpressionError("'" + name + "' (the GPU's SM count) is known only in a launch rule evaluated for a GPU, "
                            "in expression '" + text_ + "'");
    if (it == axes_.end()) throw ExpressionError("unknown name '" + name + "' in expression '" + text_ + "'");
    return it->second;
  }

  const std::map<std::string, std::int64_t>& axes_;
};

}  // namespace

bool isExpressionFunction(const std::string& name) {
  return name == "ceil_div" || name == "min" || name == "max";
}

std::vector<std::string> namesInExpression(const std::string& text) {
  const auto isNameStart = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  const auto isNameChar = [&](char c) { return isNameStart(c) || (c >= '0' && c <= '9'); };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    if (!isNameChar(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && isNameChar(text[end])) ++end;
    std::string word = text.substr(i, end - i);
    if (isNameStart(word[0]) && !isExpressionFunction(word) && std::find(out.begin(), out.end(), word) == out.end())
      out.push_back(std::move(word));
    i = end;
  }
  return out;
}

std::int64_t evaluateAxisExpression(const std::string& expr, const std::map<std::string, std::int64_t>& axes) {
  return Parser(expr, axes).parseAll();
}

std::int64_t evalExpression(const std::string& expr, const std::map<std::string, std::int64_t>& axes) {
  try {
    return evaluateAxisExpression(expr, axes);
  } catch (const ExpressionError& e) {
    throw TaskSpecError("expression", e.what());
  }
}

}  // namespace crucible
