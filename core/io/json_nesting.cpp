// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/json_nesting.h"

namespace crucible {

std::size_t findJsonNestingBeyond(std::string_view text, int maxDepth) {
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') inString = false;
      continue;
    }
    switch (c) {
      case '"': inString = true; break;
      case '[':
      case '{':
        if (++depth > maxDepth) return i;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;  // unbalanced text is the parser's to refuse
        break;
      default: break;
    }
  }
  return std::string_view::npos;
}

}  // namespace crucible
