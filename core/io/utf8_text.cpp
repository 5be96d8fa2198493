// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/utf8_text.h"

#include <cstdio>

namespace crucible {
namespace {

bool isContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length a lead byte announces: 1 for ASCII, 2-4 for a lead, 0 for a
// continuation or a byte UTF-8 never uses.
std::size_t sequenceLength(unsigned char c) {
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;
}

// The length of the well-formed UTF-8 character at text[i], or 0 when the
// bytes there are not one (overlong forms, surrogates, past U+10FFFF, cut short).
std::size_t characterAt(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const std::size_t length = sequenceLength(c);
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k)
    if (!isContinuation(static_cast<unsigned char>(text[i + k]))) return 0;
  if (length >= 3) {
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if (c == 0xE0 && second < 0xA0) return 0;  // overlong
    if (c == 0xED && second > 0x9F) return 0;  // a surrogate
    if (c == 0xF0 && second < 0x90) return 0;  // overlong
    if (c == 0xF4 && second > 0x8F) return 0;  // past U+10FFFF
  }
  return length;
}

// The control character at text[i]: its code point and length in bytes (1 for
// C0 and DEL; 2 for C1, U+0080-U+009F, which UTF-8 writes as 0xC2 0x80-0x9F).
struct Control {
  char32_t code = 0;
  std::size_t length = 0;  // 0: not a control character
};
Control controlAt(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x20 || byte == 0x7F) return {byte, 1};
  if (byte == 0xC2 && i + 1 < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x80 && next <= 0x9F) return {next, 2};
  }
  return {};
}

}  // namespace

std::string utf8Prefix(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return std::string(text);
  // text[cut] is the first byte left out. When it continues a character, back
  // up to that character's lead byte (at most three steps) and leave it out
  // whole if its sequence reaches past the cut.
  std::size_t cut = maxBytes;
  std::size_t start = cut;
  while (start > 0 && cut - start < 3 && isContinuation(static_cast<unsigned char>(text[start]))) --start;
  if (start < cut && sequenceLength(static_cast<unsigned char>(text[start])) > cut - start) cut = start;
  return std::string(text.substr(0, cut));
}

std::string utf8Shortened(std::string_view text, std::size_t maxBytes, std::string_view marker) {
  if (text.size() <= maxBytes) return std::string(text);
  if (marker.size() >= maxBytes) return utf8Prefix(text, maxBytes);
  return utf8Prefix(text, maxBytes - marker.size()) + std::string(marker);
}

std::string utf8Capped(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return std::string(text);
  std::string out = utf8Prefix(text, maxBytes);
  return out + "\n[... " + std::to_string(text.size() - out.size()) + " more characters not shown]";
}

std::string utf8Repaired(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t n = characterAt(text, i)) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD for this byte
      ++i;
    }
  }
  return out;
}

std::size_t firstNonUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = characterAt(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

bool isUtf8(std::string_view text) { return firstNonUtf8(text) == std::string_view::npos; }

std::optional<char32_t> firstControlCharacter(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const Control c = controlAt(text, i);
    if (c.length && c.code != '\t' && c.code != '\n' && c.code != '\r') return c.code;
  }
  return std::nullopt;
}

std::string terminalText(std::string_view text) {
  const std::string repaired = utf8Repaired(text);
  std::string out;
  out.reserve(repaired.size());
  char escape[8];
  for (std::size_t i = 0; i < repaired.size(); ++i) {
    const Control c = controlAt(repaired, i);
    // A carriage return is escaped too: on a terminal it moves back over what was printed.
    if (!c.length || c.code == '\t' || c.code == '\n') {
      out += repaired[i];
      continue;
    }
    std::snprintf(escape, sizeof escape, c.length == 1 ? "\\x%02X" : "\\u%04X", static_cast<unsigned>(c.code));
    out += escape;
    i += c.length - 1;
  }
  return out;
}

std::optional<std::string> controlCharacterProblem(std::string_view text) {
  const auto control = firstControlCharacter(text);
  if (!control) return std::nullopt;
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(*control));
  return std::string("contains the control character ") + code + " (only printable text, tabs and line breaks)";
}

}  // namespace crucible
