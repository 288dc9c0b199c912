// xcvrctl show: read one module live through the same transports and read plan the daemon uses
// (cmis::next_static_reads until complete), decode it and print it.
//   xcvrctl show --i2c /dev/i2c-N [--address 0x50]   raw i2c-dev (takes the daemon's bus lock)
//   xcvrctl show --optoe PATH                          optoe eeprom file or sx_core module dir
//   xcvrctl show --netlink IFACE (or --netdev)         ethtool netlink (CAP_NET_ADMIN)
//   xcvrctl show --file DUMP                           a dump file, replayed as a module
//   xcvrctl show --ib CA:PORT [--lid L] [--cage C]     MCIA over MADs (drivers/ib/ib_source.hpp)
//   xcvrctl show --port NAME [--config PATH]           a port of the daemon's config, as alerts
//                                                      name it, through its configured source
// The flags are the registered source kinds' (drivers/source_registry.cpp).
// The human report begins with the port's verdict as the daemon gives it (cli/port_verdict.hpp:
// the daemon's health model, catalog list and, for --port, the port's service settings and cage
// style); an empty cage of --port prints its verdict and exits 2.
// --json prints the decoder's JSON contract instead of the human report.
// Exit codes: 0 clean, 1 problems (bad checksum, decode findings, a page that could not be
// read), 2 nothing readable (no device, no module, no permission).
#include <algorithm>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/human_report.hpp"
#include "cli/module_read.hpp"
#include "cli/port_source.hpp"
#include "cli/port_verdict.hpp"
#include "cmis/decode.hpp"
#include "cmis/report_json.hpp"
#include "coding/coding.hpp"

namespace xcvr::cli {
namespace {

struct ShowOptions {
  SourceFlags source;
  PortFlags port;
  bool json = false;
};

// The coding findings the daemon would hold for this module (its catalog list, the port's cage
// style), for the verdict; none when the catalog cannot be loaded (verify says why).
std::vector<coding::CodingFinding> show_coding(const ShowOptions& o, const ModuleSource& source,
                                               const cmis::ModuleImage& image, const cmis::ModuleReport& report) {
  const auto judged = daemon_coding(o.port, source, {}, "", static_cast<double>(std::time(nullptr)));
  const auto* coding = std::get_if<DaemonCoding>(&judged);
  return coding ? coding::verify_module(image, report, coding->context) : std::vector<coding::CodingFinding>{};
}

int run_show(const ShowOptions& o) {
  std::string error;
  auto opened = open_module(o.source, o.port, error);
  if (opened && opened->empty) std::cout << opened->label << "\n" << verdict_text(judge_read(*opened, nullptr, {}));
  if (!opened || opened->empty) {
    std::cerr << "xcvrctl show: " << error << '\n';
    return kExitUnreadable;
  }
  drivers::Transport* transport = &opened->transport();
  const std::string what = opened->label;

  cmis::ModuleImage image;
  std::vector<std::string> skipped;
  const auto err = read_settled(*opened, image, skipped);
  if (err && image.empty()) {
    std::cerr << err->message << '\n';
    const std::string hint = opened->kind ? drivers::error_hint(*opened->kind, *err, /*opening=*/false) : "";
    if (!hint.empty()) std::cerr << hint << '\n';
    return kExitUnreadable;
  }
  const auto decoded = std::make_shared<const cmis::ModuleReport>(cmis::decode(image));
  const cmis::ModuleReport& report = *decoded;
  if (o.json) {
    std::cout << cmis::to_json(report).dump(2) << '\n';
  } else {
    const auto c = transport->counters();
    std::cout << what << " — " << image.entries().size() << " half-pages, " << c.transactions
              << " transactions, " << c.bytes << " bytes on the bus\n"
              << verdict_text(judge_read(*opened, decoded, show_coding(o, *opened, image, report)))
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
  add_source_options(*cmd, o->source);
  add_port_options(*cmd, o->port, o->source);
  cmd->add_flag("--json", o->json, "print the JSON report");
  // Without the hardware this exits 2 with the reason (no such bus, no umad, no such CA port).
  cmd->callback([o, &exit_code] { exit_code = run_show(*o); });
}

}  // namespace xcvr::cli
