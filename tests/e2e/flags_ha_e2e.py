#!/usr/bin/env python3
"""End to end, design invariant 3 as an HA pair of Prometheus servers meets it: latched flags are
a time window (poll.flag_hold), not a scrape window. The real transceiver_exporter daemon runs the
demo fleet with transient faults (an rx LOS and a Tx fault that last 0.3 s, between two polls, so
only the modules' latches remember them); two real Prometheus servers (Debian `prometheus`)
scrape it every second, and a person's `curl .../metrics` runs twenty times a second beside them.

Asserted: both servers see every transient in `transceiver_flag` (within the hold window after
it) and the same `transceiver_flag_raised_total` counts as the daemon's JSON API; the person's
scrapes consumed nothing. Then a module swapped into a cage after a LOS burst (the `insert`
fault: another part, another serial) shows `ok` with no LOS, in both servers and in the JSON
API, though the burst is still inside the hold window.

  flags_ha_e2e.py PATH/TO/transceiver_exporter
"""

import os
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import (Daemon, Processes, fail, http_get, json_get, log, require_tools,  # noqa: E402
                          start_prometheus, wait_for)

FLAG_HOLD_S = 20
TRANSIENT_PORT = "spine-01/swp5"   # rx LOS on lane 3, three times
TX_PORT = "spine-01/swp6"          # Tx fault on lane 1, twice
SWAP_PORT = "spine-01/swp7"        # LOS burst, then another module
TRANSIENTS_AT = (12, 22, 32)       # seconds after the daemon's start
TX_AT = (15, 27)
SWAP_LOS_AT, SWAP_AT = 40, 44

SCENARIO = "".join(
    [f'[[fault]]\nat = "{t}s"\nduration = "300ms"\nport = "{TRANSIENT_PORT}"\nkind = "rx_los"\nlane = 3\n\n'
     for t in TRANSIENTS_AT] +
    [f'[[fault]]\nat = "{t}s"\nduration = "300ms"\nport = "{TX_PORT}"\nkind = "tx_fault"\nlane = 1\n\n' for t in TX_AT] +
    [f'[[fault]]\nat = "{SWAP_LOS_AT}s"\nduration = "2s"\nport = "{SWAP_PORT}"\nkind = "rx_los"\nlane = 1\n\n',
     f'[[fault]]\nat = "{SWAP_AT}s"\nport = "{SWAP_PORT}"\nkind = "insert"\nmodel = "qsfpdd-400g-dr4"\n'])


def flag_series(prom, port, flag, lane, at):
    """transceiver_flag over the 10 s before `at` in `prom`: 1 when it showed raised there."""
    res = prom.query(f'max_over_time(transceiver_flag{{port="{port}",flag="{flag}",lane="{lane}"}}[10s])', at)
    return float(res[0]["value"][1]) if res else 0.0


def raised_total(prom, port, flag, lane):
    res = prom.query(f'transceiver_flag_raised_total{{port="{port}",flag="{flag}",lane="{lane}"}}')
    return float(res[0]["value"][1]) if res else 0.0


def api_flag(daemon, port, flag, lane):
    modules = json_get(f"{daemon.url}/api/v1/modules", timeout=10) or {}
    for m in modules.get("modules", []):
        if m["port"] != port:
            continue
        for f in m["flags"]:
            if f["flag"] == flag and f["lane"] == lane:
                return m, f
        return m, None
    fail(f"{port} not in /api/v1/modules")


