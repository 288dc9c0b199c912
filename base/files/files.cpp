#include "base/files/files.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

namespace xcvr::files {
namespace {

FileError fail(int err, const std::string& what, const std::string& path) {
  return {err, what + " " + path + ": " + errno_text(err)};
}

std::string dir_of(const std::string& path) {
  const std::string d = std::filesystem::path(path).parent_path().string();
  return d.empty() ? "." : d;
}

// A name nobody else picks: O_EXCL makes a clash (or a planted symlink) fail, not follow.
std::string temp_name(const std::string& path) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  const std::filesystem::path p(path);
  char suffix[17];
  std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(rng()));
  return (p.parent_path() / ("." + p.filename().string() + ".tmp-" + suffix)).string();
}

}  // namespace

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string errno_text(int err) {
  const char* name = ::strerrorname_np(err);
  return std::string(std::strerror(err)) + " (" + (name ? name : std::to_string(err).c_str()) + ")";
}

std::optional<std::string> missing_path(const std::string& path, std::string_view what, FileSyscalls& sys) {
  struct stat st {};
  const int rc = sys.stat(path.c_str(), st);
  if (rc != -ENOENT && rc != -ENOTDIR) return std::nullopt;
  return std::string(what) + " " + path + " does not exist";
}

ReadResult read_regular_file(const std::string& path, uint64_t max_bytes, FileSyscalls& sys) {
  ReadResult r;
  const int fd = sys.open(path.c_str(), O_RDONLY | O_NONBLOCK, 0);
  if (fd == -ENOENT) {
    r.status = ReadStatus::Missing;
    return r;
  }
  if (fd < 0) {
    r.error = fail(-fd, "cannot open", path);
    return r;
  }
  struct stat st {};
  if (int rc = sys.fstat(fd, st); rc < 0) {
    r.error = fail(-rc, "cannot stat", path);
  } else if (!S_ISREG(st.st_mode)) {
    r.status = ReadStatus::NotRegular;
    r.error = {0, path + ": " + file_type_name(st.st_mode) + ", not a regular file"};
  } else if (r.size = static_cast<uint64_t>(st.st_size); r.size > max_bytes) {
    r.status = ReadStatus::TooLarge;
    r.error = {0, path + ": " + std::to_string(r.size) + " bytes, above the cap of " +
                      std::to_string(max_bytes) + " bytes"};
  } else {
    r.data.resize(static_cast<std::size_t>(r.size) + 1);  // one spare byte detects growth
    std::size_t got = 0;
    for (;;) {
      if (got == r.data.size()) {
        if (r.data.size() > max_bytes) break;
        r.data.resize(std::min<uint64_t>(max_bytes + 1, r.data.size() * 2));
      }
      const ssize_t n = sys.read(fd, r.data.data() + got, r.data.size() - got);
      if (n < 0) {
        r.error = fail(static_cast<int>(-n), "cannot read", path);
        break;
      }
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (r.error.ok() && got > max_bytes) {
      r.status = ReadStatus::TooLarge;
      r.size = got;
      r.error = {0, path + ": grew past the cap of " + std::to_string(max_bytes) + " bytes while read"};
      r.data.clear();
    } else if (r.error.ok()) {
      r.data.resize(got);
      r.status = ReadStatus::Ok;
    }
  }
  sys.close(fd);
  if (r.status != ReadStatus::Ok) r.data = std::string();
  return r;
}

FileError write_file_atomic(const std::string& path, std::string_view content, mode_t mode,
                            FileSyscalls& sys) {
  std::string tmp;
  int fd = -EEXIST;
  for (int attempt = 0; attempt < 8 && fd == -EEXIST; ++attempt) {
    tmp = temp_name(path);
    fd = sys.open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, mode);
  }
  if (fd < 0) return fail(-fd, "cannot create a temporary file for", path);
  FileError e;
  for (std::string_view rest = content; e.ok() && !rest.empty();) {
    const ssize_t n = sys.write(fd, rest.data(), rest.size());
    if (n < 0) e = fail(static_cast<int>(-n), "cannot write", tmp);
    else if (n == 0) e = fail(EIO, "cannot write", tmp);
    else rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (e.ok()) {
    if (int rc = sys.fchmod(fd, mode); rc < 0) e = fail(-rc, "cannot chmod", tmp);  // umask
  }
  if (e.ok()) {
    if (int rc = sys.fsync(fd); rc < 0) e = fail(-rc, "cannot fsync", tmp);
  }
  if (int rc = sys.close(fd); rc < 0 && e.ok()) e = fail(-rc, "cannot close", tmp);
  if (e.ok()) {
    if (int rc = sys.rename(tmp.c_str(), path.c_str()); rc < 0) e = fail(-rc, "cannot rename " + tmp + " to", path);
  }
  if (!e.ok()) {
    sys.unlink(tmp.c_str());
    return e;
  }
  // The rename is durable only once the directory entry is on disk.
  const std::string dir = dir_of(path);
  const int dfd = sys.open(dir.c_str(), O_RDONLY | O_DIRECTORY, 0);
  if (dfd < 0) return fail(-dfd, "cannot open directory", dir);
  if (int rc = sys.fsync(dfd); rc < 0) e = fail(-rc, "cannot fsync directory", dir);
  sys.close(dfd);
  return e;
}

std::string move_aside(const std::string& path, const std::string& suffix, FileError& error,
                       FileSyscalls& sys) {
  error = {};
  for (int n = 1; n <= 100; ++n) {
    const std::string to = path + suffix + (n == 1 ? "" : "-" + std::to_string(n));
    int rc = sys.rename_noreplace(path.c_str(), to.c_str());
    if (rc == -EEXIST) continue;
    if (rc == -EINVAL) {  // a file system without RENAME_NOREPLACE: check, then rename
      struct stat st {};
      if (sys.stat(to.c_str(), st) == 0) continue;
      rc = sys.rename(path.c_str(), to.c_str());
    }
    if (rc < 0) {
      error = fail(-rc, "cannot rename " + path + " to", to);
      return "";
    }
    return to;
  }
  error = {EEXIST, "cannot move " + path + " aside: 100 names " + path + suffix + "* taken"};
  return "";
}

FileError make_directories(const std::string& path, mode_t mode, FileSyscalls& sys) {
  std::filesystem::path so_far;
  for (const auto& part : std::filesystem::path(path)) {
    so_far /= part;
    if (part == "/" || part.empty()) continue;
    const int rc = sys.mkdir(so_far.c_str(), mode);
    if (rc < 0 && rc != -EEXIST) return fail(-rc, "cannot create directory", so_far.string());
  }
  struct stat st {};
  if (int rc = sys.stat(path.c_str(), st); rc < 0) return fail(-rc, "cannot stat", path);
  if (!S_ISDIR(st.st_mode)) return {ENOTDIR, path + ": not a directory"};
  return {};
}

}  // namespace xcvr::files
