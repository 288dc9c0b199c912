#!/usr/bin/env python3
"""The exporter against the exporters users pick instead (issue 20): a Go client_golang peer and a
Python prometheus_client peer (this folder) serving the exporter's own series, and the bare
prometheus-cpp baseline, at 64 and 2048 ports, one server after the other in this run.

Per server and fleet size: render CPU (in-process, median over repeats, plain and with the gzip
its HTTP path uses), HTTP p50/p99 with wrk over one connection with "Accept-Encoding: gzip" as
Prometheus sends it, fresh (a poll or publish before every scrape) and cached (none), for
DURATION seconds or long enough for ~30 renders (at most 30 s), server CPU per scrape over the wrk
run, and body bytes. Exits 1, measuring nothing more, if a peer's body
differs from the exporter's in families, series or sample count (same_series.py).
Writes JSON for scripts/render_benchmarks.py and prints the section it renders.

  peers_bench.py PATH/TO/xcvr_e2e_server [DURATION_SECONDS] [OUT_JSON]"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
# The peer and the series check run on Debian's interpreter: python3-prometheus-client is its package.
DEBIAN_PYTHON = "/usr/bin/python3"
# Median over this many in-process renders; a 2048-port render takes a second in the peers.
REPEATS = {64: 21, 2048: 5}


class Server:
    """A server process that prints "listening PORT" once it serves."""

    def __init__(self, cmd, log):
        self.log = open(log, "w+")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()  # a 2048-port peer parses 24 MB first: seconds
        m = re.match(r"listening (\d+)", line)
        if not m:
            self.stop()
            self.log.seek(0)
            sys.exit(f"peers_bench: {cmd[0]} did not start: {line!r} {self.log.read()[-2000:]}")
        self.url = f"http://127.0.0.1:{m.group(1)}/metrics"

    def cpu_seconds(self):
        fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def fetch(url, gzip=False):
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as r:
        return r.read()


def wrk(server, seconds):
    """p50/p99 (ms) and server CPU per scrape over one connection, gzip accepted."""
    before = server.cpu_seconds()
    out = subprocess.run(["wrk", "-t1", "-c1", f"-d{seconds}s", "--timeout", "30s", "--latency",
                          "-H", "Accept-Encoding: gzip", server.url],
                         capture_output=True, text=True, check=True).stdout
    cpu = server.cpu_seconds() - before
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    if requests == 0 or "Non-2xx" in out or re.search(r"Socket errors:.*timeout [1-9]", out):
        sys.exit(f"peers_bench: failed requests against {server.url}:\n{out}")

    def ms(pct):
        value, unit = re.search(rf"^\s*{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]

    return {"p50_ms": ms(50), "p99_ms": ms(99), "requests": requests, "seconds": seconds,
            "cpu_ms_per_scrape": cpu * 1e3 / requests}


def bench_render(cmd):
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def main():
    server_bin = os.path.abspath(sys.argv[1])
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    out_json = sys.argv[3] if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory(prefix="xcvr-peers-") as work:
        measure(server_bin, seconds, out_json, work)


def measure(server_bin, seconds, out_json, work):
    # Built from Debian's packages only (no module proxy): GOPATH mode over /usr/share/gocode.
    go_peer = os.path.join(work, "peer_exporter")
    subprocess.run(["go", "build", "-o", go_peer, os.path.join(HERE, "peer_exporter.go")], check=True,
                   env={**os.environ, "GO111MODULE": "off", "GOPATH": "/usr/share/gocode",
                        "GOCACHE": os.environ.get("GOCACHE", os.path.join(work, "gocache"))})
    peers = {"go": [go_peer], "python": [DEBIAN_PYTHON, os.path.join(HERE, "peer_exporter.py")]}
    log = os.path.join(work, "server.log")
    rows = {name: {} for name in ("exporter", "go", "python", "baseline")}

    def cell(render_ms):  # wrk seconds: the asked duration, but time for ~30 renders (≤ 30 s)
        return max(seconds, min(30, math.ceil(render_ms * 30 / 1e3)))

    for ports in (64, 2048):
        exporter = [server_bin, "--ports", str(ports), "--listen", "127.0.0.1:0"]
        render = bench_render([server_bin, "--ports", str(ports), "--bench-render", str(REPEATS[ports])])
        row = rows["exporter"][ports] = {"render": render["exporter"]}
        body_file = os.path.join(work, f"exporter-{ports}.txt")
        with Server(exporter + ["--fresh"], log) as s:
            fetch(s.url)  # the steady-state body also reports the previous render's duration
            body = fetch(s.url)
            with open(body_file, "wb") as f:
                f.write(body)
            row.update(bytes=len(body), gzip_bytes=len(fetch(s.url, gzip=True)),
                       samples=sum(1 for line in body.splitlines() if not line.startswith(b"#")))
            row["fresh"] = wrk(s, cell(row["render"]["render_gzip_ms_fresh"]))
        with Server(exporter, log) as s:
            row["cached"] = wrk(s, seconds)
        base = rows["baseline"][ports] = {"render": render["baseline"]}
        with Server(exporter + ["--baseline"], log) as s:
            base.update(bytes=len(fetch(s.url)), gzip_bytes=len(fetch(s.url, gzip=True)))
            # It serializes on every request and has nothing to update: one mode.
            base["cached"] = wrk(s, cell(base["render"]["render_gzip_ms_cached"]))

        for name, cmd in peers.items():
            cmd = cmd + ["--body", body_file]
            row = rows[name][ports] = {"render": bench_render(cmd + ["--bench-render", str(REPEATS[ports])])}
            with Server(cmd + ["--fresh"], log) as s:
                peer_body = os.path.join(work, f"{name}-{ports}.txt")
                body = fetch(s.url)
                with open(peer_body, "wb") as f:
                    f.write(body)
                check = subprocess.run([DEBIAN_PYTHON, os.path.join(HERE, "same_series.py"), body_file, peer_body, name],
                                       stdout=sys.stderr)
                if check.returncode != 0:
                    sys.exit(f"peers_bench: {name} at {ports} ports does not serve the exporter's series")
                row.update(bytes=len(body), gzip_bytes=len(fetch(s.url, gzip=True)))
                row["fresh"] = wrk(s, cell(row["render"]["render_gzip_ms_fresh"]))
            with Server(cmd, log) as s:
                row["cached"] = wrk(s, cell(row["render"]["render_gzip_ms_cached"]))
        print(f"peers_bench: {ports} ports done", file=sys.stderr)

    result = {"seconds": seconds, "repeats": REPEATS, "rows": rows,
              "versions": {"go": subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip(),
                           "client_golang": deb_version("golang-github-prometheus-client-golang-dev"),
                           "prometheus_client": deb_version("python3-prometheus-client")}}
    out_json = out_json or os.path.join(work, "peers.json")
    with open(out_json, "w") as f:
        json.dump(result, f, indent=1)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "render_benchmarks.py"), "--peers", out_json], check=True)


def deb_version(package):
    return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True).stdout


if __name__ == "__main__":
    main()
