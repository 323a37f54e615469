// polydev.yaml: patterns, version ranges, the schema with the position of every error, finding the
// file, profiles and expectation matching (no driver needed).
#include "polydev/config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <utility>

namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::StartsWith;

// --- patterns ---

TEST(ConfigGlob, StarQuestionMarkAndSets) {
  EXPECT_TRUE(polydev::Glob("Saxpy.*").matches("Saxpy.MatchesHost"));
  EXPECT_FALSE(polydev::Glob("Saxpy.*").matches("SaxpyTwo.MatchesHost"));
  EXPECT_TRUE(polydev::Glob("*").matches(""));
  EXPECT_TRUE(polydev::Glob("a*b*c").matches("a_b_b_c"));
  EXPECT_FALSE(polydev::Glob("a*b*c").matches("a_b_b_d"));
  EXPECT_TRUE(polydev::Glob("opencl_pocl_?").matches("opencl_pocl_1"));
  EXPECT_FALSE(polydev::Glob("opencl_pocl_?").matches("opencl_pocl_12"));
  EXPECT_TRUE(polydev::Glob("cuda_[a-c]x").matches("cuda_bx"));
  EXPECT_FALSE(polydev::Glob("cuda_[a-c]x").matches("cuda_dx"));
  EXPECT_TRUE(polydev::Glob("cuda_[!a-c]x").matches("cuda_dx"));
  EXPECT_FALSE(polydev::Glob("cuda_[!a-c]x").matches("cuda_ax"));
  EXPECT_TRUE(polydev::Glob("[]]").matches("]"));
  EXPECT_TRUE(polydev::Glob("[a-]").matches("-"));
  EXPECT_TRUE(polydev::Glob("a\\*").matches("a*"));
  EXPECT_FALSE(polydev::Glob("a\\*").matches("ab"));
  EXPECT_FALSE(polydev::Glob("Saxpy").matches("saxpy")) << "matching is case-sensitive";
  EXPECT_EQ(polydev::Glob().text(), "*");
}

// GoogleTest's filter syntax: only '*' and '?' are special; brackets and backslashes are literal.
TEST(ConfigGlob, GoogleTestFilterPatternsHaveOnlyStarAndQuestionMark) {
  using polydev::Glob;
  EXPECT_TRUE(Glob::gtest_filter_pattern("*/opencl_*").matches("OpenCL/Saxpy.Runs/opencl_x_0"));
  EXPECT_TRUE(Glob::gtest_filter_pattern("S?x").matches("Sax"));
  EXPECT_TRUE(Glob::gtest_filter_pattern("[ab]").matches("[ab]"));
  EXPECT_FALSE(Glob::gtest_filter_pattern("[ab]").matches("a"));
  EXPECT_TRUE(Glob::gtest_filter_pattern("a\\b").matches("a\\b"));
  EXPECT_TRUE(Glob::gtest_filter_pattern("").matches(""));
  EXPECT_FALSE(Glob::gtest_filter_pattern("").matches("a"));
  EXPECT_TRUE(Glob::gtest_filter_pattern("DISABLED_*").matches("DISABLED_Slow"));
}

// A hostile filter of many stars against a long name: the recursive matcher this replaces took
// time exponential in the stars; this one takes time proportional to the name times the pattern.
TEST(ConfigGlob, ManyStarsAgainstALongNameFinish) {
  std::string pattern;
  for (int i = 0; i < 40; ++i) pattern += "*a";
  pattern += "*b";
  const std::string name(4000, 'a');
  EXPECT_FALSE(polydev::Glob::gtest_filter_pattern(pattern).matches(name));
  EXPECT_TRUE(polydev::Glob::gtest_filter_pattern(pattern).matches(name + "b"));
}

TEST(ConfigGlob, RejectsMalformedPatterns) {
  const auto message = [](const std::string& pattern) -> std::string {
    try {
      polydev::Glob{pattern};
    } catch (const polydev::error& failure) {
      return failure.what();
    }
    return "accepted";
  };
  EXPECT_EQ(message(""), "the pattern is empty");
  EXPECT_EQ(message("Saxpy.[ab"), "pattern 'Saxpy.[ab': the '[' at character 7 has no closing ']'");
  EXPECT_EQ(message("[]"), "pattern '[]': the '[' at character 1 has no closing ']'");
  EXPECT_EQ(message("[z-a]"), "pattern '[z-a]': the range 'z-a' is reversed");
  EXPECT_EQ(message("abc\\"),
            "pattern 'abc\\': '\\' at the end has no character to take literally");
}

// --- version ranges ---

TEST(ConfigVersionRange, ComparesNumberByNumber) {
  const polydev::VersionRange range(">=3.1, <5");
  EXPECT_TRUE(range.contains("3.1+debian"));
  EXPECT_TRUE(range.contains("4.99"));
  EXPECT_TRUE(range.contains("3.10"));
  EXPECT_FALSE(range.contains("3.0.9"));
  EXPECT_FALSE(range.contains("5"));
  EXPECT_FALSE(range.contains("5.0.1"));
  EXPECT_FALSE(range.contains("unknown")) << "no version: not in any range";
  EXPECT_TRUE(polydev::VersionRange(">550").contains("550.54.15"));
  EXPECT_FALSE(polydev::VersionRange(">550.54.15").contains("550.54.15"));
  EXPECT_TRUE(polydev::VersionRange("<=550.54.15").contains("550.54.15"));
  EXPECT_TRUE(polydev::VersionRange("5").contains("5.0")) << "missing numbers count as 0";
}

