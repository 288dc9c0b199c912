"""A real long-term store (#39 item 5): Prometheus in agent mode scrapes a simulated fleet of
TARGETS exporters and remote-writes it into VictoriaMetrics (Debian `victoria-metrics`), both
started here. The simulated exporters speak the real daemon's exposition: one
transceiver_exporter runs the demo fleet (config/demo.toml, with its fault scenario), and a load
generator serves that daemon's current /metrics body (gzip, as the daemon sends it) as TARGETS
targets, each scraped with its own `instance`. So every sample VictoriaMetrics stores is one the
exporter wrote, and the cost per module is the exporter's.

Asserts that every series the load generator served arrives in VictoriaMetrics for every target
(sets compared exactly for three targets, counts for all), and that the ingested rows match
the samples served. Prints figures (series, samples/s, bytes on disk per series and per sample,
per module) that docs/deployment.md's sizing table comes from.

  victoriametrics_fleet.py TRANSCEIVER_EXPORTER [TARGETS] [SECONDS] [--profile full|fleet]

CI runs 10 targets for 60 s; docs/deployment.md's table comes from a longer, larger run."""

import gzip
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from daemon_fleet import (Daemon, Processes, exposition_samples, fail, free_port, http_get, json_get, log, quote,
                          require_tools, split_profile, wait_for)

SCRAPE_INTERVAL_S = 5
# What Prometheus adds per target to what the target serves (agent mode writes them too).
SCRAPE_SERIES = {"up", "scrape_duration_seconds", "scrape_samples_scraped", "scrape_samples_post_metric_relabeling",
                 "scrape_series_added"}


def series_of(body):
    """The series of an exposition body: (name, sorted label pairs), an empty label left out (in
    Prometheus' data model a label with an empty value is no label)."""
    return {(name, tuple(l for l in labels if l[1] != "")) for name, labels, _ in exposition_samples(body)}


class FleetOfExporters:
    """TARGETS exporters at /t/<i>/metrics, each serving the daemon's current body (re-read at most
    once a second, shared by all). Remembers which body versions each target served, so the
    series each target exposed are known exactly."""

    def __init__(self, daemon_url, targets):
        self.daemon_url = daemon_url
        self.lock = threading.Lock()
        self.versions = []  # (series set, samples) per body version
        self.body = self.gzipped = None
        self.fetched = 0.0
        self.frozen = False  # serve the last body from now on: the series served stop changing
        self.served = {i: set() for i in range(targets)}  # target -> version indices
        self.samples_served = 0
        self.refresh()
        fleet = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = self.path.split("/")
                if len(parts) != 4 or parts[1] != "t" or parts[3] != "metrics" or not parts[2].isdigit():
                    self.send_error(404)
                    return
                target = int(parts[2])
                body, version = fleet.current()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                fleet.delivered(target, version)  # only a body that went out whole counts as served

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def refresh(self):
        status, body = http_get(f"{self.daemon_url}/metrics", timeout=10)
        if status != 200:
            fail(f"the daemon's /metrics answered {status}")
        text = body.decode()
        series = series_of(text)
        self.versions.append((series, len(series)))
        self.gzipped = gzip.compress(body, 1)
        self.fetched = time.monotonic()

    def current(self):
        with self.lock:
            if not self.frozen and time.monotonic() - self.fetched >= 1:
                self.refresh()
            return self.gzipped, len(self.versions) - 1

    def delivered(self, target, version):
        with self.lock:
            self.served[target].add(version)
            self.samples_served += self.versions[version][1]

    def series(self, target):
        with self.lock:
            out = set()
            for v in self.served[target]:
                out |= self.versions[v][0]
            return out

    def close(self):
        self.server.shutdown()


def vm_series(vm, target):
    match = quote('{job="sim",instance="sim-%d"}' % target)
    r = json_get(f"{vm}/api/v1/series?match[]={match}&start={int(time.time()) - 3600}", timeout=60)
    if r is None or r.get("status") != "success":
        fail(f"VictoriaMetrics series query failed: {r}")
    out = set()
    for labels in r["data"]:
        name = labels.pop("__name__")
        for extra in ("job", "instance"):
            labels.pop(extra, None)
        out.add((name, tuple(sorted(labels.items()))))
    return out


def vm_samples(vm):
    """VictoriaMetrics' own /metrics, read once for the figures taken from it."""
    _, body = http_get(f"{vm}/metrics", timeout=10)
    return exposition_samples(body.decode())


def vm_metric(samples, name, **labels):
    """The sum of VictoriaMetrics' own metric `name` with `labels` in `samples` (vm_samples)."""
    return sum(value for n, ls, value in samples if n == name and set(labels.items()) <= set(ls))


def disk_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def main():
    args, profile = split_profile(sys.argv[1:])
    if len(args) not in (1, 2, 3):
        fail(__doc__)
    daemon_bin = os.path.abspath(args[0])
    targets = int(args[1]) if len(args) > 1 else 10
    seconds = float(args[2]) if len(args) > 2 else 60
    require_tools("prometheus", packages="prometheus")
    require_tools("victoria-metrics", packages="victoria-metrics")
    with Processes("xcvr-vm-") as procs:
        daemon = Daemon(procs, daemon_bin, profile=profile)
        daemon.wait_ready()
        fleet = FleetOfExporters(daemon.url, targets)
        try:
            run(procs, fleet, targets, seconds, profile)
        finally:
            fleet.close()


