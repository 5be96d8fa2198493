// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/reply_blocks.h"

#include <algorithm>
#include <cctype>

namespace crucible::llm {
namespace {

std::string lowered(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// "```cuda" -> fence "```", info "cuda"; not a fence -> empty fence.
struct FenceLine {
  std::string fence;
  std::string info;
};

FenceLine fenceOf(const std::string& line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return {};
  const char mark = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == mark) ++n;
  if (n < 3) return {};
  std::string info = trimmed(line.substr(i + n));
  // The info string's first word is the language ("cuda title=x" -> "cuda").
  info = info.substr(0, info.find_first_of(" \t{"));
  return {std::string(n, mark), lowered(info)};
}

}  // namespace

std::vector<FencedBlock> fencedBlocks(const std::string& text, std::size_t maxBlocks) {
  std::vector<FencedBlock> blocks;
  bool inside = false;
  std::string fence;
  FencedBlock current;
  int lineNo = 0;
  std::size_t pos = 0;
  while (pos < text.size() && blocks.size() < maxBlocks) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    const std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++lineNo;
    const FenceLine f = fenceOf(line);
    if (!inside) {
      if (f.fence.empty()) continue;
      inside = true;
      fence = f.fence;
      current = FencedBlock{f.info, "", lineNo, true};
    } else if (!f.fence.empty() && f.info.empty() && f.fence.size() >= fence.size() && f.fence[0] == fence[0]) {
      blocks.push_back(std::move(current));
      inside = false;
    } else {
      current.body += line;
      current.body += '\n';
    }
  }
  if (inside && blocks.size() < maxBlocks) {
    current.terminated = false;
    blocks.push_back(std::move(current));
  }
  return blocks;
}

bool isCodeLanguage(const std::string& language) {
  static const char* const kCode[] = {"cuda", "cu", "cuh", "cpp", "c++", "cxx", "c", "cc"};
  return std::any_of(std::begin(kCode), std::end(kCode), [&](const char* k) { return language == k; });
}

std::string bracketProblem(const std::string& source) {
  struct Open {
    char c;
    int line;
  };
  std::vector<Open> stack;
  int line = 1;
  const std::size_t n = source.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char c = source[i];
    if (c == '\n') {
      ++line;
    } else if (c == '/' && i + 1 < n && source[i + 1] == '/') {
      while (i < n && source[i] != '\n') ++i;
      --i;  // let the newline be counted
    } else if (c == '/' && i + 1 < n && source[i + 1] == '*') {
      const int startLine = line;
      const std::size_t end = source.find("*/", i + 2);
      if (end == std::string::npos) return "block comment opened on line " + std::to_string(startLine) + " never closes";
      line += static_cast<int>(std::count(source.begin() + static_cast<long>(i), source.begin() + static_cast<long>(end), '\n'));
      i = end + 1;
    } else if (c == '"' || c == '\'') {
      const int startLine = line;
      std::size_t j = i + 1;
      while (j < n && source[j] != c && source[j] != '\n') j += source[j] == '\\' ? 2 : 1;
      if (j >= n || source[j] != c)
        return std::string(c == '"' ? "string" : "character") + " literal on line " + std::to_string(startLine) +
               " never closes";
      i = j;
    } else if (c == '(' || c == '[' || c == '{') {
      stack.push_back({c, line});
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (stack.empty()) return std::string("'") + c + "' on line " + std::to_string(line) + " closes nothing";
      if (stack.back().c != want)
        return std::string("'") + c + "' on line " + std::to_string(line) + " does not match '" + stack.back().c +
               "' opened on line " + std::to_string(stack.back().line);
      stack.pop_back();
    }
  }
  if (!stack.empty())
    return std::to_string(stack.size()) + " bracket(s) never closed; the innermost '" + stack.back().c +
           "' was opened on line " + std::to_string(stack.back().line);
  return "";
}

}  // namespace crucible::llm
