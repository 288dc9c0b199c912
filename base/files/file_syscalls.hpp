// FileSyscalls: the seam between the daemon's own files (state, textfile) and the kernel.
//
// Every call returns 0 (or a non-negative count / fd) on success and -errno on failure, as
// I2cSyscalls does, so a test can make one call fail with the errno a full, read-only or broken
// file system returns (ENOSPC, EROFS, EIO) while every other call reaches the real kernel.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>

namespace xcvr::files {

class FileSyscalls {
 public:
  virtual ~FileSyscalls() = default;
  virtual int open(const char* path, int flags, mode_t mode) = 0;  // O_CLOEXEC is always added
  virtual int close(int fd) = 0;
  virtual int fstat(int fd, struct stat& out) = 0;
  virtual int stat(const char* path, struct stat& out) = 0;
  virtual ssize_t read(int fd, void* buf, std::size_t n) = 0;
  virtual ssize_t write(int fd, const void* buf, std::size_t n) = 0;
  virtual int fchmod(int fd, mode_t mode) = 0;
  virtual int fsync(int fd) = 0;
  virtual int rename(const char* from, const char* to) = 0;
  // rename(2) that fails with -EEXIST instead of replacing `to` (renameat2 RENAME_NOREPLACE).
  virtual int rename_noreplace(const char* from, const char* to) = 0;
  virtual int unlink(const char* path) = 0;
  virtual int mkdir(const char* path, mode_t mode) = 0;  // -EEXIST when it exists
};

// The kernel, EINTR retried.
class RealFileSyscalls : public FileSyscalls {
 public:
  int open(const char* path, int flags, mode_t mode) override;
  int close(int fd) override;
  int fstat(int fd, struct stat& out) override;
  int stat(const char* path, struct stat& out) override;
  ssize_t read(int fd, void* buf, std::size_t n) override;
  ssize_t write(int fd, const void* buf, std::size_t n) override;
  int fchmod(int fd, mode_t mode) override;
  int fsync(int fd) override;
  int rename(const char* from, const char* to) override;
  int rename_noreplace(const char* from, const char* to) override;
  int unlink(const char* path) override;
  int mkdir(const char* path, mode_t mode) override;
};

// A process-wide RealFileSyscalls.
FileSyscalls& real_file_syscalls();

}  // namespace xcvr::files
