// Showing foreign text (driver strings, file content, XML) on a terminal: control characters and
// bytes that are not UTF-8 become visible escapes, printable UTF-8 stays, long quotes are cut.
#include "io/printable.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace {

using polydev::detail::decode_utf8;
using polydev::detail::printable;
using polydev::detail::printable_text;
using polydev::detail::quote;

TEST(Printable, EscapesTerminalControlSequences) {
  EXPECT_EQ(printable("GPU \x1b[31mred\x1b[0m"), "GPU \\x1b[31mred\\x1b[0m");
  EXPECT_EQ(printable("a\rb"), "a\\x0db") << "a carriage return would overwrite the line";
  EXPECT_EQ(printable(std::string("nul\0here", 8)), "nul\\x00here");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  // U+009B, CSI for terminals that read 8-bit controls: escaped byte by byte.
  EXPECT_EQ(printable("csi\xc2\x9b"
                      "2J"),
            "csi\\xc2\\x9b2J");
}

// The bidi embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069) make a name read
// other than its bytes ("Trojan Source"); every function shows them escaped, neighbours stay.
TEST(Printable, EscapesBidiControls) {
  EXPECT_EQ(printable("gpu\xe2\x80\xae"
                      "evil"),
            "gpu\\xe2\\x80\\xae"
            "evil")
      << "U+202E";
  EXPECT_EQ(printable("\xe2\x80\xaa"), "\\xe2\\x80\\xaa") << "U+202A";
  EXPECT_EQ(printable("\xe2\x81\xa6x\xe2\x81\xa9"), "\\xe2\\x81\\xa6x\\xe2\\x81\\xa9")
      << "U+2066, U+2069";
  EXPECT_EQ(quote("\xe2\x80\xad"), "'\\xe2\\x80\\xad'") << "U+202D";
  EXPECT_EQ(printable_text("a\n\xe2\x81\xa7"), "a\n\\xe2\\x81\\xa7") << "U+2067";
  // U+2028 and U+2029 break lines where a renderer honours them: escaped on one line.
  EXPECT_EQ(printable("a\xe2\x80\xa8"
                      "b\xe2\x80\xa9"),
            "a\\xe2\\x80\\xa8"
            "b\\xe2\\x80\\xa9");
  EXPECT_EQ(printable("\xe2\x80\xaf"), "\xe2\x80\xaf") << "U+202F, a narrow no-break space";
}

// Characters that show nothing make two different texts look alike: a byte order mark at the
// start of a ~/.cuda_device, a zero-width space in a device name, a bidi mark. Escaped, as the
// controls are; a visible character of the same block stays.
TEST(Printable, EscapesInvisibleFormatCharacters) {
  EXPECT_EQ(quote("\xef\xbb\xbf"
                  "0"),
            "'\\xef\\xbb\\xbf"
            "0'")
      << "U+FEFF, a byte order mark";
  EXPECT_EQ(printable("a\xe2\x80\x8b"
                      "b"),
            "a\\xe2\\x80\\x8b"
            "b")
      << "U+200B";
  EXPECT_EQ(printable("\xe2\x80\x8f"), "\\xe2\\x80\\x8f") << "U+200F, a right-to-left mark";
  EXPECT_EQ(printable("\xe2\x81\xa0"), "\\xe2\\x81\\xa0") << "U+2060, the word joiner";
  EXPECT_EQ(printable("\xd8\x9c"), "\\xd8\\x9c") << "U+061C, the Arabic letter mark";
  EXPECT_EQ(printable("\xe2\x80\x90"), "\xe2\x80\x90") << "U+2010, a hyphen";
}

TEST(Printable, OneLineEscapesLineBreaksTextKeepsThem) {
  EXPECT_EQ(printable("two\nlines\tand a tab"), "two\\x0alines\\x09and a tab");
  EXPECT_EQ(printable_text("two\nlines\tand a tab\x1b"), "two\nlines\tand a tab\\x1b");
}

TEST(Printable, KeepsPrintableUtf8) {
  const std::string text = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 ~!\\";
  EXPECT_EQ(printable(text), text);
  EXPECT_EQ(printable_text(text), text);
}

