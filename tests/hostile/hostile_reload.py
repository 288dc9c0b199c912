#!/usr/bin/env python3
"""Hostile configs against the real transceiver_exporter daemon (issue 16, "Config and reload"),
loopback only, every wait bounded:

- web changes by SIGHUP take effect, all of them: a removed user is refused, a changed hash
  takes the new password only, a renewed certificate (same path) is served, a changed listen
  address stops answering on the old port and answers on the new; a web change that cannot be
  applied (certificate path turned into a directory) leaves the old settings serving and counts
  a failure; config_reloads_total counts attempts;
- a reload keeps unchanged sources' modules inserted (no second "module inserted");
- a config with no sources serves no ports (no stale snapshot);
- a reload naming /dev/zero as fleet, or a 50 000-part dotted key, is refused and RSS stays
  bounded; a config path that became a FIFO is refused at once and SIGTERM is still honoured;
- --check-config refuses with file:line:col (exit 2) what a start refuses.

  hostile_reload.py PATH/TO/transceiver_exporter PATH/TO/xcvr_e2e_server   (the latter for --bcrypt)
"""

import base64
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from daemon_fleet import Processes, fail, free_port, log, wait_for  # noqa: E402

DUMP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "qsfp28-lr4-dell-3mfxg", "raw.txt")
RSS_BOUND_KIB = 256 * 1024  # the daemon on one dump idles near 20 MiB


def make_cert(w, name):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{w}/{name}.key",
                    "-out", f"{w}/{name}.crt", "-days", "2", "-subj", f"/CN={name}", "-addext",
                    "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)


