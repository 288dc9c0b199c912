#!/usr/bin/env python3
"""The flight recorder end to end (issue 38): the real transceiver_exporter daemon on an emulated
GPU host whose NIC links it reads (tests/e2e/alert_links.toml); gpu/p1's link drops for one
second at 75 s (recorder_faults.toml), after more than a minute of samples.

- /api/v1/events/gpu/p1 holds one event: a link_down trigger, at least 60 s of samples before
  it (every lane's rx power read in them), the samples after it; gpu/p3 (healthy) has none, and
  transceiver_exporter_recorder_events_total says 1;
- headless Chromium (JavaScript disabled) renders the port page's "Flight recorder" plots (SVG
  polylines with points); the screenshot's path is printed ($XCVR_SCREENSHOT_DIR, else the
  current directory);
- `xcvrctl events --state-dir` prints the event from recorder.json in the state directory;
- a restarted daemon serves the same event (persisted), before any new one.

  recorder_e2e.py TRANSCEIVER_EXPORTER XCVRCTL"""

import html
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import Daemon, Processes, fail, http_get, json_get, log, wait_for  # noqa: E402
from landing_chromium import chromium  # noqa: E402

E2E = os.path.dirname(os.path.abspath(__file__))
PORT = "gpu/p1"
FLAP_AT_S = 75


def events(daemon, port):
    api = json_get(f"{daemon.url}/api/v1/events/{port}")
    return api["events"] if api else []


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    binary, xcvrctl = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    out_dir = os.path.abspath(os.environ.get("XCVR_SCREENSHOT_DIR") or os.getcwd())
    os.makedirs(out_dir, exist_ok=True)
    started = time.monotonic()
    with Processes("xcvr-e2e-recorder-") as procs:
        scenario = os.path.join(procs.work, "recorder_faults.toml")
        with open(scenario, "w") as f:
            f.write(f'[[fault]]\nat = "{FLAP_AT_S}s"\nduration = "1s"\nport = "{PORT}"\nkind = "link_down"\n')
        daemon = Daemon(procs, binary, fleet=os.path.join(E2E, "alert_links.toml"), scenario=scenario, budgets=False,
                        poll_extra='link_interval = "1s"')
        wait_for(f"the event of {PORT}'s flap", lambda: daemon.alive() and events(daemon, PORT), FLAP_AT_S + 60, 1)
        got = events(daemon, PORT)
        if len(got) != 1:
            fail(f"{len(got)} events for {PORT}, want 1: {got}")
        e = got[0]
        kinds = [t["kind"] for t in e["triggers"]]
        if kinds[0] != "link_down":
            fail(f"first trigger {kinds}, want link_down")
        unix = e["samples"]["unix"]
        trigger_t = unix[e["trigger_sample"]]
        before = trigger_t - unix[0]
        after = unix[-1] - trigger_t
        log(f"event: triggers {kinds}, {len(unix)} samples, {before:.1f} s before the trigger, {after:.1f} s after")
        if before < 60:
            fail(f"the samples reach {before:.1f} s before the trigger, want the minute before")
        if after <= 0:
            fail("no sample after the trigger")
        rx = e["samples"]["rx_power_watts"]
        if e["lanes"] != 8 or not all(v is not None and v > 0 for v in rx[0]):
            fail(f"the optic's rx power before the loss is missing: lanes {e['lanes']}, first sample {rx[0]}")
        if events(daemon, "gpu/p3"):
            fail("the healthy link gpu/p3 recorded an event")
        _, body = http_get(daemon.url + "/metrics")
        if not re.search(r"^transceiver_exporter_recorder_events_total 1$", body.decode(), re.M):
            fail("transceiver_exporter_recorder_events_total is not 1")

        page = html.unescape(chromium(procs.work, "--dump-dom", f"{daemon.url}/port/{PORT}"))
        if "Flight recorder" not in page:
            fail("the port page has no flight recorder section")
        lines = re.findall(r'<polyline[^>]*points="([^"]+)"', page)
        plotted = [p for p in lines if len(p.split()) >= 14]
        if len(plotted) < 8:
            fail(f"{len(plotted)} plotted lines of 14 points or more, want the 8 lanes' rx power at least")
        shot = os.path.join(out_dir, "recorder-gpu-p1.png")
        chromium(procs.work, "--window-size=1100,5200", f"--screenshot={shot}", f"{daemon.url}/port/{PORT}")  # the whole page
        if not os.path.getsize(shot):
            fail(f"no screenshot {shot}")
        log(f"screenshot: {shot}")

        state = os.path.join(procs.work, "daemon-state")
        wait_for("recorder.json", lambda: os.path.exists(os.path.join(state, "recorder.json")), 20)
        r = subprocess.run([xcvrctl, "events", "--state-dir", state, "--port", PORT], capture_output=True, text=True)
        if r.returncode != 0 or "link_down" not in r.stdout or "p1" not in r.stdout:
            fail(f"xcvrctl events: rc {r.returncode}\n{r.stdout}\n{r.stderr}")
        log("xcvrctl events:\n" + "\n".join(r.stdout.splitlines()[:6]))

        daemon.proc.terminate()
        daemon.proc.wait(timeout=30)
        restarted = Daemon(procs, binary, fleet=os.path.join(E2E, "alert_links.toml"), scenario=scenario,
                           budgets=False, poll_extra='link_interval = "1s"', name="daemon")
        wait_for("the restarted daemon to serve the event", lambda: restarted.alive() and events(restarted, PORT), 30, 0.5)
        again = events(restarted, PORT)
        if again[0]["unix"] != e["unix"] or again[0]["samples"]["unix"] != unix:
            fail("the restarted daemon serves another event")
    log(f"PASS flight recorder ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