TEST(ConfigVersionRange, EqualityIsAPrefix) {
  EXPECT_TRUE(polydev::VersionRange("==3.1").contains("3.1"));
  EXPECT_TRUE(polydev::VersionRange("==3.1").contains("3.1.4"));
  EXPECT_FALSE(polydev::VersionRange("==3.1").contains("3.10"));
  EXPECT_TRUE(polydev::VersionRange("3.1").contains("3.1.0"));
  EXPECT_FALSE(polydev::VersionRange("!=3.1").contains("3.1.2"));
  EXPECT_TRUE(polydev::VersionRange("!=3.1").contains("3.2"));
}

TEST(ConfigVersionRange, LeadingVersion) {
  using Numbers = std::vector<unsigned long>;
  EXPECT_EQ(polydev::VersionRange::leading_version("3.1+debian"), Numbers({3, 1}));
  EXPECT_EQ(polydev::VersionRange::leading_version("550.54.15"), Numbers({550, 54, 15}));
  EXPECT_EQ(polydev::VersionRange::leading_version("v2.x"), Numbers({2}));
  EXPECT_EQ(polydev::VersionRange::leading_version("none"), std::nullopt);
  EXPECT_EQ(polydev::VersionRange::leading_version("99999999999999999999999"), std::nullopt);
}

TEST(ConfigVersionRange, RejectsMalformedRanges) {
  const auto message = [](const std::string& text) -> std::string {
    try {
      polydev::VersionRange{text};
    } catch (const polydev::error& failure) {
      return failure.what();
    }
    return "accepted";
  };
  EXPECT_EQ(message(" "), "the version range is empty");
  EXPECT_EQ(message(">=3.1,"), "clause 2 '' of '>=3.1,': it is empty");
  EXPECT_EQ(message("~3"),
            "clause 1 '~3' of '~3': '~3' is not a version (numbers separated by '.', after one "
            "of >=, >, <=, <, ==, !=)");
  EXPECT_THAT(message(">=3.x"), StartsWith("clause 1 '>=3.x' of '>=3.x': '3.x' is not a version"));
  EXPECT_THAT(message("<5, =>3"), StartsWith("clause 2 '=>3' of '<5, =>3': '=>3' is not"));
  EXPECT_THAT(message(">= "), StartsWith("clause 1 '>=' of '>= ': '' is not a version"));
}

// --- the schema ---

constexpr const char* kExample = R"(# polydev.yaml
version: 1
profiles:
  ci:
    PYOPENCL_TEST: "portable:basic"
    CUDA_DEVICE: 0
    require: [OpenCL, cuda]
  everything:
    PYOPENCL_TEST: ""
expectations:
  - test: "Saxpy.*"
    device: "opencl_pocl_*"
    pocl: "<5.0"
    skip: "PoCL 3 miscompiles saxpy"
    link: "https://example.org/issues/1"
  - test: "OpenCL/Scale.Big/*"
    driver: ">=550, <560"
    xfail: "out of memory on 550"
    strict: false
)";

TEST(ConfigParse, ReadsProfilesAndExpectations) {
  const polydev::Config config = polydev::parse_config(kExample, "polydev.yaml");
  EXPECT_EQ(config.file, "polydev.yaml");
  ASSERT_EQ(config.profiles.size(), 2u);
  EXPECT_EQ(config.profiles[0].name, "ci");
  EXPECT_EQ(config.profiles[0].line, 4);
  EXPECT_THAT(config.profiles[0].variables,
              ElementsAre(Pair("PYOPENCL_TEST", "portable:basic"), Pair("CUDA_DEVICE", "0")));
  EXPECT_THAT(config.profiles[0].require, ElementsAre("opencl", "cuda"));
  EXPECT_THAT(config.profiles[1].variables, ElementsAre(Pair("PYOPENCL_TEST", "")));
  EXPECT_EQ(config.find_profile("everything"), &config.profiles[1]);
  EXPECT_EQ(config.find_profile("nightly"), nullptr);

  ASSERT_EQ(config.expectations.size(), 2u);
  const polydev::Expectation& skip = config.expectations[0];
  EXPECT_EQ(skip.line, 11);
  EXPECT_EQ(skip.test.text(), "Saxpy.*");
  EXPECT_EQ(skip.device.text(), "opencl_pocl_*");
  EXPECT_FALSE(skip.driver);
  ASSERT_TRUE(skip.pocl);
  EXPECT_EQ(skip.pocl->text(), "<5.0");
  EXPECT_EQ(skip.kind, polydev::ExpectationKind::skip);
  EXPECT_EQ(skip.reason, "PoCL 3 miscompiles saxpy");
  EXPECT_EQ(skip.link, "https://example.org/issues/1");
  const polydev::Expectation& xfail = config.expectations[1];
  EXPECT_EQ(xfail.line, 16);
  EXPECT_EQ(xfail.device.text(), "*") << "no device: every device";
  ASSERT_TRUE(xfail.driver);
  EXPECT_EQ(xfail.driver->text(), ">=550, <560");
  EXPECT_EQ(xfail.kind, polydev::ExpectationKind::xfail);
  EXPECT_FALSE(xfail.strict);
  EXPECT_TRUE(xfail.link.empty());
}