def run(procs, fleet, targets, seconds, profile):
    vm_port = free_port()
    vm_data = os.path.join(procs.work, "vm-data")
    procs.start("victoria-metrics", ["victoria-metrics", f"-storageDataPath={vm_data}", "-retentionPeriod=1d",
                                     f"-httpListenAddr=127.0.0.1:{vm_port}", "-search.disableCache",
                                     "-search.latencyOffset=0s"])
    vm = f"http://127.0.0.1:{vm_port}"
    wait_for("VictoriaMetrics to answer", lambda: http_get(f"{vm}/health", timeout=2)[0] == 200, 60)

    groups = "\n".join(f"      - {{targets: ['127.0.0.1:{fleet.port}'], labels: {{instance: sim-{i}, "
                       f"__metrics_path__: /t/{i}/metrics}}}}" for i in range(targets))
    with open(os.path.join(procs.work, "agent.yml"), "w") as f:
        f.write(f"""global: {{scrape_interval: {SCRAPE_INTERVAL_S}s, scrape_timeout: {SCRAPE_INTERVAL_S}s}}
scrape_configs:
  - job_name: sim
    static_configs:
{groups}
remote_write:
  - url: {vm}/api/v1/write
""")
    prom_port = free_port()
    procs.start("prometheus-agent", ["prometheus", "--enable-feature=agent", "--config.file=agent.yml",
                                     "--storage.agent.path=agent-data", f"--web.listen-address=127.0.0.1:{prom_port}"])
    started = time.monotonic()
    rows_before = vm_metric(vm_samples(vm), "vm_rows_inserted_total", type="promremotewrite")
    served_before = fleet.samples_served
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    rows = vm_metric(vm_samples(vm), "vm_rows_inserted_total", type="promremotewrite") - rows_before
    samples = fleet.samples_served - served_before
    fleet.frozen = True  # what each target served no longer grows while it is checked

    # Every target scraped, and everything it served stored: the agent's queue drained into VM.
    up = json_get(f"http://127.0.0.1:{prom_port}/api/v1/targets", timeout=10)
    if up is None:
        fail("the Prometheus agent's target list is not available:\n" + procs.log_tail("prometheus-agent"))
    down = [t["labels"].get("instance") for t in up["data"]["activeTargets"] if t["health"] != "up"]
    if down or len(up["data"]["activeTargets"]) != targets:
        fail(f"targets not up: {down} of {len(up['data']['activeTargets'])}")
    http_get(f"{vm}/internal/force_flush", timeout=30)

    missing = {}

    def all_arrived():
        http_get(f"{vm}/internal/force_flush", timeout=30)
        for t in (0, targets // 2, targets - 1):
            missing[t] = fleet.series(t) - vm_series(vm, t)
        return not any(missing.values())

    deadline = time.monotonic() + 60
    while not all_arrived():
        if time.monotonic() > deadline:
            expr = quote('count(min_over_time(up{job="sim"}[1h]) == 0)')
            failed = json_get(f"{vm}/api/v1/query?query={expr}", timeout=30)
            fail(f"VictoriaMetrics lacks series served (targets with a failed scrape: {failed}): " +
                 "; ".join(f"sim-{t}: {len(m)} (e.g. {sorted(m)[:3]})" for t, m in missing.items() if m))
        time.sleep(2)
    per_target = {}
    for t in range(targets):
        want = fleet.series(t)
        got = {s for s in vm_series(vm, t) if s[0] not in SCRAPE_SERIES}
        if got != want:
            missing, extra = want - got, got - want
            fail(f"sim-{t}: {len(missing)} series served but not stored (e.g. {sorted(missing)[:3]}), "
                 f"{len(extra)} stored but never served (e.g. {sorted(extra)[:3]})")
        per_target[t] = len(got)
    log(f"ok: every series of all {targets} targets is in VictoriaMetrics ({sum(per_target.values())} series)")

    # Rows VM took in cover what was served (plus Prometheus' 5 scrape series per scrape): the
    # remote-write path lost nothing. (Both counted over the window: the last scrapes' rows may
    # still have been on their way at its end, so at least 90 %.)
    if rows < 0.9 * samples:
        fail(f"VictoriaMetrics inserted {rows:.0f} rows, the targets served {samples} samples")

    cages = sum(1 for name, _ in fleet.versions[-1][0] if name == "transceiver_module_present")
    series_total = sum(per_target.values())
    figures = vm_samples(vm)
    data_bytes = sum(vm_metric(figures, "vm_data_size_bytes", type=t) for t in ("storage/small", "storage/big"))
    index_bytes = sum(vm_metric(figures, "vm_data_size_bytes", type=t)
                      for t in ("indexdb", "indexdb/file", "indexdb/inmemory"))
    stored_rows = sum(vm_metric(figures, "vm_rows", type=t) for t in ("storage/small", "storage/big"))
    on_disk = disk_bytes(vm_data)
    log(f"figure: {profile} profile")
    log(f"figure: {targets} exporters x {per_target[0]} series ({cages} cages each): {series_total} series in "
        f"VictoriaMetrics, {series_total / (targets * cages):.1f} per cage")
    log(f"figure: ingest {rows / elapsed:.0f} samples/s over {elapsed:.0f} s at a {SCRAPE_INTERVAL_S} s scrape "
        f"interval ({rows:.0f} rows; {samples} samples served)")
    log(f"figure: storage {data_bytes:.0f} B data for {stored_rows:.0f} rows = {data_bytes / max(stored_rows, 1):.2f} "
        f"B/sample; index {index_bytes:.0f} B = {index_bytes / series_total:.0f} B/series; "
        f"{on_disk} B on disk in all")


if __name__ == "__main__":
    main()
