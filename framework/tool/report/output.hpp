#pragma once

// The files that `polydev report` writes (the --html page): never one of its inputs, never
// anything but a regular file, and never left empty or half-written.

#include <optional>
#include <string>
#include <vector>

namespace polydev::report {

/// Why `option` `output` may not be written, or nothing. It may not be a file of `files` (the
/// reports read; the same device and inode, so also through a symbolic link or another path),
/// nor an ".xml" file below a folder of `inputs` (a later report of that folder would read it),
/// nor exist as anything but a regular file (a FIFO would block the writer, a device would take
/// the page): what does not exist yet is created.
std::optional<std::string> output_problem(const std::string& option, const std::string& output,
                                          const std::vector<std::string>& inputs,
                                          const std::vector<std::string>& files);

/// Writes `text` to `path` through a temporary file in the same folder that is renamed to it,
/// so that a failed write leaves `path` as it was and no partial file behind. A symbolic link
/// keeps pointing to the file it names, which is replaced. The file gets the mode of the file it
/// replaces, or 0666 less the umask. Nothing on success; otherwise why not (strerror's words).
std::optional<std::string> write_output(const std::string& path, const std::string& text);

}  // namespace polydev::report
