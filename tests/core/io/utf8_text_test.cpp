// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "core/io/utf8_text.h"

namespace crucible {
namespace {

// "a→b": '→' is U+2192, three bytes E2 86 92.
const std::string kArrow = "a\xE2\x86\x92" "b";

TEST(Utf8Text, APrefixNeverEndsInsideACharacter) {
  EXPECT_EQ(utf8Prefix(kArrow, 5), kArrow);
  EXPECT_EQ(utf8Prefix(kArrow, 4), "a\xE2\x86\x92");
  EXPECT_EQ(utf8Prefix(kArrow, 3), "a");
  EXPECT_EQ(utf8Prefix(kArrow, 2), "a");
  EXPECT_EQ(utf8Prefix(kArrow, 1), "a");
  EXPECT_EQ(utf8Prefix(kArrow, 0), "");
  // Two and four bytes: 'é' (C3 A9), U+1F600 (F0 9F 98 80).
  EXPECT_EQ(utf8Prefix("\xC3\xA9\xC3\xA9", 3), "\xC3\xA9");
  EXPECT_EQ(utf8Prefix("x\xF0\x9F\x98\x80", 4), "x");
  EXPECT_EQ(utf8Prefix("x\xF0\x9F\x98\x80", 5), "x\xF0\x9F\x98\x80");
}

TEST(Utf8Text, EveryCutOfUtf8TextIsUtf8ThatJsonCanWrite) {
  const std::string text = "warp → row, 2×2 tiles, é, \xF0\x9F\x98\x80 done";
  ASSERT_TRUE(isUtf8(text));
  for (std::size_t n = 0; n <= text.size(); ++n) {
    const std::string cut = utf8Prefix(text, n);
    EXPECT_LE(cut.size(), n);
    EXPECT_GE(cut.size() + 3, std::min(n, text.size()));  // at most one character dropped
    EXPECT_TRUE(isUtf8(cut)) << n;
    EXPECT_NO_THROW((void)nlohmann::json(cut).dump()) << n;
  }
  // What the byte cut this replaces did: nlohmann refuses to write it.
  EXPECT_THROW((void)nlohmann::json(text.substr(0, 6)).dump(), nlohmann::json::type_error);
}

TEST(Utf8Text, BytesThatAreNotUtf8AreKeptAsTheyAre) {
  const std::string stray = "ab\x80\x80\x80\x80\x80";  // continuation bytes without a lead
  EXPECT_EQ(utf8Prefix(stray, 4), stray.substr(0, 4));
  EXPECT_EQ(utf8Prefix("a\xFF\xFF", 2), "a\xFF");
}

TEST(Utf8Text, AShortenedTextEndsWithItsMarkerWithinTheLimit) {
  EXPECT_EQ(utf8Shortened("short", 10), "short");
  EXPECT_EQ(utf8Shortened("a\xE2\x86\x92xyzw", 6, "..."), "a...");
  EXPECT_EQ(utf8Shortened("abcdefgh", 6, " [...]"), "abcdef");  // no room for the marker
  EXPECT_LE(utf8Shortened(std::string(5000, 'p'), 4000, " [...]").size(), 4000u);
}

TEST(Utf8Text, MalformedSequencesAreNotUtf8) {
  EXPECT_TRUE(isUtf8(""));
  EXPECT_TRUE(isUtf8(kArrow));
  EXPECT_FALSE(isUtf8("\xE2\x86"));          // cut short
  EXPECT_FALSE(isUtf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(isUtf8("\xE0\x80\xAF"));      // overlong
  EXPECT_FALSE(isUtf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(isUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(isUtf8("\x80"));
  EXPECT_TRUE(isUtf8("\xF4\x8F\xBF\xBF"));   // U+10FFFF itself
}

TEST(Utf8Text, RepairingReplacesEachStrayByteAndKeepsTheRest) {
  EXPECT_EQ(utf8Repaired(kArrow), kArrow);
  EXPECT_EQ(utf8Repaired("a\xE2\x86"), "a\xEF\xBF\xBD\xEF\xBF\xBD");  // a cut arrow: two stray bytes
  EXPECT_EQ(utf8Repaired("caf\xE9!"), "caf\xEF\xBF\xBD!");                 // Latin-1
  // What a JSON parse error quotes ("last read: ..."), made writable again.
  std::string message;
  try {
    const auto parsed = nlohmann::json::parse(std::string("{\"block\": \xC3\x97}"));
    ADD_FAILURE() << "parsed: " << parsed.size();
  } catch (const nlohmann::json::parse_error& e) {
    message = e.what();
  }
  ASSERT_FALSE(message.empty());
  EXPECT_FALSE(isUtf8(message)) << message;
  EXPECT_TRUE(isUtf8(utf8Repaired(message)));
  EXPECT_NO_THROW((void)nlohmann::json(utf8Repaired(message)).dump());
}

TEST(Utf8Text, ControlCharactersOtherThanTabsAndLineBreaksAreFound) {
  EXPECT_FALSE(firstControlCharacter("a claim\twith\r\nlines and an arrow \xE2\x86\x92"));
  EXPECT_EQ(firstControlCharacter(std::string("a\0b", 3)), char32_t{0});
  EXPECT_EQ(firstControlCharacter("\x1B[2J"), char32_t{0x1B});       // ESC: a terminal escape sequence
  EXPECT_EQ(firstControlCharacter("x\x7F"), char32_t{0x7F});          // DEL
  EXPECT_EQ(firstControlCharacter("\xC2\x9B" "2J"), char32_t{0x9B});   // CSI, U+009B, as UTF-8
  EXPECT_EQ(firstControlCharacter("\xC2\x85"), char32_t{0x85});       // NEL
  EXPECT_FALSE(firstControlCharacter("\xC2\xA0 \xC3\xA9"));           // NBSP, e-acute: printable
  EXPECT_FALSE(firstControlCharacter("\xC2"));                         // cut short: not a control
  EXPECT_EQ(controlCharacterProblem("a\x1B[2J"), "contains the control character U+001B (only printable text, tabs and line breaks)");
  EXPECT_FALSE(controlCharacterProblem("a\tb\n"));
}

TEST(Utf8Text, TerminalTextShowsControlCharactersAsEscapes) {
  EXPECT_EQ(terminalText("a claim\twith\nlines \xE2\x86\x92"), "a claim\twith\nlines \xE2\x86\x92");
  EXPECT_EQ(terminalText("\x1B]0;owned\x07title"), "\\x1B]0;owned\\x07title");
  EXPECT_EQ(terminalText("done\rFAKE"), "done\\x0DFAKE");                      // a CR would overwrite the line
  EXPECT_EQ(terminalText(std::string("a\0b\x7F", 4)), "a\\x00b\\x7F");
  EXPECT_EQ(terminalText("\xC2\x9B" "31m"), "\\u009B31m");                      // CSI as UTF-8
  EXPECT_EQ(terminalText("caf\xE9"), "caf\xEF\xBF\xBD");                       // not UTF-8: U+FFFD
  EXPECT_FALSE(firstControlCharacter(terminalText("\x1B\x9B\r\x00\xC2\x85 x")));
}

}  // namespace
}  // namespace crucible
