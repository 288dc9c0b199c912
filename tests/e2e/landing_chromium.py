#!/usr/bin/env python3
"""Headless Chromium (Debian `chromium`, JavaScript disabled) loads the landing page from the real
transceiver_exporter daemon running the emulated demo fleet with injected faults: the rendered
port map must show the overheating port and the rx-LOS port in alarm, a healthy port ok, an
empty cage empty and the unreadable port stale; the port pages name the raised flags.
Screenshots of the landing page and of the hot port's page are saved and their paths printed
(in $XCVR_SCREENSHOT_DIR, else the current directory).

  landing_chromium.py PATH/TO/transceiver_exporter
"""

import html
import os
import re
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import (HOT_PORT, LOS_PORT, UNREADABLE_PORT, Daemon, Processes, fail, json_get,  # noqa: E402
                          log, wait_for)

HEALTHY_PORT = "spine-01/swp1"
EMPTY_PORT = "spine-01/swp15"  # an empty cage in config/demo.toml
FLEET_PORTS = 72  # 64-port spine + 8-NIC GPU host


def chromium_binary():
    # Debian's /usr/bin/chromium is a launcher script that adds flags from /etc/chromium.d; the
    # binary it wraps is steadier for headless runs.
    for c in ("/usr/lib/chromium/chromium", shutil.which("chromium") or ""):
        if c and os.access(c, os.X_OK):
            return c
    fail("chromium missing (scripts/setup.sh installs it)")


def chromium(work, *args):
    argv = [chromium_binary(), "--headless=old", "--no-sandbox", "--disable-gpu", "--disable-javascript",
            "--hide-scrollbars", "--no-first-run", f"--user-data-dir={work}/profile", *args]
    r = subprocess.run(argv, capture_output=True, timeout=120)
    return r.stdout.decode(errors="replace")


def main():
    binary = os.path.abspath(sys.argv[1])
    out_dir = os.path.abspath(os.environ.get("XCVR_SCREENSHOT_DIR") or os.getcwd())
    os.makedirs(out_dir, exist_ok=True)
    started = time.monotonic()
    with Processes("xcvr-e2e-chromium-") as procs:
        daemon = Daemon(procs, binary)
        daemon.wait_ready()

        def health():
            daemon.alive()
            api = json_get(daemon.url + "/api/v1/modules")
            return {m["port"]: m["health"] for m in api["modules"]} if api else {}

        want = {HOT_PORT: "alarm", LOS_PORT: "alarm", HEALTHY_PORT: "ok", EMPTY_PORT: "empty",
                UNREADABLE_PORT: "stale"}
        # The hot module needs ~20 s to pass its high-alarm threshold.
        wait_for("the API to report the injected states",
                 lambda: all(health().get(p) == h for p, h in want.items()), 90, 1)

        dom = chromium(procs.work, "--dump-dom", daemon.url + "/")
        titles = dict(re.findall(r"<title>([^<:]+): (\w+)</title>", dom))
        if len(titles) != FLEET_PORTS:
            fail(f"rendered port map draws {len(titles)} cages, want {FLEET_PORTS}")
        for port, h in want.items():
            if titles.get(port) != h:
                fail(f"rendered port map shows {port} as {titles.get(port)}, want {h}")
        links = set(re.findall(r'href="/port/([^"]+)"', dom))
        if len(links) != FLEET_PORTS:
            fail(f"rendered page links {len(links)} port pages, want {FLEET_PORTS}")
        row = re.search(r'<td><a href="/port/' + re.escape(HOT_PORT) + r'">.*?</tr>', dom, re.S)
        temp = re.search(r"([0-9.]+) °C", html.unescape(row.group(0))) if row else None
        if not temp or float(temp.group(1)) <= 75:
            fail(f"ports table row of {HOT_PORT} does not show its temperature above 75 °C")
        log(f"ok: rendered port map: {', '.join(f'{p} {h}' for p, h in want.items())}; "
            f"{HOT_PORT} at {temp.group(1)} °C")

        hot_page = html.unescape(chromium(procs.work, "--dump-dom", f"{daemon.url}/port/{HOT_PORT}"))
        if "temperature_high_alarm" not in hot_page:
            fail(f"port page of {HOT_PORT} does not show temperature_high_alarm")
        los_page = html.unescape(chromium(procs.work, "--dump-dom", f"{daemon.url}/port/{LOS_PORT}"))
        if not re.search(r"rx_los\S* \(lane 2\)", los_page):
            fail(f"port page of {LOS_PORT} does not show rx_los on lane 2")
        log("ok: port pages show temperature_high_alarm and rx_los (lane 2)")

        shots = []
        for name, url, size in (("landing.png", daemon.url + "/", "1400,1200"),
                                ("port-hot.png", f"{daemon.url}/port/{HOT_PORT}", "1100,1600")):
            path = os.path.join(out_dir, name)
            if os.path.exists(path):
                os.remove(path)
            chromium(procs.work, f"--window-size={size}", f"--screenshot={path}", url)
            if not os.path.exists(path) or os.path.getsize(path) < 10000:
                fail(f"no screenshot {path}")
            shots.append(path)
        for path in shots:
            log(f"screenshot: {path}")
    log(f"PASS landing page in chromium ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
