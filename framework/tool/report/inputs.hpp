#pragma once

// The files that `polydev report` reads: those named, and the reports in the folders named (CI
// artifacts, gtest_discover_tests' XML_OUTPUT_DIR).

#include <cstddef>
#include <string>
#include <vector>

namespace polydev::report {

/// At most this many files are taken from the folders named: more is a folder that is not a
/// folder of reports (a home directory, a build tree's root).
inline constexpr std::size_t kMaxFolderFiles = 100000;

/// `paths` with each folder replaced by the files below it (at any depth, symbolic links to
/// folders not followed) whose names end in ".xml", sorted by path. gtest_discover_tests'
/// XML_OUTPUT_DIR nests a report two levels deep: DIR/OpenCL/Saxpy.Runs/opencl_pocl_cpu_0.xml.
/// Anything else is kept as it is, for the reader to read or refuse.
/// @throws polydev::error for a folder that cannot be read, that holds no ".xml" file, or whose
/// files together with those of the other folders are more than `limit`.
std::vector<std::string> report_files(const std::vector<std::string>& paths,
                                      std::size_t limit = kMaxFolderFiles);

}  // namespace polydev::report
