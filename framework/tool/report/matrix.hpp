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

/// The machine of a device column whose results record none (CTest's file, a report of a polydev
/// before `polydev_host`) in a matrix of several machines.
inline constexpr const char* kUnknownHost = "?";

struct Column {
  ColumnKind kind = ColumnKind::device;
  /// The device key; "host"; "no_device". "<machine>/<key>" when the matrix is `by_host`.
  std::string id;
  std::string name;      ///< polydev_device_name of the device's results
  std::string platform;  ///< polydev_platform
  std::string driver;    ///< polydev_driver, or "compute capability X.Y" for CUDA devices
  /// The device's machine (`polydev_host`, or kUnknownHost) when the matrix is `by_host`; else
  /// empty.
  std::string host;
  std::string key;  ///< the device key, for a device column; else empty
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
  /// "host" first (when present), then devices ordered by key (by machine, then key, when
  /// `by_host`), then "no device" (when present).
  std::vector<Column> columns;
  /// The results name more than one machine (`polydev_host`): a device key is unique on one
  /// machine only, so a device column is a machine and a key.
  bool by_host = false;
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
/// Results of several machines: when the results name more than one `polydev_host`, a device
/// column is a machine and a key, so that two machines of one kind (whose devices have the same
/// keys) keep their cells apart. A result without the property takes the one machine that the
/// other results of its file name (an instance that failed before its fixture recorded anything),
/// else kUnknownHost. Host tests and placeholders stay in one column each: every machine runs them.
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
