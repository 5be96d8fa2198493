// SPDX-License-Identifier: GPL-3.0-or-later
// SEARCH/REPLACE edits (the aider format) against a parent's source:
//   <<<<<<< SEARCH
//   lines of the parent
//   =======
//   their replacement
//   >>>>>>> REPLACE
// An edit applies where its SEARCH text occurs exactly once; failing that,
// where its lines occur exactly once when each line is compared with its
// whitespace trimmed and inner runs collapsed. No match, or more than one,
// and the edit does not apply: the reply is never guessed into a kernel.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace crucible::llm {

struct SearchReplaceEdit {
  std::string search;   // lines, each ending in '\n'
  std::string replace;
  int line = 0;         // 1-based line of the edit's SEARCH marker in the reply
};

struct ParsedEdits {
  std::vector<SearchReplaceEdit> edits;
  std::string problem;  // non-empty: the edit blocks are malformed (what and where)
  bool truncated = false;  // the reply ended inside an edit block
};

constexpr std::size_t kMaxEdits = 32;

// Finds the edit blocks anywhere in `reply` (inside fences or not). More than
// kMaxEdits blocks is a problem, as is a block without its "=======".
ParsedEdits parseSearchReplace(const std::string& reply);

// True when the reply contains a SEARCH marker line at all.
bool hasSearchReplaceMarkers(const std::string& reply);

struct EditResult {
  bool ok = false;
  std::string source;   // the edited source when ok
  std::string problem;  // which edit failed and why
  int exactMatches = 0;      // edits applied by exact text
  int whitespaceMatches = 0; // edits applied by whitespace-insensitive lines
};

// Applies the edits in order, each to the result of the previous ones.
EditResult applySearchReplace(const std::string& source, const std::vector<SearchReplaceEdit>& edits);

}  // namespace crucible::llm
