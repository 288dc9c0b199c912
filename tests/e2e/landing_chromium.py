#!/usr/bin/env python3
"""Headless Chromium (Debian `chromium`, JavaScript disabled) loads the landing page from the real
transceiver_exporter daemon running the emulated demo fleet with injected faults: the rendered
port map must show the dirty fiber (config/demo.toml spine-01/swp41) as warning and the module
stuck in ModuleLowPwr (swp26) and the faulted module as down, the overheating port and the
rx-LOS port in alarm, a healthy port ok, an empty cage empty and the unreadable port stale, each
problem cage with its reasons in its title and the problems list above the map, worst first;
the port pages show the reasons (flag, lanes, dBm, margin; module state) and the raised flags
per lane; a failing optic's VDM reason gives its pre-FEC BER, the module's threshold, how far past
it and how far below the FEC limit, and the LowPwr module's VDM values show as "—", never 0.
Screenshots of the landing page and of the dirty-fiber, LowPwr, hot and failing-optic ports'
pages are saved and their paths printed (in $XCVR_SCREENSHOT_DIR, else the current directory).

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
from daemon_fleet import (FAULTS, HOT_PORT, LOS_PORT, MODULE_FAULT_PORT, UNREADABLE_PORT, Daemon,  # noqa: E402
                          Processes, fail, json_get, log, wait_for)

HEALTHY_PORT = "spine-01/swp1"
EMPTY_PORT = "spine-01/swp15"  # an empty cage in config/demo.toml
DIRTY_PORT = "spine-01/swp41"  # config/demo.toml: dirty fiber, rx power past the low warning
LOWPWR_PORT = "spine-01/swp26"  # config/demo.toml: stuck in ModuleLowPwr
VDM_PORT = "spine-01/swp35"  # this test's fault: pre-FEC BER on lane 4 shifted 1.9 decades, past the warning
FLEET_PORTS = 108  # 64-port spine + 32-cage Quantum-2 + GPU host (8 NICs + 2 storage ports) + 2 linked NICs


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
        with open(os.path.join(procs.work, "faults-vdm.toml"), "w") as f:
            f.write(FAULTS + f'\n[[fault]]\nat = "0s"\nport = "{VDM_PORT}"\nkind = "ber_shift"\nlane = 4\nvalue = 1.9\n')
        daemon = Daemon(procs, binary, scenario="faults-vdm.toml")
        daemon.wait_ready()

        def health():
            daemon.alive()
            api = json_get(daemon.url + "/api/v1/modules")
            return {m["port"]: m["health"] for m in api["modules"]} if api else {}

        want = {HOT_PORT: "alarm", LOS_PORT: "alarm", HEALTHY_PORT: "ok", EMPTY_PORT: "empty",
                UNREADABLE_PORT: "stale", DIRTY_PORT: "warning", LOWPWR_PORT: "down", MODULE_FAULT_PORT: "down",
                VDM_PORT: "warning"}
        # The hot module needs ~20 s to pass its high-alarm threshold.
        wait_for("the API to report the injected states",
                 lambda: all(health().get(p) == h for p, h in want.items()), 90, 1)

        raw = chromium(procs.work, "--dump-dom", daemon.url + "/")
        cages = {html.unescape(port): (state, html.unescape(title)) for state, port, title in re.findall(
            r'<a class="cage h-(\w+)" role="listitem" href="/port/([^"]+)" title="([^"]*)">', raw)}
        dom = html.unescape(raw)
        if len(cages) != FLEET_PORTS:
            fail(f"rendered port map draws {len(cages)} cages, want {FLEET_PORTS}")
        for port, h in want.items():
            state, title = cages.get(port, (None, ""))
            if state != h or not title.startswith(f"{port}: {h}"):
                fail(f"rendered port map shows {port} as {state} ({title!r}), want {h}")
        for port, reason in ((DIRTY_PORT, "rx_power_low_warning on lanes"), (LOWPWR_PORT, "ModuleLowPwr"),
                             (MODULE_FAULT_PORT, "ModuleFault"), (LOS_PORT, "rx_los on lane 2")):
            if reason not in cages[port][1]:
                fail(f"the cage of {port} does not give {reason!r} in its title: {cages[port][1]!r}")
        links = set(re.findall(r'href="/port/([^"]+)"', dom))
        if len(links) != FLEET_PORTS:
            fail(f"rendered page links {len(links)} port pages, want {FLEET_PORTS}")
        problems = dom[dom.find('id="problems"'):dom.find(">Port map<")]
        listed = re.findall(r'<a href="/port/([^"]+)">', problems)
        for port in (LOWPWR_PORT, MODULE_FAULT_PORT, HOT_PORT, LOS_PORT, DIRTY_PORT, UNREADABLE_PORT):
            if port not in listed:
                fail(f"the problems list above the port map does not list {port}: {listed}")
        if listed.index(LOWPWR_PORT) > listed.index(LOS_PORT) or listed.index(LOS_PORT) > listed.index(DIRTY_PORT):
            fail(f"the problems list is not worst first: {listed}")
        if HEALTHY_PORT in listed or EMPTY_PORT in listed:
            fail(f"the problems list names a healthy or empty port: {listed}")
        row = re.search(r'<td><a href="/port/' + re.escape(HOT_PORT) + r'">.*?</tr>', dom, re.S)
        temp = re.search(r"([0-9.]+) °C", row.group(0)) if row else None
        if not temp or float(temp.group(1)) <= 75:
            fail(f"ports table row of {HOT_PORT} does not show its temperature above 75 °C")
        log(f"ok: rendered port map: {', '.join(f'{p} {h}' for p, h in want.items())}; "
            f"{HOT_PORT} at {temp.group(1)} °C; problems list: {len(listed)} ports, worst first")

        def page(port):
            return html.unescape(chromium(procs.work, "--dump-dom", f"{daemon.url}/port/{port}"))

        dirty_page = page(DIRTY_PORT)
        reason = re.search(r"<li>(rx_power_low_warning on lanes [^<]*dBm[^<]*against the low warning [^<]*"
                           r"margin (-[0-9.]+) dB)</li>", dirty_page)
        if not reason or ">warning<" not in dirty_page:
            fail(f"port page of {DIRTY_PORT} does not give its warning with value, threshold and margin")
        if not re.search(r"worst-lane rx margin</th><td>-[0-9.]+ dB", dirty_page):
            fail(f"port page of {DIRTY_PORT} does not show a negative worst-lane rx margin")
        if not re.search(r"<td>lane 1</td><td>(?:<b>\w+</b> )*<b>rx_power_low_warning</b>", dirty_page):
            fail(f"port page of {DIRTY_PORT} does not show rx_power_low_warning raised on lane 1")
        lowpwr_page = page(LOWPWR_PORT)
        if "module held in low power (ModuleLowPwr)" not in lowpwr_page or \
                "<th>module state</th><td>ModuleLowPwr</td>" not in lowpwr_page:
            fail(f"port page of {LOWPWR_PORT} does not give ModuleLowPwr as its reason and module state")
        vdm_table = lowpwr_page[lowpwr_page.find("Signal integrity (VDM)"):]
        if not vdm_table or re.search(r'<td class="num">0 ratio</td>', vdm_table) or \
                '<td class="num">\u2014</td>' not in vdm_table:
            fail(f"port page of {LOWPWR_PORT} shows VDM values of a module that is not ready (want \u2014)")
        vdm_page = page(VDM_PORT)
        vdm_reason = re.search(r"<li>(vdm_pre_fec_ber_current_media_high_warning on lane 4: [0-9.e+-]+ against the high "
                               r"warning [0-9.e+-]+ \([0-9.]+\u00d7 the threshold\); [0-9.]+\u00d7 below the FEC limit "
                               r"[0-9.e+-]+)</li>", vdm_page)
        if not vdm_reason:
            fail(f"port page of {VDM_PORT} does not give its VDM reason with value, threshold and FEC distance")
        worst = vdm_page[vdm_page.find("Signal integrity (VDM)"):]
        if not re.search(r"<tr><td>pre_fec_ber_current_media</td><td class=\"num\">4</td>.*?\(worst\)", worst[:600]):
            fail(f"the VDM table of {VDM_PORT} does not start with its worst pre-FEC BER lane (4)")
        log(f"ok: {VDM_PORT} \"{vdm_reason.group(1)}\"; {LOWPWR_PORT} VDM values \u2014")
        if "temperature_high_alarm" not in page(HOT_PORT):
            fail(f"port page of {HOT_PORT} does not show temperature_high_alarm")
        if not re.search(r"<td>lane 2</td><td>(?:<b>\w+</b> )*<b>rx_los</b>", page(LOS_PORT)):
            fail(f"port page of {LOS_PORT} does not show rx_los on lane 2")
        log(f"ok: port pages: {DIRTY_PORT} \"{reason.group(1)}\"; {LOWPWR_PORT} ModuleLowPwr; "
            f"{HOT_PORT} temperature_high_alarm; {LOS_PORT} rx_los on lane 2")

        shots = []
        for name, url, size in (("landing.png", daemon.url + "/", "1400,1800"),
                                ("port-dirty-fiber.png", f"{daemon.url}/port/{DIRTY_PORT}", "1100,1600"),
                                ("port-lowpwr.png", f"{daemon.url}/port/{LOWPWR_PORT}", "1100,1600"),
                                ("port-hot.png", f"{daemon.url}/port/{HOT_PORT}", "1100,1600"),
                                ("port-vdm.png", f"{daemon.url}/port/{VDM_PORT}", "1100,2200")):
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
