// xcvrctl verify [--file DUMP | --i2c ... | --optoe ... | --netlink ... | --port NAME]
//                [--config PATH] [--catalog DIR]... [--json] [--style flat-top|finned-top] [--strict]
// Checks one module's coding against its part number's promises (coding/coding.hpp) and prints
// pass / warn / fail per check with the bytes involved. The catalog list, OUI registry and (for
// --port) cage style are the daemon's: daemon::load_coding_setup() on the daemon's config (or
// on the defaults when there is none), so the verdict is the one the daemon exports for the
// port (less the fleet checks, which need every port).
// Then the port's verdict as the daemon gives it (cli/port_verdict.hpp): "Health" and "Reason"
// lines, "health" and "reasons" in --json; an empty cage of --port prints its verdict, exit 2.
// Exit: 0 clean (warnings alone are clean unless --strict), 1 problems found, 2 unreadable input.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/module_read.hpp"
#include "cli/port_source.hpp"
#include "cli/port_verdict.hpp"
#include "cmis/decode.hpp"
#include "cmis/report_json.hpp"
#include "coding/catalog.hpp"
#include "coding/coding.hpp"

namespace xcvr::cli {
namespace {

struct VerifyOptions {
  SourceFlags source;  // the registered kinds' flags; a bare argument is a --file
  PortFlags port;
  std::vector<std::string> catalogs;
  std::string oui_registry;  // "": the config's (default coding::kDefaultOuiRegistryDir)
  std::string style;
  std::string now;  // "YYYY-MM-DD" or unix seconds; default: the clock
  bool json = false;
  bool strict = false;
};

struct Unreadable {
  std::string message;
};

double parse_now(const std::string& text) {
  if (text.empty()) return static_cast<double>(std::time(nullptr));
  int y = 0, m = 0, d = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%d%c", &y, &m, &d, &tail) == 3) {
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = m - 1;
    tm.tm_mday = d;
    tm.tm_hour = 12;
    return static_cast<double>(timegm(&tm));
  }
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v)) throw Unreadable{"--now: expected YYYY-MM-DD or unix seconds"};
  return v;
}

const char* status_word(coding::CheckStatus s) {
  switch (s) {
    case coding::CheckStatus::Pass: return "PASS";
    case coding::CheckStatus::Warn: return "WARN";
    case coding::CheckStatus::Fail: return "FAIL";
    case coding::CheckStatus::Skip: return "skip";
  }
  return "?";
}

struct Counts {
  int pass = 0, warn = 0, fail = 0, skip = 0;
};

Counts count(const coding::ModuleVerdict& v) {
  Counts c;
  for (const auto& r : v.results) {
    switch (r.status) {
      case coding::CheckStatus::Pass: ++c.pass; break;
      case coding::CheckStatus::Warn: ++c.warn; break;
      case coding::CheckStatus::Fail: ++c.fail; break;
      case coding::CheckStatus::Skip: ++c.skip; break;
    }
  }
  return c;
}

// What the Catalog line says when no entry applies: the verdict is then the standard checks'
// alone, which a bare PASS would hide.
std::string no_entry_text(const daemon::CodingSetup& setup, const cmis::ModuleReport& r) {
  if (!setup.catalog) return "none loaded: standard checks only";
  return "no catalog entry for part '" + r.id.part_number + "' and no generic profile: standard checks only";
}

std::string render_text(const std::string& label, const cmis::ModuleReport& r, const coding::ModuleVerdict& v,
                         const daemon::CodingSetup& setup, const coding::VerifyContext& ctx,
                         const std::vector<std::string>& notes, const std::string& result) {
  std::ostringstream out;
  const auto& id = r.id;
  out << "Module   : " << (id.vendor_name.empty() ? "?" : id.vendor_name) << ' '
      << (id.part_number.empty() ? "?" : id.part_number);
  if (!id.revision.empty()) out << " rev " << id.revision;
  out << ", serial " << (id.serial.empty() ? "?" : id.serial) << "\n";
  out << "Type     : " << id.identifier.name << ", ";
  const std::string spec(cmis::spec_name(r.spec));
  if (r.spec_revision.rfind(spec, 0) == 0) out << r.spec_revision;  // "SFF-8636 rev 2.5-2.7"
  else out << spec << (r.spec_revision.empty() ? "" : " " + r.spec_revision);
  out << "\nSource   : " << label << "\n";
  out << "Catalog  : "
      << (v.catalog_key.empty() ? no_entry_text(setup, r)
                                : (v.catalog_generic ? "generic profile '" : "part '") + v.catalog_key + "' (" +
                                      v.catalog_location + ")")
      << "\n";
  std::string files;
  for (const std::string& f : setup.catalog_paths) files += (files.empty() ? "" : ", ") + f;
  out << "Catalogs : " << (files.empty() ? "none" : files) << "\n";
  if (ctx.required_style) out << "Cage     : needs " << *ctx.required_style << " modules\n";
  for (const std::string& n : v.notes) out << "Note     : " << n << "\n";
  for (const std::string& n : notes) out << "Note     : " << n << "\n";
  out << "\n";
  for (const auto& res : v.results) {
    bool first = true;
    for (const auto& d : res.details) {
      char head[64];
      if (first) {
        std::snprintf(head, sizeof head, "%-4s  %-21s ", status_word(res.status), res.check.c_str());
      } else {  // further details line up under the first; a differing status is shown
        std::snprintf(head, sizeof head, "%22s%-5s ", "", d.status == res.status ? "" : status_word(d.status));
      }
      out << head << d.text << "\n";
      first = false;
    }
  }
  const Counts c = count(v);
  out << "\nResult   : " << result << (v.catalog_key.empty() ? ": standard checks only, no catalog entry" : "")
      << " (" << c.fail << " fail, " << c.warn << " warn, " << c.pass << " pass, " << c.skip << " skipped)\n";
  return out.str();
}