TEST(Printable, EscapesEveryByteThatIsNotWellFormedUtf8) {
  EXPECT_EQ(printable("a\xff"
                      "b"),
            "a\\xffb");
  EXPECT_EQ(printable("stray \x80"), "stray \\x80");
  EXPECT_EQ(printable("cut \xe2\x82"), "cut \\xe2\\x82") << "a truncated sequence at the end";
  EXPECT_EQ(printable("cut \xe2\x82x"), "cut \\xe2\\x82x") << "a truncated sequence before text";
  EXPECT_EQ(printable("overlong \xc0\xaf"), "overlong \\xc0\\xaf");
  EXPECT_EQ(printable("overlong \xe0\x80\xaf"), "overlong \\xe0\\x80\\xaf");
  EXPECT_EQ(printable("overlong \xf0\x80\x80\xaf"), "overlong \\xf0\\x80\\x80\\xaf");
  EXPECT_EQ(printable("surrogate \xed\xa0\x80"), "surrogate \\xed\\xa0\\x80");
  EXPECT_EQ(printable("beyond \xf4\x90\x80\x80"), "beyond \\xf4\\x90\\x80\\x80");
  EXPECT_EQ(printable("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
}

TEST(Printable, CutsLongQuotesAtACharacterBoundary) {
  EXPECT_EQ(printable(std::string(10, 'x'), 10), std::string(10, 'x'));
  EXPECT_EQ(printable(std::string(11, 'x'), 10), std::string(10, 'x') + "... (11 bytes)");
  // 'é' is two bytes: the cut falls before it rather than inside it.
  EXPECT_EQ(printable(std::string(9, 'x') + "\xc3\xa9" + "yy", 10),
            std::string(9, 'x') + "... (13 bytes)");
  const std::string huge(64 * 1024 * 1024, '\x1b');
  const std::string shown = printable(huge);
  // Each byte shown takes four at most (\x1b), plus the size.
  EXPECT_LT(shown.size(), 4 * polydev::detail::kQuoteLimit + 32);
  EXPECT_THAT(shown, testing::EndsWith("... (67108864 bytes)"));
  EXPECT_EQ(printable_text(std::string(5000, 'a')), std::string(5000, 'a')) << "text is not cut";
}

TEST(DecodeUtf8, GivesCodePointsAndMaximalIllFormedSubparts) {
  const auto step = [](const std::string& text) { return decode_utf8(text, 0); };
  EXPECT_TRUE(step("A").valid);
  EXPECT_EQ(step("\xc3\xa9").code_point, U'\u00e9');
  EXPECT_EQ(step("\xe2\x82\xac").code_point, U'\u20ac');
  EXPECT_EQ(step("\xf0\x9f\x98\x80").code_point, U'\U0001F600');
  EXPECT_EQ(step("\xf0\x9f\x98\x80").length, 4u);
  EXPECT_EQ(step("\xf4\x8f\xbf\xbf").code_point, U'\U0010FFFF');
  // Unicode's maximal subparts: the valid prefix of a sequence is one unit, a byte that cannot
  // start or continue one is its own.
  EXPECT_FALSE(step("\xe2\x82").valid);
  EXPECT_EQ(step("\xe2\x82").length, 2u);
  EXPECT_EQ(step("\xe2\x82x").length, 2u);
  EXPECT_EQ(step("\xf0\x9f\x98").length, 3u);
  EXPECT_EQ(step("\xed\xa0\x80").length, 1u) << "a surrogate's lead is a unit of its own";
  EXPECT_EQ(step("\xc0\xaf").length, 1u);
  EXPECT_EQ(step("\xff").length, 1u);
}

TEST(Quote, ShortPrintableTextIsQuotedAsItIs) {
  EXPECT_EQ(quote("1"), "'1'");
  EXPECT_EQ(quote(""), "''");
  EXPECT_EQ(quote("Grüße, 東京"), "'Grüße, 東京'") << "well-formed UTF-8 is kept";
}

TEST(Quote, ControlsAndInvalidBytesAreEscaped) {
  EXPECT_EQ(quote("a\nb\tc\x1b[2J"), "'a\\x0ab\\x09c\\x1b[2J'");
  EXPECT_EQ(quote(std::string("\0\x7f", 2)), "'\\x00\\x7f'");
  EXPECT_EQ(quote("\xff\xc3"), "'\\xff\\xc3'") << "invalid and truncated UTF-8";
  EXPECT_EQ(quote("\xc2\x9b"), "'\\xc2\\x9b'") << "a C1 control (CSI) is escaped";
  EXPECT_EQ(quote("\xed\xa0\x80"), "'\\xed\\xa0\\x80'") << "a surrogate is not UTF-8";
}

TEST(Quote, LongTextIsAShortPrefixAndItsLength) {
  const std::string long_text(200 * 1000 * 1000 / 1000, 'z');
  EXPECT_EQ(quote(long_text), "'" + std::string(80, 'z') + "'... (200000 bytes)");
  EXPECT_EQ(quote(std::string(80, 'y')), "'" + std::string(80, 'y') + "'");
  // The cut never splits a character: 79 bytes and a two-byte 'ü' keep 79.
  EXPECT_EQ(quote(std::string(79, 'a') + "ü"), "'" + std::string(79, 'a') + "'... (81 bytes)");
  EXPECT_EQ(quote("abcdef", 3), "'abc'... (6 bytes)");
}

}  // namespace
