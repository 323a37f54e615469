// Python's int(text) as PyOpenCL and PyCUDA use it to tell an index from a name.
#include "selection/python_int.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace {

using polydev::detail::parse_python_int;
using polydev::detail::strip_python_whitespace;
using namespace std::string_view_literals;

constexpr long long kMax = std::numeric_limits<long long>::max();

TEST(PythonInt, PlainDigits) {
  EXPECT_EQ(parse_python_int("0"), 0);
  EXPECT_EQ(parse_python_int("1"), 1);
  EXPECT_EQ(parse_python_int("42"), 42);
}

TEST(PythonInt, LeadingZerosAreAccepted) {
  // int("007") == 7 (only literals in source code reject leading zeros).
  EXPECT_EQ(parse_python_int("007"), 7);
  EXPECT_EQ(parse_python_int("00"), 0);
}

TEST(PythonInt, SurroundingWhitespaceIsAccepted) {
  EXPECT_EQ(parse_python_int("  1 "), 1);
  EXPECT_EQ(parse_python_int("\t7\n"), 7);
  EXPECT_EQ(parse_python_int("\v\f3\r"), 3);
}

TEST(PythonInt, InformationSeparatorsAreNotWhitespaceForInt) {
  // str.strip() removes \x1c-\x1f, but int() skips only " \t\n\v\f\r": int('\x1c5\x1f') raises.
  EXPECT_EQ(parse_python_int("\x1c"
                             "5"
                             "\x1f"),
            std::nullopt);
  EXPECT_EQ(parse_python_int("5\x1e"), std::nullopt);
}

TEST(PythonInt, OneSignIsAccepted) {
  EXPECT_EQ(parse_python_int("+1"), 1);
  EXPECT_EQ(parse_python_int("-1"), -1);
  EXPECT_EQ(parse_python_int("-0"), 0);
  EXPECT_EQ(parse_python_int(" -12 "), -12);
}

TEST(PythonInt, UnderscoreBetweenDigitsIsAccepted) {
  EXPECT_EQ(parse_python_int("1_0"), 10);
  EXPECT_EQ(parse_python_int("1_000_000"), 1000000);
  EXPECT_EQ(parse_python_int("-1_2"), -12);
}

TEST(PythonInt, MisplacedUnderscoresAreRejected) {
  EXPECT_EQ(parse_python_int("_1"), std::nullopt);
  EXPECT_EQ(parse_python_int("1_"), std::nullopt);
  EXPECT_EQ(parse_python_int("1__0"), std::nullopt);
  EXPECT_EQ(parse_python_int("_"), std::nullopt);
  EXPECT_EQ(parse_python_int("+_1"), std::nullopt);
}

TEST(PythonInt, EmptyOrSignOnlyIsRejected) {
  EXPECT_EQ(parse_python_int(""), std::nullopt);
  EXPECT_EQ(parse_python_int("   "), std::nullopt);
  EXPECT_EQ(parse_python_int("+"), std::nullopt);
  EXPECT_EQ(parse_python_int("-"), std::nullopt);
}

TEST(PythonInt, OtherSpellingsAreRejected) {
  EXPECT_EQ(parse_python_int("0x1"), std::nullopt);
  EXPECT_EQ(parse_python_int("1.0"), std::nullopt);
  EXPECT_EQ(parse_python_int("1e3"), std::nullopt);
  EXPECT_EQ(parse_python_int("+-1"), std::nullopt);
  EXPECT_EQ(parse_python_int("--1"), std::nullopt);
  EXPECT_EQ(parse_python_int("- 1"), std::nullopt);
  EXPECT_EQ(parse_python_int("1 2"), std::nullopt);
  EXPECT_EQ(parse_python_int("i5"), std::nullopt);
  EXPECT_EQ(parse_python_int("5i"), std::nullopt);
}

TEST(PythonInt, HugeNumbersSaturate) {
  EXPECT_EQ(parse_python_int("9223372036854775807"), kMax);
  EXPECT_EQ(parse_python_int("9223372036854775808"), kMax);
  EXPECT_EQ(parse_python_int("99999999999999999999999999999"), kMax);
  EXPECT_EQ(parse_python_int("-99999999999999999999999999999"), -kMax);
  EXPECT_EQ(parse_python_int("1_000_000_000_000_000_000_000"), kMax);
}

