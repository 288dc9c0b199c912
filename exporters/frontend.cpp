#include "exporters/frontend.hpp"

#include <spdlog/spdlog.h>

#include "exporters/textfile.hpp"

namespace xcvr::exporters {

namespace {
std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}
}  // namespace

WebConfig to_server_config(const daemon::WebConfig& web) {
  WebConfig c;
  c.listen_addresses = web.listen_addresses;
  c.tls_cert_file = web.tls_cert_file;
  c.tls_key_file = web.tls_key_file;
  c.basic_auth_users = web.basic_auth_users;
  c.unauthenticated_paths = web.auth_exempt_paths;
  c.max_request_bytes = web.max_request_bytes;
  c.read_timeout = ms(web.read_timeout_s);
  c.write_timeout = ms(web.write_timeout_s);
  c.max_connections = static_cast<std::size_t>(web.max_connections);
  c.version = XCVR_VERSION;
  return c;
}

Frontend::Frontend(const daemon::WebConfig& web, const daemon::SnapshotStore& store, std::string textfile)
    : store_(store), textfile_(std::move(textfile)), server_(to_server_config(web), store) {}

std::string Frontend::start() {
  try {
    server_.start();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

void Frontend::tick() {
  if (textfile_.empty()) return;
  if (store_.current()->taken_unix == textfile_written_for_) return;
  // Each write is read by node_exporter like a scrape: it consumes the accumulated flags.
  const auto snapshot = store_.current_for_scrape();
  std::string error;
  if (!write_textfile(textfile_, *snapshot, error)) {
    spdlog::warn("textfile: {}", error);
    return;
  }
  textfile_written_for_ = snapshot->taken_unix;
}

void Frontend::stop() { server_.stop(); }

}  // namespace xcvr::exporters
