#!/usr/bin/python3
"""A peer for the scrape benchmark (issue 20): the transceiver exporter a user would write with
Python's prometheus_client. It reads an exposition body the C++ exporter served, registers the
same families (name, HELP, type, label names) as Gauge/Counter/Histogram, keeps a handle on every
child as a poller would, and serves the registry with prometheus_client's WSGI app.

  peer_exporter.py --body FILE [--listen 127.0.0.1:0] [--fresh]   prints "listening PORT", serves
  peer_exporter.py --body FILE --bench-render N                   prints render CPU as JSON

--fresh: each scrape wakes the poller thread, which sets every sample again (the exporter's
--fresh does the same with its snapshot store). Nothing here caches a body, so a repeated reading
costs a render exactly as a new one would. Runs on Debian's python3-prometheus-client."""
import argparse
import gzip
import json
import math
import os
import statistics
import sys
import threading
import time
from wsgiref.simple_server import WSGIRequestHandler, make_server

# The exporter has no *_created series; prometheus_client adds them unless told not to (read at import).
os.environ["PROMETHEUS_DISABLE_CREATED_SERIES"] = "True"
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, make_wsgi_app  # noqa: E402
from prometheus_client.exposition import ThreadingWSGIServer  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402


class Peer:
    def __init__(self, body):
        self.registry = CollectorRegistry()
        self.gauges, self.counters, self.histograms = [], [], []
        for family in text_string_to_metric_families(body):
            if family.type == "histogram":
                self._histogram(family)
                continue
            kind = {"gauge": Gauge, "counter": Counter}.get(family.type)
            if kind is None:
                raise SystemExit(f"peer_exporter.py: {family.name}: type {family.type} not mirrored")
            # Every label name the family's series carry: a series without one (an optional label,
            # docs/metrics.md "[side]") gets it empty, which is no label in Prometheus' data model.
            names = list(dict.fromkeys(n for s in family.samples for n in s.labels))
            metric = kind(family.name, family.documentation, names, registry=self.registry)
            for s in family.samples:
                child = metric.labels(*(s.labels.get(n, "") for n in names)) if names else metric
                if kind is Gauge:
                    child.set(s.value)
                    self.gauges.append((child, s.value))
                else:
                    child.inc(s.value)
                    self.counters.append([child, s.value, s.value])  # child, reading, what it holds

    def _histogram(self, family):
        names = [n for n in family.samples[0].labels if n != "le"]
        series = {}  # label values -> {"bucket": [(bound, cumulative)], "sum": x, "count": n}
        for s in family.samples:
            key = tuple(s.labels[n] for n in names)
            entry = series.setdefault(key, {"bucket": []})
            suffix = s.name[len(family.name) + 1:]
            if suffix == "bucket":
                entry["bucket"].append((float(s.labels["le"]), s.value))
            else:
                entry[suffix] = s.value
        bounds = sorted({b for e in series.values() for b, _ in e["bucket"]})
        metric = Histogram(family.name, family.documentation, names, buckets=bounds, registry=self.registry)
        finite = [b for b in bounds if not math.isinf(b)]
        for key, entry in series.items():
            child = metric.labels(*key) if names else metric
            below = 0
            # Reproduce the bucket counts by observing each bucket's bound (the sum differs).
            for bound, cumulative in sorted(entry["bucket"]):
                while below < cumulative:
                    child.observe(2 * finite[-1] if math.isinf(bound) else bound)
                    below += 1
            count = entry.get("count", 0)
            self.histograms.append((child, entry.get("sum", 0) / count if count else 0))

    def poll(self):
        """One poll's readings: every sample is set again (counters only grow: add the difference)."""
        for child, value in self.gauges:
            child.set(value)
        for c in self.counters:
            c[0].inc(c[1] - c[2])
            c[2] = c[1]
        for child, value in self.histograms:
            child.observe(value)


def median_ms(n, work, before=None):
    times = []
    for _ in range(n):
        if before:
            before()
        start = time.process_time()
        work()
        times.append((time.process_time() - start) * 1e3)
    return statistics.median(times)


def bench_render(peer, n):
    out = {}
    plain = lambda: out.__setitem__("bytes", len(generate_latest(peer.registry)))
    # prometheus_client's own gzip path (exposition._bake_output): gzip.compress, level 9.
    zipped = lambda: out.__setitem__("gzip_bytes", len(gzip.compress(generate_latest(peer.registry))))
    out["poll_ms"] = median_ms(n, peer.poll)
    out["render_ms_fresh"] = median_ms(n, plain, peer.poll)
    out["render_ms_cached"] = median_ms(n, plain)
    out["render_gzip_ms_fresh"] = median_ms(n, zipped, peer.poll)
    out["render_gzip_ms_cached"] = median_ms(n, zipped)
    print(json.dumps(out))


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def serve(peer, listen, fresh):
    app = make_wsgi_app(peer.registry)
    if fresh:
        wake = threading.Event()

        def poller():
            while True:
                wake.wait()
                wake.clear()
                peer.poll()

        threading.Thread(target=poller, daemon=True).start()
        inner = app

        def app(environ, start_response):
            wake.set()  # a poll already pending covers this scrape too
            return inner(environ, start_response)

    host, port = listen.rsplit(":", 1)
    server = make_server(host, int(port), app, ThreadingWSGIServer, handler_class=QuietHandler)
    print(f"listening {server.server_port}", flush=True)
    server.serve_forever()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--body", required=True, help="exposition body to mirror (saved from the exporter)")
    ap.add_argument("--listen", default="127.0.0.1:0")
    ap.add_argument("--fresh", action="store_true", help="every scrape triggers a poll that sets every sample again")
    ap.add_argument("--bench-render", type=int, default=0, metavar="N",
                    help="print the median CPU of N renders as JSON and exit")
    args = ap.parse_args()
    with open(args.body) as f:
        peer = Peer(f.read())
    if args.bench_render:
        bench_render(peer, args.bench_render)
    else:
        serve(peer, args.listen, args.fresh)


if __name__ == "__main__":
    sys.exit(main())
