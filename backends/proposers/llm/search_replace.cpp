// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/search_replace.h"

#include <cctype>
#include <unordered_map>
#include "core/io/utf8_text.h"
#include "core/task/whitespace.h"

namespace crucible::llm {
namespace {

constexpr std::size_t kMaxSourceLines = 50000;

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// A marker line: at least 7 of `mark`, then (after spaces) `word` or nothing.
bool isMarker(const std::string& line, char mark, const std::string& word) {
  const std::string t = trimmed(line);
  std::size_t n = 0;
  while (n < t.size() && t[n] == mark) ++n;
  if (n < 7) return false;
  return trimmed(t.substr(n)) == word;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    lines.push_back(text.substr(pos, eol - pos));
    pos = eol + 1;
  }
  return lines;
}

// Trimmed, inner whitespace runs collapsed to one space.
std::string squeezed(const std::string& line) { return collapseWhitespace(line); }

std::string firstLine(const std::string& text) {
  const std::string line = trimmed(text.substr(0, text.find('\n')));
  return line.size() > 60 ? utf8Prefix(line, 60) + "..." : line;
}

// Where `needle` occurs in `haystack`: the first position and whether there is
// a second. Knuth-Morris-Pratt, so a hostile reply ("aaaa...") costs linear
// time, not the product of the lengths that a naive search can take.
template <typename Seq>
int countOccurrences(const Seq& haystack, const Seq& needle, std::size_t* first) {
  const std::size_t m = needle.size();
  if (m == 0 || m > haystack.size()) return 0;
  std::vector<std::size_t> fail(m, 0);
  for (std::size_t i = 1, k = 0; i < m; ++i) {
    while (k > 0 && !(needle[i] == needle[k])) k = fail[k - 1];
    if (needle[i] == needle[k]) ++k;
    fail[i] = k;
  }
  int count = 0;
  for (std::size_t i = 0, k = 0; i < haystack.size(); ++i) {
    while (k > 0 && !(haystack[i] == needle[k])) k = fail[k - 1];
    if (haystack[i] == needle[k]) ++k;
    if (k == m) {
      if (count == 0) *first = i + 1 - m;
      if (++count > 1) break;
      k = fail[k - 1];
    }
  }
  return count;
}

}  // namespace

bool hasSearchReplaceMarkers(const std::string& reply) {
  for (const std::string& line : splitLines(reply))
    if (isMarker(line, '<', "SEARCH")) return true;
  return false;
}

ParsedEdits parseSearchReplace(const std::string& reply) {
  ParsedEdits out;
  enum class State { Outside, Search, Replace } state = State::Outside;
  SearchReplaceEdit current;
  int lineNo = 0;
  for (const std::string& line : splitLines(reply)) {
    ++lineNo;
    switch (state) {
      case State::Outside:
        if (isMarker(line, '<', "SEARCH")) {
          if (out.edits.size() >= kMaxEdits) {
            out.problem = "more than " + std::to_string(kMaxEdits) + " edit blocks (line " + std::to_string(lineNo) + ")";
            return out;
          }
          current = SearchReplaceEdit{"", "", lineNo};
          state = State::Search;
        } else if (isMarker(line, '>', "REPLACE") || isMarker(line, '=', "")) {
          out.problem = "line " + std::to_string(lineNo) + ": '" + trimmed(line) + "' outside an edit block";
          return out;
        }
        break;
      case State::Search:
        if (isMarker(line, '=', "")) {
          state = State::Replace;
        } else if (isMarker(line, '>', "REPLACE") || isMarker(line, '<', "SEARCH")) {
          out.problem = "edit block at line " + std::to_string(current.line) + " has no '=======' before line " +
                        std::to_string(lineNo);
          return out;
        } else {
          current.search += line + '\n';
        }
        break;
      case State::Replace:
        if (isMarker(line, '>', "REPLACE")) {
          out.edits.push_back(std::move(current));
          state = State::Outside;
        } else if (isMarker(line, '<', "SEARCH") || isMarker(line, '=', "")) {
          out.problem = "edit block at line " + std::to_string(current.line) + " has no '>>>>>>> REPLACE' before line " +
                        std::to_string(lineNo);
          return out;
        } else {
          current.replace += line + '\n';
        }
        break;
    }
  }
  if (state != State::Outside) {
    out.truncated = true;
    out.problem = "the reply ends inside the edit block opened at line " + std::to_string(current.line);
  }
  return out;
}

EditResult applySearchReplace(const std::string& source, const std::vector<SearchReplaceEdit>& edits) {
  EditResult r;
  std::string text = source;
  if (!text.empty() && text.back() != '\n') text += '\n';
  for (std::size_t e = 0; e < edits.size(); ++e) {
    const SearchReplaceEdit& edit = edits[e];
    const std::string which = "edit " + std::to_string(e + 1) + " (reply line " + std::to_string(edit.line) + ", SEARCH '" +
                              firstLine(edit.search) + "')";
    if (trimmed(edit.search).find_first_not_of("\n\r\t ") == std::string::npos) {
      r.problem = which + ": empty SEARCH text";
      return r;
    }
    std::size_t at = 0;
    const int exact = countOccurrences(text, edit.search, &at);
    if (exact == 1) {
      text.replace(at, edit.search.size(), edit.replace);
      ++r.exactMatches;
      continue;
    }
    if (exact > 1) {
      r.problem = which + ": the SEARCH text occurs more than once in the parent; add context lines to make it unique";
      return r;
    }
    // Whitespace-insensitive: compare squeezed lines, skipping blank lines at the
    // SEARCH text's ends so a stray empty line does not stop the match.
    std::vector<std::string> want;
    for (const std::string& l : splitLines(edit.search)) want.push_back(squeezed(l));
    while (!want.empty() && want.back().empty()) want.pop_back();
    std::size_t lead = 0;
    while (lead < want.size() && want[lead].empty()) ++lead;
    want.erase(want.begin(), want.begin() + static_cast<long>(lead));
    const std::vector<std::string> lines = splitLines(text);
    if (lines.size() > kMaxSourceLines) {
      r.problem = which + ": the parent has more than " + std::to_string(kMaxSourceLines) + " lines";
      return r;
    }
    // Lines become ids (equal squeezed text, equal id) so the search is linear too.
    std::unordered_map<std::string, std::size_t> ids;
    const auto idOf = [&](const std::string& line) { return ids.emplace(line, ids.size()).first->second; };
    std::vector<std::size_t> have, wantIds;
    have.reserve(lines.size());
    for (const std::string& l : lines) have.push_back(idOf(squeezed(l)));
    for (const std::string& l : want) wantIds.push_back(idOf(l));
    std::size_t matchAt = 0;
    const int matches = countOccurrences(have, wantIds, &matchAt);
    if (matches == 0) {
      r.problem = which + ": the SEARCH text is not in the parent (not even ignoring whitespace)";
      return r;
    }
    if (matches > 1) {
      r.problem = which + ": the SEARCH lines occur more than once in the parent (ignoring whitespace); add context lines";
      return r;
    }
    std::string rebuilt;
    for (std::size_t i = 0; i < matchAt; ++i) rebuilt += lines[i] + '\n';
    rebuilt += edit.replace;
    for (std::size_t i = matchAt + want.size(); i < lines.size(); ++i) rebuilt += lines[i] + '\n';
    text = std::move(rebuilt);
    ++r.whitespaceMatches;
  }
  r.ok = true;
  r.source = std::move(text);
  return r;
}

}  // namespace crucible::llm
