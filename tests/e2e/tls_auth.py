#!/usr/bin/env python3
"""TLS and basic auth of the real transceiver_exporter daemon (web section of its config file),
checked with curl and openssl: wrong password 401, right password 200, /healthz exempt, a
TLS 1.2 handshake verifies, TLS 1.1 and plain HTTP on the TLS port are refused; malformed,
oversized and stalled requests are refused while authenticated scrapes running concurrently
all succeed.

  tls_auth.py PATH/TO/transceiver_exporter PATH/TO/xcvr_e2e_server   (the latter for --bcrypt)
"""

import base64
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import Daemon, Processes, fail, log  # noqa: E402

USER, PASSWORD = "prom", "s3cret"
MAX_REQUEST = 8192


def curl(*args):
    r = subprocess.run(["curl", "-sS", "--max-time", "10", *args], capture_output=True)
    return r.returncode, r.stdout.decode(errors="replace")


def status_of(*args):
    rc, out = curl("-o", "/dev/null", "-w", "%{http_code}", *args)
    return out.strip() if rc == 0 else f"curl exit {rc}"


def raw_tls(port, ctx, payload, wait_s=3.0):
    """Sends raw bytes over TLS; returns the first response line, or '' if the server closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait_s) as s:
        with ctx.wrap_socket(s, server_hostname="localhost") as t:
            try:
                t.sendall(payload)
                data = t.recv(200)
            except (OSError, ssl.SSLError):
                return ""
    return data.split(b"\r\n", 1)[0].decode(errors="replace")


class Scraper(threading.Thread):
    """Authenticated scrapes in a loop while the bad clients run; counts failures."""

    def __init__(self, url, ctx):
        super().__init__(daemon=True)
        self.url, self.ctx = url, ctx
        self.ok = self.failed = 0
        self.errors = []
        self.stop = threading.Event()

    def run(self):
        auth = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        while not self.stop.is_set():
            req = urllib.request.Request(self.url, headers={"Authorization": "Basic " + auth})
            try:
                with urllib.request.urlopen(req, timeout=10, context=self.ctx) as r:
                    body = r.read()
                    if r.status == 200 and b"transceiver_exporter_build_info" in body:
                        self.ok += 1
                    else:
                        self.failed += 1
            except Exception as e:  # noqa: BLE001 - every failure counts
                self.failed += 1
                self.errors.append(repr(e))


def main():
    binary, helper = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with Processes("xcvr-e2e-tls-") as procs:
        w = procs.work
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{w}/key.pem",
                        "-out", f"{w}/cert.pem", "-days", "2", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
        bcrypt = subprocess.run([helper, "--bcrypt", PASSWORD], check=True, capture_output=True,
                                text=True).stdout.strip()
        if not bcrypt.startswith("$2b$10$"):
            fail(f"unexpected bcrypt hash {bcrypt}")
        web = f"""tls_cert_file = "{w}/cert.pem"
tls_key_file = "{w}/key.pem"
max_request_bytes = {MAX_REQUEST}
read_timeout = "2s"
max_connections = 16

