// SPDX-License-Identifier: GPL-3.0-or-later
// Names in a task spec that become C identifiers in CUDA source (tensors and
// axes become kernel parameters, entries become function names): checked by
// a hand-written scanner (std::regex recursed once per character and
// overflowed the stack on a 30,000-character name) with a length limit, and
// refused when CUDA C++ would read them as something else.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace crucible {

// Longer names are refused: no kernel needs them, and messages quote them.
constexpr std::size_t kMaxIdentifierLength = 128;

// [A-Za-z_][A-Za-z0-9_]*, any length.
bool isCIdentifier(std::string_view s);

// Why `s` cannot be an identifier in a spec (not of that form, or longer than
// kMaxIdentifierLength), or nullopt when it can.
std::optional<std::string> identifierFormProblem(std::string_view s);

// Why `s` cannot name a parameter or function in kernel source although it
// has the form of an identifier: a C or C++ keyword ("int", "return"), an
// identifier the language reserves ("__restrict__", "_Bool", "a__b"), a CUDA
// built-in variable ("threadIdx", "warpSize") or a type the kernel ABI spells
// ("CUtensorMap"); nullopt when it can.
std::optional<std::string> reservedNameProblem(std::string_view s);

}  // namespace crucible
