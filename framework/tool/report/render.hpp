#pragma once

// The three forms of a report matrix: a text table for terminals and CI logs, JSON for scripts and
// a self-contained HTML page (inline CSS, no scripts, nothing fetched) for people.

#include <cstddef>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace polydev::report {

/// How the HTML page links the files that messages name ("FILE:LINE"): a polydev.yaml entry, the
/// line of a test. Without either setting locations are text.
struct SourceLinks {
  /// The absolute folder that the page is written to: a file named by an absolute path is linked
  /// by its path relative to it, which opens where the page was written and from a CI artifact
  /// that keeps the files' places relative to the page. A browser opens such a file at its
  /// start (a file:// URL has no line anchors).
  std::string page_folder;
  /// A URL under which the files of `root` are browsed ("https://github.com/o/r/blob/SHA/"): a
  /// file under `root` is linked as `url` + its path relative to `root` + "#L<line>", the line
  /// anchor of GitHub's and GitLab's file views. Empty: none; it wins over `page_folder`.
  std::string url;
  std::string root;  ///< absolute; used with `url`
};

/// Column legend (device keys with name, platform and driver), the matrix with one symbol per cell
/// (pass, FAIL, skip, xfail, XPASS, '.' not run there, '+' several results), flags at the end of
/// their rows, a summary, then every failure and unexpected pass (each message once, after the
/// tests and devices that have it), every reason of a skip or an expected failure once with its
/// count and where it was recorded, and the flagged tests with a few reasons. `files` are the
/// reports read.
std::string format_text(const Matrix& matrix, const std::vector<std::string>& files);

/// {"files": [...], "columns": [{"id", "kind", "name", "platform", "driver"}],
///  "tests": [{"name", "skipped_on_every_device", "ran_on_no_device",
///             "cells": [{"column", "outcome", "results": [{"outcome", "message", "file",
///                                                        "line"}]}]}],
///  "summary": {"results", "pass", "fail", "skip", "xfail", "xpass", "skipped_on_every_device",
///              "ran_on_no_device"},
///  "warnings": [...]}
/// A device column of a matrix `by_host` also has "host" and "key"; its "id" is "HOST/KEY".
std::string format_json(const Matrix& matrix, const std::vector<std::string>& files);

/// A page with the files read (folded), the summary (its badges link to the sections that list
/// what they count), the matrix (devices of one name numbered among themselves, those of several
/// machines under a row of machines; colored cells whose tooltips hold the messages and that link
/// to their message below, flagged rows highlighted), the failures and the reasons of skips and
/// expected failures, each message once with its count, where it was recorded (linked as `links`
/// says) and the tests and devices that have it. Every text from the reports is escaped.
std::string format_html(const Matrix& matrix, const std::vector<std::string>& files,
                        const SourceLinks& links = {});

/// The link (an href, not yet HTML-escaped) of `location` ("FILE:LINE", "FILE") as `links` says,
/// or "" when there is none ("unknown file", a relative path, a file outside `root`).
std::string source_link(const std::string& location, const SourceLinks& links);

/// What an unexpected pass without a message of its own says.
inline constexpr const char* kUnexpectedPass =
    "passed, but an xfail expectation says it fails: if it is fixed, remove the expectation";

/// What an unexpected pass without a message of its own says when it records where its
/// expectation is (`source`, "FILE:LINE" from `polydev_expectation_source`); kUnexpectedPass when
/// `source` is empty.
std::string unexpected_pass(const std::string& source);

/// `message` without the "FILE:LINE" line that GoogleTest puts first, and without the "Failed"
/// line of FAIL() and GTEST_FAIL(): what a person wants to read in a cell.
std::string readable_message(const std::string& message);

/// The "FILE:LINE" (and "unknown file") lines of `message` that `readable_message` leaves out, in
/// order, each once.
std::vector<std::string> message_locations(const std::string& message);

/// The places of a result: the `message_locations` of its message, then the place of its
/// expectation (`polydev_expectation_source`, "FILE:LINE") when it records one that they lack.
std::vector<std::string> result_locations(const CaseResult& result);

/// Where a message was found: a result of the matrix.
struct Occurrence {
  std::size_t row = 0;     ///< index into Matrix::rows
  std::size_t column = 0;  ///< index into Matrix::columns
  const CaseResult* result = nullptr;
};

/// One message and every result that has it: a selector error of every test of a suite, the
/// reason of a polydev.yaml entry, a capability that a device lacks.
struct MessageGroup {
  Outcome outcome = Outcome::fail;
  /// readable_message (unexpected_pass for a bare XPASS); where the results' messages differ
  /// by their devices' keys or names, with those as kDeviceKey and kDeviceName.
  std::string message;
  std::vector<std::string> locations;   ///< result_locations of its results, each once
  std::vector<Occurrence> occurrences;  ///< in the matrix's order: rows, columns, results
};

/// What a group's message shows in place of each device's key and name.
inline constexpr const char* kDeviceKey = "<device key>";
inline constexpr const char* kDeviceName = "<device name>";

/// The results of the matrix whose outcome is one of `outcomes`, grouped by outcome and readable
/// message, in the order of each group's first result. Messages that differ only by the key or
/// name of their device (as whole words: "opencl_a_0 has no fp64", "opencl_b_0 has no fp64") are
/// one group: one reason is not listed once per device.
std::vector<MessageGroup> group_messages(const Matrix& matrix,
                                         const std::vector<Outcome>& outcomes);

}  // namespace polydev::report
