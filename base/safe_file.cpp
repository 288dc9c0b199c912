#include "base/safe_file.hpp"

#include "base/files/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace xcvr::base {
namespace {

std::string mib(std::size_t bytes) {
  return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads up to `want` bytes (fewer at end of file); -1 on error (errno set).
ssize_t read_some(int fd, char* buf, std::size_t want) {
  for (;;) {
    const ssize_t n = ::read(fd, buf, want);
    if (n >= 0 || errno != EINTR) return n;
  }
}

std::string too_large(const std::string& path, InputKind kind) {
  return path + ": larger than " + mib(kind.max_bytes) + "; not a " + std::string(kind.name);
}

}  // namespace

int open_regular_file(const std::string& path, InputKind kind, std::string& error) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (forever).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = path + ": cannot open " + std::string(kind.name) + ": " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = path + ": cannot stat " + std::string(kind.name) + ": " + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    error = path + ": " + files::file_type_name(st.st_mode) + ", not a regular file; a " + std::string(kind.name) +
            " must be a regular file";
    ::close(fd);
    return -1;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

std::optional<std::string> read_regular_file(const std::string& path, InputKind kind, std::string& error) {
  files::ReadResult r = files::read_regular_file(path, kind.max_bytes);
  switch (r.status) {
    case files::ReadStatus::Ok: return std::move(r.data);
    case files::ReadStatus::Missing:
      error = path + ": cannot open " + std::string(kind.name) + ": " + files::errno_text(ENOENT);
      break;
    case files::ReadStatus::NotRegular:
      error = r.error.message + "; a " + std::string(kind.name) + " must be a regular file";
      break;
    case files::ReadStatus::TooLarge: error = too_large(path, kind); break;
    case files::ReadStatus::Failed:  // "PATH: ..." as every other case (callers strip the path)
      error = r.error.err != 0 ? path + ": cannot read " + std::string(kind.name) + ": " + files::errno_text(r.error.err)
                               : path + ": " + r.error.message;
      break;
  }
  return std::nullopt;
}

std::optional<std::string> read_stream_fd(int fd, const std::string& name, InputKind kind, std::string& error) {
  const std::size_t cap = kind.max_bytes;
  std::string data;
  char buf[64 * 1024];
  for (;;) {
    const ssize_t n = read_some(fd, buf, sizeof buf);
    if (n < 0) {
      error = name + ": " + files::errno_text(errno);
      return std::nullopt;
    }
    if (n == 0) return data;
    if (data.size() + static_cast<std::size_t>(n) > cap) {
      error = too_large(name, kind);
      return std::nullopt;
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
}

bool read_regular_file_lines(const std::string& path, InputKind kind,
                             const std::function<void(std::string_view)>& line, std::string& error) {
  Fd fd(open_regular_file(path, kind, error));
  if (fd.get() < 0) return false;
  const std::size_t cap = kind.max_bytes;
  std::size_t total = 0;
  std::string pending;
  char buf[64 * 1024];
  for (;;) {
    const ssize_t n = read_some(fd.get(), buf, sizeof buf);
    if (n < 0) {
      error = path + ": read error: " + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    total += static_cast<std::size_t>(n);
    if (total > cap) {
      error = too_large(path, kind);
      return false;
    }
    std::string_view chunk(buf, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = chunk.find('\n')) != std::string_view::npos; chunk.remove_prefix(nl + 1)) {
      if (pending.empty()) {
        line(chunk.substr(0, nl));
      } else {
        pending.append(chunk.substr(0, nl));
        line(pending);
        pending.clear();
      }
    }
    pending.append(chunk);
  }
  if (!pending.empty()) line(pending);
  return true;
}

}  // namespace xcvr::base
