"""Shared by the exporter e2e tests: the real transceiver_exporter daemon running the demo fleet
(config/demo.toml, without its own fault timeline: demo_fleet_without_timeline) in real bus time,
with a fault timeline (emulator scenario) that injects an overheating module, an rx LOS and a few
more faults; small HTTP helpers; and a real Prometheus (Debian `prometheus`) with the shipped
rules made fast (rewrite_rules, run_prometheus, start_prometheus, Prom), or as shipped
(fast=False, tests/e2e/demo_timeline.py). Loopback only. Python standard library only (Debian's
python3)."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


def require_tools(*tools, packages="prometheus"):
    """Fails (never skips) when a tool the test runs is not installed."""
    for tool in tools:
        if not shutil.which(tool):
            fail(f"{tool} missing (scripts/setup.sh installs {packages})")


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


def daemon_config(writer, state_directory, http, daemon_extra="", settle_delay="0s"):
    """The head of a test daemon's config: its state directory, one-second polls with no settle
    delay (or `settle_delay`) and the web listener on 127.0.0.1:http; the caller appends its sources."""
    return f"""# Written by {writer}
[daemon]
state_directory = "{state_directory}"
{daemon_extra}

[poll]
dynamic_interval = "1s"
settle_delay = "{settle_delay}"

[web]
listen_addresses = ["127.0.0.1:{http}"]
"""


# The demo's cage-style rules (config/demo-exporter.toml), which the coding check module_style
# judges the Quantum-2's and the GPU host's modules by: appended to a config after its sources.
DEMO_CAGE_STYLES = """
[[cage_style]]
ports = "qm9700-01/*"
style = "finned-top"

[[cage_style]]
ports = "gpu-node-01/*"
style = "flat-top"
"""


class Processes:
    """Child processes and a temp dir, all cleaned up on exit (also on failure)."""

    def __init__(self, prefix):
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.children = []

    def start(self, name, argv, env=None):
        out = open(os.path.join(self.work, name + ".log"), "wb")
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=self.work, env=env)
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


# One emulated OSFP cage, port "sw/p1": for tests of the daemon itself, not of a fleet.
ONE_MODULE_FLEET = ('[emulator]\nclock = "virtual"\n[[system]]\nname = "sw"\nport_prefix = "p"\n'
                    '  [[system.bus]]\n  cage_form = "OSFP"\n  modules = ["osfp-800g-2xsr4-finned"]\n')


def one_module_config(work, http, writer, daemon_extra="", source_extra=""):
    """daemon_config polling {work}/fleet.toml (ONE_MODULE_FLEET) with state in {work}/state; the
    extras go into [daemon] and the emulator source."""
    return daemon_config(writer, f"{work}/state", http, daemon_extra) + f"""
[[source]]
type = "emulator"
fleet = "{work}/fleet.toml"
{source_extra}
"""


def demo_fleet_without_timeline(work):
    """config/demo.toml without its [[fault]] timeline (the demo's own faults of its first minutes,
    which would land on the ports these tests inject into and change the counts they assert),
    written to `work`; its path. The timeline is the end of the file, from its first [[fault]]."""
    with open(f"{REPO}/config/demo.toml") as f:
        text = f.read()
    cut = re.search(r"(?m)^\[\[fault\]\]", text)
    if cut is None:
        fail("config/demo.toml has no [[fault]] timeline")
    headers = re.findall(r"(?m)^\s*\[{1,2}[^\]]+\]{1,2}", text[cut.start():])
    if any(h.strip() != "[[fault]]" for h in headers):
        fail(f"config/demo.toml: tables after its first [[fault]]: {sorted(set(headers))}; keep the timeline last")
    path = os.path.join(work, "demo-fleet.toml")
    with open(path, "w") as f:
        f.write(text[:cut.start()])
    return path


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
    """transceiver_exporter on the demo fleet without its timeline (or `fleet`, a fleet TOML path). faults=True adds
    the fault scenario (FAULTS, or the `scenario` TOML path); budgets=False leaves out the power
    budgets; `poll_extra` adds [poll] keys; `flag_hold` is short, as rewrite_rules makes
    the alerts' `for:` (a blip must stay below it, as the shipped default is below 1m); reload() rewrites the config and sends SIGHUP. `name` tells several daemons of one
    Processes apart (their config, state directory and log); `profile` is the [metrics] profile."""

    def __init__(self, procs, binary, faults=True, web_extra="", fleet=None, scenario=None, budgets=True,
                 name="daemon", poll_extra="", flag_hold="2s", profile="full"):
        self.procs = procs
        self.binary = binary
        self.name = name
        self.port = free_port()
        self.web_extra = web_extra
        self.poll_extra = poll_extra
        self.flag_hold = flag_hold
        self.profile = profile
        self.fleet = fleet or demo_fleet_without_timeline(procs.work)
        self.scenario = scenario or "faults.toml"
        self.budgets = BUDGETS if budgets else ""
        self.config = os.path.join(procs.work, f"{name}.toml")
        if scenario is None:
            with open(os.path.join(procs.work, "faults.toml"), "w") as f:
                f.write(FAULTS)
        self.write_config(faults)
        self.proc = procs.start(name, [binary, "--config", self.config, "--log-level", "info"])
        self.url = f"http://127.0.0.1:{self.port}"

    def write_config(self, faults):
        scenarios = f'scenarios = ["{self.scenario}"]' if faults else ""
        with open(self.config, "w") as f:
            f.write(f"""# Written by tests/e2e/daemon_fleet.py