TEST(ConfigParse, EmptyFileIsAnEmptyConfiguration) {
  for (const char* text : {"", "# nothing yet\n", "---\n", "expectations: []\nprofiles: {}\n"}) {
    const polydev::Config config = polydev::parse_config(text, "f.yaml");
    EXPECT_TRUE(config.profiles.empty()) << text;
    EXPECT_TRUE(config.expectations.empty()) << text;
  }
}

TEST(ConfigParse, XfailIsStrictByDefault) {
  const polydev::Config config =
      polydev::parse_config("expectations:\n  - {test: A.b, xfail: why}\n", "f.yaml");
  ASSERT_EQ(config.expectations.size(), 1u);
  EXPECT_TRUE(config.expectations[0].strict);
  EXPECT_EQ(config.expectations[0].line, 2);
}

// The message of the config_error that `text` raises, checked to carry the position it names.
std::string schema_error(const std::string& text, int line, int column) {
  try {
    polydev::parse_config(text, "dir/polydev.yaml");
  } catch (const polydev::config_error& failure) {
    EXPECT_EQ(failure.file(), "dir/polydev.yaml");
    EXPECT_EQ(failure.line(), line) << failure.what();
    EXPECT_EQ(failure.column(), column) << failure.what();
    return failure.what();
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return {};
}

TEST(ConfigSchemaErrors, NotYaml) {
  EXPECT_EQ(schema_error("profiles: [a, b\n", 2, 1),
            "dir/polydev.yaml:2:1: this is not valid YAML (end of sequence flow not found); "
            "expected a YAML mapping (see docs/configuration.md)");
  EXPECT_THAT(schema_error("a: b: c\n", 1, 5), HasSubstr("not valid YAML (illegal map value)"));
}

// Found by tests/fuzz/fuzz_yaml_config: on these texts yaml-cpp 0.7's LoadAll never returned (it
// reads the same empty document forever, jbeder/yaml-cpp#1040).
TEST(ConfigSchemaErrors, TextsThatStallYamlCppAreErrors) {
  EXPECT_EQ(schema_error(",", 1, 1),
            "dir/polydev.yaml:1:1: this is not valid YAML (nothing can be read from here on); "
            "expected a YAML mapping (see docs/configuration.md)");
  EXPECT_THAT(schema_error(", openc:\n  a: {require: [opencl, opencl]}\n", 1, 1),
              HasSubstr("not valid YAML"));
  EXPECT_THAT(schema_error("version: 1\n---\n,\n", 3, 1), HasSubstr("a second YAML document"));
}

TEST(ConfigSchemaErrors, TopLevel) {
  EXPECT_EQ(schema_error("- a\n- b\n", 1, 1),
            "dir/polydev.yaml:1:1: the document is a list; expected a mapping with the keys "
            "version, profiles, expectations");
  EXPECT_EQ(schema_error("profiles: {}\nexpectation: []\n", 2, 1),
            "dir/polydev.yaml:2:1: unknown key 'expectation' in the top level; expected one of "
            "version, profiles, expectations");
  EXPECT_EQ(schema_error("profiles: {}\nprofiles: {}\n", 2, 1),
            "dir/polydev.yaml:2:1: the key 'profiles' appears twice in the top level; expected "
            "each key once");
  EXPECT_EQ(schema_error("? [a]\n: b\n", 1, 3),
            "dir/polydev.yaml:1:3: a key in the top level is a list; expected one of version, "
            "profiles, expectations");
  EXPECT_EQ(schema_error("version: 2\n", 1, 10),
            "dir/polydev.yaml:1:10: unsupported version '2'; expected 1");
  EXPECT_EQ(schema_error("version: [1]\n", 1, 10),
            "dir/polydev.yaml:1:10: 'version' is a list; expected 1");
  EXPECT_EQ(schema_error("a: 1\n---\nb: 2\n", 3, 1),
            "dir/polydev.yaml:3:1: a second YAML document; expected one document");
}

// A message quotes at most a short, escaped prefix of what the file holds: a key or a value of
// megabytes does not become a message of megabytes, and control bytes do not reach a terminal.
TEST(ConfigSchemaErrors, MessagesQuoteAShortEscapedPrefixOfTheContent) {
  // YAML allows implicit keys of up to 1024 characters.
  EXPECT_EQ(schema_error(std::string(1000, 'k') + ": 1\n", 1, 1),
            "dir/polydev.yaml:1:1: unknown key '" + std::string(80, 'k') +
                "'... (1000 bytes) in the top level; expected one of version, profiles, "
                "expectations");
  EXPECT_THAT(schema_error("version: \"2\\e[2J\\r\"\n", 1, 10),
              HasSubstr("unsupported version '2\\x1b[2J\\x0d'"));
  const std::string huge(1000 * 1000, 'k');
  EXPECT_EQ(schema_error("profiles:\n  ci: {require: " + huge + "}\n", 2, 17),
            "dir/polydev.yaml:2:17: 'require' of profile 'ci' is '" + std::string(80, 'k') +
                "'... (1000000 bytes); expected a list of backends, such as [opencl, cuda]");
  const std::pair<std::string, int> long_values[] = {
      {"expectations:\n  - {test: '" + huge + "', skip: r}\n", 12},
      {"expectations:\n  - {test: 'a.[z-a]" + huge + "', skip: r}\n", 12},
      {"expectations:\n  - {driver: '>=1," + huge + "', test: a.b, skip: r}\n", 14},
  };
  for (const auto& [text, column] : long_values) {
    const std::string message = schema_error(text, 2, column);
    EXPECT_LT(message.size(), 600u) << message.substr(0, 600);
    EXPECT_THAT(message, HasSubstr("..."));
  }
}

// What the reader keeps is bounded before yaml-cpp builds its tree (some hundred bytes a node):
// the text at 1 MiB, the nodes at 50 000, each refused with the limit it passed.
TEST(ConfigSchemaErrors, SizeAndNodeLimitsAreErrorsNamingTheLimit) {
  const std::string over(polydev::kConfigFileLimit + 1, '#');
  EXPECT_EQ(schema_error(over, 1, 1),
            "dir/polydev.yaml:1:1: the text is 1048577 bytes, over the limit of 1048576 bytes; "
            "expected a configuration of at most 1048576 bytes (1 MiB)");
  std::string list = "[";
  for (int i = 0; i < 60000; ++i) list += "x,";
  list += "x]\n";
  EXPECT_THAT(schema_error(list, 1, 100000),
              HasSubstr("more than 50000 YAML nodes (keys, values and list items)"));
  std::string entries = "version: 1\nexpectations:\n";
  for (int i = 0; i < 20000; ++i) entries += "  - {test: S.T" + std::to_string(i) + ", skip: r}\n";
  EXPECT_THAT(schema_error(entries, 10002, 5),
              HasSubstr("expected a configuration of at most 50000 nodes"));
}

// A tag gives a node a meaning the schema does not have: only YAML's standard ones are read.
TEST(ConfigSchemaErrors, UnknownTagsAreErrorsNamingTheAcceptedOnes) {
  EXPECT_EQ(schema_error("version: !foo 1\n", 1, 10),
            "dir/polydev.yaml:1:10: unknown YAML tag '!foo'; expected no tag, or one of YAML's "
            "standard tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq): polydev.yaml "
            "gives no other tag a meaning");
  EXPECT_THAT(schema_error("profiles: !!set {a: {}}\n", 1, 11),
              HasSubstr("unknown YAML tag 'tag:yaml.org,2002:set'"));
  EXPECT_THAT(schema_error("expectations:\n  - !<tag:x> {test: a.b, skip: r}\n", 2, 5),
              HasSubstr("unknown YAML tag 'tag:x'"));
  const polydev::Config config = polydev::parse_config(
      "version: !!int 1\nprofiles: !!map {ci: {PYOPENCL_TEST: !!str 0}}\n", "dir/polydev.yaml");
  ASSERT_EQ(config.profiles.size(), 1u);
}

// Every message is one line, whatever yaml-cpp or the file put in it.
TEST(ConfigSchemaErrors, EveryMessageIsOneLine) {
  const std::string texts[] = {
      "a: \"\\\x01\"\n",
      "a: \"\\\r\"\n",
      "version: \"1\\n\"\n",
      "\"k\\ny\": 1\n",
      "profiles:\n  \"a\\nb\": {require: 5}\n",
      "version: !\"a\\nb\" 1\n",
      "version: !a%0Ab 1\n",
  };
  for (const std::string& text : texts) {
    try {
      polydev::parse_config(text, "dir/poly\ndev.yaml");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const polydev::config_error& failure) {
      const std::string message = failure.what();
      EXPECT_EQ(message.find_first_of("\n\r\x01"), std::string::npos) << message;
    }
  }
}

TEST(ConfigSchemaErrors, Profiles) {
  EXPECT_EQ(schema_error("profiles:\n  - ci\n", 2, 3),
            "dir/polydev.yaml:2:3: 'profiles' is a list; expected a mapping of profile names to "
            "profiles, such as 'ci: {PYOPENCL_TEST: portable}'");
  EXPECT_THAT(schema_error("profiles:\nexpectations: []\n", 1, 1),
              HasSubstr("'profiles' is nothing; expected a mapping"));
  EXPECT_EQ(schema_error("profiles:\n  ci: portable\n", 2, 7),
            "dir/polydev.yaml:2:7: profile 'ci' is 'portable'; expected a mapping of selector "
            "variables (PYOPENCL_TEST, PYOPENCL_CTX, CUDA_DEVICE, POLYDEV_DEVICES) and 'require'");
  EXPECT_EQ(schema_error("profiles:\n  ci:\n    PYOPENCL_TEST: a\n    PYOPENCL_TST: b\n", 4, 5),
            "dir/polydev.yaml:4:5: unknown key 'PYOPENCL_TST' in profile 'ci'; expected one of "
            "PYOPENCL_TEST, PYOPENCL_CTX, CUDA_DEVICE, POLYDEV_DEVICES, require");
  EXPECT_EQ(schema_error("profiles:\n  ci:\n    CUDA_DEVICE: [0, 1]\n", 3, 18),
            "dir/polydev.yaml:3:18: CUDA_DEVICE of profile 'ci' is a list; expected a selector "
            "string (write \"\" for an empty one)");
  EXPECT_EQ(schema_error("profiles:\n  ci:\n    PYOPENCL_TEST:\n", 3, 5),
            "dir/polydev.yaml:3:5: PYOPENCL_TEST of profile 'ci' is nothing; expected a selector "
            "string (write \"\" for an empty one)");
  EXPECT_EQ(schema_error("profiles:\n  ci: {require: opencl}\n", 2, 17),
            "dir/polydev.yaml:2:17: 'require' of profile 'ci' is 'opencl'; expected a list of "
            "backends, such as [opencl, cuda]");
  EXPECT_EQ(schema_error("profiles:\n  ci: {require: [opencl, hip]}\n", 2, 26),
            "dir/polydev.yaml:2:26: unknown backend 'hip' in 'require' of profile 'ci'; expected "
            "opencl or cuda");
  EXPECT_EQ(schema_error("profiles:\n  ci: {require: [cuda, CUDA]}\n", 2, 24),
            "dir/polydev.yaml:2:24: 'cuda' is listed twice in 'require' of profile 'ci'; expected "
            "each backend once");
  EXPECT_EQ(schema_error("profiles:\n  ci: {}\n  ci: {}\n", 3, 3),
            "dir/polydev.yaml:3:3: the key 'ci' appears twice in 'profiles'; expected each key "
            "once");
  EXPECT_EQ(schema_error("profiles:\n  \"\": {}\n", 2, 3),
            "dir/polydev.yaml:2:3: a profile name is empty; expected a name");
}

TEST(ConfigSchemaErrors, ExpectationShape) {
  EXPECT_EQ(schema_error("expectations:\n  test: A.b\n", 2, 3),
            "dir/polydev.yaml:2:3: 'expectations' is a mapping; expected a list of entries, such "
            "as '- {test: \"Saxpy.*\", skip: \"reason\"}'");
  EXPECT_EQ(schema_error("expectations:\n  - A.b\n", 2, 5),
            "dir/polydev.yaml:2:5: expectation 1 is 'A.b'; expected a mapping with 'test' and "
            "'skip' or 'xfail'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, skip: x}\n  - {skip: x}\n", 3, 5),
            "dir/polydev.yaml:3:5: expectation 2 has no 'test'; expected a test name pattern such "
            "as 'Saxpy.*'");
  EXPECT_EQ(schema_error("expectations:\n  - test: A.b\n    link: x\n", 2, 5),
            "dir/polydev.yaml:2:5: expectation 1 has neither 'skip' nor 'xfail'; expected one of "
            "them, with the reason as its value");
  EXPECT_EQ(schema_error("expectations:\n  - test: A.b\n    skip: x\n    xfail: y\n", 4, 5),
            "dir/polydev.yaml:4:5: expectation 1 has both 'skip' and 'xfail'; expected one of "
            "them");
  EXPECT_EQ(schema_error("expectations:\n  - test: A.b\n    skip: x\n    devices: y\n", 4, 5),
            "dir/polydev.yaml:4:5: unknown key 'devices' in expectation 1; expected one of test, "
            "device, driver, pocl, skip, xfail, link, strict");
  EXPECT_EQ(schema_error("expectations:\n  - test: A.b\n    skip: x\n    test: C.d\n", 4, 5),
            "dir/polydev.yaml:4:5: the key 'test' appears twice in expectation 1; expected each "
            "key once");
}

