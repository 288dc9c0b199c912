#!/usr/bin/env python3
"""End to end: a real Prometheus (Debian `prometheus`) scrapes the real transceiver_exporter daemon
running the emulated demo fleet (real bus time) with injected faults, and evaluates the shipped
rules. Through Prometheus's HTTP API the test checks values and that the expected alerts fire,
evaluates every alert expression, recording rule and Grafana panel query (each must parse and
return data), then clears the faults (SIGHUP with a config without the fault scenario) and
waits for the alerts to resolve. Also: promtool check metrics on the daemon's scrape.

The shipped rule files are loaded rewritten in these ways only (daemon_fleet.rewrite_rules), so
that the test takes a minute instead of hours: every `for:` and `keep_firing_for:` becomes 5s
(TransceiverExporterAbsent's `for:` 2m), the BER-regression windows are scaled to seconds and the
recording group's `interval:` becomes 1s.

With `--profile fleet` the daemon serves the fleet metric profile (docs/metrics.md "Profiles"):
the same alerts must fire, every rule and dashboard query must still run and return data, and a
healthy 8-lane module must cost at most 30 series (counted on the scrape, beside the full
profile's count of the same module computed from the same scrape's structure).

  prometheus_scrape.py PATH/TO/transceiver_exporter [--profile full|fleet]
"""

import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dashboard_check  # noqa: E402
import metrics_doc  # noqa: E402
from daemon_fleet import (HOT_PORT, LOS_LANE, LOS_PORT, MODULE_FAULT_PORT, TX_FAULT_PORT,  # noqa: E402
                          UNREADABLE_PORT, Daemon, Processes, exposition_samples, fail, profile_argument,
                          require_tools, http_get, json_get, log, start_prometheus, wait_for)

# Alerts the injected faults must raise (alertname, port). The demo fleet's own dirty fiber
# (swp41) and miscoded optic (swp20) fire too.
EXPECTED_FIRING = {
    ("TransceiverTemperatureHighAlarm", HOT_PORT),  # its warning and headroom alerts fire too
    ("TransceiverRxLossOfSignal", LOS_PORT),
    ("TransceiverTxFault", TX_FAULT_PORT),
    ("TransceiverModuleFault", MODULE_FAULT_PORT),
    ("TransceiverModuleUnreadable", UNREADABLE_PORT),
    ("TransceiverRxPowerLowWarning", "spine-01/swp41"),
    ("TransceiverCodingCheckFailed", "spine-01/swp20"),
    ("TransceiverPowerOverAllowance", "gpu-node-01/mlx5_0"),  # the test's tight gpu-node budget
    ("TransceiverPowerBudgetExceeded", ""),
}
# The ones the fault scenario causes: they must resolve once it is removed.
FAULT_ALERTS = {a for a in EXPECTED_FIRING
                if a[1] in {HOT_PORT, LOS_PORT, TX_FAULT_PORT, MODULE_FAULT_PORT, UNREADABLE_PORT}
                and not a[0].startswith("TransceiverPower")}
OTHER_ALERTS = EXPECTED_FIRING - FAULT_ALERTS
# Documented families the demo fleet cannot serve, and why.
NOT_IN_DEMO_SCRAPE = {
    "transceiver_laser_temperature_celsius": "no emulated module reports a laser temperature",
    "transceiver_tec_current_ratio": "no emulated module has aux monitors",
    "transceiver_supply_voltage2_volts": "no emulated module has aux monitors",
    # VDM observables the emulated optics do not describe (laser temperature, eSNR, LTP,
    # pre-FEC BER and errored frames they do)
    "transceiver_lane_laser_age_ratio": "not described by the emulated optics",
    "transceiver_laser_age_threshold_ratio": "not described by the emulated optics",
    "transceiver_lane_tec_current_ratio": "not described by the emulated optics",
    "transceiver_tec_current_threshold_ratio": "not described by the emulated optics",
    "transceiver_lane_laser_frequency_error_hertz": "not described by the emulated optics",
    "transceiver_laser_frequency_error_threshold_hertz": "not described by the emulated optics",
    "transceiver_supply_rail_voltage_volts": "not described by the emulated optics",
    "transceiver_supply_rail_voltage_threshold_volts": "not described by the emulated optics",
}
# Link health: the demo's gpu-node-02 carries emulated links (links = true: FEC statistics with
# the codeword histogram, the carrier); the PMA PortCounters and PPCNT BER are the ib source's,
# which the emulated fleet does not have (e2e_ibsim_fabric scrapes them from a real IB stack).
# Rules that read them must still evaluate.
NOT_IN_DEMO_SCRAPE.update({name: "link health: ib source only" for name in (
    "transceiver_link_symbol_errors_total", "transceiver_link_error_recovery_total", "transceiver_link_downed_total",
    "transceiver_link_rcv_errors_total", "transceiver_link_local_integrity_errors_total",
    "transceiver_link_buffer_overrun_errors_total", "transceiver_link_saturated", "transceiver_link_raw_ber_ratio",
    "transceiver_link_effective_ber_ratio")})
