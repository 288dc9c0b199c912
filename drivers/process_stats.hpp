// The exporter's own process figures for the standard process_* families (prometheus-cpp has no
// process collector): read from /proc/self as the Prometheus client libraries' process
// collectors do, so dashboards and alerts written for any exporter work on this one.
#pragma once

#include <optional>
#include <string_view>

namespace xcvr::drivers {

struct ProcessStats {
  double cpu_seconds = 0;  // user + system
  double resident_bytes = 0;
  double virtual_bytes = 0;
  double start_time_unix = 0;
  double open_fds = 0;
  double max_fds = 0;  // the soft RLIMIT_NOFILE
};

// The fields of /proc/self/stat (proc(5)) that the families need.
struct ProcStat {
  double cpu_ticks = 0;         // utime + stime (fields 14, 15)
  double start_ticks = 0;       // starttime, clock ticks after boot (field 22)
  double virtual_bytes = 0;     // vsize (field 23)
  double resident_pages = 0;    // rss (field 24)
};

// nullopt when the line is malformed. The comm field (2) may hold spaces and parentheses, so the
// fields are counted after the line's last ')'.
std::optional<ProcStat> parse_proc_stat(std::string_view line);

// This process now; nullopt when /proc is not mounted or its stat line is refused.
std::optional<ProcessStats> read_process_stats();

}  // namespace xcvr::drivers
