// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/kernel_inspection.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace crucible {
namespace {

void record(ListingLineMap& map, int listingLine, int sourceLine) {
  if (static_cast<int>(map.sourceLineOf.size()) < listingLine) map.sourceLineOf.resize(listingLine, 0);
  map.sourceLineOf[listingLine - 1] = sourceLine;
  if (sourceLine > 0) map.listingLinesOf[sourceLine].push_back(listingLine);
}

std::string trimmed(const std::string& line) {
  std::size_t a = 0, b = line.size();
  while (a < b && std::isspace(static_cast<unsigned char>(line[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(line[b - 1]))) --b;
  return line.substr(a, b - a);
}

// A positive integer at text[at...], advancing `at`; -1 when there is none.
long number(const std::string& text, std::size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  const std::size_t start = at;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
  if (at == start || at - start > 9) return -1;
  return std::strtol(text.c_str() + start, nullptr, 10);
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// An instruction line of a listing (not a directive, label, brace or comment).
bool isPtxInstruction(const std::string& t) {
  if (t.empty() || t[0] == '.' || t[0] == '/' || t[0] == '{' || t[0] == '}' || t[0] == ')' || t[0] == '(') return false;
  if (t.back() == ':') return false;  // a label
  return t.find(';') != std::string::npos;
}

}  // namespace

const std::vector<int>& ListingLineMap::linesFor(int sourceLine) const {
  static const std::vector<int> none;
  auto it = listingLinesOf.find(sourceLine);
  return it == listingLinesOf.end() ? none : it->second;
}

ListingLineMap ptxLineMap(const std::string& ptx, const std::string& sourceName) {
  ListingLineMap map;
  // NVRTC writes the .file table after the functions: read it first.
  std::map<long, bool> fileIsSource;  // .file index -> is the candidate's source
  {
    std::istringstream in(ptx);
    for (std::string line; std::getline(in, line);) {
      const std::string t = trimmed(line);
      if (t.rfind(".file", 0) != 0) continue;
      std::size_t at = 5;
      const long index = number(t, at);
      const auto open = t.find('"', at), close = t.rfind('"');
      if (index >= 0 && open != std::string::npos && close > open)
        fileIsSource[index] = endsWith(t.substr(open + 1, close - open - 1), sourceName);
    }
  }
  int current = 0;  // the source line the next instructions come from
  std::istringstream in(ptx);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string t = trimmed(line);
    if (t.rfind(".file", 0) == 0) {
      record(map, n, 0);
    } else if (t.rfind(".loc", 0) == 0) {
      std::size_t at = 4;
      const long file = number(t, at);
      const long sourceLine = number(t, at);
      auto it = fileIsSource.find(file);
      current = (it != fileIsSource.end() && it->second && sourceLine > 0) ? static_cast<int>(sourceLine) : 0;
      record(map, n, 0);
    } else if (t == "}" || t.rfind(".entry", 0) == 0 || t.rfind(".visible", 0) == 0 || t.rfind(".func", 0) == 0) {
      current = 0;  // a function ends or begins: no line carries over
      record(map, n, 0);
    } else {
      record(map, n, isPtxInstruction(t) ? current : 0);
    }
  }
  map.sourceLineOf.resize(n, 0);
  return map;
}

ListingLineMap sassLineMap(const std::string& sass, const std::string& sourceName) {
  ListingLineMap map;
  int current = 0;
  std::istringstream in(sass);
  std::string line;
  int n = 0;
  const std::string marker = "//## File \"";
  bool previousWasMarker = false;
  while (std::getline(in, line)) {
    ++n;
    const std::string t = trimmed(line);
    const bool isMarker = t.rfind(marker, 0) == 0;
    if (isMarker) {
      // A block of markers describes the instructions after it (the source
      // line, and with some options the PTX line): the first of ours wins.
      if (!previousWasMarker) current = 0;
      previousWasMarker = true;
      const auto close = t.find('"', marker.size());
      const auto lineAt = t.find(", line ", close == std::string::npos ? 0 : close);
      if (current == 0 && close != std::string::npos && lineAt != std::string::npos &&
          endsWith(t.substr(marker.size(), close - marker.size()), sourceName)) {
        std::size_t at = lineAt + 7;
        const long sourceLine = number(t, at);
        if (sourceLine > 0) current = static_cast<int>(sourceLine);
      }
      record(map, n, 0);
      continue;
    }
    previousWasMarker = false;
    if (t.rfind("/*", 0) == 0 && t.find("*/") != std::string::npos && t.find(';') != std::string::npos) {
      record(map, n, current);  // "/*0040*/  IMAD ... ;": an instruction at its address
    } else {
      if (t.rfind(".text.", 0) == 0 || t.rfind(".section", 0) == 0) current = 0;
      record(map, n, 0);
    }
  }
  map.sourceLineOf.resize(n, 0);
  return map;
}

}  // namespace crucible
