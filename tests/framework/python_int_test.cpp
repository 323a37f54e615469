// Python's int(text) as PyOpenCL and PyCUDA use it to tell an index from a name.
#include "python_int.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <optional>

namespace {

using polydev::detail::parse_python_int;
using polydev::detail::strip_python_whitespace;

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
  EXPECT_EQ(parse_python_int("\x1c"
                             "5"
                             "\x1f"),
            5);
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

}  // namespace
