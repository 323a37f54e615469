#pragma once

// Writing the files polydev is told to write (a report page, a CTest resource spec): the path may
// name a FIFO (opening it for writing would wait for a reader for ever), a device, a folder or the
// file of a run that is still read. Only a regular file, or a path where nothing exists yet, is
// written, and it is replaced whole or not at all.

#include <optional>
#include <string>

namespace polydev::detail {

/// Writes `text` to `path` through a temporary file in the same folder that is renamed to it, so
/// that a failed write leaves `path` as it was and no partial file behind. A symbolic link keeps
/// pointing to the file it names, which is replaced; the file keeps its mode, a new one gets 0666
/// less the umask. A path that exists as anything but a regular file (or a link to one) is not
/// touched. Nothing on success; otherwise why not: "a FIFO, not a regular file", or strerror's
/// words.
std::optional<std::string> replace_file(const std::string& path, const std::string& text);

/// What an existing `path` that is not a regular file is ("a FIFO", "a folder", "a device", "a
/// socket", "a symbolic link to nothing", "a symbolic link loop"), or nothing (a regular file, or
/// nothing there).
std::optional<std::string> not_a_regular_file(const std::string& path);

}  // namespace polydev::detail
