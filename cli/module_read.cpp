#include "cli/module_read.hpp"

#include <algorithm>

#include "cli/commands.hpp"
#include "cmis/read_plan.hpp"
#include "drivers/module_reader.hpp"
#include "drivers/dumpfile/file_transport.hpp"
#include "drivers/ethtool/ethtool_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/optoe/optoe_transport.hpp"

namespace xcvr::cli {
namespace {

std::optional<uint8_t> parse_address(const std::string& text) {
  try {
    std::size_t used = 0;
    const unsigned long v = std::stoul(text, &used, 0);
    if (used != text.size() || v < 0x03 || v > 0x77) return std::nullopt;
    return static_cast<uint8_t>(v);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<OpenedSource> open_source(const SourceArgs& a, std::string& error) {
  const int given = !a.file.empty() + !a.i2c.empty() + !a.optoe.empty() + !a.netdev.empty();
  if (given != 1) {
    error = "give exactly one of --file, --i2c, --optoe, --netdev";
    return std::nullopt;
  }
  OpenedSource out;
  if (!a.i2c.empty()) {
    const auto address = parse_address(a.address);
    if (!address) {
      error = "--address " + a.address + " is not a 7-bit I2C address";
      return std::nullopt;
    }
    i2c::I2cPortConfig cfg;
    cfg.device = a.i2c;
    cfg.port = a.i2c;
    cfg.address = *address;
    auto t = std::make_unique<i2c::I2cDevTransport>(cfg);
    if (auto e = t->open()) {  // the clearest message for a missing node or an owned address
      error = e->message;
      return std::nullopt;
    }
    out.label = t->describe() + " via " + std::string(i2c::i2c_method_name(t->method()));
    out.transport = std::move(t);
  } else if (!a.optoe.empty()) {
    optoe::OptoePortConfig cfg;
    cfg.path = a.optoe;
    cfg.port = a.optoe;
    auto t = std::make_unique<optoe::OptoeTransport>(cfg);
    out.label = t->describe() + " (" + std::string(optoe::layout_name(t->layout())) + ")";
    out.transport = std::move(t);
  } else if (!a.netdev.empty()) {
    ethtool::EthtoolPortConfig cfg;
    cfg.netdev = a.netdev;
    cfg.port = a.netdev;
    cfg.trust_banks = a.trust_banks;
    out.transport = std::make_unique<ethtool::EthtoolNetlinkTransport>(cfg);
    out.label = out.transport->describe();
  } else {
    auto opened = dumpfile::FileTransport::open(a.file);
    if (auto* e = std::get_if<drivers::Error>(&opened)) {
      error = e->message;
      return std::nullopt;
    }
    out.transport = std::move(std::get<std::unique_ptr<dumpfile::FileTransport>>(opened));
    out.label = "dump file " + a.file;
  }
  // Cages with a presence line say so before any read (netlink and dumps have none to ask).
  if ((!a.i2c.empty() || !a.optoe.empty()) && out.transport->presence() == drivers::Presence::Absent) {
    error = out.label + ": no module in the cage";
    return std::nullopt;
  }
  return out;
}

void refresh_dynamic(drivers::Transport& t, cmis::ModuleImage& image) {
  // Only pages the static read got; an error leaves the bytes of the static read.
  std::vector<cmis::ReadRange> plan = cmis::dynamic_reads(image);
  std::erase_if(plan, [&](const cmis::ReadRange& r) { return !image.has(r.page); });
  drivers::UnreachablePages unreachable;
  drivers::read_ranges(t, plan, image, unreachable, {});
}

std::optional<drivers::Error> read_module(drivers::Transport& t, cmis::ModuleImage& image,
                                          std::vector<std::string>& skipped) {
  drivers::UnreachablePages unreachable;
  drivers::ReadResult r = drivers::read_static(t, image, unreachable, {});
  for (const drivers::Error& e : r.skipped) skipped.push_back(e.message);
  return std::move(r.error);
}

int report_exit_code(const cmis::ModuleReport& report) {
  const bool bad_checksum = std::any_of(report.checksums.begin(), report.checksums.end(),
                                        [](const cmis::Checksum& c) { return !c.ok(); });
  return bad_checksum || !report.problems.empty() ? kExitProblems : kExitClean;
}

}  // namespace xcvr::cli
