#!/usr/bin/env python3
"""End to end through a real Alertmanager: the real transceiver_exporter daemon polls an emulated
12-port switch (alert_fleet.toml) with one injected fault per faulty port (alert_faults.toml:
overheat, ModuleFault, LowPwr, Tx fault, dirty fiber, dark module, miscoded, unreadable) beside
healthy ports; a real Prometheus (Debian `prometheus`) scrapes it and evaluates the shipped
rules (config/prometheus/) and sends to a real Alertmanager (Debian `prometheus-alertmanager`)
running the shipped configuration (config/alertmanager/alertmanager.yml); a webhook receiver
on loopback records the notifications.

Asserted: every faulty port produces exactly one notification group, carrying only the alerts
its fault explains (no derived alerts); healthy ports and the exporter produce none; every
notified alert names its port, its reason (summary) and its runbook (runbook_url = the recorded
base + the alert's anchor); pulling the faulted module out (an unplug in the timeline) raises
TransceiverModuleRemoved instead of silence; clearing the faults (SIGHUP with a config without
the scenario) resolves every alert, each group's last notification being "resolved".

What the test changes, so that it takes two minutes instead of hours: every `for:` and
`keep_firing_for:` of the rules becomes 5s (TransceiverExporterAbsent's `for:` 2m, so Prometheus'
start is not an absence), the BER-regression windows are scaled to seconds, and recording
intervals 1s (daemon_fleet.rewrite_rules, as in prometheus_scrape.py), and in the Alertmanager
configuration only the receiver URL and group_wait/group_interval/repeat_interval. Routing and
inhibition are the shipped ones.

With `--profile fleet` the daemon serves the fleet metric profile (docs/metrics.md "Profiles":
per port its values and worst lanes, lanes only for ports that are not ok): the same
notifications must arrive, and the healthy ports are checked to be served without lanes.

  alertmanager_e2e.py PATH/TO/transceiver_exporter [--profile full|fleet]
"""

import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import (ALERTMANAGER, Daemon, Processes, Webhook, alerts_of, by_port, fail, http_get,  # noqa: E402
                          json_get, log, profile_argument, require_tools, start_alertmanager, start_prometheus)

E2E = os.path.dirname(os.path.abspath(__file__))
# Faulty port -> (the alert its fault must raise, every alert it may raise). The extra ones are
# the same fault seen at another stage (a module heating up passes its warning first).
FAULTY = {
    "sw/swp2": ("TransceiverTemperatureHighAlarm",
                {"TransceiverTemperatureHighAlarm", "TransceiverTemperatureHighWarning",
                 "TransceiverTemperatureHeadroomLow"}),
    "sw/swp3": ("TransceiverModuleFault", {"TransceiverModuleFault", "TransceiverModuleRemoved"}),
    "sw/swp4": ("TransceiverModuleDown", {"TransceiverModuleDown"}),
    "sw/swp5": ("TransceiverTxFault", {"TransceiverTxFault"}),
    "sw/swp7": ("TransceiverRxPowerLowWarning", {"TransceiverRxPowerLowWarning"}),
    # Dark: LOS on every lane (the health model calls it down; the LOS says why).
    "sw/swp8": ("TransceiverRxLossOfSignal", {"TransceiverRxLossOfSignal"}),
    "sw/swp9": ("TransceiverCodingCheckFailed", {"TransceiverCodingCheckFailed"}),
    "sw/swp11": ("TransceiverModuleUnreadable", {"TransceiverModuleUnreadable"}),
    # VDM: a degrading pre-FEC BER passes the module's warning, then the FEC limit (the critical
    # joins the warning, which keeps firing under it), its eSNR falling with it; a flap that
    # comes back worse (its 3 s LOS may outlast the 5 s `for:`).
    "sw/swp13": ("TransceiverPreFecBerHigh", {"TransceiverPreFecBerHigh", "TransceiverPreFecBerAboveFecLimit",
                                              "TransceiverEsnrLow"}),
    "sw/swp14": ("TransceiverPreFecBerRegression", {"TransceiverPreFecBerRegression", "TransceiverRxLossOfSignal"}),
}
HEALTHY = ["sw/swp1", "sw/swp6", "sw/swp10", "sw/swp12"]
PULLED = "sw/swp3"  # unplugged at 60 s by alert_faults.toml
POLL_S = 1.0  # every wait below polls once a second, a bounded number of times


def poll(what, predicate, tries):
    """Calls predicate() up to `tries` times, POLL_S apart, until it returns a truthy value."""
    for _ in range(tries):
        value = predicate()
        if value:
            return value
        time.sleep(POLL_S)
    fail(f"gave up after {tries} polls waiting for {what}")


