// SPDX-License-Identifier: GPL-3.0-or-later
// The fenced blocks of a model's reply (```cuda ... ```), and a check that a
// piece of C++ is not cut off (balanced braces, parentheses and brackets,
// outside comments, strings and character literals).
#pragma once
#include <string>
#include <vector>

namespace crucible::llm {

struct FencedBlock {
  std::string language;  // lower-cased info word: "cuda", "cpp", "json", "" ...
  std::string body;      // the lines between the fences, each ending in '\n'
  int openingLine = 0;   // 1-based line of the opening fence
  bool terminated = true;  // false: the reply ended inside this block
};

// Fences are lines starting (after up to 3 spaces) with ``` or ~~~; a block
// closes at the next line that is only that fence. At most `maxBlocks` blocks
// are read (the rest of the reply is ignored).
std::vector<FencedBlock> fencedBlocks(const std::string& text, std::size_t maxBlocks = 64);

// True for the languages that carry a kernel: cuda, cu, cpp, c++, cxx, c, cuh.
bool isCodeLanguage(const std::string& language);

// Empty when every (, [ and { is closed in order; else what is open or
// unmatched and on which line. Comments, string and character literals are
// skipped; an unterminated block comment or string is a problem too.
std::string bracketProblem(const std::string& source);

}  // namespace crucible::llm
