// xcvrctl decode FILE [--format F] [--json]: decode a module dump offline.
#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/human_report.hpp"
#include "cli/module_read.hpp"
#include "cmis/decode.hpp"
#include "cmis/report_json.hpp"
#include "dumpfile/dump_parser.hpp"

namespace xcvr::cli {
namespace {

struct DecodeOptions {
  std::string file;
  std::string format = "auto";
  bool json = false;
};

int run_decode(const DecodeOptions& o) {
  const auto format = dumpfile::parse_format_name(o.format);
  if (!format) {
    std::cerr << "xcvrctl decode: unknown format '" << o.format << "'\n";
    return kExitUnreadable;
  }
  const auto parsed = dumpfile::parse_file(o.file, *format);  // regular files only, size-capped
  if (const auto* err = std::get_if<dumpfile::ParseError>(&parsed)) {
    std::cerr << err->message << '\n';  // names the file
    return kExitUnreadable;
  }
  const auto& dump = std::get<dumpfile::ParsedDump>(parsed);
  const cmis::ModuleReport report = cmis::decode(dump.image);
  if (o.json) {
    std::cout << cmis::to_json(report).dump(2) << '\n';
  } else {
    std::cout << o.file << " (" << dumpfile::format_name(dump.format) << ")\n" << render_human(report);
  }
  return report_exit_code(report);
}

}  // namespace

void add_decode_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<DecodeOptions>();
  CLI::App* cmd = app.add_subcommand("decode", "Decode a module memory dump (ethtool -m hex, sfputil, "
                                               "Junos PICD, i2cdump, C array, bytearray or binary)");
  cmd->add_option("file", opts->file, "Dump file, or - for standard input")->required();
  cmd->add_option("--format", opts->format,
                  "auto, binary, ethtool, sfputil, junos, i2cdump, c-array, bytearray")
      ->capture_default_str();
  cmd->add_flag("--json", opts->json, "Print the JSON contract instead of text");
  cmd->callback([opts, &exit_code] { exit_code = run_decode(*opts); });
}

}  // namespace xcvr::cli
