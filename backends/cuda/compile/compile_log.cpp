// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/compile_log.h"

#include <regex>

namespace crucible {
namespace {

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string line(text.substr(pos, eol - pos));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    pos = eol + 1;
  }
  return lines;
}

// NVRTC echoes the offending source line indented by two spaces, then a line
// with a caret under the column.
constexpr std::size_t kEchoIndent = 2;

int columnFromCaret(const std::string& caretLine) {
  auto caret = caretLine.find('^');
  if (caret == std::string::npos || caret < kEchoIndent) return 0;
  if (caretLine.find_first_not_of(' ') != caret) return 0;  // not a caret line
  return static_cast<int>(caret - kEchoIndent) + 1;
}

int toInt(const std::string& s) { return s.empty() ? 0 : std::stoi(s); }

}  // namespace

std::vector<CompileDiagnostic> parseNvrtcLog(std::string_view log, std::string_view sourceName, int preludeLines) {
  static const std::regex kHeader(
      R"(^(.*)\((\d+)\): (catastrophic error|error|warning|remark)(?: #[\w-]+)?: (.*)$)");
  std::vector<CompileDiagnostic> out;
  const auto lines = splitLines(log);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, kHeader)) continue;
    CompileDiagnostic d;
    const std::string file = m[1];
    const int line = toInt(m[2]);
    d.severity = m[3] == "remark" ? "remark" : (m[3] == "warning" ? "warning" : "error");
    d.message = m[4];
    const bool inCandidate = file == sourceName && line > preludeLines;
    if (inCandidate) {
      d.line = line - preludeLines;
      if (i + 2 < lines.size()) d.column = columnFromCaret(lines[i + 2]);
    } else {
      d.message = (file == sourceName ? "prelude line " + std::to_string(line) : file + "(" + m[2].str() + ")") +
                  ": " + d.message;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<CompileDiagnostic> parseLinkerErrors(std::string_view log) {
  static const std::regex kError(R"((^|\s)(error|fatal)\s*:)");
  std::vector<CompileDiagnostic> out;
  for (const auto& line : splitLines(log)) {
    if (!std::regex_search(line, kError)) continue;
    out.push_back(CompileDiagnostic{0, 0, "error", line});
  }
  return out;
}

std::map<std::string, PtxasFunctionStats> parsePtxasInfo(std::string_view log) {
  static const std::regex kEntry(R"(Compiling entry function '([^']+)')");
  static const std::regex kProperties(R"(Function properties for '?([^':\s]+)'?:?)");
  static const std::regex kFrame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex kRegisters(R"([Uu]sed (\d+) registers)");
  static const std::regex kBarriers(R"(used (\d+) barriers)");
  static const std::regex kSmem(R"((\d+) bytes smem)");
  static const std::regex kLmem(R"((\d+) bytes lmem)");
  static const std::regex kStack(R"((\d+) stack\b)");

  std::map<std::string, PtxasFunctionStats> out;
  std::string current;
  for (const auto& line : splitLines(log)) {
    std::smatch m;
    if (std::regex_search(line, m, kEntry)) {
      current = m[1];
      out[current].entry = true;
      continue;
    }
    if (std::regex_search(line, m, kProperties)) {
      current = m[1];
      out[current];
      continue;
    }
    if (current.empty()) continue;
    auto& f = out[current];
    if (std::regex_search(line, m, kFrame)) {
      f.stackBytes = toInt(m[1]);
      f.spillStoreBytes = toInt(m[2]);
      f.spillLoadBytes = toInt(m[3]);
    }
    if (std::regex_search(line, m, kRegisters)) f.registers = toInt(m[1]);
    if (std::regex_search(line, m, kBarriers)) f.barriers = toInt(m[1]);
    if (std::regex_search(line, m, kSmem)) f.sharedBytes = toInt(m[1]);
    if (std::regex_search(line, m, kLmem)) f.localBytes = toInt(m[1]);
    if (std::regex_search(line, m, kStack)) f.stackBytes = toInt(m[1]);
  }
  return out;
}

}  // namespace crucible