[web.basic_auth_users]
{USER} = "{bcrypt}"
"""
        daemon = Daemon(procs, binary, web_extra=web)
        url = f"https://127.0.0.1:{daemon.port}"
        ca = ["--cacert", f"{w}/cert.pem"]
        ctx = ssl.create_default_context(cafile=f"{w}/cert.pem")
        deadline = time.monotonic() + 60
        while status_of(*ca, "-u", f"{USER}:{PASSWORD}", f"{url}/metrics") != "200":
            daemon.alive()
            if time.monotonic() > deadline:
                fail("daemon never served /metrics over TLS\n" + procs.log_tail("daemon"))
            time.sleep(0.5)

        rc, body = curl(*ca, f"{url}/healthz")
        if rc != 0 or body.strip() != "ok":
            fail(f"/healthz over TLS without credentials: {rc} {body!r}")
        checks = {
            "no credentials": (status_of(*ca, f"{url}/metrics"), "401"),
            "wrong password": (status_of(*ca, "-u", f"{USER}:nope", f"{url}/metrics"), "401"),
            "unknown user": (status_of(*ca, "-u", f"root:{PASSWORD}", f"{url}/metrics"), "401"),
            "right password": (status_of(*ca, "-u", f"{USER}:{PASSWORD}", f"{url}/metrics"), "200"),
            "landing page, right password": (status_of(*ca, "-u", f"{USER}:{PASSWORD}", f"{url}/"), "200"),
            "landing page, no credentials": (status_of(*ca, f"{url}/"), "401"),
        }
        for what, (got, want) in checks.items():
            if got != want:
                fail(f"{what}: HTTP {got}, want {want}")
        rc, metrics = curl(*ca, "-u", f"{USER}:{PASSWORD}", "--compressed", f"{url}/metrics")
        if 'transceiver_module_present{port="spine-01/swp1"} 1' not in metrics:
            fail("authenticated /metrics body")
        log("ok: curl: no credentials 401, wrong password 401, right password 200, /healthz exempt")

        s_client = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{daemon.port}", "-tls1_2",
                                   "-CAfile", f"{w}/cert.pem"], input=b"", capture_output=True, timeout=30)
        if b"Verify return code: 0 (ok)" not in s_client.stdout:
            fail("openssl s_client TLS 1.2 handshake did not verify")
        if curl(*ca, "--tlsv1.1", "--tls-max", "1.1", f"{url}/healthz")[0] == 0:
            fail("TLS 1.1 accepted")
        plain = status_of(f"http://127.0.0.1:{daemon.port}/healthz")
        if plain == "200":
            fail("plain HTTP served on the TLS port")
        log(f"ok: TLS 1.2 handshake verifies; TLS 1.1 refused; plain HTTP on the TLS port: {plain}")

        scraper = Scraper(f"{url}/metrics", ctx)
        scraper.start()
        time.sleep(0.5)
        # Stalled clients: connections that never finish a request (read timeout 2 s).
        stalled = []
        for _ in range(6):
            s = socket.create_connection(("127.0.0.1", daemon.port))
            s.sendall(b"\x16\x03\x01")  # the start of a TLS record, then nothing
            stalled.append(s)
        bad = {
            "malformed request line": raw_tls(daemon.port, ctx, b"NONSENSE\r\n\r\n"),
            "binary garbage": raw_tls(daemon.port, ctx, bytes(range(256)) * 4),
            "oversized URL": raw_tls(daemon.port, ctx, b"GET /metrics?" + b"a" * (4 * MAX_REQUEST) +
                                     b" HTTP/1.1\r\nHost: x\r\n\r\n"),
            "oversized header": raw_tls(daemon.port, ctx, b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " +
                                        b"a" * (4 * MAX_REQUEST) + b"\r\n\r\n"),
        }
        for what, first_line in bad.items():
            if " 200 " in first_line:
                fail(f"{what} answered {first_line}")
        big = subprocess.run(["curl", "-sS", "--max-time", "10", *ca, "-u", f"{USER}:{PASSWORD}", "-o",
                              "/dev/null", "-w", "%{http_code}", "--data-binary", "@-", f"{url}/metrics"],
                             input=b"x" * (256 * 1024), capture_output=True)
        big_status = big.stdout.decode().strip()
        if big_status == "200":
            fail("oversized request body accepted")
        time.sleep(3)  # past the read timeout of the stalled connections
        for s in stalled:
            s.close()
        time.sleep(0.5)
        scraper.stop.set()
        scraper.join(30)
        if scraper.failed or scraper.ok < 3:
            fail(f"concurrent scrapes: {scraper.ok} ok, {scraper.failed} failed: {scraper.errors[:3]}")
        answers = ", ".join(f"{k}: {v or 'closed'}" for k, v in bad.items())
        log(f"ok: refused ({answers}, 256 KiB POST body: {big_status or 'closed'}); 6 stalled connections; "
            f"{scraper.ok} concurrent scrapes all complete")
        daemon.alive()
        if status_of(*ca, f"{url}/healthz") != "200":
            fail("daemon hurt by the bad clients")
    log("PASS tls + auth")


if __name__ == "__main__":
    main()
