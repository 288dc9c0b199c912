// A dump file replayed as a read-only module: the "file" source, and `xcvrctl show --file`.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "cmis/image.hpp"
#include "drivers/transport.hpp"

namespace xcvr::dumpfile {

class FileTransport final : public drivers::Transport {
 public:
  // Parses `path` (any dump format); on failure returns the error naming file and line.
  static std::variant<std::unique_ptr<FileTransport>, drivers::Error> open(const std::string& path);
  FileTransport(std::string path, cmis::ModuleImage image);

  std::string domain() const override { return "file:" + path_; }
  std::string describe() const override { return "dump file " + path_; }
  drivers::Presence presence() override { return drivers::Presence::Present; }
  std::optional<drivers::Error> read(const drivers::ReadRequest& request, std::span<uint8_t> out) override;
  drivers::BusCounters counters() const override { return counters_; }

 private:
  std::string path_;
  cmis::ModuleImage image_;
  drivers::BusCounters counters_;
};

}  // namespace xcvr::dumpfile