TEST(ConfigSchemaErrors, ExpectationValues) {
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, skip: \"\"}\n", 2, 23),
            "dir/polydev.yaml:2:23: 'skip' of expectation 1 is empty; expected the reason, in "
            "words");
  EXPECT_EQ(schema_error("expectations:\n  - test: A.b\n    xfail:\n", 3, 5),
            "dir/polydev.yaml:3:5: 'xfail' of expectation 1 is nothing; expected the reason, in "
            "words");
  EXPECT_EQ(schema_error("expectations:\n  - {test: [A.b], skip: x}\n", 2, 12),
            "dir/polydev.yaml:2:12: 'test' of expectation 1 is a list; expected a test name "
            "pattern such as 'Saxpy.*'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: Saxpy, skip: x}\n", 2, 12),
            "dir/polydev.yaml:2:12: 'test' of expectation 1 'Saxpy' can never match a test name "
            "'Suite.Test'; expected 'Saxpy.*' for every test of a suite, or 'Suite.Test'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: \"A.[b\", skip: x}\n", 2, 12),
            "dir/polydev.yaml:2:12: 'test' of expectation 1: pattern 'A.[b': the '[' at character "
            "3 has no closing ']'; expected a test name pattern such as 'Saxpy.*'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, device: \"[z-a]\", skip: x}\n", 2, 25),
            "dir/polydev.yaml:2:25: 'device' of expectation 1: pattern '[z-a]': the range 'z-a' "
            "is reversed; expected a device key or name pattern such as 'opencl_pocl_*'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, driver: \">=3.1,,<5\", skip: x}\n", 2, 25),
            "dir/polydev.yaml:2:25: 'driver' of expectation 1: clause 2 '' of '>=3.1,,<5': it is "
            "empty; expected a version range such as '>=3.1,<5'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, pocl: \"=>5\", skip: x}\n", 2, 23),
            "dir/polydev.yaml:2:23: 'pocl' of expectation 1: clause 1 '=>5' of '=>5': '=>5' is "
            "not a version (numbers separated by '.', after one of >=, >, <=, <, ==, !=); expected "
            "a version range such as '>=3.1,<5'");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, link: {}, skip: x}\n", 2, 23),
            "dir/polydev.yaml:2:23: 'link' of expectation 1 is a mapping; expected a link to the "
            "issue");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, xfail: x, strict: yes}\n", 2, 35),
            "dir/polydev.yaml:2:35: 'strict' of expectation 1 is 'yes'; expected true or false");
  EXPECT_EQ(schema_error("expectations:\n  - {test: A.b, xfail: x, strict: \"true\"}\n", 2, 35),
            "dir/polydev.yaml:2:35: 'strict' of expectation 1 is 'true'; expected true or false");
  EXPECT_EQ(schema_error("expectations:\n  - test: A.b\n    strict: false\n    skip: x\n", 3, 5),
            "dir/polydev.yaml:3:5: 'strict' in expectation 1, which skips; expected 'strict' with "
            "'xfail' only");
}

