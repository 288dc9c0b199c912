#!/usr/bin/env python3
"""Hostile HTTP against the real transceiver_exporter daemon (106-port demo fleet, default web
settings): 4 concurrent 2000-range requests x 5 rounds with the daemon's VmRSS measured before
and after; 100 idle + 10 slowloris connections from 127.0.0.1 while a scraper on 127.0.0.2
scrapes /metrics with Prometheus' 10 s timeout; a GET whose body is a request; a 64 KiB URL;
an HTTP/1.0 keep-alive pair. Bounded by counts; figures are printed.

  daemon_http.py PATH/TO/transceiver_exporter
"""

import os
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from daemon_fleet import Daemon, Processes, fail, log, wait_for  # noqa: E402

RSS_BOUND_KIB = 64 * 1024  # growth allowed over the multi-range rounds (it was GBs)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def connect(port, source="127.0.0.1", timeout=10.0):
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def exchange(port, payload, source="127.0.0.1", timeout=10.0):
    """Sends payload, reads until the server closes; returns the bytes."""
    with connect(port, source, timeout) as s:
        s.sendall(payload)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except OSError:
            pass
    return out


def head_body(reply):
    head, _, body = reply.partition(b"\r\n\r\n")
    return head.decode(errors="replace"), body


def status(reply):
    return int(reply[9:12]) if len(reply) >= 12 else 0


def read_one(s):
    """One response with Content-Length from a keep-alive socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def scrapes(port, n):
    worst = 0.0
    for i in range(n):
        start = time.monotonic()
        r = exchange(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "127.0.0.2")
        worst = max(worst, time.monotonic() - start)
        if status(r) != 200 or b"transceiver_exporter_build_info" not in r:
            fail(f"scrape {i} during the flood: {r[:80]!r}")
    return worst


def main():
    binary = os.path.abspath(sys.argv[1])
    with Processes("xcvr-hostile-http-") as procs:
        daemon = Daemon(procs, binary, faults=False)
        port = daemon.port
        def serving():
            daemon.alive()
            try:
                return status(exchange(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == 200
            except OSError:
                return False

        wait_for("the daemon to serve /metrics", serving, 60)
        def body_size():
            return len(head_body(exchange(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))[1])

        full = body_size()

        # Multi-range: one body per request, RSS bounded.
        ranges = b"bytes=0-" + b",0-" * 1999
        request = b"GET /metrics HTTP/1.1\r\nHost: x\r\nRange: " + ranges + b"\r\nConnection: close\r\n\r\n"
        before = rss_kib(daemon.proc.pid)
        sizes = []
        for _ in range(5):
            replies = [None] * 4
            threads = [threading.Thread(target=lambda i=i: replies.__setitem__(i, exchange(port, request)))
                       for i in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for r in replies:
                if status(r) != 200:
                    fail(f"multi-range answered {r[:60]!r}")
                sizes.append(len(r))
        after = rss_kib(daemon.proc.pid)
        full = max(full, body_size())  # the fleet may have grown meanwhile (modules still being read)
        log(f"figure: 20 x 2000-range requests: largest reply {max(sizes)} B (body {full} B); "
            f"daemon VmRSS {before} -> {after} KiB")
        if max(sizes) > full + 4096:
            fail("a multi-range reply was larger than one body")
        if after - before > RSS_BOUND_KIB:
            fail(f"daemon RSS grew by {after - before} KiB")

        # Floods while a scraper on another address keeps scraping.
        idle = [connect(port) for _ in range(100)]
        slow = []
        for _ in range(10):
            s = connect(port)
            s.sendall(b"GET /metrics HTTP/1.1\r\nX: ")
            slow.append(s)
        stop = threading.Event()

        def trickle():
            while not stop.is_set():
                for s in slow:
                    try:
                        s.sendall(b"a")
                    except OSError:
                        pass
                time.sleep(0.1)

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        worst = scrapes(port, 20)
        stop.set()
        t.join()
        for s in idle + slow:
            s.close()
        log(f"figure: 100 idle + 10 slowloris connections: 20/20 scrapes answered, slowest {worst * 1000:.1f} ms")

        # Framing.
        smuggled = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
        r = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: " + str(len(smuggled)).encode() +
                     b"\r\n\r\n" + smuggled + b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        if r.count(b"HTTP/1.1 200") != 2 or b"# HELP" in r:
            fail(f"GET body parsed as a request: {r[:300]!r}")
        r = exchange(port, b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        if status(r) != 414 or b"\r\nConnection: close\r\n" not in r:
            fail(f"64 KiB URL answered {r[:80]!r}")
        with connect(port) as s:
            s.sendall(b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            first = read_one(s)
            s.sendall(b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            second = read_one(s)
        if status(first) != 200 or status(second) != 200:
            fail(f"HTTP/1.0 keep-alive pair: {first[:40]!r} / {second[:40]!r}")
        log("ok: GET body consumed, 414 with Connection: close, HTTP/1.0 keep-alive pair served")
        daemon.alive()
    log("PASS hostile daemon http")


if __name__ == "__main__":
    main()
