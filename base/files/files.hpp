// The daemon's own files, opened and replaced safely: bounded reads of regular files only, and
// atomic, durable replacement (temp file in the same directory, fsync, rename, fsync of the
// directory). Used for the state directory (daemon/aging) and the textfile output. All calls go
// through a FileSyscalls seam so tests can inject the errno of a full or read-only file system.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/files/file_syscalls.hpp"

namespace xcvr::files {

// "No space left on device (ENOSPC)": errno text with its symbolic name, for log lines.
std::string errno_text(int err);

// "a directory", "a FIFO", "a character device", ...: what a file that is not regular is.
const char* file_type_name(mode_t mode);

// "<what> <path> does not exist" when stat(2) says so (ENOENT, ENOTDIR); nullopt when it exists
// or cannot be told (EACCES: the read that follows says why). For transports' missing().
std::optional<std::string> missing_path(const std::string& path, std::string_view what,
                                        FileSyscalls& sys = real_file_syscalls());

struct FileError {
  int err = 0;          // errno of the failed call (0: not an OS error)
  std::string message;  // names the path and the errno; "" when the operation succeeded
  bool ok() const { return message.empty(); }
};

enum class ReadStatus { Ok, Missing, NotRegular, TooLarge, Failed };

struct ReadResult {
  ReadStatus status = ReadStatus::Failed;
  std::string data;     // the whole file when Ok
  uint64_t size = 0;    // st_size (TooLarge: how large it is)
  FileError error;      // set unless Ok or Missing
};

// Reads `path` whole if it is a regular file of at most `max_bytes`. Directories, FIFOs, sockets
// and devices are refused without blocking (O_NONBLOCK); a file above the cap is refused before
// any of it is read, and so is one that grows past the cap while it is read.
ReadResult read_regular_file(const std::string& path, uint64_t max_bytes,
                             FileSyscalls& sys = real_file_syscalls());

// Replaces `path` with `content` (file mode `mode`). On failure the old file, if any, is left as
// it was and the temporary file is removed. A failing fsync of the directory after the rename is
// reported too: the new content is in place but may not survive a power loss.
FileError write_file_atomic(const std::string& path, std::string_view content, mode_t mode,
                            FileSyscalls& sys = real_file_syscalls());

// Renames `path` to `path + suffix` (then `-2`, `-3`, ... if that name is taken), never
// replacing a file. Returns the new name, or "" with `error` set.
std::string move_aside(const std::string& path, const std::string& suffix, FileError& error,
                       FileSyscalls& sys = real_file_syscalls());

// mkdir -p with `mode` for the directories it creates.
FileError make_directories(const std::string& path, mode_t mode,
                           FileSyscalls& sys = real_file_syscalls());

}  // namespace xcvr::files