// --- matching ---

polydev::opencl::DeviceDescriptor pocl_device(const std::string& platform_version) {
  polydev::opencl::DeviceDescriptor descriptor;
  descriptor.platform.name = "Portable Computing Language";
  descriptor.platform.version = platform_version;
  descriptor.device.name = "pthread-skylake-avx512-AMD EPYC";
  descriptor.device.key = "opencl_pocl_pthread_skylake_avx512_amd_epyc_0";
  descriptor.device.driver_version = "3.1+debian";
  return descriptor;
}

polydev::Device as_device(const polydev::opencl::DeviceDescriptor& descriptor) {
  return polydev::device_of(descriptor.platform, descriptor.device);
}

polydev::Device nvidia_opencl_device() {
  polydev::opencl::DeviceDescriptor descriptor;
  descriptor.platform.name = "NVIDIA CUDA";
  descriptor.platform.version = "OpenCL 3.0 CUDA 13.0.88";
  descriptor.device.name = "NVIDIA H200";
  descriptor.device.key = "opencl_nvidia_h200_pci_00_06";
  descriptor.device.driver_version = "580.65.06";
  return polydev::device_of(descriptor.platform, descriptor.device);
}

TEST(ConfigDevice, OpenCLDriverAndPoCLRelease) {
  const polydev::Device pocl = as_device(
      pocl_device("OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, SPIR, LLVM 15.0.6"));
  EXPECT_EQ(pocl.key, "opencl_pocl_pthread_skylake_avx512_amd_epyc_0");
  EXPECT_EQ(pocl.name, "pthread-skylake-avx512-AMD EPYC");
  EXPECT_EQ(pocl.driver_version, "3.1+debian");
  EXPECT_EQ(pocl.pocl_version, "3.1+debian");
  EXPECT_EQ(as_device(pocl_device("OpenCL 3.0 PoCL 6.0")).pocl_version, "6.0");
  const polydev::Device nvidia = nvidia_opencl_device();
  EXPECT_EQ(nvidia.driver_version, "580.65.06");
  EXPECT_EQ(nvidia.pocl_version, std::nullopt);
}

