// xcvrctl show: read one module live through the same transports and read plan the daemon uses
// (cmis::next_static_reads until complete), decode it and print it.
//   xcvrctl show --i2c /dev/i2c-N [--address 0x50]   raw i2c-dev (takes the daemon's bus lock)
//   xcvrctl show --optoe PATH                          optoe eeprom file or sx_core module dir
//   xcvrctl show --netdev IFACE                        ethtool netlink (CAP_NET_ADMIN)
//   xcvrctl show --file DUMP                           a dump file, replayed as a module
//   xcvrctl show --ib CA:PORT [--lid L] [--module M]   MCIA over MADs (drivers/ib/ib_show.hpp)
// --json prints the decoder's JSON contract instead of the human report.
// Exit codes: 0 clean, 1 problems (bad checksum, decode findings, a page that could not be
// read), 2 nothing readable (no device, no module, no permission).
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/human_report.hpp"
#include "cli/module_read.hpp"
#include "cmis/decode.hpp"
#include "cmis/report_json.hpp"
#include "drivers/dumpfile/file_transport.hpp"
#include "drivers/ethtool/ethtool_transport.hpp"
#include "drivers/i2c/i2c_dev_transport.hpp"
#include "drivers/ib/ib_show.hpp"
#include "drivers/optoe/optoe_transport.hpp"

namespace xcvr::cli {
namespace {

struct ShowOptions {
  SourceArgs source;  // --i2c/--address, --optoe, --netdev/--trust-banks, --file
  std::string ib;  // CA:PORT
  int lid = 0;     // 0: the CA's own LID (its local modules)
  int module = 0;
  bool json = false;
};

int run_show(const ShowOptions& o) {
  std::string error;
  auto opened = open_source(o.source, error);
  if (!opened) {
    std::cerr << "xcvrctl show: " << error << '\n';
    return kExitUnreadable;
  }
  std::unique_ptr<drivers::Transport> transport = std::move(opened->transport);
  const std::string what = opened->label;

  cmis::ModuleImage image;
  std::vector<std::string> skipped;
  const auto err = read_module(*transport, image, skipped);
  if (err && image.empty()) {
    std::cerr << err->message << '\n';
    if (err->kind == drivers::ErrorKind::Absent) std::cerr << "(no module in the cage?)\n";
    return kExitUnreadable;
  }
  const cmis::ModuleReport report = cmis::decode(image);
  if (o.json) {
    std::cout << cmis::to_json(report).dump(2) << '\n';
  } else {
    const auto c = transport->counters();
    std::cout << what << " — " << image.entries().size() << " half-pages, " << c.transactions
              << " transactions, " << c.bytes << " bytes on the bus\n"
              << render_human(report);
  }
  for (const std::string& s : skipped) std::cerr << "not available: " << s << '\n';
  if (err) {
    std::cerr << "incomplete: " << err->message << '\n';
    return kExitProblems;
  }
  return report_exit_code(report);
}

}  // namespace

void add_show_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ShowOptions>();
  CLI::App* cmd = app.add_subcommand(
      "show", "Read one module live through the daemon's code path and decode it");
  auto* i2c = cmd->add_option("--i2c", o->source.i2c, "i2c-dev bus device, e.g. /dev/i2c-7");
  cmd->add_option("--address", o->source.address, "module I2C address with --i2c (default 0x50)")
      ->needs(i2c);
  auto* optoe = cmd->add_option("--optoe", o->source.optoe,
                                "optoe eeprom file (.../N-0050/eeprom) or sx_core module dir");
  auto* netdev = cmd->add_option("--netdev", o->source.netdev, "network interface (ethtool netlink)");
  cmd->add_flag("--trust-banks", o->source.trust_banks,
                "with --netdev: the driver honours CMIS banks (not mlx5)")
      ->needs(netdev);
  auto* file = cmd->add_option("--file", o->source.file, "module dump file");
  auto* ib = cmd->add_option("--ib", o->ib, "InfiniBand CA:PORT to send MADs from, e.g. mlx5_0:1");
  cmd->add_option("--lid", o->lid, "with --ib: LID of the switch or HCA (default: the CA's own)")
      ->check(CLI::Range(0, 0xBFFF))
      ->needs(ib);
  cmd->add_option("--module", o->module, "with --ib: module (cage) number, 0-based as MCIA counts")
      ->check(CLI::Range(0, 255))
      ->needs(ib);
  cmd->add_flag("--json", o->json, "print the JSON report");
  i2c->excludes(optoe, netdev, file, ib);
  optoe->excludes(netdev, file, ib);
  netdev->excludes(file, ib);
  file->excludes(ib);
  cmd->callback([o, &exit_code, i2c, optoe, netdev, file, ib] {
    if (i2c->count() + optoe->count() + netdev->count() + file->count() + ib->count() != 1) {
      std::cerr << "xcvrctl show: give one of --i2c, --optoe, --netdev, --file or --ib\n";
      exit_code = kExitUnreadable;
      return;
    }
    // Without InfiniBand hardware this exits 2 with the reason (no umad, no such CA port).
    exit_code = ib->count() != 0 ? ib::show_ib_module(o->ib, o->lid, o->module, o->json) : run_show(*o);
  });
}

}  // namespace xcvr::cli
