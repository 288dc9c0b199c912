#include "exporters/textfile.hpp"

#include "base/files/files.hpp"
#include "exporters/metrics.hpp"

namespace xcvr::exporters {

bool write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       std::string& error) {
  const files::FileError e = files::write_file_atomic(path.string(), content, 0644);
  if (!e.ok()) error = e.message;
  return e.ok();
}

std::string textfile_problem(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return "--textfile " + path.string() + ": a directory; name the file to write (e.g. " +
           (path / "transceivers.prom").string() + ")";
  }
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir, ec)) return "--textfile " + path.string() + ": directory " + dir.string() + " does not exist";
  return "";
}

bool write_textfile(const std::filesystem::path& path, const health::FleetView& views, SeriesPlanner& planner,
                    std::string& error) {
  std::string text;
  try {
    text = render_text(views, {}, planner.plan(views));
  } catch (const std::exception& e) {
    error = std::string("cannot render metrics: ") + e.what();
    return false;
  }
  return write_file_atomic(path, text, error);
}

}  // namespace xcvr::exporters