TEST(PythonInt, LargestExactValues) {
  EXPECT_EQ(parse_python_int("9223372036854775806"), kMax - 1);
  EXPECT_EQ(parse_python_int("-9223372036854775807"), -kMax);
}

TEST(StripPythonWhitespace, StripsAsciiWhitespaceOnBothSides) {
  EXPECT_EQ(strip_python_whitespace(" \t\n\v\f\r\x1c\x1d\x1e\x1f"
                                    "a b"
                                    " \n"),
            "a b");
  EXPECT_EQ(strip_python_whitespace(""), "");
  EXPECT_EQ(strip_python_whitespace("   "), "");
  EXPECT_EQ(strip_python_whitespace("x"), "x");
}

// Each outcome below was printed by Python 3.11.7 on the input's bytes decoded as Python decodes
// the environment: text = os.fsdecode(raw); int(text) (ValueError -> nullopt). Invalid UTF-8
// becomes lone surrogates, which int() rejects.
struct IntCase {
  std::string_view input;
  std::optional<long long> python;
};

const IntCase kIntCases[] = {
    {"0"sv, 0},                // '0'
    {"42"sv, 42},              // '42'
    {"007"sv, 7},              // '007'
    {"-0"sv, 0},               // '-0'
    {"+1"sv, 1},               // '+1'
    {" -12 "sv, -12},          // ' -12 '
    {"1_000"sv, 1000},         // '1_000'
    {"1__0"sv, std::nullopt},  // '1__0'
    {"_1"sv, std::nullopt},    // '_1'
    {"1_"sv, std::nullopt},    // '1_'
    {""sv, std::nullopt},      // ''
    {"+"sv, std::nullopt},     // '+'
    {"- 1"sv, std::nullopt},   // '- 1'
    {"0x1"sv, std::nullopt},   // '0x1'
    {"1.0"sv, std::nullopt},   // '1.0'
    {"\x09"
     "7\x0a"sv,
     7},  // '\t7\n'
    {"\x0b\x0c"
     "3\x0d"sv,
     3},  // '\x0b\x0c3\r'
    {"\x1c"
     "5\x1c"sv,
     std::nullopt},  // '\x1c5\x1c'
    {"\x1d"
     "5"sv,
     std::nullopt},                      // '\x1d5'
    {"5\x1e"sv, std::nullopt},           // '5\x1e'
    {"5\x1f"sv, std::nullopt},           // '5\x1f'
    {"\xd9\xa1"sv, 1},                   // '\u0661'
    {"\xd9\xa1\xd9\xa0"sv, 10},          // '\u0661\u0660'
    {"\xef\xbc\x91"sv, 1},               // '\uff11'
    {"\xef\xbc\x91\xef\xbc\x92"sv, 12},  // '\uff11\uff12'
    {"\xe0\xa5\xa7\xe0\xa5\xa8"sv, 12},  // '\u0967\u0968'
    {"\xf0\x9d\x9f\x8e"sv, 0},           // '\U0001d7ce'
    {"\xf0\x9d\x9f\xbf"sv, 9},           // '\U0001d7ff'
    {"\xf0\x9f\xaf\xb9"sv, 9},           // '\U0001fbf9'
    {"-\xd9\xa1"sv, -1},                 // '-\u0661'
    {"+\xd9\xa1_\xd9\xa2"sv, 12},        // '+\u0661_\u0662'
    {"1_\xd9\xa1"sv, 11},                // '1_\u0661'
    {"\xd9\xa9\xd9\xa9"sv, 99},          // '\u0669\u0669'
    {"\xc2\xb2"sv, std::nullopt},        // '\xb2'
    {"\xe2\x91\xa0"sv, std::nullopt},    // '\u2460'
    {"\xe0\xaf\xb0"sv, std::nullopt},    // '\u0bf0'
    {"\xe1\x8d\xa9"sv, std::nullopt},    // '\u1369'
    {"\xe2\x85\xab"sv, std::nullopt},    // '\u216b'
    {"\xd9\xa5"
     "A"sv,
     std::nullopt},  // '\u0665A'
    {"\xc2\xa0"
     "5"sv,
     5},                 // '\xa05'
    {"5\xc2\xa0"sv, 5},  // '5\xa0'
    {"\xe2\x80\x83"
     "5\xe3\x80\x80"sv,
     5},  // '\u20035\u3000'
    {"\xc2\x85"
     "5\xc2\x85"sv,
     5},  // '\x855\x85'
    {"\xe1\x9a\x80"
     "5"sv,
     5},  // '\u16805'
    {"\xe2\x80\xa8"
     "5\xe2\x80\xa9"sv,
     5},  // '\u20285\u2029'
    {"\xe2\x80\xaf"
     "5\xe2\x81\x9f"sv,
     5},                  // '\u202f5\u205f'
    {"\xc2\xa0+1"sv, 1},  // '\xa0+1'
    {"+\xc2\xa0"
     "1"sv,
     std::nullopt},  // '+\xa01'
    {"1\xc2\xa0"
     "2"sv,
     std::nullopt},                // '1\xa02'
    {"\xc2\xa0"sv, std::nullopt},  // '\xa0'
    {"\xe2\x80\x8b"
     "5"sv,
     std::nullopt},  // '\u200b5'
    {"\xef\xbb\xbf"
     "5"sv,
     std::nullopt},  // '\ufeff5'
    {"\xe1\xa0\x8e"
     "5"sv,
     std::nullopt},                     // '\u180e5'
    {"5\xe2\x80\x8e"sv, std::nullopt},  // '5\u200e'
    {"\xff"sv, std::nullopt},           // '\udcff'
    {"5\xff"sv, std::nullopt},          // '5\udcff'
    {"\xff"
     "5"sv,
     std::nullopt},  // '\udcff5'
    {"\xa0"
     "5"sv,
     std::nullopt},            // '\udca05'
    {"\xc2"sv, std::nullopt},  // '\udcc2'
    {"\xc2"
     "5"sv,
     std::nullopt},                        // '\udcc25'
    {"\xd9"sv, std::nullopt},              // '\udcd9'
    {"\xd9\xa1\xa1"sv, std::nullopt},      // '\u0661\udca1'
    {"\xc1\xa1"sv, std::nullopt},          // '\udcc1\udca1'
    {"\xe0\x80\xb0"sv, std::nullopt},      // '\udce0\udc80\udcb0'
    {"\xed\xa0\x80"sv, std::nullopt},      // '\udced\udca0\udc80'
    {"\xf4\x90\x80\x80"sv, std::nullopt},  // '\udcf4\udc90\udc80\udc80'
    {"\xf0\x9d\x9f"sv, std::nullopt},      // '\udcf0\udc9d\udc9f'
    {"\x80"sv, std::nullopt},              // '\udc80'
    {"\xef\xbc"sv, std::nullopt},          // '\udcef\udcbc'
    {"\xef\xbc\x91\xbc"sv, std::nullopt},  // '\uff11\udcbc'
    {"5\x00"sv, std::nullopt},             // '5\x00'
    {"\x7f"
     "5"sv,
     std::nullopt},  // '\x7f5'
};

