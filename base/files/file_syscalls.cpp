#include "base/files/file_syscalls.hpp"

#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc 2.28)
#include <unistd.h>

#include <cerrno>

namespace xcvr::files {
namespace {

template <typename F>
auto retry(F f) {
  decltype(f()) rc;
  do {
    rc = f();
  } while (rc < 0 && errno == EINTR);
  return rc < 0 ? -errno : rc;
}

}  // namespace

int RealFileSyscalls::open(const char* path, int flags, mode_t mode) {
  return retry([&] { return ::open(path, flags | O_CLOEXEC, mode); });
}
// close(2) must not be retried on EINTR (Linux has released the fd already).
int RealFileSyscalls::close(int fd) { return ::close(fd) < 0 ? -errno : 0; }
int RealFileSyscalls::fstat(int fd, struct stat& out) { return ::fstat(fd, &out) < 0 ? -errno : 0; }
int RealFileSyscalls::stat(const char* path, struct stat& out) {
  return ::stat(path, &out) < 0 ? -errno : 0;
}
ssize_t RealFileSyscalls::read(int fd, void* buf, std::size_t n) {
  return retry([&] { return ::read(fd, buf, n); });
}
ssize_t RealFileSyscalls::write(int fd, const void* buf, std::size_t n) {
  return retry([&] { return ::write(fd, buf, n); });
}
int RealFileSyscalls::fchmod(int fd, mode_t mode) { return ::fchmod(fd, mode) < 0 ? -errno : 0; }
int RealFileSyscalls::fsync(int fd) { return retry([&] { return ::fsync(fd); }); }
int RealFileSyscalls::rename(const char* from, const char* to) {
  return ::rename(from, to) < 0 ? -errno : 0;
}
int RealFileSyscalls::rename_noreplace(const char* from, const char* to) {
  return ::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) < 0 ? -errno : 0;
}
int RealFileSyscalls::unlink(const char* path) { return ::unlink(path) < 0 ? -errno : 0; }
int RealFileSyscalls::mkdir(const char* path, mode_t mode) {
  return ::mkdir(path, mode) < 0 ? -errno : 0;
}

FileSyscalls& real_file_syscalls() {
  static RealFileSyscalls real;
  return real;
}

}  // namespace xcvr::files