def check_notification(n, runbook_base):
    """Every alert names its port, its reason and its runbook."""
    port = n.get("groupLabels", {}).get("port")
    if not port:
        fail(f"notification without a port group: {json.dumps(n)[:400]}")
    for a in n.get("alerts", []):
        name, labels, ann = a["labels"]["alertname"], a["labels"], a.get("annotations", {})
        summary = ann.get("summary", "")
        if labels.get("port") != port or port not in summary:
            fail(f"{name} in the group of {port} names port {labels.get('port')}: {summary!r}")
        if not labels.get("severity") or not labels.get("category"):
            fail(f"{name} on {port}: no severity/category: {labels}")
        for key, text in ann.items():
            if "<no value>" in text or "error expanding template" in text:
                fail(f"{name} on {port}: annotation {key} did not render: {text!r}")
        if ann.get("runbook_url") != f"{runbook_base}#{name.lower()}":
            fail(f"{name} on {port}: runbook_url {ann.get('runbook_url')!r}, "
                 f"expected {runbook_base}#{name.lower()}")


def main():
    binary = os.path.abspath(sys.argv[1])
    profile = profile_argument(sys.argv, "alertmanager_e2e.py")
    require_tools("prometheus", "promtool", "amtool", ALERTMANAGER, packages="prometheus and prometheus-alertmanager")
    started = time.monotonic()
    webhook = Webhook()
    with Processes("xcvr-e2e-am-") as procs:
        am_port = start_alertmanager(procs, webhook.url)
        daemon = Daemon(procs, binary, fleet=os.path.join(E2E, "alert_fleet.toml"),
                        scenario=os.path.join(E2E, "alert_faults.toml"), budgets=False, profile=profile)
        prom, prom_port = start_prometheus(procs, f"127.0.0.1:{daemon.port}", f"""alerting:
  alertmanagers: [{{static_configs: [{{targets: ['127.0.0.1:{am_port}']}}]}}]
""")
        am_api = f"http://127.0.0.1:{am_port}/api/v2"
        poll("Alertmanager to be ready", lambda: http_get(f"http://127.0.0.1:{am_port}/-/ready")[0] == 200, 60)
        poll("Prometheus to scrape the daemon", lambda: daemon.alive() and
             http_get(f"http://127.0.0.1:{prom_port}/-/ready")[0] == 200 and
             prom.value('up{job="transceiver"}') == 1, 60)
        runbook = poll("the runbook base to be recorded", lambda: prom.query("transceiver:runbook:info"), 30)
        runbook_base = runbook[0]["metric"]["url"]

        # Phase 1: every fault notified, the pulled module's fault before it is pulled.
        missing = {}

        def faults_notified():
            daemon.alive()
            groups = by_port(webhook.snapshot())
            missing.clear()
            missing.update({port: sorted(alerts_of(groups.get(port, []))) for port, (primary, _) in FAULTY.items()
                            if primary not in alerts_of(groups.get(port, []), "firing")})
            return not missing

        try:
            poll("a notification for every faulty port", faults_notified, 150)
        except SystemExit:
            log(f"ports without their alert (what they got): {missing}; Prometheus: {sorted(prom.alerts('firing'))}")
            raise
        log(f"ok: every faulty port notified after {time.monotonic() - started:.0f} s ({profile} profile)")
        if profile == "fleet":
            lanes = {p: prom.value(f'count({{port="{p}",lane!=""}})') for p in HEALTHY + list(FAULTY)}
            if any(lanes[p] for p in HEALTHY) or not lanes["sw/swp13"]:
                fail(f"fleet profile: per-lane series by port: {lanes}; want none for the healthy {HEALTHY}")
            log(f"ok: fleet profile: the healthy ports are served without lanes, the faulty ones with: {lanes}")
        # The module's VDM flag is an event, counted once however many polls it stays raised.
        # (The fleet profile sums a flag's counters over the port's lanes: only lane 2 raised it.)
        lane = ',lane="2"' if profile == "full" else ""
        ber_flag = f'transceiver_flag_raised_total{{port="sw/swp13"{lane},flag="vdm_pre_fec_ber_current_media_high_warning"}}'
        if prom.value(ber_flag) != 1:
            fail(f"{ber_flag} = {prom.value(ber_flag)}, want 1 (one event, not one per poll)")
        log("ok: the degrading BER's VDM warning flag counted as one event")

        # Phase 2: the faulted module is pulled out (60 s into the timeline).
        poll(f"TransceiverModuleRemoved on {PULLED}", lambda: daemon.alive() and "TransceiverModuleRemoved" in
             alerts_of(by_port(webhook.snapshot()).get(PULLED, []), "firing"), 120)
        pulled = by_port(webhook.snapshot())[PULLED]
        first_removed = next(i for i, n in enumerate(pulled)
                             if "TransceiverModuleRemoved" in alerts_of([n], "firing"))
        if "TransceiverModuleFault" not in alerts_of(pulled[:first_removed], "firing"):
            fail(f"{PULLED}: ModuleFault was not notified before the module was pulled")
        log(f"ok: pulling {PULLED} out raised TransceiverModuleRemoved "
            f"(after {time.monotonic() - started:.0f} s)")

        notifications = webhook.snapshot()
        groups = by_port(notifications)
        for n in notifications:
            check_notification(n, runbook_base)
        for port in HEALTHY:
            if port in groups:
                fail(f"healthy {port} notified: {sorted(alerts_of(groups[port]))}")
        for port, (_, allowed) in FAULTY.items():
            keys = {n["groupKey"] for n in groups[port]}
            if len(keys) != 1:
                fail(f"{port}: {len(keys)} notification groups: {sorted(keys)}")
            extra = alerts_of(groups[port]) - allowed
            if extra:
                fail(f"{port}: alerts its fault does not explain: {sorted(extra)}")
        unexpected = set(groups) - set(FAULTY)
        if unexpected:
            fail(f"notifications for {sorted(unexpected)}: "
                 f"{sorted(alerts_of([n for p in unexpected for n in groups[p]]))}")
        firing = sorted({(a["labels"]["alertname"], a["labels"]["port"]) for n in notifications
                         for a in n["alerts"] if a["status"] == "firing"})
        sample = next(a for n in groups["sw/swp7"] for a in n["alerts"])
        log("ok: sample notified alert: " + json.dumps({"labels": sample["labels"], "annotations": sample["annotations"]},
                                                    ensure_ascii=False))
        prom_alerts = len(json_get(f"{prom.api}/alerts")["data"]["alerts"])
        log(f"ok: {len(notifications)} notifications in {len(groups)} groups (one per faulty port, none for "
            f"the {len(HEALTHY)} healthy ports) for {len(firing)} distinct alerts; Prometheus holds "
            f"{prom_alerts} alerts now:\n  " + "\n  ".join(f"{p} {a}" for a, p in sorted(firing, key=lambda x: x[1])))

        # Phase 3: clear the faults; every alert resolves and every group ends "resolved".
        cleared_at = time.monotonic()
        daemon.reload(faults=False)

        def all_resolved():
            daemon.alive()
            active = json_get(f"{am_api}/alerts")
            if active is None or active:
                return False
            last = {port: ns[-1] for port, ns in by_port(webhook.snapshot()).items()}
            return all(n["status"] == "resolved" for n in last.values())

        try:
            poll("every alert to resolve", all_resolved, 150)
        except SystemExit:
            log(f"still active in Alertmanager: "
                f"{[(a['labels']['alertname'], a['labels'].get('port')) for a in json_get(f'{am_api}/alerts') or []]}")
            raise
        resolved_after = time.monotonic() - cleared_at
        # The reloaded fleet settles first (its series are briefly withheld, which alone ends
        # every alert): once every port is read again, the alerts must stay resolved.
        ports = len(FAULTY) + len(HEALTHY)
        poll("every port of the reloaded fleet to be read", lambda: daemon.alive() and prom.value(
            'count(transceiver_port_lifecycle_state{state="ok"} == 1)') == ports and
             prom.value("count(transceiver_temperature_celsius)") == ports, 60)
        quiet_before = len(webhook.snapshot())
        for _ in range(15):  # longer than `for:` (5s) plus group_wait (1s)
            time.sleep(POLL_S)
            active = json_get(f"{am_api}/alerts")
            if active is None or active or prom.alerts("firing") or prom.alerts("pending"):
                fail(f"alerts after the clear: {active} {prom.alerts('firing') | prom.alerts('pending')}")
        if len(webhook.snapshot()) != quiet_before:
            fail(f"notifications after the clear: {webhook.snapshot()[quiet_before:]}")
        notifications = webhook.snapshot()
        for n in notifications:
            check_notification(n, runbook_base)
        if set(by_port(notifications)) != set(FAULTY):
            fail(f"groups after the clear: {sorted(by_port(notifications))}")
        resolved = sum(1 for n in notifications for a in n["alerts"] if a["status"] == "resolved")
        log(f"ok: every alert resolved {resolved_after:.0f} s after the clear and stayed resolved with every port read; "
            f"{len(notifications)} notifications in total, {resolved} resolved-alert entries")
    webhook.close()
    log(f"PASS alertmanager end to end ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