TEST(PythonInt, AgreesWithPythonOnEveryCheckedInput) {
  for (const IntCase& example : kIntCases) {
    std::string shown;
    for (unsigned char c : example.input) shown += " " + std::to_string(c);
    EXPECT_EQ(parse_python_int(example.input), example.python) << "bytes" << shown;
  }
}

// Encodes a code point as UTF-8 (surrogates included, which are invalid UTF-8).
std::string utf8(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

bool is_surrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

// Every code point, against counts and sums Python 3.11.7 printed over the same loops (surrogates
// skipped: they are not valid UTF-8), so that a wrong or missing entry of the digit or space
// tables shows up:
//   c in range(0x80, 0x110000) where int(chr(c)) succeeds: 650 code points, sum 30806045, values
//   sum 2925
//   c in range(0x110000) where int('5' + chr(c)) == 5: 25 code points, sum 141586
//   c in range(0x110000) where (chr(c) + 'x').strip() == 'x': 29 code points, sum 141704
TEST(PythonInt, EveryCodePointAsPythonClassifiesIt) {
  std::size_t digits = 0;
  unsigned long long digit_sum = 0;
  long long value_sum = 0;
  std::size_t int_spaces = 0;
  unsigned long long int_space_sum = 0;
  std::size_t strip_spaces = 0;
  unsigned long long strip_space_sum = 0;
  for (char32_t c = 0; c < 0x110000; ++c) {
    if (is_surrogate(c)) continue;
    const std::string text = utf8(c);
    if (c >= 0x80) {
      if (const auto value = parse_python_int(text)) {
        ++digits;
        digit_sum += c;
        value_sum += *value;
      }
    }
    if (parse_python_int("5" + text) == 5) {
      ++int_spaces;
      int_space_sum += c;
    }
    if (strip_python_whitespace(text + "x") == "x") {
      ++strip_spaces;
      strip_space_sum += c;
    }
  }
  EXPECT_EQ(digits, 650u);
  EXPECT_EQ(digit_sum, 30806045u);
  EXPECT_EQ(value_sum, 2925);
  EXPECT_EQ(int_spaces, 25u);
  EXPECT_EQ(int_space_sum, 141586u);
  EXPECT_EQ(strip_spaces, 29u);
  EXPECT_EQ(strip_space_sum, 141704u);
}

TEST(PythonInt, SurrogatesEncodedInUtf8AreNotCharacters) {
  for (char32_t c = 0xD800; c <= 0xDFFF; ++c) {
    EXPECT_EQ(parse_python_int("5" + utf8(c)), std::nullopt);
    EXPECT_EQ(strip_python_whitespace(utf8(c)), utf8(c));
  }
}

TEST(PythonInt, AtMost4300Digits) {
  // CPython's default int_max_str_digits: underscores and whitespace do not count, zeros do.
  EXPECT_EQ(parse_python_int(std::string(4300, '1')), kMax);
  EXPECT_EQ(parse_python_int(std::string(4301, '1')), std::nullopt);
  EXPECT_EQ(parse_python_int(std::string(4301, '0')), std::nullopt);
  EXPECT_EQ(parse_python_int(std::string(5000, ' ') + std::string(4300, '0') + " "), 0);
  EXPECT_EQ(parse_python_int("-" + std::string(4300, '0')), 0);
  std::string underscored;
  for (int i = 0; i < 4300; ++i) underscored += "1_";
  EXPECT_EQ(parse_python_int(underscored + "1"), std::nullopt);  // 4301 digits
  std::string arabic;
  for (int i = 0; i < 4301; ++i) arabic += "\xd9\xa1";
  EXPECT_EQ(parse_python_int(arabic), std::nullopt);
}

// str.strip() as PyCUDA applies it to ~/.cuda_device (outcomes printed by Python 3.11.7).
TEST(StripPythonWhitespace, StripsUnicodeSpacesButNotOtherCharacters) {
  EXPECT_EQ(strip_python_whitespace("\xc2\xa0"
                                    "5\xe3\x80\x80"),
            "5");  // U+00A0, U+3000
  EXPECT_EQ(strip_python_whitespace("\xc2\x85\xe2\x80\x83 1 \xe2\x80\xa9"),
            "1");  // U+0085, U+2003, U+2029
  EXPECT_EQ(strip_python_whitespace("\xe2\x80\x8b"
                                    "5"),
            "\xe2\x80\x8b"
            "5");  // U+200B is not a space
  EXPECT_EQ(strip_python_whitespace("\xc2\xa0 a\xc2\xa0"
                                    "b \xc2\xa0"),
            "a\xc2\xa0"
            "b");
}

TEST(StripPythonWhitespace, InvalidUtf8IsKeptAndEndsTheStripping) {
  // os.fsdecode makes each invalid byte a lone surrogate, which strip() keeps.
  EXPECT_EQ(strip_python_whitespace(" \xff "), "\xff");
  EXPECT_EQ(strip_python_whitespace("\xa0"
                                    "5"),
            "\xa0"
            "5");                                          // a lone continuation byte
  EXPECT_EQ(strip_python_whitespace("\xc2 5"), "\xc2 5");  // a cut sequence
  EXPECT_EQ(strip_python_whitespace("5 \xe2\x80"), "5 \xe2\x80");
  EXPECT_EQ(strip_python_whitespace("\xe2\x80\xe2\x80\x83"), "\xe2\x80");  // U+2003 after junk
}

}  // namespace
