#pragma once

/// @file
/// `polydev.yaml`: named selector profiles and expectations (known problems as data). The schema,
/// with examples, is in docs/configuration.md.
///
/// The file is `POLYDEV_CONFIG` when that is set (empty: no file), else the first `polydev.yaml`
/// found in the working directory or one of its parents; no file is no configuration. Parsing and
/// matching are pure functions; `process_config()` is what test binaries and the `polydev` tool
/// use.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polydev/cuda/inventory.hpp"
#include "polydev/device.hpp"
#include "polydev/error.hpp"
#include "polydev/opencl/inventory.hpp"

namespace polydev {

/// The configuration file does not follow the schema (or is not YAML). `what()` is
/// "<file>:<line>:<column>: <what was wrong>; expected <what would be right>", with 1-based line
/// and column of the offending node.
class config_error : public error {
 public:
  config_error(std::string file, int line, int column, const std::string& message);

  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  int column() const noexcept { return column_; }

 private:
  std::string file_;
  int line_;
  int column_;
};

/// A shell-style pattern: `*` any run of characters, `?` one character, `[abc]`, `[a-z]` and
/// `[!abc]` one character of (or not of) a set, `\` takes the next character literally. Matching
/// is case-sensitive and covers the whole text.
class Glob {
 public:
  /// The pattern `*`.
  Glob();
  /// @throws polydev::error for an empty pattern, a `[` without its `]`, a reversed range such as
  /// `[z-a]` or a trailing `\`, saying which.
  explicit Glob(std::string pattern);

  /// A pattern of GoogleTest's `--gtest_filter` (one of its `:`-separated parts): only `*` (any
  /// text) and `?` (one character) are special, every other character (`[` and `\` too) stands
  /// for itself, and the empty pattern matches the empty text only, as in GoogleTest. Never
  /// throws.
  static Glob gtest_filter_pattern(std::string pattern);

  /// Linear in `text` for a pattern with one `*`, and never exponential with more.
  bool matches(std::string_view text) const;
  const std::string& text() const noexcept { return text_; }

 private:
  struct Token {
    enum class Kind { literal, any, star, set } kind = Kind::literal;
    char literal = 0;
    bool negated = false;
    std::vector<std::pair<char, char>> ranges;  ///< inclusive character ranges of a set
  };
  static bool matches_one(const Token& token, char c);

  std::string text_;
  std::vector<Token> tokens_;
};

/// A version range: clauses separated by `,`, all of which must hold. A clause is an operator
/// (`>=`, `>`, `<=`, `<`, `==`, `!=`; none means `==`) and a version of numbers separated by `.`.
/// Versions compare number by number, missing numbers counting as 0 (`5` is `5.0`); `==V` holds
/// for every version that begins with V's numbers (`==3.1` holds for 3.1, 3.1.0 and 3.1.4), `!=V`
/// for every other.
class VersionRange {
 public:
  /// @throws polydev::error naming the clause and what is wrong with it.
  explicit VersionRange(std::string text);

  /// Whether the version that `version_text` begins with (see `leading_version`) is in the range;
  /// false when it holds no version.
  bool contains(std::string_view version_text) const;
  bool contains(const std::vector<unsigned long>& version) const;
  const std::string& text() const noexcept { return text_; }

  /// The first run of numbers separated by `.` in `text`: 3.1 of "3.1+debian", 550.54.15 of
  /// "550.54.15"; nothing when `text` has no digit.
  static std::optional<std::vector<unsigned long>> leading_version(std::string_view text);

 private:
  enum class Op { eq, ne, lt, le, gt, ge };
  struct Clause {
    Op op = Op::eq;
    std::vector<unsigned long> version;
  };

  std::string text_;
  std::vector<Clause> clauses_;
};

/// A named set of defaults for the selector variables (`POLYDEV_PROFILE=<name>`).
struct Profile {
  std::string name;
  /// Variable and value, in file order: `PYOPENCL_TEST`, `PYOPENCL_CTX`, `CUDA_DEVICE` or
  /// `POLYDEV_DEVICES`.
  std::vector<std::pair<std::string, std::string>> variables;
  std::vector<std::string> require;  ///< backends that must have a device: "opencl", "cuda"
  int line = 0;                      ///< where the profile is written (1-based)
};

/// What an expectation does to the tests it matches.
enum class ExpectationKind {
  skip,   ///< report SKIPPED without running the test
  xfail,  ///< run the test; a failure is expected (reported SKIPPED), a pass is not
};

/// One entry of `expectations`: a test pattern, a device pattern, optional driver and PoCL version
/// ranges, and what to do with the tests that match all of them.
struct Expectation {
  Glob test;    ///< "Suite.Test", or the full name "OpenCL/Suite.Test/<device key>"
  Glob device;  ///< device key or device name; `*` when not given
  std::optional<VersionRange> driver;  ///< the device's driver version (`Device::driver_version`)
  std::optional<VersionRange> pocl;    ///< the PoCL release; set means "PoCL devices only"
  ExpectationKind kind = ExpectationKind::skip;
  std::string reason;
  std::string link;    ///< optional: an issue or bug report
  bool strict = true;  ///< xfail only: an unexpected pass fails the test
  int line = 0;        ///< where the entry begins (1-based)
};

/// A parsed configuration file.
struct Config {
  std::string file;  ///< the name it was parsed under, used in messages
  std::vector<Profile> profiles;
  std::vector<Expectation> expectations;

