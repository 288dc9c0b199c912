"""Shared by the exporter e2e tests: the real transceiver_exporter daemon running the demo fleet
(config/demo.toml) in real bus time, with a fault timeline (emulator scenario) that injects an
overheating module, an rx LOS and a few more faults; and small HTTP helpers. Loopback only.
Python standard library only (Debian's python3)."""

import json
import os
import re
import shutil
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

HOT_PORT = "spine-01/swp3"  # overheats at 10 °C/s (towards its thermal lag): past 75 °C in ~20 s
LOS_PORT = "spine-01/swp34"  # rx LOS on lane 2
LOS_LANE = "2"
# More faults so that every alert expression has series to evaluate (sparse families).
TX_FAULT_PORT = "gpu-node-01/mlx5_3"  # tx fault on lane 1
MODULE_FAULT_PORT = "spine-01/swp50"  # CMIS ModuleFault state
UNREADABLE_PORT = "spine-01/swp60"  # every read times out: never read, stale

FAULTS = f"""# Written by tests/e2e/daemon_fleet.py: permanent faults from the start of the run.
[[fault]]
at = "0s"
port = "{HOT_PORT}"
kind = "overheat"
value = 10.0

[[fault]]
at = "0s"
port = "{LOS_PORT}"
kind = "rx_los"
lane = {LOS_LANE}

[[fault]]
at = "0s"
port = "{TX_FAULT_PORT}"
kind = "tx_fault"
lane = 1

[[fault]]
at = "0s"
port = "{MODULE_FAULT_PORT}"
kind = "module_fault"

[[fault]]
at = "0s"
port = "{UNREADABLE_PORT}"
kind = "timeout"
"""


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def log(message):
    print(message, flush=True)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=5.0, headers=None):
    """(status, body bytes); status 0 when the connection failed."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except (urllib.error.URLError, OSError):
        return 0, b""


def wait_for(what, predicate, timeout_s, interval_s=0.5):
    """Polls predicate() until it returns a truthy value (returned) or fails the test."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            fail(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(interval_s)


class Processes:
    """Child processes and a temp dir, all cleaned up on exit (also on failure)."""

    def __init__(self, prefix):
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.children = []

    def start(self, name, argv):
        out = open(os.path.join(self.work, name + ".log"), "wb")
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=self.work)
        self.children.append((name, p))
        return p

    def log_tail(self, name, lines=30):
        try:
            with open(os.path.join(self.work, name + ".log"), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def close(self):
        for _, p in self.children:
            if p.poll() is None:
                p.terminate()
        for _, p in self.children:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if os.environ.get("XCVR_E2E_KEEP"):
            log(f"kept {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# Power budgets of the demo fleet's systems.
BUDGETS = """
[[budget]]
group = "spine-01"
ports = "spine-01/*"
per_port_watts = 17
total_watts = 1024

# Tighter than the hardware needs, on purpose: the power alerts fire.
[[budget]]
group = "gpu-node-01"
ports = "gpu-node-01/*"
per_port_watts = 5
total_watts = 40
"""


class Daemon:
    """transceiver_exporter on the demo fleet (or `fleet`, a fleet TOML path). faults=True adds
    the fault scenario (FAULTS, or the `scenario` TOML path); budgets=False leaves out the power
    budgets; reload() rewrites the config and sends SIGHUP."""

    def __init__(self, procs, binary, faults=True, web_extra="", fleet=None, scenario=None, budgets=True):
        self.procs = procs
        self.binary = binary
        self.port = free_port()
        self.web_extra = web_extra
        self.fleet = fleet or f"{REPO}/config/demo.toml"
        self.scenario = scenario or "faults.toml"
        self.budgets = BUDGETS if budgets else ""
        self.config = os.path.join(procs.work, "exporter.toml")
        if scenario is None:
            with open(os.path.join(procs.work, "faults.toml"), "w") as f:
                f.write(FAULTS)
        self.write_config(faults)
        self.proc = procs.start("daemon", [binary, "--config", self.config, "--log-level", "info"])
        self.url = f"http://127.0.0.1:{self.port}"

    def write_config(self, faults):
        scenarios = f'scenarios = ["{self.scenario}"]' if faults else ""
        with open(self.config, "w") as f:
            f.write(f"""# Written by tests/e2e/daemon_fleet.py
[daemon]
state_directory = "{self.procs.work}/state"
catalog = "{REPO}/config/catalog"

[poll]
dynamic_interval = "1s"
vdm_interval = "1s"
settle_delay = "1s"

[web]
listen_addresses = ["127.0.0.1:{self.port}"]
{self.web_extra}

[[source]]
type = "emulator"
fleet = "{self.fleet}"
{scenarios}
{self.budgets}""")


    def alive(self):
        if self.proc.poll() is not None:
            fail("the daemon exited:\n" + self.procs.log_tail("daemon"))
        return True

    def reload(self, faults):
        self.write_config(faults)
        self.proc.send_signal(signal.SIGHUP)

    def wait_ready(self, timeout_s=60):
        """Until /metrics serves the fleet with every faulty port read (or known unreadable)."""

        def ready():
            self.alive()
            status, body = http_get(f"http://127.0.0.1:{self.port}/metrics")
            text = body.decode(errors="replace")
            los = re.compile(rf'transceiver_flag\{{port="{re.escape(LOS_PORT)}",lane="{LOS_LANE}",'
                             rf'(data_path="[0-9]+",)?flag="rx_los"\}} 1\n')  # data_path on CMIS lanes
            return status == 200 and f'transceiver_temperature_celsius{{port="{HOT_PORT}"}}' in text and \
                los.search(text) is not None

        wait_for("the daemon to serve the faulty fleet", ready, timeout_s)


def json_get(url, timeout=5.0):
    status, body = http_get(url, timeout)
    if status != 200:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


def quote(s):
    return urllib.parse.quote(s, safe="")
