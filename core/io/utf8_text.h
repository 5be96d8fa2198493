// SPDX-License-Identifier: GPL-3.0-or-later
// Text from outside (a model's reply, a compiler's log quoting a kernel's
// comments, a task file) is UTF-8 and is shortened for messages and records.
// A cut inside a multi-byte character leaves bytes that are not UTF-8, and
// nlohmann::json::dump throws on them: a candidate's record or the CLI's JSON
// output would fail over an arrow in a comment. Cuts go between characters.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace crucible {

// The longest prefix of `text` of at most `maxBytes` bytes that does not end
// inside a UTF-8 character (a lead byte and its continuation bytes). Bytes
// that are not UTF-8 to begin with are kept as they are, byte by byte.
std::string utf8Prefix(std::string_view text, std::size_t maxBytes);

// `text` when it fits in `maxBytes`, else its utf8Prefix with `marker` after
// it, both together at most `maxBytes` bytes (when the marker itself fits).
std::string utf8Shortened(std::string_view text, std::size_t maxBytes, std::string_view marker = "...");

// `text` when it fits in `maxBytes`, else its utf8Prefix and a line saying how
// much was left out: "\n[... 1234 more characters not shown]" (bytes, counted
// as characters for the reader: the difference is the non-ASCII share).
std::string utf8Capped(std::string_view text, std::size_t maxBytes);

// `text` with every byte that is not part of well-formed UTF-8 replaced by
// U+FFFD: for messages that quote what a server or a parser read (JSON parse
// errors quote the bytes before the error, which can end inside a character).
std::string utf8Repaired(std::string_view text);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF), as nlohmann::json requires of the strings it writes.
bool isUtf8(std::string_view text);
// The offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t firstNonUtf8(std::string_view text);

// The first control character in `text` other than a tab or a line break
// (\t, \n, \r): C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F, as
// UTF-8); nullopt when there is none. Text from another project that is
// printed to a terminal must not carry escape sequences (ESC, CSI) or NULs.
std::optional<char32_t> firstControlCharacter(std::string_view text);
// Why `text` is not printable text, for a message after the field's name
// ("contains the control character U+001B (only printable text, tabs and line
// breaks)"); nullopt when it is.
std::optional<std::string> controlCharacterProblem(std::string_view text);

// `text` as the CLI prints it to a terminal: every control character other
// than a tab or a line feed written out as a visible escape ("\x1B",
// "\x0D", "\u009B"), and bytes that are not UTF-8 as U+FFFD. What a project
// holds (log lines, claims, a compiler's messages quoting a kernel that a
// language model wrote) reaches the terminal as text, never as a sequence
// the terminal would act on.
std::string terminalText(std::string_view text);

}  // namespace crucible