NOT_IN_DEMO_SCRAPE.update({name: "the demo fleet without its timeline has no link failure or flap" for name in (
    "transceiver_link_read_errors_total", "transceiver_link_last_down_duration_seconds",
    "transceiver_link_last_down_timestamp_seconds")})
# The FEC tail needs two link reads (the link interval is 30 s): served or not by the check's time.
SERVED_BY_TIMING = {"transceiver_link_fec_tail_symbols"}
NOT_IN_DEMO_SCRAPE["transceiver_fec_limit_forecast_seconds"] = (
    "needs an hour of steadily rising pre-FEC BER (EmulatorForecast.WarnsBeforeTheFirstUncorrectableCodeword)")
# Coherent optics (OIF C-CMIS VDM types 128-147, rows marked "C-CMIS" in docs/metrics.md): no
# emulated module is coherent. CmisVdm.CoherentTypesAreDecodedAndServedInSiUnits serves them from
# a synthetic module, ExporterDocs from the rich snapshot.
NOT_IN_DEMO_SCRAPE.update({name: "no emulated module is coherent" for name in metrics_doc.documented_with("C-CMIS")})
NOT_IN_DEMO_SCRAPE["transceiver_port_misconfigured"] = "the demo fleet's config names nothing the host lacks (e2e_misconfiguration)"
# Rules that can only return data on InfiniBand fabric ports (the `node` label), which the
# emulated fleet does not have: they must evaluate without error, and may be empty.
FABRIC_ONLY_RULES = {"node:transceiver_temperature_celsius:max"}
# Rules that only return data after a link event (an LOS counter that rose or appeared while
# Prometheus was scraping the port, or an insertion) in the last hour (60 s here): the fleet's
# faults start before Prometheus' first scrape, so there may be none yet.
EVENT_ONLY_RULES = {"instance_port:transceiver_link_event_1h:max"}


