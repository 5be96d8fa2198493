// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/value_expression.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include "core/task/expression_cursor.h"

namespace crucible {
namespace {

class Parser : task_detail::ExpressionCursor {
public:
  Parser(const std::string& text, const std::set<std::string>& allowed) : ExpressionCursor(text), allowed_(allowed) {}

  ValueExpression parseAll() {
    begin();
    out_.text = text_;
    out_.root = expr();
    end();
    return std::move(out_);
  }

private:

  int add(ValueNode n) {
    out_.nodes.push_back(std::move(n));
    return static_cast<int>(out_.nodes.size()) - 1;
  }
  int binary(char op, int a, int b) {
    ValueNode n;
    n.kind = ValueNode::Kind::Binary;
    n.op = op;
    n.args = {a, b};
    return add(std::move(n));
  }

  int expr() {
    int v = term();
    for (;;) {
      if (accept('+')) v = binary('+', v, term());
      else if (accept('-')) v = binary('-', v, term());
      else return v;
    }
  }

  int term() {
    int v = unary();
    for (;;) {
      if (accept('*')) v = binary('*', v, unary());
      else if (accept('/')) v = binary('/', v, unary());
      else return v;
    }
  }

  int unary() {
    if (accept('-')) {
      const Nesting level(*this);
      ValueNode n;
      n.kind = ValueNode::Kind::Negate;
      n.args = {unary()};
      return add(std::move(n));
    }
    if (accept('+')) {
      const Nesting level(*this);
      return unary();
    }
    return primary();
  }

  int primary() {
    skipSpace();
    if (pos_ == text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (c == '(') {
      const Nesting level(*this);
      ++pos_;
      const int v = expr();
      expect(')');
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return nameOrCall();
    fail(std::string("unexpected '") + c + "'");
  }

  int number() {
    const std::size_t start = pos_;
    auto digits = [&] {
      std::size_t n = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_, ++n;
      return n;
    };
    std::size_t mantissa = digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      mantissa += digits();
    }
    if (mantissa == 0) fail("a number needs digits");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) fail("an exponent needs digits");
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      fail("a number cannot be followed by a letter");
    const std::string literal = text_.substr(start, pos_ - start);
    errno = 0;
    const double v = std::strtod(literal.c_str(), nullptr);
    if (errno == ERANGE || !std::isfinite(v)) fail("the number " + literal + " is out of range");
    ValueNode n;
    n.kind = ValueNode::Kind::Number;
    n.number = v;
    return add(std::move(n));
  }

  int nameOrCall() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string name = text_.substr(start, pos_ - start);
    skipSpace();
    const bool call = pos_ < text_.size() && text_[pos_] == '(';
    if (!call) {
      if (isValueFunction(name)) fail("'" + name + "' is a function: call it as " + name + "(...)");
      if (!allowed_.count(name)) {
        std::string known;
        for (const auto& a : allowed_) known += (known.empty() ? "" : ", ") + a;
        pos_ = start;
        fail("unknown name '" + name + "' (names here: " + (known.empty() ? "none" : known) + ")");
      }
      ValueNode n;
      n.kind = ValueNode::Kind::Name;
      n.name = name;
      return add(std::move(n));
    }
    const auto& fs = valueFunctions();
    const auto f = std::find_if(fs.begin(), fs.end(), [&](const ValueFunction& v) { return name == v.name; });
    if (f == fs.end()) {
      std::string known;
      for (const auto& v : fs) known += (known.empty() ? "" : ", ") + std::string(v.name);
      pos_ = start;
      fail("unknown function '" + name + "' (functions: " + known + ")");
    }
    const Nesting level(*this);
    expect('(');
    ValueNode n;
    n.kind = ValueNode::Kind::Call;
    n.name = name;
    n.args.push_back(expr());
    while (accept(',')) n.args.push_back(expr());
    expect(')');
    if (static_cast<int>(n.args.size()) != f->arity)
      fail(name + " takes " + std::to_string(f->arity) + " argument" + (f->arity == 1 ? "" : "s") + ", not " +
           std::to_string(n.args.size()));
    return add(std::move(n));
  }

  const std::set<std::string>& allowed_;
  ValueExpression out_;
};

double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double geluTanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

double callFunction(const std::string& f, const std::vector<double>& a) {
  if (f == "exp") return std::exp(a[0]);
  if (f == "log") return std::log(a[0]);
  if (f == "log1p") return std::log1p(a[0]);
  if (f == "tanh") return std::tanh(a[0]);
  if (f == "erf") return std::erf(a[0]);
  if (f == "sigmoid") return 1.0 / (1.0 + std::exp(-a[0]));
  if (f == "silu") return a[0] / (1.0 + std::exp(-a[0]));
  if (f == "gelu") return gelu(a[0]);
  if (f == "gelu_tanh") return geluTanh(a[0]);
  if (f == "relu") return a[0] > 0 ? a[0] : 0.0;
  if (f == "softplus") return a[0] > 20 ? a[0] : std::log1p(std::exp(a[0]));
  if (f == "abs") return std::fabs(a[0]);
  if (f == "sqrt") return std::sqrt(a[0]);
  if (f == "rsqrt") return 1.0 / std::sqrt(a[0]);
  if (f == "sin") return std::sin(a[0]);
  if (f == "cos") return std::cos(a[0]);
  if (f == "max") return std::fmax(a[0], a[1]);
  if (f == "min") return std::fmin(a[0], a[1]);
  if (f == "pow") return std::pow(a[0], a[1]);
  throw std::logic_error("evaluateValue: unknown function " + f);
}

}  // namespace

