// SPDX-License-Identifier: GPL-3.0-or-later
// signatureProblem (tunable_kernel.h): what differs between a user's kernel
// and the task's kernel ABI, parameter by parameter, in words a user can act on.
#include <algorithm>
#include <cctype>
#include "core/task/kernel_abi.h"
#include "core/task/tunable_kernel.h"
#include "core/task/whitespace.h"

namespace crucible {
namespace {

// How far a declaration's parameter list may run: a kernel's is a few hundred bytes.
constexpr std::size_t kMaxParameterListBytes = 64 * 1024;

bool isIdentChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9');
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

// The parameter list of the first `__global__` function named `entry`, or nullopt.
std::optional<std::string> parameterListOf(const std::string& source, const std::string& entry) {
  for (std::size_t at = source.find(entry); at != std::string::npos; at = source.find(entry, at + 1)) {
    if (at > 0 && isIdentChar(source[at - 1])) continue;
    std::size_t open = at + entry.size();
    while (open < source.size() && std::isspace(static_cast<unsigned char>(source[open]))) ++open;
    if (open >= source.size() || source[open] != '(') continue;
    // The declaration's head: back to the previous ';', '{' or '}'.
    const std::size_t headStart = source.find_last_of(";{}", at);
    const std::string head = source.substr(headStart == std::string::npos ? 0 : headStart + 1,
                                           at - (headStart == std::string::npos ? 0 : headStart + 1));
    if (head.find("__global__") == std::string::npos) continue;
    int depth = 0;
    const std::size_t last = std::min(source.size(), open + kMaxParameterListBytes);
    for (std::size_t i = open; i < last; ++i) {
      if (source[i] == '(') ++depth;
      if (source[i] == ')' && --depth == 0) return source.substr(open + 1, i - open - 1);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> signatureProblem(const std::string& source, const TaskSpec& task, const std::string& entry) {
  if (sourceHasSignature(source, task, KernelRole::Candidate, entry)) return std::nullopt;
  const std::string expected = kernelSignature(task, KernelRole::Candidate, entry);
  const auto list = parameterListOf(source, entry);
  if (!list) return "defines no __global__ function '" + entry + "' (the task's kernel is `" + expected + "`)";
  std::vector<std::string> given;
  if (!blank(*list)) {
    int depth = 0;
    std::string current;
    for (char c : *list) {
      if (c == '(' || c == '<') ++depth;
      if (c == ')' || c == '>') --depth;
      if (c == ',' && depth == 0) {
        given.push_back(collapseWhitespace(current));
        current.clear();
      } else {
        current += c;
      }
    }
    given.push_back(collapseWhitespace(current));
  }
  const auto params = kernelParameters(task, KernelRole::Candidate);
  for (std::size_t i = 0; i < std::max(given.size(), params.size()); ++i) {
    const std::string number = "parameter " + std::to_string(i + 1);
    if (i >= given.size())
      return number + " is missing: the task expects '" + params[i].type + " " + params[i].name + "' (`" + expected + "`)";
    if (i >= params.size())
      return number + " '" + given[i] + "' is not in the task's kernel ABI (`" + expected + "`)";
    const std::string want = params[i].type + " " + params[i].name;
    if (given[i] != want)
      return number + " ('" + params[i].name + "') is '" + given[i] + "', the task expects '" + want + "'";
  }
  return "the kernel must be declared `" + expected + "` (extern \"C\", __global__, void)";
}

}  // namespace crucible
