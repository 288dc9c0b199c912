#!/usr/bin/env python3
"""Escalation through a real Alertmanager (#41: no RESOLVED between warning and critical). The
real transceiver_exporter daemon polls the emulated switch of alert_fleet.toml with the timeline
alert_escalation.toml; a real Prometheus (Debian `prometheus`) evaluates the shipped rules
(config/prometheus/) and sends to a real Alertmanager (Debian `prometheus-alertmanager`) running
the shipped configuration (config/alertmanager/alertmanager.yml); a webhook receiver on
loopback records the notifications (the harness of alertmanager_e2e.py, from daemon_fleet.py).

ESCALATION, sw/swp13: the worst lane's pre-FEC BER passes the module's VDM warning (1e-5) and,
45 s later, the FEC limit (2.4e-4), and stays there. Asserted from the notifications: (a) the
warning (TransceiverPreFecBerHigh, severity warning) is notified first, while the BER is still
under the limit; (b) the critical (TransceiverPreFecBerAboveFecLimit, severity critical) is
notified after the crossing; (c) no notification ever carries either alert "resolved" while the
BER stays up; (d) the port is one notification group. And, because Alertmanager mutes the
warning under the critical (so a resolved warning would never reach the webhook either): past
the crossing, Alertmanager still holds the warning, active and inhibited by the critical, and
Prometheus' warning is the one that started before the crossing.

OSCILLATION, sw/swp14: the BER crosses the limit up, down, up, down, up (12 s under it each
time, above the warning level throughout). Asserted: the critical stays firing through the dips
(Prometheus' one alert, never notified "resolved"), the warning is never notified "resolved",
one notification group, and the dips were real (the BER Prometheus scraped went under the limit
twice after the critical fired).

What the test changes (daemon_fleet.rewrite_rules, as in alertmanager_e2e.py): every `for:` and
`keep_firing_for:` of the rules becomes 5s, except the critical's `keep_firing_for:`, which is
30s (the shipped 10m scaled by 1/20, like the 12 s dips against the minutes a BER hovering on
the limit takes). The escalation's property does not come from keep_firing_for: the warning's
5s is shorter than the time the BER stays over the limit before the checks (over 20 s), so a
warning rule that went false past the limit would be resolved by then, and its absence in
Alertmanager fails (c). The oscillation's property does come from the critical's
keep_firing_for (12 s dips under 30s; with 5s it would resolve in every dip). In the
Alertmanager configuration only the receiver URL and group_wait/group_interval/repeat_interval
change; routing and inhibition are the shipped ones. About 2 minutes.

  alertmanager_escalation_e2e.py PATH/TO/transceiver_exporter
"""

import datetime
import os
import re
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import (ALERTMANAGER, Daemon, Processes, Webhook, alerts_of, by_port, fail, http_get,  # noqa: E402
                          json_get, log, require_tools, start_alertmanager, start_prometheus, wait_for)

E2E = os.path.dirname(os.path.abspath(__file__))
WARNING = ("TransceiverPreFecBerHigh", "warning")
CRITICAL = ("TransceiverPreFecBerAboveFecLimit", "critical")
ESCALATING = "sw/swp13"
OSCILLATING = "sw/swp14"
PORTS = (ESCALATING, OSCILLATING)
# Other alerts the BER may bring on these ports (their eSNR falls with it).
ALSO_ALLOWED = {"TransceiverEsnrLow"}
FEC_LIMIT = 2.4e-4
# alert_escalation.toml, seconds after the daemon started: the crossing, the oscillation's dips
# (under the limit from..until), the end of the timeline.
CROSSING_S = 45
DIPS_S = ((62, 74), (86, 98))
END_S = 98
CRITICAL_KEEP_FIRING = "30s"


def worst_ber(port):
    return f'max(transceiver_lane_pre_fec_ber_ratio{{port="{port}"}})'


def unix_time(rfc3339):
    """Prometheus' activeAt (UTC, to the nanosecond) in whole seconds since the epoch."""
    return datetime.datetime.fromisoformat(re.sub(r"(\.\d+)?Z$", "+00:00", rfc3339)).timestamp()


def named(alert):
    return alert["labels"]["alertname"], alert["labels"].get("severity")


