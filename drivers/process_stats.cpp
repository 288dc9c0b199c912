#include "drivers/process_stats.hpp"

#include <dirent.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <charconv>

#include "base/files/files.hpp"

namespace xcvr::drivers {

std::optional<ProcStat> parse_proc_stat(std::string_view line) {
  const std::size_t close = line.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(close + 1);
  // Fields from 3 (state) on, one space apart; the ones we need are numbers.
  ProcStat out;
  int field = 2;
  while (!rest.empty()) {
    if (rest.front() != ' ') return std::nullopt;
    rest.remove_prefix(1);
    ++field;
    const std::size_t end = std::min(rest.find(' '), rest.size());
    const std::string_view token = rest.substr(0, end);
    rest.remove_prefix(end);
    if (token.empty()) return std::nullopt;
    double* into = nullptr;
    switch (field) {
      case 14: case 15: into = &out.cpu_ticks; break;
      case 22: into = &out.start_ticks; break;
      case 23: into = &out.virtual_bytes; break;
      case 24: into = &out.resident_pages; break;
      default: continue;
    }
    unsigned long long v = 0;
    const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
    *into += static_cast<double>(v);
    if (field == 24) return out;
  }
  return std::nullopt;  // ended before rss
}

namespace {

double seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double open_fds() {
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return 0;
  double n = 0;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') ++n;
  }
  closedir(d);
  return n - 1;  // the directory's own fd, open while it is listed
}

}  // namespace

std::optional<ProcessStats> read_process_stats() {
  const files::ReadResult r = files::read_regular_file("/proc/self/stat", 4096);
  if (r.status != files::ReadStatus::Ok) return std::nullopt;
  const auto stat = parse_proc_stat(r.data);
  const long ticks = sysconf(_SC_CLK_TCK);
  const long page = sysconf(_SC_PAGESIZE);
  if (!stat || ticks <= 0 || page <= 0) return std::nullopt;
  ProcessStats s;
  s.cpu_seconds = stat->cpu_ticks / static_cast<double>(ticks);
  s.virtual_bytes = stat->virtual_bytes;
  s.resident_bytes = stat->resident_pages * static_cast<double>(page);
  // starttime counts from boot: the wall clock less the time since boot (no /proc/stat), taken
  // once so the series does not wobble with the two clocks' reading times.
  static const double boot_unix = seconds(CLOCK_REALTIME) - seconds(CLOCK_BOOTTIME);
  s.start_time_unix = boot_unix + stat->start_ticks / static_cast<double>(ticks);
  s.open_fds = open_fds();
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) s.max_fds = static_cast<double>(limit.rlim_cur);
  return s;
}

}  // namespace xcvr::drivers