TEST(ConfigDevice, CudaDriverVersion) {
  polydev::cuda::DeviceInfo device;
  device.name = "NVIDIA H200";
  device.key = "cuda_nvidia_h200_pci_00_07";
  EXPECT_EQ(polydev::device_of(device, 13000).driver_version, "13.0");
  EXPECT_EQ(polydev::device_of(device, 12040).driver_version, "12.4");
  EXPECT_EQ(polydev::device_of(device, 13000).key, "cuda_nvidia_h200_pci_00_07");
  EXPECT_EQ(polydev::device_of(device, 13000).pocl_version, std::nullopt);
}

constexpr const char* kMatching = R"(expectations:
  - {test: "Saxpy.MatchesHost", device: "*H200", skip: "by name"}
  - {test: "Saxpy.*", device: "opencl_pocl_*", pocl: "<3.1", skip: "old pocl"}
  - {test: "Saxpy.*", device: "opencl_pocl_*", pocl: ">=3.1", driver: ">=3", xfail: "new pocl"}
  - {test: "OpenCL/Scale.*/opencl_nvidia_*", xfail: "full name"}
  - {test: "Scale.*", device: "cuda_*", driver: "<13", skip: "old cuda"}
)";

TEST(ConfigMatching, TestDeviceAndVersions) {
  const polydev::Config config = polydev::parse_config(kMatching, "m.yaml");
  const polydev::Device pocl31 = as_device(pocl_device("OpenCL 3.0 PoCL 3.1"));
  const polydev::Device pocl30 = as_device(pocl_device("OpenCL 3.0 PoCL 3.0"));
  const polydev::Device nvidia = nvidia_opencl_device();
  polydev::cuda::DeviceInfo cuda_device;
  cuda_device.name = "NVIDIA H200";
  cuda_device.key = "cuda_nvidia_h200_pci_00_07";
  const auto line_of = [&](std::string_view suite, std::string_view test,
                           const polydev::Device& device) {
    const polydev::Expectation* found = polydev::find_expectation(config, suite, test, device);
    return found == nullptr ? 0 : found->line;
  };
  // The device name matches where the key does not; first match wins.
  EXPECT_EQ(line_of("OpenCL/Saxpy", "MatchesHost/" + nvidia.key, nvidia), 2);
  EXPECT_EQ(line_of("CUDA/Saxpy", "MatchesHost/k", polydev::device_of(cuda_device, 13000)), 2);
  EXPECT_EQ(line_of("OpenCL/Saxpy", "Other/" + nvidia.key, nvidia), 0);
  // The PoCL release and the driver version pick the entry.
  EXPECT_EQ(line_of("OpenCL/Saxpy", "MatchesHost/" + pocl30.key, pocl30), 3);
  EXPECT_EQ(line_of("OpenCL/Saxpy", "MatchesHost/" + pocl31.key, pocl31), 4);
  polydev::Device old_driver = pocl31;
  old_driver.driver_version = "2.9";
  EXPECT_EQ(line_of("OpenCL/Saxpy", "MatchesHost/k", old_driver), 0);
  // A PoCL range never matches a device of another platform.
  polydev::Device nvidia_named_pocl = nvidia;
  nvidia_named_pocl.key = "opencl_pocl_lookalike";
  nvidia_named_pocl.name = "lookalike";
  EXPECT_EQ(line_of("OpenCL/Saxpy", "Other/k", nvidia_named_pocl), 0);
  // The full name "OpenCL/Suite.Test/<key>" is matched too.
  EXPECT_EQ(line_of("OpenCL/Scale", "Big/" + nvidia.key, nvidia), 5);
  EXPECT_EQ(line_of("OpenCL/Scale", "Big/" + pocl31.key, pocl31), 0);
  // CUDA's driver version is the CUDA version.
  EXPECT_EQ(line_of("CUDA/Scale", "Big/k", polydev::device_of(cuda_device, 12040)), 6);
  EXPECT_EQ(line_of("CUDA/Scale", "Big/k", polydev::device_of(cuda_device, 13000)), 0);
}