class Notified:
    """The webhook's notifications of PORTS, checked on every look: (c) neither BER alert of a
    port is ever notified "resolved" (the faults stay on for the whole test), and only these
    ports notify."""

    def __init__(self, webhook):
        self.webhook = webhook

    def groups(self):
        groups = by_port(self.webhook.snapshot())
        for port, notifications in groups.items():
            if port not in PORTS:
                fail(f"{port} notified, its module is healthy: {sorted(alerts_of(notifications))}")
            for i, n in enumerate(notifications):
                for a in n.get("alerts", []):
                    if a.get("status") == "resolved" and a["labels"]["alertname"] in (WARNING[0], CRITICAL[0]):
                        fail(f"{port}: notification {i + 1} carries {named(a)} RESOLVED while its BER is still "
                             f"over the warning level (firing: {sorted(alerts_of([n], 'firing'))})")
        return groups

    def first_firing(self, port, alert):
        """Index of the first notification of `port` carrying `alert` (name, severity) firing."""
        for i, n in enumerate(self.groups().get(port, [])):
            if any(named(a) == alert and a["status"] == "firing" for a in n.get("alerts", [])):
                return i
        return None


def main():
    binary = os.path.abspath(sys.argv[1])
    require_tools("prometheus", "promtool", "amtool", ALERTMANAGER, packages="prometheus and prometheus-alertmanager")
    started = time.monotonic()
    webhook = Webhook()
    notified = Notified(webhook)
    with Processes("xcvr-e2e-am-esc-") as procs:
        am_port = start_alertmanager(procs, webhook.url)
        t0, t0_unix = time.monotonic(), time.time()  # the timeline starts with the daemon
        daemon = Daemon(procs, binary, fleet=os.path.join(E2E, "alert_fleet.toml"),
                        scenario=os.path.join(E2E, "alert_escalation.toml"), budgets=False)
        prom, prom_port = start_prometheus(procs, f"127.0.0.1:{daemon.port}", f"""alerting:
  alertmanagers: [{{static_configs: [{{targets: ['127.0.0.1:{am_port}']}}]}}]
""", keep_firing={CRITICAL[0]: CRITICAL_KEEP_FIRING})
        am_api = f"http://127.0.0.1:{am_port}/api/v2"

        def since():
            return time.monotonic() - t0

        wait_for("Alertmanager to be ready", lambda: http_get(f"http://127.0.0.1:{am_port}/-/ready")[0] == 200, 60)
        wait_for("Prometheus to scrape the daemon", lambda: daemon.alive() and
                 http_get(f"http://127.0.0.1:{prom_port}/-/ready")[0] == 200 and
                 prom.value('up{job="transceiver"}') == 1, 60)

        # (a) The warning first, while the BER is under the limit, on both ports.
        for port in PORTS:
            wait_for(f"{WARNING} notified on {port}", lambda: daemon.alive() and
                     notified.first_firing(port, WARNING) is not None, CROSSING_S + 30)
            ber = prom.value(worst_ber(port))
            if since() >= CROSSING_S or ber is None or ber >= FEC_LIMIT:
                fail(f"{port}: the warning was notified {since():.0f} s after the start (BER {ber}), not before "
                     f"the BER crossed the FEC limit ({CROSSING_S} s): too slow a machine, or the warning "
                     "rule missed the warning level")
            first = notified.groups()[port][notified.first_firing(port, WARNING)]
            if CRITICAL in {named(a) for a in first["alerts"] if a["status"] == "firing"}:
                fail(f"{port}: the critical was notified with the first warning")
            log(f"ok: {port}: {WARNING[0]} notified {since():.0f} s after the start, BER {ber:.2g} under the "
                "FEC limit")

        # (b) The critical after the crossing, on both ports, before the oscillation's first dip.
        for port in PORTS:
            wait_for(f"{CRITICAL} notified on {port}", lambda: daemon.alive() and
                     notified.first_firing(port, CRITICAL) is not None, CROSSING_S + 40 - since())
            if since() >= DIPS_S[0][0] and port == OSCILLATING:
                fail(f"{port}: the critical was notified only {since():.0f} s after the start, after the first dip "
                     f"({DIPS_S[0][0]} s): too slow a machine")
            i, j = notified.first_firing(port, WARNING), notified.first_firing(port, CRITICAL)
            if j <= i:
                fail(f"{port}: the critical (notification {j + 1}) was not notified after the warning ({i + 1})")
            log(f"ok: {port}: {CRITICAL[0]} notified {since():.0f} s after the start (BER "
                f"{prom.value(worst_ber(port)):.2g})")
        crit_first_s = since()

        # The BER stays over the limit on swp13 and oscillates on swp14 until the timeline ends;
        # (c) is checked on every look.
        wait_for("the oscillation to end", lambda: daemon.alive() and notified.groups() is not None and
                 since() > END_S + 8, END_S + 20)

        # Escalation: past the crossing by far more than the warning's keep_firing_for (5s), the
        # warning is still true in Prometheus (the alert that started before the crossing) and
        # held by Alertmanager, inhibited by the critical; the port's page shows the critical.
        prom_alerts = {(a["labels"]["alertname"], a["labels"].get("port")): a for a in prom.alert_list()}
        for port in PORTS:
            for name, _ in (WARNING, CRITICAL):
                if prom_alerts.get((name, port), {}).get("state") != "firing":
                    fail(f"{port}: {name} not firing in Prometheus: {prom_alerts.get((name, port))}")
            warning_since = unix_time(prom_alerts[(WARNING[0], port)]["activeAt"]) - t0_unix
            if warning_since >= CROSSING_S:
                fail(f"{port}: Prometheus' warning is active since {warning_since:.0f} s after the start, "
                     f"not since before the crossing ({CROSSING_S} s): it ended and started again")
            am_alerts = json_get(f"{am_api}/alerts?filter=" + urllib.parse.quote(f'port="{port}"'))
            if am_alerts is None:
                fail(f"{am_api}/alerts")
            held = {named(a): a for a in am_alerts}
            if WARNING not in held or CRITICAL not in held:
                fail(f"{port}: Alertmanager holds {sorted(held)}, want the warning and the critical")
            status = held[WARNING]["status"]
            if status.get("state") != "suppressed" or held[CRITICAL]["fingerprint"] not in status.get("inhibitedBy", []):
                fail(f"{port}: the warning is not inhibited by the critical in Alertmanager: {status}")
            if held[CRITICAL]["status"].get("state") != "active":
                fail(f"{port}: the critical is not active in Alertmanager: {held[CRITICAL]['status']}")
        log("ok: the warnings still true and held by Alertmanager, inhibited by the criticals, "
            f"{since() - CROSSING_S:.0f} s after the crossing")

        # Oscillation: the dips were real, and the critical that fired before them is the one firing.
        window = f"{int(since() - crit_first_s)}s"
        crossings = prom.value(f"changes(({worst_ber(OSCILLATING)} > bool {FEC_LIMIT})[{window}:1s])")
        lowest = prom.value(f"min_over_time({worst_ber(OSCILLATING)}[{window}:1s])")
        if crossings is None or crossings < 2 * len(DIPS_S) or lowest is None or lowest >= FEC_LIMIT:
            fail(f"{OSCILLATING}: the BER did not dip under the FEC limit twice since the critical fired "
                 f"({crossings} crossings, lowest {lowest})")
        warning_level = prom.value(f'max(instance_port_side:transceiver_pre_fec_ber_warning:ratio{{port="{OSCILLATING}"}})')
        if warning_level is None or lowest <= warning_level:
            fail(f"{OSCILLATING}: the BER fell to {lowest}, under the warning level {warning_level}")
        critical_since = unix_time(prom_alerts[(CRITICAL[0], OSCILLATING)]["activeAt"]) - t0_unix
        if critical_since >= DIPS_S[0][0]:
            fail(f"{OSCILLATING}: Prometheus' critical is active since {critical_since:.0f} s after the start, "
                 f"not since before the first dip ({DIPS_S[0][0]} s): a dip ended it")
        log(f"ok: {OSCILLATING}: the BER crossed the FEC limit {crossings:.0f} times in the last {window} (lowest "
            f"{lowest:.2g}, warning level {warning_level:.2g}); its critical, active since {critical_since:.0f} s "
            "after the start, kept firing through the dips")

        # (c) once more and (d): one group per port, carrying only the BER's alerts.
        groups = notified.groups()
        for port in PORTS:
            keys = {n["groupKey"] for n in groups[port]}
            if len(keys) != 1:
                fail(f"{port}: {len(keys)} notification groups: {sorted(keys)}")
            if {n["groupLabels"].get("instance") for n in groups[port]} != {f"127.0.0.1:{daemon.port}"}:
                fail(f"{port}: group labels {[n['groupLabels'] for n in groups[port]]}")
            extra = alerts_of(groups[port]) - {WARNING[0], CRITICAL[0]} - ALSO_ALLOWED
            if extra:
                fail(f"{port}: alerts the BER does not explain: {sorted(extra)}")
            log(f"ok: {port}: {len(groups[port])} notifications in one group, none resolved: " + "; ".join(
                ",".join(sorted(f"{a['labels']['alertname']}:{a['status']}" for a in n["alerts"]))
                for n in groups[port]))
    webhook.close()
    log(f"PASS alertmanager escalation end to end ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
