"""One verdict per port, five outputs (#36): on the demo fleet (config/demo.toml with its own
faults: a dirty fiber, a module stuck in low power, a miscoded optic, empty cages; without the
timeline, whose faults land at minutes a fresh xcvrctl read never reaches) /metrics
(transceiver_port_health), the JSON API, the landing page's port map, each port page and
`xcvrctl show --port` / `xcvrctl verify --port` give every port the same state and the same
reasons. The daemon's outputs are fetched at different snapshots and xcvrctl reads its own
emulated module, so a reason's numbers (a noisy dBm, the worst lane) may differ between them:
reasons are compared with their decimal numbers and "(lane N)" left out; the daemon's outputs
are read within its first ~90 s, before the demo's badly cooled swp12 warms into "hot" (a fresh
xcvrctl read starts cold).

  verdict_agreement.py TRANSCEIVER_EXPORTER XCVRCTL"""

import html
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from daemon_fleet import (DEMO_CAGE_STYLES, REPO, Processes, daemon_config, demo_fleet_without_timeline, fail, free_port,
                          http_get, json_get, log, wait_for)

DEADLINE_S = 85  # after the daemon's start: swp12's headroom falls under 5 °C at ~95 s
EXPECTED = {"ok", "warning", "down", "miscoded", "empty"}  # the demo's own faults, all shown


def write_config(path, work, http, fleet):
    with open(path, "w") as f:
        # A settle delay, as the demo's: xcvrctl's emulated modules are seated as it starts, and
        # like the daemon it judges a module not yet ready only after the settle delay.
        f.write(daemon_config("tests/e2e/verdict_agreement.py", f"{work}/state", http,
                              f'catalog = ["{REPO}/config/catalog"]', settle_delay="1s") + f"""
[[source]]
type = "emulator"
fleet = "{fleet}"
""" + DEMO_CAGE_STYLES)


def same_words(text):
    """A reason as its words: decimal numbers and the worst lane left out (they move between reads)."""
    text = re.sub(r"\s*\(lane \d+\)", "", text)
    return re.sub(r"-?\d+\.\d+(e-?\d+)?", "#", text)


def verdict(state, reasons):
    return state, tuple(same_words(r) for r in reasons)


def from_api(url):
    return {m["port"]: verdict(m["health"], [r["text"] for r in m["reasons"]])
            for m in json_get(f"{url}/api/v1/modules")["modules"]}


def from_metrics(url):
    _, body = http_get(f"{url}/metrics")
    found = re.findall(r'^transceiver_port_health\{port="([^"]*)",health="([a-z]+)"\} 1$', body.decode(), re.M)
    return {port: state for port, state in found}


def from_port_map(url):
    """The cages of the landing page: title "PORT: STATE&#10;reason&#10;reason"."""
    _, body = http_get(f"{url}/")
    out = {}
    for title in re.findall(r'<a class="cage h-[a-z]+"[^>]* title="([^"]*)"', body.decode()):
        head, *reasons = html.unescape(title).split("\n")
        port, state = head.rsplit(": ", 1)
        out[port] = verdict(state, reasons)
    return out


def from_port_page(url, port):
    status, body = http_get(f"{url}/port/{port}")
    if status != 200:
        fail(f"/port/{port}: HTTP {status}")
    page = body.decode()
    state = re.search(r'health: <span class="badge h-([a-z]+)">', page).group(1)
    why = re.search(r'<h2>Why [a-z]+</h2><ul class="reasons">(.*?)</ul>', page)
    reasons = [html.unescape(r) for r in re.findall(r"<li>(.*?)</li>", why.group(1))] if why else []
    return verdict(state, reasons)


def from_xcvrctl(xcvrctl, command, config, port):
    r = subprocess.run([xcvrctl, command, "--port", port, "--config", config], capture_output=True, text=True,
                       timeout=60)
    state = re.findall(r"^Health   : (\S+)$", r.stdout, re.M)
    if len(state) != 1:
        fail(f"xcvrctl {command} --port {port}: exit {r.returncode}, no one Health line:\n{r.stdout}\n{r.stderr}")
    return verdict(state[0], re.findall(r"^Reason   : (.*)$", r.stdout, re.M))


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    daemon_bin, xcvrctl = (os.path.abspath(a) for a in sys.argv[1:])
    with Processes("xcvr-verdict-") as procs:
        http = free_port()
        url = f"http://127.0.0.1:{http}"
        config = os.path.join(procs.work, "config.toml")
        write_config(config, procs.work, http, demo_fleet_without_timeline(procs.work))
        started = time.monotonic()
        daemon = procs.start("daemon", [daemon_bin, "--config", config])

        def all_read():
            if daemon.poll() is not None:
                fail("the daemon exited:\n" + procs.log_tail("daemon"))
            modules = (json_get(f"{url}/api/v1/modules") or {}).get("modules", [])
            # Read, and past bring-up: a data path still turning on is the daemon's first poll
            # racing the emulated module (the demo has no data-path fault of its own).
            return modules and all(m["health"] != "stale" and all(r["kind"] != "data_path" for r in m["reasons"])
                                   for m in modules)

        wait_for("the daemon to read every port", all_read, 40)
        api = from_api(url)
        ports = sorted(api)
        outputs = {"/metrics": from_metrics(url), "port map": from_port_map(url)}
        with ThreadPoolExecutor(max_workers=8) as pool:  # xcvrctl mostly waits its settle delay
            outputs["port page"] = dict(zip(ports, pool.map(lambda p: from_port_page(url, p), ports)))
            took = time.monotonic() - started
            if took > DEADLINE_S:  # (xcvrctl's reads are fresh: they may take their time)
                fail(f"the daemon's outputs took {took:.0f} s, past the {DEADLINE_S} s before swp12 warms into "
                     "hot: a slow machine, not a finding")
            for command in ("show", "verify"):
                judged = pool.map(lambda p, c=command: from_xcvrctl(xcvrctl, c, config, p), ports)
                outputs[f"xcvrctl {command}"] = dict(zip(ports, judged))

        disagreements = []
        for name, seen in outputs.items():
            if set(seen) != set(api):
                disagreements.append(f"{name}: ports {sorted(set(seen) ^ set(api))} differ from the JSON API's")
            for port in ports:
                want = api[port] if name != "/metrics" else api[port][0]
                if port in seen and seen[port] != want:
                    disagreements.append(f"{port}: {name} says {seen[port]}, the JSON API {want}")
        if disagreements:
            fail("the outputs disagree:\n  " + "\n  ".join(disagreements))
        states = {state for state, _ in api.values()}
        if not EXPECTED <= states:
            fail(f"the demo's faults should show {sorted(EXPECTED)}; the verdicts are {sorted(states)}")
        log(f"ok: {len(ports)} ports, {len(outputs) + 1} outputs agree on every verdict and reason "
            f"({', '.join(sorted(states))}); the daemon's read {took:.0f} s after its start")


if __name__ == "__main__":
    main()
