// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/kernel_abi_check.h"

#include <cctype>
#include "core/io/utf8_text.h"
#include "core/task/kernel_abi.h"
#include "core/task/whitespace.h"

namespace crucible::llm {
namespace {

constexpr std::size_t kMaxShown = 400;

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The text with its white space collapsed, cut for a message.
std::string collapsed(const std::string& text) {
  const std::string out = collapseWhitespace(text);
  return out.size() > kMaxShown ? utf8Prefix(out, kMaxShown) + "..." : out;
}

// The declaration of `entry` as a function: from the start of its line to the
// parenthesis closing its parameter list; empty when the name is never followed by '('.
std::string declarationOf(const std::string& source, const std::string& entry) {
  // Bounded for hostile sources: at most kMaxCandidates mentions are looked at,
  // each with a short look back.
  constexpr int kMaxCandidates = 256;
  constexpr std::size_t kMaxLookBack = 512;
  int looked = 0;
  for (std::size_t at = source.find(entry); at != std::string::npos && looked++ < kMaxCandidates;
       at = source.find(entry, at + 1)) {
    if (at > 0 && isIdentifierChar(source[at - 1])) continue;
    std::size_t p = at + entry.size();
    if (p < source.size() && isIdentifierChar(source[p])) continue;
    while (p < source.size() && std::isspace(static_cast<unsigned char>(source[p]))) ++p;
    if (p >= source.size() || source[p] != '(') continue;
    // Only a __global__ declaration counts (not a call inside another function).
    // The declaration starts at most two lines (and kMaxLookBack bytes) before the name.
    const std::size_t floor = at > kMaxLookBack ? at - kMaxLookBack : 0;
    std::size_t lineStart = at;
    while (lineStart > floor && source[lineStart - 1] != '\n') --lineStart;
    std::size_t from = lineStart > floor ? lineStart - 1 : lineStart;
    while (from > floor && source[from - 1] != '\n') --from;
    if (source.substr(from, at - from).find("__global__") == std::string::npos) continue;
    int depth = 0;
    for (std::size_t i = p; i < source.size() && i < p + 8192; ++i) {
      if (source[i] == '(') ++depth;
      else if (source[i] == ')' && --depth == 0) return collapsed(source.substr(lineStart, i + 1 - lineStart));
    }
    return collapsed(source.substr(lineStart, std::min<std::size_t>(source.size() - lineStart, 400)));
  }
  return "";
}

}  // namespace

std::string kernelAbiProblem(const std::string& source, const TaskSpec& spec, const LaunchRule& launch) {
  if (sourceHasSignature(source, spec, KernelRole::Candidate, launch.entry, launch.tensorMaps)) return "";
  const std::string expected = kernelSignature(spec, KernelRole::Candidate, launch.entry, launch.tensorMaps);
  const std::string found = declarationOf(source, launch.entry);
  if (found.empty())
    return "no __global__ function named '" + launch.entry + "'; the task's ABI expects `" + expected + "`";
  return "the kernel's signature differs from the task's ABI: expected `" + expected + "`, found `" + found + "`";
}

}  // namespace crucible::llm
