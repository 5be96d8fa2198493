// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written scanners, not std::regex: a log echoes the candidate's source
// lines, a model can write a line of a megabyte, and libstdc++'s regex
// recurses once per character (issue 13: it overflowed the stack). Each
// scanner below is linear in the line, or the line times a short pattern.
#include "backends/cuda/compile/compile_log.h"

#include <algorithm>
#include <climits>
#include <optional>

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

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isWordChar(char c) { return isDigit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// A run of digits as an int, saturating at INT_MAX (a log's figures are small;
// an absurd one must not throw).
int toInt(std::string_view digits) {
  long long v = 0;
  for (char c : digits) v = std::min<long long>(INT_MAX, v * 10 + (c - '0'));
  return static_cast<int>(v);
}

// The leftmost match in `line` of `pattern`, where '#' stands for a run of
// digits (\d+) and every other character for itself; the numbers it read.
// Every '#' in the patterns below is followed by a non-digit, so taking the
// whole run never needs backtracking.
struct PatternMatch {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::vector<int> numbers;
};

std::optional<PatternMatch> matchAt(std::string_view line, std::size_t start, std::string_view pattern) {
  PatternMatch m;
  m.begin = start;
  std::size_t i = start;
  for (char p : pattern) {
    if (p == '#') {
      const std::size_t digits = i;
      while (i < line.size() && isDigit(line[i])) ++i;
      if (i == digits) return std::nullopt;
      m.numbers.push_back(toInt(line.substr(digits, i - digits)));
    } else {
      if (i >= line.size() || line[i] != p) return std::nullopt;
      ++i;
    }
  }
  m.end = i;
  return m;
}

std::optional<PatternMatch> findPattern(std::string_view line, std::string_view pattern, std::size_t from = 0) {
  const bool startsWithNumber = !pattern.empty() && pattern[0] == '#';
  for (std::size_t s = from; s < line.size(); ++s) {
    // A match of a leading '#' starts where a digit run starts (the leftmost start).
    if (startsWithNumber && (!isDigit(line[s]) || (s > 0 && isDigit(line[s - 1])))) continue;
    if (auto m = matchAt(line, s, pattern)) return m;
  }
  return std::nullopt;
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

// "<file>(<line>): <severity>[ #<code>]: <message>", the file being the longest
// prefix that leaves a match (as the greedy (.*) of a regular expression would).
struct NvrtcHeader {
  std::string file;
  std::string lineText;
  std::string severity;
  std::string message;
};

std::optional<NvrtcHeader> headerAfterFile(const std::string& line, std::size_t open) {
  std::size_t i = open + 1;
  const std::size_t digits = i;
  while (i < line.size() && isDigit(line[i])) ++i;
  if (i == digits || line.compare(i, 3, "): ") != 0) return std::nullopt;
  NvrtcHeader h;
  h.file = line.substr(0, open);
  h.lineText = line.substr(digits, i - digits);
  i += 3;
  for (const char* severity : {"catastrophic error", "error", "warning", "remark"}) {
    const std::string s = severity;
    if (line.compare(i, s.size(), s) != 0) continue;
    std::size_t j = i + s.size();
    if (line.compare(j, 2, " #") == 0) {  // an optional code: " #177-D"
      std::size_t k = j + 2;
      while (k < line.size() && (isWordChar(line[k]) || line[k] == '-')) ++k;
      if (k > j + 2 && line.compare(k, 2, ": ") == 0) j = k;
    }
    if (line.compare(j, 2, ": ") != 0) continue;
    h.severity = s;
    h.message = line.substr(j + 2);
    return h;
  }
  return std::nullopt;
}

std::optional<NvrtcHeader> nvrtcHeader(const std::string& line) {
  std::size_t open = line.rfind('(');
  while (open != std::string::npos) {
    if (auto h = headerAfterFile(line, open)) return h;
    if (open == 0) break;
    open = line.rfind('(', open - 1);
  }
  return std::nullopt;
}

// "error:" or "fatal:" (spaces allowed before the colon) at the start or after whitespace.
bool hasErrorWord(const std::string& line) {
  for (const char* word : {"error", "fatal"}) {
    const std::string w = word;
    for (std::size_t at = line.find(w); at != std::string::npos; at = line.find(w, at + 1)) {
      if (at > 0 && !isSpace(line[at - 1])) continue;
      std::size_t j = at + w.size();
      while (j < line.size() && isSpace(line[j])) ++j;
      if (j < line.size() && line[j] == ':') return true;
    }
  }
  return false;
}

// The text between the quotes of "Compiling entry function '<name>'".
std::optional<std::string> entryName(const std::string& line) {
  const std::string lead = "Compiling entry function '";
  for (std::size_t at = line.find(lead); at != std::string::npos; at = line.find(lead, at + 1)) {
    const std::size_t begin = at + lead.size();
    const std::size_t close = line.find('\'', begin);
    if (close != std::string::npos && close > begin) return line.substr(begin, close - begin);
  }
  return std::nullopt;
}

// The name after "Function properties for ", with or without quotes around it.
std::optional<std::string> propertiesName(const std::string& line) {
  const std::string lead = "Function properties for ";
  const auto nameChar = [](char c) { return c != '\'' && c != ':' && !isSpace(c); };
  for (std::size_t at = line.find(lead); at != std::string::npos; at = line.find(lead, at + 1)) {
    std::size_t begin = at + lead.size();
    if (begin < line.size() && line[begin] == '\'') ++begin;
    std::size_t end = begin;
    while (end < line.size() && nameChar(line[end])) ++end;
    if (end > begin) return line.substr(begin, end - begin);
  }
  return std::nullopt;
}

// "<n> stack" followed by a word boundary.
std::optional<int> stackFigure(const std::string& line) {
  for (auto m = findPattern(line, "# stack"); m; m = findPattern(line, "# stack", m->begin + 1))
    if (m->end == line.size() || !isWordChar(line[m->end])) return m->numbers[0];
  return std::nullopt;
}

}  // namespace

std::vector<CompileDiagnostic> parseNvrtcLog(std::string_view log, std::string_view sourceName, int preludeLines) {
  std::vector<CompileDiagnostic> out;
  const auto lines = splitLines(log);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto h = nvrtcHeader(lines[i]);
    if (!h) continue;
    CompileDiagnostic d;
    const int line = toInt(h->lineText);
    d.severity = h->severity == "remark" ? "remark" : (h->severity == "warning" ? "warning" : "error");
    d.message = h->message;
    const bool inCandidate = h->file == sourceName && line > preludeLines;
    if (inCandidate) {
      d.line = line - preludeLines;
      if (i + 2 < lines.size()) d.column = columnFromCaret(lines[i + 2]);
    } else {
      d.message = (h->file == sourceName ? "prelude line " + std::to_string(line) : h->file + "(" + h->lineText + ")") +
                  ": " + d.message;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<CompileDiagnostic> parseLinkerErrors(std::string_view log) {
  std::vector<CompileDiagnostic> out;
  for (const auto& line : splitLines(log)) {
    if (!hasErrorWord(line)) continue;
    out.push_back(CompileDiagnostic{0, 0, "error", line});
  }
  return out;
}

std::map<std::string, PtxasFunctionStats> parsePtxasInfo(std::string_view log) {
  std::map<std::string, PtxasFunctionStats> out;
  std::string current;
  for (const auto& line : splitLines(log)) {
    if (const auto name = entryName(line)) {
      current = *name;
      out[current].entry = true;
      continue;
    }
    if (const auto name = propertiesName(line)) {
      current = *name;
      out[current];
      continue;
    }
    if (current.empty()) continue;
    auto& f = out[current];
    if (const auto m = findPattern(line, "# bytes stack frame, # bytes spill stores, # bytes spill loads")) {
      f.stackBytes = m->numbers[0];
      f.spillStoreBytes = m->numbers[1];
      f.spillLoadBytes = m->numbers[2];
    }
    // [Uu]sed: the leftmost of the two spellings.
    const auto upper = findPattern(line, "Used # registers");
    const auto lower = findPattern(line, "used # registers");
    if (upper || lower) f.registers = (upper && (!lower || upper->begin < lower->begin) ? upper : lower)->numbers[0];
    if (const auto m = findPattern(line, "used # barriers")) f.barriers = m->numbers[0];
    if (const auto m = findPattern(line, "# bytes smem")) f.sharedBytes = m->numbers[0];
    if (const auto m = findPattern(line, "# bytes lmem")) f.localBytes = m->numbers[0];
    if (const auto v = stackFigure(line)) f.stackBytes = *v;
  }
  return out;
}

}  // namespace crucible