[daemon]
state_directory = "{self.procs.work}/{self.name}-state"
catalog = "{REPO}/config/catalog"

[poll]
dynamic_interval = "1s"
vdm_interval = "1s"
settle_delay = "1s"
flag_hold = "{self.flag_hold}"
{self.poll_extra}

[web]
listen_addresses = ["127.0.0.1:{self.port}"]
{self.web_extra}

[metrics]
profile = "{self.profile}"

[[source]]
type = "emulator"
fleet = "{self.fleet}"
{scenarios}
{self.budgets}""")


    def alive(self):
        if self.proc.poll() is not None:
            fail(f"{self.name} exited:\n" + self.procs.log_tail(self.name))
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

        wait_for(f"{self.name} to serve the faulty fleet", ready, timeout_s)


_SAMPLE = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \S+)?$')
_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def exposition_samples(text):
    """The samples of a text exposition: (name, sorted ((label, value), ...), value), label
    values unescaped (\\, \", \n). Comments and blank lines are skipped; a line that is not a
    sample fails the test."""
    out = []
    unescape = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = _SAMPLE.match(line)
        if m is None:
            fail(f"not an exposition sample: {line[:200]!r}")
        labels, rest = [], m.group(2) or ""
        while rest:
            lm = _LABEL.match(rest)
            if lm is None:
                fail(f"bad labels in: {line[:200]!r}")
            labels.append((lm.group(1), re.sub(r"\\[\\\"n]", lambda e: unescape[e.group(0)], lm.group(2))))
            rest = rest[lm.end():]
        out.append((m.group(1), tuple(sorted(labels)), float(m.group(3))))
    return out


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


# ---- a real Prometheus (Debian `prometheus`) with the shipped rules ---------------------------

def rewrite_rules(src, dst, keep_firing=None):
    """The shipped rule file `src`, made fast for a test run, written to `dst`: every `for:` and
    `keep_firing_for:` 5s (TransceiverExporterAbsent's `for:` 2m; `keep_firing`, a dict alert
    name -> duration, gives those of its alerts that are in `src` that `keep_firing_for:`
    instead), every group `interval:` 1s, the BER-regression windows scaled to seconds. Nothing
    else changes. Returns the names of the `keep_firing` alerts found in `src`."""
    with open(src) as f:
        text = f.read()
    text = re.sub(r"(?m)^(\s+for:)\s*\S+\s*$", r"\1 5s", text)
    text = re.sub(r"(?m)^(\s+keep_firing_for:)\s*\S+\s*$", r"\1 5s", text)
    found = {alert for alert in keep_firing or {} if f"alert: {alert}\n" in text}
    for alert in found:
        duration = keep_firing[alert]
        text, n = re.subn(rf"(alert: {alert}\n(?:[^\n]*\n)*?\s+keep_firing_for:) 5s", rf"\1 {duration}", text, count=1)
        if n != 1:
            fail(f"{src}: no `keep_firing_for:` found for {alert}")
    text = re.sub(r"(?m)^(\s+interval:)\s*\S+\s*$", r"\1 1s", text)
    # Except "no target scraped at all" (15m shipped): it is true from Prometheus' start until
    # its first scrape lands, which on a loaded 2-core machine took longer than 5 s.
    if "alert: TransceiverExporterAbsent" in text:
        text, n = re.subn(r"(alert: TransceiverExporterAbsent\n(?:[^\n]*\n)*?\s+for:) 5s", r"\1 2m", text, count=1)
        if n != 1:
            fail(f"{src}: no `for:` found for TransceiverExporterAbsent")
    # The BER-regression windows (a link event in the last hour, best BER of the last 10 minutes
    # against the best of up to 6 hours before the event) scaled to seconds: event 60 s (the LOS
    # counter's increase and its sample count against the presence gauge's), after 5 s, before
    # 30 s.
    for shipped, short, count in (
            ('transceiver_flag_raised_total{flag="rx_los"}[1h]', 'transceiver_flag_raised_total{flag="rx_los"}[60s]', 2),
            ("count_over_time(transceiver_module_present[1h])", "count_over_time(transceiver_module_present[60s])", 1),
            ("transceiver_insertions_total[1h]", "transceiver_insertions_total[60s]", 1),
            ("transceiver_worst_lane_pre_fec_ber_ratio[10m]", "transceiver_worst_lane_pre_fec_ber_ratio[5s]", 1),
            ("transceiver_worst_lane_pre_fec_ber_ratio[6h]", "transceiver_worst_lane_pre_fec_ber_ratio[30s]", 1)):
        if shipped in text:
            if text.count(shipped) != count:
                fail(f"{src}: expected {count} `{shipped}`, found {text.count(shipped)}")
            text = text.replace(shipped, short)
    with open(dst, "w") as f:
        f.write(text)
    return found


def run_prometheus(procs, scrape_configs, rules, config_extra="", name="prometheus", external_labels=None,
                   keep_firing=None, fast=True, interval="1s"):
    """A real Prometheus on loopback, scraping and evaluating every `interval`: `scrape_configs`
    is the YAML list under scrape_configs:, `rules` the shipped rule files (config/prometheus/)
    it loads, rewritten by rewrite_rules (with `keep_firing`; fast=False: copied unmodified) and
    checked by promtool; `external_labels` a dict; `config_extra` is appended to its
    configuration. `name` names its configuration, storage and log in procs.work, so that several
    can run side by side. Returns (Prom, its port)."""
    found = set()
    for rule_file in rules:
        src, dst = os.path.join(REPO, "config/prometheus", rule_file), os.path.join(procs.work, rule_file)
        if fast:
            found |= rewrite_rules(src, dst, keep_firing)
        else:
            shutil.copyfile(src, dst)
    if set(keep_firing or {}) - found:
        fail(f"no alert {sorted(set(keep_firing) - found)} in {list(rules)}")
    subprocess.run(["promtool", "check", "rules", *rules], cwd=procs.work, check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    labels = f", external_labels: {json.dumps(external_labels)}" if external_labels else ""
    with open(os.path.join(procs.work, f"{name}.yml"), "w") as f:
        f.write(f"""global: {{scrape_interval: {interval}, evaluation_interval: {interval}{labels}}}
rule_files: {json.dumps(list(rules))}
scrape_configs:
{scrape_configs}
{config_extra}""")
    procs.start(name, ["prometheus", f"--config.file={name}.yml", f"--storage.tsdb.path={name}-data",
                       f"--web.listen-address=127.0.0.1:{port}"])
    return Prom(port), port


def start_prometheus(procs, target, config_extra="", name="prometheus", external_labels=None, keep_firing=None,
                     fast=True, interval="1s"):
    """A real Prometheus scraping `target` as job "transceiver" every `interval` with the shipped
    site rules (alerts.yml, recording.yml, and runbook.yml, which records the runbook base every
    runbook_url reads); the rest as run_prometheus. Returns (Prom, its port)."""
    return run_prometheus(procs, f"""  - job_name: transceiver
    static_configs: [{{targets: ['{target}']}}]""", ("alerts.yml", "recording.yml", "runbook.yml"), config_extra, name,
                          external_labels, keep_firing, fast, interval)


class Prom:
    """The HTTP API of a Prometheus on loopback."""

    def __init__(self, port):
        self.url = f"http://127.0.0.1:{port}"
        self.api = f"{self.url}/api/v1"

    def query(self, expr, at=None):
        """The result of an instant query (now, or at the Unix time `at`)."""
        when = f"&time={at:.3f}" if at is not None else ""
        r = json_get(f"{self.api}/query?query={quote(expr)}{when}", timeout=10)
        if r is None or r.get("status") != "success":
            fail(f"query failed: {expr}\n{r}")
        return r["data"]["result"]

    def value(self, expr):
        res = self.query(expr)
        return float(res[0]["value"][1]) if res else None

    def alert_list(self):
        """Every active (pending or firing) alert as the API gives it: labels, annotations, state."""
        r = json_get(f"{self.api}/alerts")
        if r is None:
            fail("/api/v1/alerts")
        return r["data"]["alerts"]

    def alerts(self, state="firing"):
        return {(a["labels"]["alertname"], a["labels"].get("port", "")) for a in self.alert_list()
                if a["state"] == state}

    def any_alerts(self):
        return self.alerts("firing") | self.alerts("pending")


# ---- a real Alertmanager (Debian `prometheus-alertmanager`) with the shipped configuration ----

ALERTMANAGER = "/usr/bin/prometheus-alertmanager"


class Webhook:
    """Alertmanager webhook receiver on loopback: records every notification (JSON body)."""

    def __init__(self):
        self.notifications = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    payload = json.loads(body)
                except ValueError:
                    payload = {"invalid": body.decode(errors="replace")}
                with outer.lock:
                    outer.notifications.append(payload)
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/alerts"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def snapshot(self):
        with self.lock:
            return list(self.notifications)

    def close(self):
        self.server.shutdown()


def write_alertmanager_config(dst, webhook_url):
    """The shipped configuration with only the receiver URL and the group timings changed."""
    with open(os.path.join(REPO, "config/alertmanager/alertmanager.yml")) as f:
        text = f.read()
    changes = [(r"(?m)^(\s+- url:)\s*\S+$", rf"\1 {webhook_url}", 1),
               (r"(?m)^(\s+group_wait:)\s*\S+$", r"\1 1s", 1),
               (r"(?m)^(\s+group_interval:)\s*\S+$", r"\1 2s", 1),
               (r"(?m)^(\s+repeat_interval:)\s*\S+$", r"\1 1h", 1)]
    for pattern, repl, count in changes:
        text, n = re.subn(pattern, repl, text)
        if n != count:
            fail(f"alertmanager.yml: expected {count} line(s) matching {pattern}, found {n}")
    with open(dst, "w") as f:
        f.write(text)


def start_alertmanager(procs, webhook_url):
    """A real Alertmanager on loopback running the shipped configuration (write_alertmanager_config,
    checked by amtool), its cluster listener off. Returns its port; the caller waits for /-/ready."""
    am_port = free_port()
    write_alertmanager_config(os.path.join(procs.work, "alertmanager.yml"), webhook_url)
    subprocess.run(["amtool", "check-config", "alertmanager.yml"], cwd=procs.work, check=True,
                   stdout=subprocess.DEVNULL)
    procs.start("alertmanager", [ALERTMANAGER, "--config.file=alertmanager.yml", "--storage.path=am-data",
                                 f"--web.listen-address=127.0.0.1:{am_port}", "--cluster.listen-address="])
    return am_port


def by_port(notifications):
    """port -> list of notifications of its group(s), in arrival order."""
    out = {}
    for n in notifications:
        out.setdefault(n.get("groupLabels", {}).get("port", ""), []).append(n)
    return out


def alerts_of(notifications, status=None):
    """The names of the alerts the notifications carry (with that status: firing, resolved)."""
    return {a["labels"]["alertname"] for n in notifications for a in n.get("alerts", [])
            if status is None or a.get("status") == status}


def split_profile(args):
    """`args` without a trailing `--profile full|fleet`, and that metric profile ("full" without)."""
    if len(args) >= 2 and args[-2] == "--profile":
        if args[-1] not in ("full", "fleet"):
            fail(f"--profile {args[-1]}: expected full or fleet")
        return args[:-2], args[-1]
    return args, "full"


def profile_argument(argv, usage):
    """The metric profile a test of one argument (the daemon) runs with: "full", or --profile's."""
    args, profile = split_profile(argv[1:])
    if len(args) != 1:
        fail(f"usage: {usage} PATH/TO/transceiver_exporter [--profile full|fleet]")
    return profile