  /// The profile called `name`, or null.
  const Profile* find_profile(std::string_view name) const;
};

/// The most bytes a configuration file may have. A real one is a few kilobytes; yaml-cpp's tree
/// takes some hundred times its text in memory, so the 64 MiB cap of other text files would let a
/// stray file cost gigabytes in every test process.
inline constexpr std::size_t kConfigFileLimit = 1024 * 1024;

/// The most YAML nodes (keys, values, list items) a configuration may hold: some ten thousand
/// expectations, checked while streaming the text, before any tree is built.
inline constexpr std::size_t kConfigNodeLimit = 50000;

/// Parses the text of a configuration file; `file_name` is used in error messages only. Empty text
/// is an empty configuration. Unknown keys, wrong types, duplicate keys, bad patterns and bad
/// version ranges are errors, and so are a text over `kConfigFileLimit` bytes, more than
/// `kConfigNodeLimit` nodes and a tag other than YAML's standard ones. Every message is one line.
/// @throws polydev::config_error with file, line and column.
Config parse_config(const std::string& text, const std::string& file_name);

/// Reads and parses a configuration file.
/// @throws polydev::error when the file cannot be read, polydev::config_error as `parse_config`.
Config load_config_file(const std::filesystem::path& path);

/// The configuration file to use: `polydev_config` (the value of `POLYDEV_CONFIG`) when set, none
/// when it is set but empty, else the first `polydev.yaml` in `start` or one of its parents.
/// @throws polydev::error when `polydev_config` names no file, or names a directory.
std::optional<std::filesystem::path> find_config_file(
    const std::optional<std::string>& polydev_config, const std::filesystem::path& start);

/// The configuration and the selected profile.
struct Configuration {
  std::optional<Config> config;    ///< nothing when there is no configuration file
  std::optional<Profile> profile;  ///< the profile `POLYDEV_PROFILE` names
};

/// Finds and loads the configuration (see `find_config_file`) and selects the profile that
/// `polydev_profile` (the value of `POLYDEV_PROFILE`; unset or empty: none) names.
/// @throws polydev::error when the file is missing or unreadable, when the profile is not defined
/// (listing those that are), or when a profile is asked for and there is no file;
/// polydev::config_error when the file does not follow the schema.
Configuration configure(const std::optional<std::string>& polydev_config,
                        const std::optional<std::string>& polydev_profile,
                        const std::filesystem::path& start);

/// The environment variables a profile gives defaults to, with their values; `require` becomes
/// `POLYDEV_REQUIRE_DEVICES`.
std::vector<std::pair<std::string, std::string>> profile_environment(const Profile& profile);

/// The configuration of this process.
struct ProcessConfig {
  std::optional<Config> config;  ///< nothing without a file, or when it cannot be used
  std::string profile;           ///< the name of the selected profile; empty for none
  /// The profile's defaults for the selector variables (`profile_environment`). They are never
  /// written to the environment: `process_selection_inputs()` (selection.hpp) applies them where
  /// a variable is unset.
  std::vector<std::pair<std::string, std::string>> profile_variables;
  std::string error;  ///< why the configuration cannot be used; empty when it can
};

/// `configure()` with `POLYDEV_CONFIG`, `POLYDEV_PROFILE` and the working directory, once per
/// process (thread-safe). Never throws: an error is kept in `error`.
const ProcessConfig& process_config();

/// Whether the device conditions of `expectation` hold for `device`: its `device` pattern matches
/// the key or the name, its `driver` range holds the driver version, and its `pocl` range, when
/// given, the PoCL release of a PoCL device. Its test pattern is not looked at.
bool applies_to_device(const Expectation& expectation, const Device& device);

/// The first expectation (in file order) that matches a test on a device, or null. `suite` and
/// `test` are GoogleTest's names of a parametrized test instance ("OpenCL/Saxpy" and
/// "MatchesHost/<key>"): an expectation's test pattern matches "Saxpy.MatchesHost" or the full name
/// "OpenCL/Saxpy.MatchesHost/<key>".
const Expectation* find_expectation(const Config& config, std::string_view suite,
                                    std::string_view test, const Device& device);

}  // namespace polydev
