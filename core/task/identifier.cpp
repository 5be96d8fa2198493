// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/identifier.h"

#include <algorithm>
#include <iterator>

namespace crucible {
namespace {

bool isLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// C++20 keywords and alternative tokens, the C keywords C++ lacks, and NULL
// (a macro in every CUDA header set).
constexpr std::string_view kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield",
    "compl", "concept", "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof",
    "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw",
    "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "wchar_t", "while", "xor", "xor_eq", "restrict", "NULL"};

// Names every CUDA kernel sees predefined, and the types the kernel ABI spells out.
constexpr std::string_view kCudaNames[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "CUtensorMap"};

}  // namespace

bool isCIdentifier(std::string_view s) {
  if (s.empty() || !(isLetter(s[0]) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return isLetter(c) || isDigit(c) || c == '_'; });
}

std::optional<std::string> identifierFormProblem(std::string_view s) {
  if (s.size() > kMaxIdentifierLength)
    return "a name of " + std::to_string(s.size()) + " characters is longer than the limit of " +
           std::to_string(kMaxIdentifierLength);
  if (!isCIdentifier(s)) return "'" + std::string(s) + "' is not a C identifier";
  return std::nullopt;
}

std::optional<std::string> reservedNameProblem(std::string_view s) {
  const std::string quoted = "'" + std::string(s) + "'";
  if (std::find(std::begin(kKeywords), std::end(kKeywords), s) != std::end(kKeywords))
    return quoted + " is a C/C++ keyword";
  if (std::find(std::begin(kCudaNames), std::end(kCudaNames), s) != std::end(kCudaNames))
    return quoted + " is predefined in CUDA kernels";
  if (s.size() >= 2 && s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z')))
    return quoted + " is reserved (names beginning with '__' or '_' and a capital belong to the compiler)";
  if (s.find("__") != std::string_view::npos)
    return quoted + " is reserved (C++ keeps names containing '__' for the implementation)";
  return std::nullopt;
}

}  // namespace crucible