def get(port, user=None, password=None, path="/metrics", tls=True, timeout=5.0):
    """(status, body, server certificate DER); status 0 when no connection could be made."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # the certificate is compared by its bytes below
    headers = {}
    if user is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    req = urllib.request.Request(f"{'https' if tls else 'http'}://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=ctx if tls else None) as r:
            cert = r.fp.raw._sock.getpeercert(binary_form=True) if tls else b""
            return r.status, r.read(), cert
    except urllib.error.HTTPError as e:
        return e.code, e.read(), b""
    except (urllib.error.URLError, OSError, ssl.SSLError):
        return 0, b"", b""


def der_of(pem_path):
    with open(pem_path) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


def metric(body, name):
    m = re.search(rb"^" + re.escape(name.encode()) + rb"(?:\{[^}]*\})? ([0-9.e+-]+)$", body, re.M)
    return float(m.group(1)) if m else None


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Daemon:
    def __init__(self, procs, binary, w):
        self.procs, self.binary, self.w = procs, binary, w
        self.config = f"{w}/config.toml"

    def write(self, text):
        tmp = self.config + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, self.config)

    def start(self, text):
        self.write(text)
        self.proc = self.procs.start("daemon", [self.binary, "--config", self.config])

    def log(self):
        return self.procs.log_tail("daemon", 400)

    def reload(self, text, expect_ok):
        """Rewrites the config, sends SIGHUP, waits (bounded) for the outcome in the log."""
        if text is not None:
            self.write(text)
        before = self.log().count("config reloaded") + self.log().count("config reload failed")
        self.proc.send_signal(signal.SIGHUP)
        wait_for("the reload's outcome in the log",
                 lambda: self.log().count("config reloaded") + self.log().count("config reload failed") > before, 20, 0.1)
        last = [l for l in self.log().splitlines() if "config reload" in l][-1]
        if ("config reloaded" in last) != expect_ok:
            fail(f"reload: expected {'success' if expect_ok else 'failure'}, got: {last}")
        if self.proc.poll() is not None:
            fail("daemon died on reload:\n" + self.log())
        return last


def config(w, port, users, cert="server", extra_sources=True, listen=None):
    lines = [f'[daemon]\nstate_directory = "{w}/state"\n[poll]\ndynamic_interval = 1\nsettle_delay = 0\n',
             f'[web]\nlisten_addresses = ["{listen or f"127.0.0.1:{port}"}"]\n'
             f'tls_cert_file = "{w}/{cert}.crt"\ntls_key_file = "{w}/{cert}.key"\n']
    if users:
        lines.append("[web.basic_auth_users]\n" + "".join(f'{u} = "{h}"\n' for u, h in users.items()))
    if extra_sources:
        lines.append(f'[[source]]\ntype = "file"\n[[source.port]]\nname = "a"\npath = "{DUMP}"\n')
    return "\n".join(lines)


def web_changes(procs, binary, helper):
    w = procs.work
    make_cert(w, "server")
    hashes = {pw: subprocess.run([helper, "--bcrypt", pw], check=True, capture_output=True, text=True).stdout.strip()
              for pw in ("pw-prom", "pw-old", "pw-new")}
    p1 = free_port()
    d = Daemon(procs, binary, w)
    users = {"prom": hashes["pw-prom"], "old": hashes["pw-old"]}
    d.start(config(w, p1, users))
    wait_for("the daemon to serve", lambda: get(p1, "prom", "pw-prom")[0] == 200, 30, 0.2)
    if get(p1, "old", "pw-old")[0] != 200:
        fail("user 'old' refused before any reload")
    wait_for("module a inserted", lambda: "port a: module inserted" in d.log(), 20, 0.2)

    # The same config again: nothing re-inserted, the attempt counted.
    d.reload(None, True)
    if d.log().count("port a: module inserted") != 1:
        fail("an unchanged source's module was inserted again on reload")
    log("ok: unchanged source kept (module not re-inserted)")

    # A user removed.
    users = {"prom": hashes["pw-prom"]}
    d.reload(config(w, p1, users), True)
    if get(p1, "old", "pw-old")[0] != 401 or get(p1, "prom", "pw-prom")[0] != 200:
        fail("after removing user 'old': old must get 401, prom 200")
    log("ok: removed user refused")

    # A hash changed: the old password stops working, the new one works.
    users = {"prom": hashes["pw-new"]}
    d.reload(config(w, p1, users), True)
    if get(p1, "prom", "pw-prom")[0] != 401 or get(p1, "prom", "pw-new")[0] != 200:
        fail("after changing prom's hash: the old password must get 401, the new one 200")
    log("ok: changed hash applied")

    # The certificate renewed in place (same paths, new bytes).
    old_der = get(p1, "prom", "pw-new")[2]
    make_cert(w, "server")
    d.reload(None, True)
    new_der = get(p1, "prom", "pw-new")[2]
    if new_der != der_of(f"{w}/server.crt") or new_der == old_der:
        fail("after renewing the certificate the daemon still serves the old one")
    log("ok: renewed certificate served")

    # A web change that cannot be applied: the old settings keep serving, a failure is counted.
    os.rename(f"{w}/server.crt", f"{w}/server.crt.bak")
    os.mkdir(f"{w}/server.crt")
    line = d.reload(config(w, p1, {"prom": hashes["pw-prom"]}), False)
    if "a directory" not in line:
        fail(f"the failed reload does not say why: {line}")
    if get(p1, "prom", "pw-new")[0] != 200 or get(p1, "prom", "pw-prom")[0] != 401:
        fail("a failed web reload changed the running web settings")
    os.rmdir(f"{w}/server.crt")
    os.rename(f"{w}/server.crt.bak", f"{w}/server.crt")
    log("ok: refused web change keeps the old settings")

    # The listen address changed: the old port stops answering, the new one answers.
    p2 = free_port()
    while p2 == p1:  # the kernel may hand out the same free port twice
        p2 = free_port()
    d.reload(config(w, p2, users), True)
    if get(p1, "prom", "pw-new")[0] != 0:
        fail(f"after moving to port {p2} the old port {p1} still answers")
    status, body, _ = get(p2, "prom", "pw-new")
    if status != 200:
        fail(f"the new listen address {p2} does not answer: {status}")
    log("ok: listen address moved")
    attempts = metric(body, "transceiver_exporter_config_reloads_total")
    failures = metric(body, "transceiver_exporter_config_reload_failures_total")
    if attempts != 6 or failures != 1:
        fail(f"config_reloads_total {attempts} (expected 6 attempts), failures {failures} (expected 1)")
    log("ok: reload counters: 6 attempts, 1 failure")

    # A new listen address someone else holds: refused with the config line, the old port serves.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        p3 = taken.getsockname()[1]
        line = d.reload(config(w, p3, users), False)
        if "cannot listen" not in line or not re.search(r"config\.toml:\d+:\d+: ", line):
            fail(f"a taken listen address: the failure does not name the address and line: {line}")
        if get(p2, "prom", "pw-new")[0] != 200:
            fail("a failed rebind stopped the old listener")
    log("ok: taken listen address refused on reload, old one serving")

    # Hostile inputs named by a reload: refused, daemon alive, RSS bounded.
    good = config(w, p2, users)
    for name, text, why in [
        ("fleet /dev/zero", good + '\n[[source]]\ntype = "emulator"\nfleet = "/dev/zero"\n', "a character device"),
        ("dump is a directory", good + f'\n[[source]]\ntype = "file"\n[[source.port]]\nname = "d"\npath = "{w}"\n',
         "a directory"),
        ("50 000-part key", good + "\n" + ".".join(["a"] * 50000) + " = 1\n", "refused before parsing"),
    ]:
        line = d.reload(text, False)
        if why not in line:
            fail(f"{name}: the failure does not say '{why}': {line}")
        if rss_kib(d.proc.pid) > RSS_BOUND_KIB:
            fail(f"{name}: RSS {rss_kib(d.proc.pid)} KiB above {RSS_BOUND_KIB}")
        if get(p2, "prom", "pw-new")[0] != 200:
            fail(f"{name}: the daemon stopped serving")
        log(f"ok: {name} refused on reload (RSS {rss_kib(d.proc.pid) // 1024} MiB)")

    # No sources: no ports served, not the old snapshot.
    d.reload(config(w, p2, users, extra_sources=False), True)
    status, body, _ = get(p2, "prom", "pw-new")
    if status != 200 or b"transceiver_module_present{" in body:
        fail("a config without sources still serves ports")
    log("ok: empty config serves no ports")

    # The config path turned into a FIFO: refused at once, then SIGTERM ends the daemon.
    os.remove(d.config)
    os.mkfifo(d.config)
    line = d.reload(None, False)
    if "a FIFO" not in line:
        fail(f"a FIFO config: {line}")
    d.proc.send_signal(signal.SIGTERM)
    try:
        rc = d.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        fail("SIGTERM ignored after a FIFO config")
    if rc != 0:
        fail(f"exit code {rc} after SIGTERM")
    log("ok: FIFO config refused, SIGTERM honoured")
    # Started on a FIFO: exit 2 at once with the reason.
    r = subprocess.run([binary, "--config", d.config], capture_output=True, text=True, timeout=20)
    if r.returncode != 2 or "a FIFO" not in r.stderr:
        fail(f"start on a FIFO: rc {r.returncode}: {r.stderr}")
    log("ok: start on a FIFO config exits 2")


def check_config(procs, binary):
    w = procs.work + "/check"
    os.makedirs(w)
    fleet = f"{w}/fleet.toml"
    with open(fleet, "w") as f:
        f.write('[[system]]\nname = "sw"\nport_prefix = "p"\n[[system.bus]]\ncage_form = "OSFP"\n'
                'modules = ["osfp-800g-2xsr4-finned"]\n')
    emu = f'[[source]]\ntype = "emulator"\nclock = "wallclock"\nfleet = "{fleet}"\n'
    cases = [
        ("port 99999", '[web]\nlisten_addresses = [":99999"]\n'),
        ("unresolvable host", '[web]\nlisten_addresses = ["no-such-host.invalid:10458"]\n'),
        ("duplicate listen address", '[web]\nlisten_addresses = ["127.0.0.1:10458", "127.0.0.1:10458"]\n'),
        ("missing TLS files", '[web]\ntls_cert_file = "/nonexistent.crt"\ntls_key_file = "/nonexistent.key"\n'),
        ("duplicate port names across sources", emu + emu),
        ("poll interval 1e-10 s", "[poll]\ndynamic_interval = 1e-10\n"),
        ("poll interval 1e308 s", "[poll]\ndynamic_interval = 1e308\n"),
        ("bcrypt cost 99", '[web.basic_auth_users]\nu = "$2b$99$' + "a" * 53 + '"\n'),
    ]
    located = re.compile(r"^[^:\n]+:[1-9][0-9]*:[1-9][0-9]*: ", re.M)
    for name, text in cases:
        path = f"{w}/config.toml"
        with open(path, "w") as f:
            f.write(text)
        checked = subprocess.run([binary, "--check-config", "--config", path], capture_output=True, text=True, timeout=30)
        if checked.returncode != 2 or not located.search(checked.stderr):
            fail(f"--check-config {name}: rc {checked.returncode}, not a file:line:col error: {checked.stderr!r}")
        started = subprocess.run([binary, "--config", path], capture_output=True, text=True, timeout=30)
        if started.returncode == 0:
            fail(f"start accepted what --check-config refused ({name})")
        log(f"ok: --check-config refuses {name}: {checked.stderr.strip().splitlines()[0]}")
    # --textfile naming a directory (or a file in a directory that does not exist): refused by
    # both, naming the option, where it used to pass the check and then warn on every publish.
    path = f"{w}/config.toml"
    with open(path, "w") as f:
        f.write(emu + '[web]\nlisten_addresses = ["127.0.0.1:0"]\n')
    for textfile, why in ((w, "a directory"), (f"{w}/no-such-dir/t.prom", "does not exist")):
        for argv in ([binary, "--check-config"], [binary]):
            r = subprocess.run(argv + ["--config", path, "--textfile", textfile], capture_output=True, text=True,
                               timeout=30)
            if r.returncode != 2 or f"--textfile {textfile}: " not in r.stderr or why not in r.stderr:
                fail(f"{' '.join(argv[1:])} --textfile {textfile}: rc {r.returncode}, {r.stderr!r}")
        log(f"ok: --check-config and a start refuse --textfile {textfile}: {r.stderr.strip()}")


def main():
    binary, helper = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with Processes("xcvr-hostile-reload-") as procs:
        web_changes(procs, binary, helper)
        check_config(procs, binary)
    log("PASS")


if __name__ == "__main__":
    main()