// --- finding the file and the profile ---

class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("polydev_config_test_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(root_ / "a" / "b");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  fs::path root_;
};

TEST_F(ConfigFiles, PolydevConfigNamesTheFile) {
  const fs::path file = write(root_ / "custom.yaml", "profiles: {}\n");
  EXPECT_EQ(polydev::find_config_file(file.string(), root_ / "a"), file);
  write(root_ / "a" / "polydev.yaml", "");
  EXPECT_EQ(polydev::find_config_file(file.string(), root_ / "a"), file)
      << "POLYDEV_CONFIG wins over the walk";
  EXPECT_EQ(polydev::find_config_file(std::string(), root_ / "a"), std::nullopt)
      << "empty: no configuration";
}

TEST_F(ConfigFiles, PolydevConfigThatIsNoFileIsAnError) {
  const std::string missing = (root_ / "missing.yaml").string();
  try {
    polydev::find_config_file(missing, root_);
    FAIL() << "accepted a missing file";
  } catch (const polydev::error& failure) {
    EXPECT_EQ(std::string(failure.what()),
              "POLYDEV_CONFIG='" + missing +
                  "': no such file; expected the path of a polydev.yaml file, or POLYDEV_CONFIG "
                  "empty for no configuration");
  }
  try {
    polydev::find_config_file(root_.string(), root_);
    FAIL() << "accepted a directory";
  } catch (const polydev::error& failure) {
    EXPECT_EQ(std::string(failure.what()), "POLYDEV_CONFIG='" + root_.string() +
                                               "' is a directory; expected a file, such as " +
                                               (root_ / "polydev.yaml").string());
  }
}

TEST_F(ConfigFiles, WalksUpFromTheStart) {
  const fs::path file = write(root_ / "polydev.yaml", "");
  EXPECT_EQ(polydev::find_config_file(std::nullopt, root_ / "a" / "b"), file);
  const fs::path nearer = write(root_ / "a" / "polydev.yaml", "");
  EXPECT_EQ(polydev::find_config_file(std::nullopt, root_ / "a" / "b"), nearer);
  fs::create_directories(root_ / "a" / "b" / "polydev.yaml");
  EXPECT_EQ(polydev::find_config_file(std::nullopt, root_ / "a" / "b"), nearer)
      << "a directory called polydev.yaml is not the file";
}

TEST_F(ConfigFiles, NoFileIsNoConfiguration) {
  for (fs::path above = root_.parent_path(); !above.empty(); above = above.parent_path()) {
    if (fs::exists(above / "polydev.yaml"))
      GTEST_SKIP() << above / "polydev.yaml"
                   << " exists";
    if (above == above.parent_path()) break;
  }
  EXPECT_EQ(polydev::find_config_file(std::nullopt, root_ / "a"), std::nullopt);
  const polydev::Configuration configuration = polydev::configure(std::nullopt, "", root_ / "a");
  EXPECT_FALSE(configuration.config);
  EXPECT_FALSE(configuration.profile);
}

TEST_F(ConfigFiles, UnreadableFileIsAnError) {
  EXPECT_THROW(polydev::load_config_file(root_ / "none.yaml"), polydev::error);
  try {
    polydev::load_config_file(root_ / "none.yaml");
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), StartsWith("cannot read the configuration file " +
                                           (root_ / "none.yaml").string() + ": "));
  }
}