def series_names(expr):
    """Metric and recorded-series names an expression reads (label values and strings removed)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', expr)
    return {tok for tok in re.findall(r"[A-Za-z_:][A-Za-z0-9_:]*", expr)
            if tok.startswith("transceiver_") or ":" in tok or tok == "up"}


def check_rules(prom):
    r = json_get(f"{prom.api}/rules")
    rules = [rule for g in r["data"]["groups"] for rule in g["rules"]]
    if len(rules) < 20:
        fail(f"only {len(rules)} rules loaded")
    for rule in rules:
        name = rule.get("name")
        if rule.get("health") != "ok":
            fail(f"rule {name} health {rule.get('health')}: {rule.get('lastError')}")
        # Alert expressions are mostly empty on a healthy series (sparse flags, suppressions):
        # what must hold is that every series they read exists, so no name is misspelt.
        for series in series_names(rule["query"]) - FABRIC_ONLY_RULES - EVENT_ONLY_RULES - set(NOT_IN_DEMO_SCRAPE) - SERVED_BY_TIMING:
            if not prom.query(f'count({{__name__="{series}"}})'):
                fail(f"rule {name} reads {series}, which Prometheus does not have")
        if rule["type"] == "recording" and name not in FABRIC_ONLY_RULES | EVENT_ONLY_RULES and not prom.query(name):
            fail(f"recorded series {name} missing")
    log(f"ok: {len(rules)} alert and recording rules evaluate and every series they read exists")


FLEET_SERIES_PER_MODULE = 30  # issue 39: a healthy 8-lane module in the fleet profile
FLEET_SERIES_PER_LINK = 10  # beside it, its link's health where the path reads one (docs/metrics.md, Profiles)


def settled(daemon):
    """The samples (name, labels dict, value) of a /metrics body in which no healthy port still
    shows an insertion's state-change events (flags raised per lane, as every profile serves
    raised flags, for flag_hold), else None."""
    body = http_get(daemon.url + "/metrics")[1]
    samples = [(name, dict(pairs), value) for name, pairs, value in exposition_samples(body.decode())]
    ok = {labels["port"] for name, labels, value in samples
          if name == "transceiver_port_health" and labels.get("health") == "ok" and value == 1}
    events = [labels for name, labels, _ in samples if name == "transceiver_flag" and labels.get("port") in ok
              and labels.get("flag", "").endswith("_state_changed")]
    return None if events else samples


def check_fleet_series(samples):
    """Fleet profile: every healthy (ok) port holding an 8-lane module is served in at most
    FLEET_SERIES_PER_MODULE series and without lanes; a faulty port keeps its lanes."""
    by_port, lanes, health, info = {}, {}, {}, {}
    for name, labels, value in samples:
        port = labels.get("port")
        if port is None:
            continue
        by_port[port] = by_port.get(port, 0) + 1
        if labels.get("lane"):
            lanes.setdefault(port, set()).add(labels["lane"])
        if name == "transceiver_port_health" and value == 1:
            health[port] = labels["health"]
        if name == "transceiver_module_info":
            info[port] = labels
    eight_lane = [p for p, labels in info.items() if labels.get("identifier") in ("QSFP-DD", "OSFP")
                  and health.get(p) == "ok"]
    # The module's series, and beside them its link's where the path reads one (gpu-node-02's
    # emulated NIC links): the link has its own budget, FLEET_SERIES_PER_LINK.
    link_series = {}
    for name, labels, value in samples:
        if name.startswith("transceiver_link_") and labels.get("port"):
            link_series[labels["port"]] = link_series.get(labels["port"], 0) + 1
            by_port[labels["port"]] -= 1
    over_link = {p: n for p, n in link_series.items() if n > FLEET_SERIES_PER_LINK}
    if over_link:
        fail(f"fleet profile: link health over {FLEET_SERIES_PER_LINK} series: {over_link}")
    if link_series:
        log(f"ok: fleet profile: {len(link_series)} ports' links served in {min(link_series.values())}-"
            f"{max(link_series.values())} series beside their modules'")
    if len(eight_lane) < 20:
        fail(f"fleet profile: only {len(eight_lane)} healthy 8-lane modules in the scrape")
    over = {p: by_port[p] for p in eight_lane if by_port[p] > FLEET_SERIES_PER_MODULE}
    laned = sorted(p for p in eight_lane if lanes.get(p))
    if over or laned:
        fail(f"fleet profile: healthy 8-lane modules over {FLEET_SERIES_PER_MODULE} series: {over}; with lanes: {laned}")
    if not lanes.get(LOS_PORT):
        fail(f"fleet profile: {LOS_PORT} (LOS) served without its lanes")
    counts = sorted(by_port[p] for p in eight_lane)
    log(f"ok: fleet profile: {len(eight_lane)} healthy 8-lane modules served in {counts[0]}-{counts[-1]} series "
        f"each (at most {FLEET_SERIES_PER_MODULE}), none with lanes; {LOS_PORT} with its lanes ({by_port[LOS_PORT]} series)")


def main():
    binary = os.path.abspath(sys.argv[1])
    profile = profile_argument(sys.argv, "prometheus_scrape.py")
    require_tools("prometheus", "promtool")
    started = time.monotonic()
    with Processes("xcvr-e2e-prom-") as procs:
        daemon = Daemon(procs, binary, profile=profile)
        instance = f"127.0.0.1:{daemon.port}"
        prom, prom_port = start_prometheus(procs, instance)

        daemon.wait_ready()
        status, body = http_get(daemon.url + "/metrics")
        faulty_scrape = body
        lint = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True)
        findings = (lint.stdout + lint.stderr).decode().strip()
        if lint.returncode != 0 or findings:
            fail(f"promtool check metrics on the demo fleet: {findings}")
        log(f"ok: promtool check metrics: zero findings on {len(body)} bytes, "
            f"{sum(1 for ln in body.splitlines() if ln and not ln.startswith(b'#'))} samples ({profile} profile)")
        if profile == "fleet":
            check_fleet_series(wait_for("the healthy ports' insertion events to clear", lambda: settled(daemon), 30, 1))

        wait_for("Prometheus to scrape the daemon",
                 lambda: http_get(f"http://127.0.0.1:{prom_port}/-/ready")[0] == 200 and
                 prom.value('up{job="transceiver"}') == 1, 60)
        targets = json_get(f"{prom.api}/targets")["data"]["activeTargets"]
        if any(t["lastError"] for t in targets):
            fail(f"scrape error: {targets}")

        def all_firing():
            daemon.alive()
            return EXPECTED_FIRING <= prom.alerts("firing")

        wait_for("the expected alerts to fire", all_firing, 90, 1)
        log(f"ok: firing after {time.monotonic() - started:.0f} s: {sorted(a for a, _ in EXPECTED_FIRING)}")

        # Values as Prometheus stored them.
        hot = prom.value(f'transceiver_temperature_celsius{{port="{HOT_PORT}"}}')
        alarm = prom.value(f'transceiver_temperature_threshold_celsius{{port="{HOT_PORT}",level="high_alarm"}}')
        if hot is None or alarm is None or hot <= alarm:
            fail(f"{HOT_PORT} at {hot} °C, high alarm {alarm}")
        if prom.value(f'transceiver_flag{{port="{LOS_PORT}",lane="{LOS_LANE}",flag="rx_los"}}') != 1:
            fail("rx_los flag of the LOS lane")
        if prom.value(f'transceiver_module_state{{port="{MODULE_FAULT_PORT}",state="fault"}}') != 1:
            fail("module state fault")
        if prom.value(f'transceiver_module_stale{{port="{UNREADABLE_PORT}"}}') != 1:
            fail("unreadable port not stale")
        if prom.value('count(transceiver_module_present == 1)') is None:
            fail("no modules present")
        cool = prom.value('transceiver_temperature_celsius{port="spine-01/swp1"}')
        if cool is None or not 20 < cool < 70:
            fail(f"healthy swp1 at {cool} °C")
        healthy_alerts = {a for a in prom.any_alerts() if a[1] == "spine-01/swp1"} | \
            {a for a in prom.any_alerts() if a[0].startswith("TransceiverExporter")}
        if healthy_alerts:
            fail(f"alerts that must not fire: {healthy_alerts}")
        log(f"ok: values: {HOT_PORT} {hot:.1f} °C > high alarm {alarm:g} °C; {LOS_PORT} lane {LOS_LANE} rx_los=1; "
            f"swp1 {cool:.1f} °C with no alert")

        check_rules(prom)
        dashboard_check.check_live(prom.api, instance)

        # Clear the faults: a config without the fault scenario, by SIGHUP.
        cleared_at = time.monotonic()
        daemon.reload(faults=False)

        def resolved():
            daemon.alive()
            left = prom.any_alerts() & FAULT_ALERTS
            return not left and prom.value(f'transceiver_temperature_celsius{{port="{HOT_PORT}"}} < 70') is not None

        try:
            wait_for("the injected alerts to resolve", resolved, 60, 1)
        except SystemExit:
            hot_now = prom.value('transceiver_temperature_celsius{port="%s"}' % HOT_PORT)
            log(f"still active: {sorted(prom.any_alerts() & FAULT_ALERTS)}; "
                f"{HOT_PORT} at {hot_now} °C\n" + procs.log_tail("daemon"))
            raise
        resolved_after = time.monotonic() - cleared_at
        # The reloaded fleet settles first (its series are briefly withheld, which alone would end
        # every alert): wait until the alerts the fault scenario did not cause fire again, then
        # the injected ones must still be inactive.
        wait_for("the demo fleet's own alerts to fire again",
                 lambda: daemon.alive() and OTHER_ALERTS <= prom.alerts("firing"), 60, 1)
        if prom.any_alerts() & FAULT_ALERTS:
            fail(f"injected alerts active again: {sorted(prom.any_alerts() & FAULT_ALERTS)}")
        if prom.value("transceiver_exporter_config_last_reload_successful") != 1 or \
                (prom.value("transceiver_exporter_config_reloads_total") or 0) < 1:
            fail("reload not reported as successful")
        if prom.query(f'transceiver_flag{{port="{LOS_PORT}",flag="rx_los"}}'):
            fail("rx_los still raised after the clear")
        log(f"ok: injected alerts resolved {resolved_after:.0f} s after SIGHUP and stay resolved while the "
            f"demo fleet's own fire again: {sorted(prom.alerts('firing'))}")

        # The scrape with faults and one after the reload (reload time, the previous render's
        # duration): together they hold every family the demo fleet can serve.
        if profile == "fleet":  # docs/metrics.md is held to the full profile's families, a superset
            log(f"PASS prometheus end to end, fleet profile ({time.monotonic() - started:.0f} s)")
            return
        status, after = http_get(daemon.url + "/metrics")
        both = faulty_scrape.decode() + "\n" + after.decode()
        problems = metrics_doc.compare(both, NOT_IN_DEMO_SCRAPE, SERVED_BY_TIMING)
        if status != 200 or problems:
            fail("docs/metrics.md vs the demo fleet's /metrics:\n  " + "\n  ".join(problems))
        log(f"ok: docs/metrics.md matches the demo fleet's /metrics: {len(metrics_doc.served(both))} "
            f"families with their types and labels (not served by the demo fleet: {sorted(NOT_IN_DEMO_SCRAPE)})")
    log(f"PASS prometheus end to end ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
