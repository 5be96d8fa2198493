// SPDX-License-Identifier: GPL-3.0-or-later
// Source text compared the way a reader compares it: leading and trailing
// white space dropped, every inner run of it one space. Used to match
// signatures and edit anchors whatever their formatting.
#pragma once
#include <cctype>
#include <string>

namespace crucible {

inline std::string collapseWhitespace(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace crucible