// Every kind of file that is not a readable regular file is an error naming the path and what it
// is: none is skipped for a file further up, none hangs or fills memory.
TEST_F(ConfigFiles, SpecialFilesAreErrorsNamingThePathAndWhatItIs) {
  const fs::path fifo = root_ / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path dangling = root_ / "dangling.yaml";
  fs::create_symlink(root_ / "gone.yaml", dangling);
  const fs::path loop = root_ / "loop.yaml";
  fs::create_symlink(root_ / "loop2.yaml", loop);
  fs::create_symlink(loop, root_ / "loop2.yaml");
  const fs::path big = write(root_ / "big.yaml", "");
  fs::resize_file(big, 200u * 1000 * 1000);  // sparse: costs no disk
  const std::pair<std::string, std::string> cases[] = {
      {fifo.string(), ": a FIFO, not a regular file"},
      {"/dev/zero", ": a character device, not a regular file"},
      {dangling.string(), ": a dangling symbolic link (its target does not exist)"},
      {loop.string(), ": a symbolic link loop"},
      {big.string(), ": larger than the limit of 1048576 bytes"},
  };
  for (const auto& [path, what] : cases) {
    auto load = std::async(std::launch::async, [&, config = path]() -> std::string {
      try {
        polydev::configure(config, std::nullopt, root_);
        return "accepted";
      } catch (const polydev::error& failure) {
        return failure.what();
      }
    });
    ASSERT_EQ(load.wait_for(std::chrono::seconds(10)), std::future_status::ready)
        << "reading " << path << " hangs";
    EXPECT_EQ(load.get(), "cannot read the configuration file " + path + what);
  }
}

TEST_F(ConfigFiles, AFoundPolydevYamlThatIsNoFileIsAnErrorNotSkipped) {
  write(root_ / "polydev.yaml", "profiles: {ci: {}}\n");
  const fs::path nearer = root_ / "a" / "polydev.yaml";
  ASSERT_EQ(::mkfifo(nearer.c_str(), 0600), 0);
  EXPECT_EQ(polydev::find_config_file(std::nullopt, root_ / "a" / "b"), nearer);
  try {
    polydev::configure(std::nullopt, "ci", root_ / "a" / "b");
    FAIL() << "a FIFO polydev.yaml was passed over";
  } catch (const polydev::error& failure) {
    EXPECT_EQ(std::string(failure.what()), "cannot read the configuration file " + nearer.string() +
                                               ": a FIFO, not a regular file");
  }
  fs::remove(nearer);
  fs::create_symlink(root_ / "a" / "gone.yaml", nearer);
  EXPECT_EQ(polydev::find_config_file(std::nullopt, root_ / "a" / "b"), nearer)
      << "a dangling link is found, and reported by the reader";
}

TEST_F(ConfigFiles, SchemaErrorNamesTheFile) {
  const fs::path file = write(root_ / "polydev.yaml", "profiles:\n  ci: {PYOPENCL: x}\n");
  try {
    polydev::configure(std::nullopt, std::nullopt, root_);
    FAIL() << "accepted a schema error";
  } catch (const polydev::config_error& failure) {
    EXPECT_THAT(failure.what(), StartsWith(file.string() + ":2:8: unknown key 'PYOPENCL'"));
  }
}

TEST_F(ConfigFiles, ProfileIsSelectedByName) {
  const fs::path file = write(root_ / "polydev.yaml",
                              "profiles:\n  ci: {PYOPENCL_TEST: portable, require: [cuda]}\n"
                              "  gpu: {CUDA_DEVICE: '1'}\n");
  const polydev::Configuration configuration = polydev::configure(std::nullopt, "ci", root_ / "a");
  ASSERT_TRUE(configuration.config);
  EXPECT_EQ(configuration.config->file, file.string());
  ASSERT_TRUE(configuration.profile);
  EXPECT_EQ(configuration.profile->name, "ci");
  EXPECT_THAT(
      polydev::profile_environment(*configuration.profile),
      ElementsAre(Pair("PYOPENCL_TEST", "portable"), Pair("POLYDEV_REQUIRE_DEVICES", "cuda")));
  EXPECT_FALSE(polydev::configure(std::nullopt, "", root_).profile) << "empty: no profile";
  EXPECT_FALSE(polydev::configure(std::nullopt, std::nullopt, root_).profile);
}

TEST_F(ConfigFiles, UnknownProfileListsTheKnownOnes) {
  const fs::path file = write(root_ / "polydev.yaml", "profiles:\n  ci: {}\n  gpu: {}\n");
  try {
    polydev::configure(std::nullopt, "nightly", root_);
    FAIL() << "accepted an unknown profile";
  } catch (const polydev::error& failure) {
    EXPECT_EQ(std::string(failure.what()), "POLYDEV_PROFILE='nightly': " + file.string() +
                                               " defines no such profile; expected one of: ci, "
                                               "gpu");
  }
  write(root_ / "polydev.yaml", "expectations: []\n");
  try {
    polydev::configure(std::nullopt, "ci", root_);
    FAIL() << "accepted a profile of a file without profiles";
  } catch (const polydev::error& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("defines no such profile; expected a profile under "
                                          "'profiles:' (it defines none)"));
  }
}

TEST_F(ConfigFiles, ProfileWithoutFileIsAnError) {
  try {
    polydev::configure(std::string(), "ci", root_);
    FAIL() << "accepted a profile without a file";
  } catch (const polydev::error& failure) {
    EXPECT_EQ(std::string(failure.what()),
              "POLYDEV_PROFILE='ci', but there is no configuration file: POLYDEV_CONFIG is empty; "
              "expected a polydev.yaml that defines the profile, or POLYDEV_CONFIG naming one");
  }
}

}  // namespace
