// SPDX-License-Identifier: GPL-3.0-or-later
// A linear pre-scan of JSON text for its nesting depth, run before a parser
// builds the document: 50 MB of '[' would otherwise cost tens of seconds and
// gigabytes of nested arrays before anything can be refused.
#pragma once
#include <cstddef>
#include <string_view>

namespace crucible {

// The deepest any document the workbench reads needs (a task spec nests 5 levels).
constexpr int kMaxJsonNesting = 64;

// The byte offset of the first '[' or '{' outside a string that opens level
// maxDepth + 1, or std::string_view::npos when the text never nests deeper.
// Does not validate the JSON otherwise (the parser does that afterwards).
std::size_t findJsonNestingBeyond(std::string_view text, int maxDepth = kMaxJsonNesting);

}  // namespace crucible