def main():
    if len(sys.argv) != 2:
        fail("usage: flags_ha_e2e.py PATH/TO/transceiver_exporter")
    require_tools("prometheus", "promtool")
    with Processes("xcvr-flags-ha-") as procs:
        with open(os.path.join(procs.work, "transients.toml"), "w") as f:
            f.write(SCENARIO)
        started = time.time()
        daemon = Daemon(procs, sys.argv[1], scenario="transients.toml", budgets=False,
                        flag_hold=f"{FLAG_HOLD_S}s")
        target = f"127.0.0.1:{daemon.port}"
        prom_a, port_a = start_prometheus(procs, target, name="prom-a")
        prom_b, port_b = start_prometheus(procs, target, name="prom-b")

        # A person's curl | grep, twenty times a second, all along.
        stop = threading.Event()
        person_scrapes = [0]

        def person():
            while not stop.is_set():
                try:
                    if http_get(f"{daemon.url}/metrics")[0] == 200:
                        person_scrapes[0] += 1
                except Exception:  # noqa: BLE001 (the daemon stopping under a read at the end)
                    pass
                time.sleep(0.05)

        threading.Thread(target=person, daemon=True).start()
        wait_for("both servers to scrape the daemon",
                 lambda: daemon.alive() and all(http_get(f"http://127.0.0.1:{p}/-/ready")[0] == 200 for p in (port_a, port_b))
                 and prom_a.value("up") == 1 and prom_b.value("up") == 1, 90)
        last = max(TRANSIENTS_AT + TX_AT) + 8
        wait_for("the transients to pass", lambda: daemon.alive() and time.time() > started + last, 120, 1)

        for name, prom in (("A", prom_a), ("B", prom_b)):
            for t in TRANSIENTS_AT:
                seen = flag_series(prom, TRANSIENT_PORT, "rx_los", "3", started + t + 8)
                if seen != 1:
                    fail(f"Prometheus {name} did not see the rx LOS transient at +{t} s (max over 10 s: {seen})")
            for t in TX_AT:
                if flag_series(prom, TX_PORT, "tx_fault", "1", started + t + 8) != 1:
                    fail(f"Prometheus {name} did not see the Tx fault transient at +{t} s")
        _, los = api_flag(daemon, TRANSIENT_PORT, "rx_los", 3)
        _, tx = api_flag(daemon, TX_PORT, "tx_fault", 1)
        if los is None or tx is None:
            fail("the JSON API has no history of the transients")
        if los["raised_total"] != len(TRANSIENTS_AT) or tx["raised_total"] != len(TX_AT):
            fail(f"counts: rx_los {los['raised_total']} (want {len(TRANSIENTS_AT)}), tx_fault {tx['raised_total']}")
        # The transients came within the hold window of each other: one raising, since the first.
        if los["raised"] and not started + TRANSIENTS_AT[0] - 1 <= los["since_unix"] <= started + TRANSIENTS_AT[1]:
            fail(f"since_unix {los['since_unix'] - started:.1f} s after start, want the first transient's "
                 f"(+{TRANSIENTS_AT[0]} s)")
        counts = {}
        for name, prom in (("A", prom_a), ("B", prom_b)):
            counts[name] = (raised_total(prom, TRANSIENT_PORT, "rx_los", "3"), raised_total(prom, TX_PORT, "tx_fault", "1"))
        if counts["A"] != counts["B"] or counts["A"] != (len(TRANSIENTS_AT), len(TX_AT)):
            fail(f"raised_total differs: A {counts['A']}, B {counts['B']}, daemon ({len(TRANSIENTS_AT)}, {len(TX_AT)})")
        raised = []
        for prom in (prom_a, prom_b):
            res = prom.query('count_over_time(transceiver_flag{port=~"spine-01/swp[567]"}[2m]) > 0')
            raised.append(sorted((s["metric"]["port"], s["metric"].get("lane", ""), s["metric"]["flag"]) for s in res))
        if raised[0] != raised[1]:
            fail(f"the two servers saw different flag series:\n A {raised[0]}\n B {raised[1]}")
        log(f"both servers saw every transient and the same {len(raised[0])} flag series; "
            f"the person scraped {person_scrapes[0]} times meanwhile")

        # The swapped module: ok, no LOS, while the burst is still within the hold window.
        def swapped_ok():
            daemon.alive()
            m, f = api_flag(daemon, SWAP_PORT, "rx_los", 1)
            ok = m["health"] == "ok" and m["insertions_total"] >= 2 and (f is None or not f["raised"])
            return ok and time.time() < started + SWAP_LOS_AT + 2 + FLAG_HOLD_S
        wait_for("the swapped-in module to show ok", swapped_ok, SWAP_AT + 30 - (time.time() - started), 0.5)
        if f := api_flag(daemon, SWAP_PORT, "rx_los", 1)[1]:
            if f["raised_total"] < 1:
                fail("the LOS burst before the swap was not counted")
        for name, prom in (("A", prom_a), ("B", prom_b)):
            wait_for(f"Prometheus {name} to show {SWAP_PORT} ok", lambda p=prom: p.value(
                f'transceiver_port_health{{port="{SWAP_PORT}",health="ok"}}') == 1, 15)
            if prom.value(f'transceiver_flag{{port="{SWAP_PORT}",flag="rx_los"}}') is not None:
                fail(f"Prometheus {name}: {SWAP_PORT} still shows the old module's LOS")
        stop.set()
        log(f"PASS flags as time windows: two servers, {person_scrapes[0]} extra scrapes, the swap shows ok")


if __name__ == "__main__":
    main()
