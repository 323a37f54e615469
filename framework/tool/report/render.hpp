#pragma once

// The three forms of a report matrix: a text table for terminals and CI logs, JSON for scripts and
// a self-contained HTML page (inline CSS, no scripts, nothing fetched) for people.

#include <string>
#include <vector>

#include "matrix.hpp"

namespace polydev::report {

/// Column legend (device keys with name, platform and driver), the matrix with one symbol per cell
/// (pass, FAIL, skip, xfail, XPASS, '.' not run there, '+' several results), flags at the end of
/// their rows, a summary, then every failure and unexpected pass with its message and the reasons
/// of tests skipped on every device. `files` are the reports read.
std::string format_text(const Matrix& matrix, const std::vector<std::string>& files);

/// {"files": [...], "columns": [{"id", "kind", "name", "platform", "driver"}],
///  "tests": [{"name", "skipped_on_every_device", "ran_on_no_device",
///             "cells": [{"column", "outcome", "results": [{"outcome", "message", "file",
///                                                        "line"}]}]}],
///  "summary": {"results", "pass", "fail", "skip", "xfail", "xpass", "skipped_on_every_device",
///              "ran_on_no_device"},
///  "warnings": [...]}
std::string format_json(const Matrix& matrix, const std::vector<std::string>& files);

/// A page with the summary, the column legend, the matrix (colored cells whose tooltips hold the
/// messages, flagged rows highlighted) and the failures with their messages. Every text from the
/// reports is escaped.
std::string format_html(const Matrix& matrix, const std::vector<std::string>& files);

/// What an unexpected pass without a message of its own says.
inline constexpr const char* kUnexpectedPass =
    "passed, but an xfail expectation says it fails: if it is fixed, remove the expectation";

/// `message` without the "FILE:LINE" line that GoogleTest puts first, and without the "Failed"
/// line of FAIL() and GTEST_FAIL(): what a person wants to read in a cell.
std::string readable_message(const std::string& message);

}  // namespace polydev::report
