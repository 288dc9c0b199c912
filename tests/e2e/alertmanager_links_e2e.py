#!/usr/bin/env python3
"""Link flaps and the FEC tail through a real Alertmanager (#38). The real transceiver_exporter
daemon polls the emulated GPU host of alert_links.toml, whose cages carry links the daemon reads
like a NIC's (FEC counters, codeword histogram, carrier: emulator/link.hpp), every second; a
real Prometheus evaluates the shipped rules and sends to a real Alertmanager running the shipped
configuration; a webhook receiver on loopback records the notifications (the harness of
alertmanager_e2e.py, from daemon_fleet.py).

FLAPS, gpu/p1: its link drops for 300 ms four times, 10 s apart (alert_links_faults.toml).
Asserted: Prometheus sees the four losses in transceiver_link_carrier_down_total (each shorter
than the 1 s link interval); TransceiverLinkFlapping is notified for the port; every notification
of it carries the same alert (one startsAt: never resolved and fired again between flaps); the
port is one notification group: one page per flapping link, not one per flap.

TAIL, gpu/p2: pre-FEC BER about 2.2e-4 on every lane. Asserted: its FEC tail (the most symbols
corrected in one codeword in an interval) is at least 12 of the 15 RS(544,514) corrects, as the
binomial of that BER says over a second of 800G codewords, and TransceiverLinkFecTailHigh is
notified for it. The BER's own alerts may come with it.

gpu/p3 is healthy: never notified. As in alertmanager_e2e.py, every `for:` and
`keep_firing_for:` becomes 5s; routing and inhibition are the shipped ones. About 90 s.

  alertmanager_links_e2e.py PATH/TO/transceiver_exporter
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import (ALERTMANAGER, Daemon, Processes, Webhook, alerts_of, by_port, fail, http_get,  # noqa: E402
                          log, require_tools, start_alertmanager, start_prometheus, wait_for)

E2E = os.path.dirname(os.path.abspath(__file__))
FLAPPING, TAIL, HEALTHY = "gpu/p1", "gpu/p2", "gpu/p3"
FLAPS, LAST_FLAP_S = 4, 50
# What p2's BER (near the FEC limit) may bring besides the tail.
TAIL_ALSO = {"TransceiverPreFecBerHigh", "TransceiverPreFecBerAboveFecLimit", "TransceiverEsnrLow",
             "TransceiverLinkFecUncorrectable", "TransceiverFecLimitForecast"}


def main():
    binary = os.path.abspath(sys.argv[1])
    require_tools("prometheus", "promtool", "amtool", ALERTMANAGER, packages="prometheus and prometheus-alertmanager")
    started = time.monotonic()
    webhook = Webhook()
    with Processes("xcvr-e2e-am-links-") as procs:
        am_port = start_alertmanager(procs, webhook.url)
        t0 = time.monotonic()
        daemon = Daemon(procs, binary, fleet=os.path.join(E2E, "alert_links.toml"),
                        scenario=os.path.join(E2E, "alert_links_faults.toml"), budgets=False,
                        poll_extra='link_interval = "1s"')
        prom, prom_port = start_prometheus(procs, f"127.0.0.1:{daemon.port}", f"""alerting:
  alertmanagers: [{{static_configs: [{{targets: ['127.0.0.1:{am_port}']}}]}}]
""")
        wait_for("Alertmanager to be ready", lambda: http_get(f"http://127.0.0.1:{am_port}/-/ready")[0] == 200, 60)
        wait_for("Prometheus to scrape the daemon", lambda: daemon.alive() and
                 http_get(f"http://127.0.0.1:{prom_port}/-/ready")[0] == 200 and
                 prom.value('up{job="transceiver"}') == 1, 60)
        down = f'transceiver_link_carrier_down_total{{port="{FLAPPING}"}}'
        wait_for("the flapping link's carrier count", lambda: daemon.alive() and prom.value(down) is not None, 30)
        before = prom.value(f"min_over_time({down}[5m])")

        def groups():
            g = by_port(webhook.snapshot())
            if HEALTHY in g:
                fail(f"{HEALTHY} notified, its link is healthy: {sorted(alerts_of(g[HEALTHY]))}")
            return g

        # TAIL: the tail of p2's link near the limit, and its warning.
        tail = f'transceiver_link_fec_tail_symbols{{port="{TAIL}"}}'
        wait_for(f"TransceiverLinkFecTailHigh notified on {TAIL}", lambda: daemon.alive() and
                 "TransceiverLinkFecTailHigh" in alerts_of(groups().get(TAIL, []), "firing"), 60)
        median = prom.value(f"quantile_over_time(0.5, {tail}[1m])")
        limit = prom.value(f'transceiver_link_fec_correction_limit_symbols{{port="{TAIL}"}}')
        if limit != 15 or median is None or median < 12:
            fail(f"{TAIL}: FEC tail median {median} of limit {limit}; want at least 12 of 15")
        log(f"ok: {TAIL}: FEC tail median {median:.0f} of {limit:.0f}, TransceiverLinkFecTailHigh notified "
            f"{time.monotonic() - t0:.0f} s after the start")

        # FLAPS: all four counted, one alert, one group.
        wait_for("the four flaps", lambda: daemon.alive() and time.monotonic() - t0 > LAST_FLAP_S + 8 and
                 (prom.value(down) or 0) - before >= FLAPS, LAST_FLAP_S + 40)
        counted = prom.value(down) - before
        if counted != FLAPS:
            fail(f"{FLAPPING}: {counted:.0f} carrier losses counted, {FLAPS} happened")
        wait_for(f"TransceiverLinkFlapping notified on {FLAPPING}", lambda: daemon.alive() and
                 "TransceiverLinkFlapping" in alerts_of(groups().get(FLAPPING, []), "firing"), 30)
        time.sleep(6)  # a group_interval more (5s in the test), for a second notification to show up
        flapping = groups()[FLAPPING]
        keys = {n["groupKey"] for n in flapping}
        starts = {a["startsAt"] for n in flapping for a in n["alerts"] if a["labels"]["alertname"] == "TransceiverLinkFlapping"}
        resolved = [a for n in flapping for a in n["alerts"]
                    if a["labels"]["alertname"] == "TransceiverLinkFlapping" and a["status"] == "resolved"]
        if len(keys) != 1 or len(starts) != 1 or resolved:
            fail(f"{FLAPPING}: {len(keys)} groups, {len(starts)} alert starts, {len(resolved)} resolved: want one "
                 f"alert in one group for {FLAPS} flaps ({starts})")
        extra = alerts_of(flapping) - {"TransceiverLinkFlapping"}
        if extra:
            fail(f"{FLAPPING}: alerts the flaps do not explain: {sorted(extra)}")
        lasted = prom.value(f'transceiver_link_last_down_duration_seconds{{port="{FLAPPING}"}}')
        log(f"ok: {FLAPPING}: {FLAPS} losses counted (last one timed {lasted} s), one TransceiverLinkFlapping in one "
            f"group over {len(flapping)} notifications")
        tail_extra = alerts_of(groups()[TAIL]) - {"TransceiverLinkFecTailHigh"} - TAIL_ALSO
        if tail_extra:
            fail(f"{TAIL}: alerts its BER does not explain: {sorted(tail_extra)}")
    webhook.close()
    log(f"PASS alertmanager links end to end ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