int run_verify(const VerifyOptions& o) {
  std::string label;
  std::vector<std::string> notes;
  cmis::ModuleImage image;
  std::shared_ptr<const daemon::CodingSetup> setup;
  coding::VerifyContext ctx;
  std::optional<ModuleSource> opened;
  try {
    if (!o.style.empty() && !coding::parse_style(o.style)) throw Unreadable{"--style: expected flat-top or finned-top"};
    std::string error;
    opened = open_module(o.source, o.port, error);
    if (!opened) throw Unreadable{error};
    if (opened->empty) {
      std::cout << verdict_text(judge_read(*opened, nullptr, {}));
      throw Unreadable{error};
    }
    label = opened->label;
    // The daemon's static read, then its dynamic bytes (live-value checks see current ones).
    const auto err = read_settled(*opened, image, notes);
    if (err && image.empty()) throw Unreadable{err->message};
    if (err) notes.push_back(err->message);
    refresh_dynamic(opened->transport(), image);
    auto judged = daemon_coding(o.port, *opened, o.catalogs, o.oui_registry, parse_now(o.now));
    if (auto* refused = std::get_if<std::string>(&judged)) throw Unreadable{*refused};
    setup = std::get<DaemonCoding>(judged).setup;
    ctx = std::get<DaemonCoding>(judged).context;
    if (!o.style.empty()) ctx.required_style = coding::parse_style(o.style);
  } catch (const Unreadable& u) {
    std::cerr << "xcvrctl verify: " << u.message << '\n';
    return kExitUnreadable;
  }
  std::string why;
  if (!coding::looks_like_module(image, &why)) {
    std::cerr << "xcvrctl verify: " << label << ": " << why << '\n';
    return kExitUnreadable;
  }
  notes.insert(notes.end(), setup->warnings.begin(), setup->warnings.end());

  const auto decoded = std::make_shared<const cmis::ModuleReport>(cmis::decode(image));
  const cmis::ModuleReport& report = *decoded;
  const coding::ModuleVerdict verdict = coding::verify_module_detailed(image, report, ctx);
  const health::PortView port_view = judge_read(*opened, decoded, verdict.findings());
  const coding::CheckStatus worst = verdict.worst();
  const int code = worst == coding::CheckStatus::Fail || (o.strict && worst == coding::CheckStatus::Warn)
                       ? kExitProblems
                       : kExitClean;
  const std::string result = worst == coding::CheckStatus::Fail ? "FAIL" : worst == coding::CheckStatus::Warn ? "WARN" : "PASS";

  if (o.json) {
    nlohmann::json j;
    j["source"] = label;
    j["module"] = cmis::to_json(report);
    j["catalog"] = verdict.catalog_key.empty()
                       ? nlohmann::json{{"key", nullptr}, {"note", no_entry_text(*setup, report)}}
                       : nlohmann::json{{"key", verdict.catalog_key},
                                        {"generic", verdict.catalog_generic},
                                        {"location", verdict.catalog_location}};
    j["catalog_paths"] = setup->catalog_paths;
    j["required_style"] = ctx.required_style ? nlohmann::json(*ctx.required_style) : nlohmann::json(nullptr);
    j["notes"] = verdict.notes;
    for (const std::string& n : notes) j["notes"].push_back(n);
    j["checks"] = nlohmann::json::array();
    for (const auto& r : verdict.results) {
      nlohmann::json details = nlohmann::json::array();
      for (const auto& d : r.details) details.push_back({{"status", coding::check_status_name(d.status)}, {"text", d.text}});
      j["checks"].push_back({{"check", r.check},
                             {"status", coding::check_status_name(r.status)},
                             {"message", r.message()},
                             {"details", details}});
    }
    const Counts c = count(verdict);
    j["health"] = health::health_name(port_view.health);  // the port's verdict, as the daemon gives it
    j["reasons"] = nlohmann::json::array();
    for (const health::Reason& r : port_view.reasons) j["reasons"].push_back(r.text);
    j["summary"] = {{"result", result}, {"fail", c.fail}, {"warn", c.warn}, {"pass", c.pass}, {"skip", c.skip},
                    {"exit_code", code}};
    // Module bytes may be anything: replace invalid UTF-8 rather than throw.
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    std::cout << render_text(label, report, verdict, *setup, ctx, notes, result) << "\n" << verdict_text(port_view);
  }
  return code;
}

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "verify", "Verify a module's coding (checksums, vendor fields, OUI, applications, power, thresholds) "
                "against the optic catalog");
  add_source_options(*cmd, o->source, /*file_positional=*/true);
  add_port_options(*cmd, o->port, o->source);
  cmd->add_option("--catalog", o->catalogs,
                  "Catalog directory or file, replacing the config's list; repeat to layer a site catalog "
                  "over the shipped one (default: the daemon's list: the config's catalog setting, else the "
                  "shipped catalog plus /etc/transceiver-exporter/catalog.d)");
  cmd->add_option("--oui-registry", o->oui_registry,
                  "IEEE OUI registry, directory with oui.csv or the file (default: the config's, else "
                  "/usr/share/ieee-data)");
  cmd->add_option("--style", o->style, "Module style the cage needs: flat-top or finned-top");
  cmd->add_option("--now", o->now, "Date the date-code check compares with (YYYY-MM-DD or unix seconds)");
  cmd->add_flag("--json", o->json, "Print JSON instead of text");
  cmd->add_flag("--strict", o->strict, "Exit 1 on warnings too");
  cmd->callback([o, &exit_code] { exit_code = run_verify(*o); });
}

}  // namespace xcvr::cli
