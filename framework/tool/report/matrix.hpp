#pragma once

// The results of one or more reports (GoogleTest XML, CTest JUnit) arranged as a matrix test x
// device, with the tests that deserve a look flagged. What `polydev report` prints as text, JSON
// and HTML.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "results.hpp"

namespace polydev::report {

/// What a column holds.
enum class ColumnKind {
  host,       ///< tests that are not parametrized over devices (no polydev device key)
  device,     ///< one device, by its stable key
  no_device,  ///< placeholder instances: the suite had no device (skip) or a selector error (fail)
};

struct Column {
  ColumnKind kind = ColumnKind::device;
  std::string id;        ///< the device key; "host"; "no_device"
  std::string name;      ///< polydev_device_name of the device's results
  std::string platform;  ///< polydev_platform
  std::string driver;    ///< polydev_driver, or "compute capability X.Y" for CUDA devices
};

/// Every result of one test on one column. Usually one; several when reports overlap (the same
/// test on the same device key in two files, e.g. two CI runners with identical devices, or a
/// rerun) or CTest says more than GoogleTest's report: the cell then shows the worst of them
/// (`severity`) and keeps them all.
struct Cell {
  Outcome outcome = Outcome::pass;  ///< the worst of `results`
  std::vector<CaseResult> results;  ///< in the order read
};

struct Row {
  std::string test;                   ///< "OpenCL/Saxpy.MatchesHostResult", "Suite.Test"
  std::map<std::size_t, Cell> cells;  ///< by column index; a missing cell: not run there
  /// It has host or device results and all of them are skips.
  bool skipped_everywhere = false;
  /// It has results only in the "no device" column: it never ran on a device or on the host.
  bool ran_on_no_device = false;
};

struct Matrix {
  /// "host" first (when present), then devices ordered by key, then "no device" (when present).
  std::vector<Column> columns;
  std::vector<Row> rows;  ///< in the order first seen
  std::size_t result_count = 0;
  /// Overlapping results, one line per device cell that has several: "TEST on DEVICE: N results
  /// (FILE:LINE, ...); showing the worst, OUTCOME". Several host results or placeholders of one
  /// test (one per device shard or machine) are no overlap.
  std::vector<std::string> warnings;

  /// Cells whose (worst) outcome is `outcome`.
  std::size_t count(Outcome outcome) const;
  std::size_t skipped_everywhere() const;
  std::size_t ran_on_no_device() const;
};

/// Arranges results, e.g. the concatenated results of several shards' reports, into a matrix.
///
/// A test case is a device instance when it has the property `polydev_device_key` and its name
/// ends in "/<that key>", or when its name ends in "/<key>" for a key that another test case
/// recorded; its row is "<suite>.<name without the key>". A CTest entry, which has no properties,
/// is a device instance when its name ends in "/opencl_..." or "/cuda_..." (letters, digits and
/// '_'), the names polydev gives devices. A name ending in a placeholder ("/no_opencl_device",
/// "/opencl_selector_error", ...) goes to the "no device" column. Anything else is a host test,
/// its row the full "<suite>.<name>".
///
/// A cell with both a CTest entry and GoogleTest results (the entry's run wrote the XML) keeps the
/// entry only where it disagrees on whether the test failed: CTest failed it after a report that
/// passed (a crash at exit, a timeout). Only several results of one source are an overlap.
Matrix build_matrix(const std::vector<CaseResult>& results);

}  // namespace polydev::report
