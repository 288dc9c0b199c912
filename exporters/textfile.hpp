// Textfile output for node_exporter's textfile collector: the same families as /metrics,
// written atomically (temp file in the same directory, fsync, rename, fsync of the directory)
// so the collector never reads a half-written file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "exporters/series_plan.hpp"
#include "health/fleet_view.hpp"

namespace xcvr::exporters {

// Replaces `path` with `content`. The file is world-readable (0644): node_exporter runs as its
// own user. Returns false and sets `error` (naming the path and errno text) on failure; the old
// file, if any, is left as it was.
bool write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       std::string& error);

// Why `path` cannot be the textfile, or "": a directory (the option names the file to write), or
// a file in a directory that does not exist. --check-config and a start refuse what it names.
std::string textfile_problem(const std::filesystem::path& path);

// render_text(views) under `planner`'s profile, written with write_file_atomic(). The path should
// end in ".prom".
bool write_textfile(const std::filesystem::path& path, const health::FleetView& views, SeriesPlanner& planner,
                    std::string& error);

}  // namespace xcvr::exporters
