#include "exporters/textfile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "exporters/metrics.hpp"

namespace xcvr::exporters {
namespace {

std::string errno_text(const std::string& what, const std::filesystem::path& p) {
  return what + " " + p.string() + ": " + std::strerror(errno);
}

bool write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The rename is only durable once the directory entry is on disk.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

bool write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       std::string& error) {
  const std::filesystem::path dir = path.parent_path();
  // A dot-name: node_exporter only reads *.prom, so the temp file is never collected.
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    error = errno_text("cannot create temporary file for", path);
    return false;
  }
  const std::filesystem::path tmp(name.data());
  bool ok = write_all(fd, content) && ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
  if (!ok) error = errno_text("cannot write", tmp);
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno_text("cannot close", tmp);
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    error = errno_text("cannot rename temporary file to", path);
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return false;
  }
  sync_directory(dir);
  return true;
}

bool write_textfile(const std::filesystem::path& path, const daemon::Snapshot& snapshot,
                    std::string& error) {
  std::string text;
  try {
    text = render_text(snapshot);
  } catch (const std::exception& e) {
    error = std::string("cannot render metrics: ") + e.what();
    return false;
  }
  return write_file_atomic(path, text, error);
}

}  // namespace xcvr::exporters
