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