const std::vector<ValueFunction>& valueFunctions() {
  static const std::vector<ValueFunction> table = {
      {"exp", 1, "e^x"},
      {"log", 1, "natural logarithm"},
      {"log1p", 1, "log(1 + x)"},
      {"tanh", 1, "hyperbolic tangent"},
      {"erf", 1, "error function"},
      {"sigmoid", 1, "1 / (1 + exp(-x))"},
      {"silu", 1, "x * sigmoid(x)"},
      {"gelu", 1, "0.5 x (1 + erf(x / sqrt(2)))"},
      {"gelu_tanh", 1, "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))"},
      {"relu", 1, "max(x, 0)"},
      {"softplus", 1, "log(1 + exp(x)), x itself above 20"},
      {"abs", 1, "|x|"},
      {"sqrt", 1, "square root"},
      {"rsqrt", 1, "1 / sqrt(x)"},
      {"sin", 1, "sine"},
      {"cos", 1, "cosine"},
      {"max", 2, "the larger"},
      {"min", 2, "the smaller"},
      {"pow", 2, "x^y"},
  };
  return table;
}

bool isValueFunction(const std::string& name) {
  const auto& fs = valueFunctions();
  return std::any_of(fs.begin(), fs.end(), [&](const ValueFunction& f) { return name == f.name; });
}

std::set<std::string> ValueExpression::names() const {
  std::set<std::string> out;
  for (const auto& n : nodes)
    if (n.kind == ValueNode::Kind::Name) out.insert(n.name);
  return out;
}

ValueExpression parseValueExpression(const std::string& text, const std::set<std::string>& allowed) {
  return Parser(text, allowed).parseAll();
}

double evaluateValue(const ValueExpression& e, const std::map<std::string, double>& values) {
  // Children precede parents, so one forward pass evaluates every node.
  std::vector<double> v(e.nodes.size());
  for (std::size_t i = 0; i < e.nodes.size(); ++i) {
    const ValueNode& n = e.nodes[i];
    switch (n.kind) {
      case ValueNode::Kind::Number: v[i] = n.number; break;
      case ValueNode::Kind::Name: v[i] = values.at(n.name); break;
      case ValueNode::Kind::Negate: v[i] = -v[n.args[0]]; break;
      case ValueNode::Kind::Binary: {
        const double a = v[n.args[0]], b = v[n.args[1]];
        v[i] = n.op == '+' ? a + b : n.op == '-' ? a - b : n.op == '*' ? a * b : a / b;
        break;
      }
      case ValueNode::Kind::Call: {
        std::vector<double> args;
        for (int a : n.args) args.push_back(v[a]);
        v[i] = callFunction(n.name, args);
        break;
      }
    }
  }
  return v.at(static_cast<std::size_t>(e.root));
}

namespace {

// Appends the spelling of `node` to `out`, writing into one string: building
// every node's text from its children's would copy a chain of `+` thousands
// long (a flat "x + x + ..." within the length limit) once per level, which is
// quadratic. Such chains are walked with an explicit stack; a call's arguments
// are spelled apart (the spelling takes them as strings), and calls nest no
// deeper than the parser's nesting limit.
void spellInto(const ValueExpression& e, int node, const ValueSpelling& spelling, std::string& out) {
  struct Step {
    int node;
    int stage;  // how many of the node's operands are written
  };
  std::vector<Step> stack{{node, 0}};
  while (!stack.empty()) {
    const Step step = stack.back();
    const ValueNode& n = e.nodes.at(static_cast<std::size_t>(step.node));
    switch (n.kind) {
      case ValueNode::Kind::Number:
        out += spelling.number(n.number);
        stack.pop_back();
        break;
      case ValueNode::Kind::Name:
        out += spelling.name(n.name);
        stack.pop_back();
        break;
      case ValueNode::Kind::Negate:
        if (step.stage == 0) {
          out += "(-";
          stack.back().stage = 1;
          stack.push_back({n.args[0], 0});
        } else {
          out += ')';
          stack.pop_back();
        }
        break;
      case ValueNode::Kind::Binary:
        if (step.stage < 2) {
          out += step.stage == 0 ? std::string("(") : std::string(" ") + n.op + " ";
          stack.back().stage = step.stage + 1;
          stack.push_back({n.args[static_cast<std::size_t>(step.stage)], 0});
        } else {
          out += ')';
          stack.pop_back();
        }
        break;
      case ValueNode::Kind::Call: {
        std::vector<std::string> args(n.args.size());
        for (std::size_t a = 0; a < n.args.size(); ++a) spellInto(e, n.args[a], spelling, args[a]);
        out += spelling.call(n.name, args);
        stack.pop_back();
        break;
      }
    }
  }
}

}  // namespace

std::string spellValue(const ValueExpression& e, const ValueSpelling& spelling) {
  if (e.root < 0 || static_cast<std::size_t>(e.root) >= e.nodes.size()) throw std::out_of_range("spellValue: no root");
  std::string out;
  spellInto(e, e.root, spelling, out);
  return out;
}

}  // namespace crucible
