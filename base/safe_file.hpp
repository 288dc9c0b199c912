// Safe reading of files a config names (the config itself, catalogs, fleets, scenarios, module
// dumps, the OUI registry, TLS material, sysfs attributes; the state file goes through base/files
// directly; each caller names its kind and cap): regular files only — a directory, FIFO, socket
// or device is refused with an error naming the path, without ever blocking on it (opened
// O_NONBLOCK, then fstat) — and never more than the cap of the file's kind is read.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace xcvr::base {

// What a caller reads, as the caller defines it (daemon::kConfigInput, dumpfile::kDumpInput, ...):
// its name in messages and its size cap (documented in docs/configuration.md, "Limits").
struct InputKind {
  std::string_view name;  // "config file", "module dump", ...
  std::size_t max_bytes;
};

// Opens `path` read-only if it is a regular file; returns the fd (O_CLOEXEC, blocking mode) or
// -1 with `error` = "<path>: <why>".
int open_regular_file(const std::string& path, InputKind kind, std::string& error);

// The whole file, or nullopt with `error` = "<path>: <why>" (not a regular file, unreadable,
// larger than kind.max_bytes).
std::optional<std::string> read_regular_file(const std::string& path, InputKind kind, std::string& error);

// Everything readable from `fd` (a pipe: standard input) up to the kind's cap, or nullopt with
// `error` = "<name>: <why>" when reading fails or the input is larger than the cap.
std::optional<std::string> read_stream_fd(int fd, const std::string& name, InputKind kind, std::string& error);

// Calls `line` for each line (without '\n') of a regular file, holding one line at a time.
// False with `error` set when the file cannot be read or exceeds the kind's cap.
bool read_regular_file_lines(const std::string& path, InputKind kind,
                             const std::function<void(std::string_view)>& line, std::string& error);

}  // namespace xcvr::base
