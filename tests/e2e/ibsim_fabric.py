"""The daemon's `ib` source over the real libibumad against ibsim (issue 18, Done-when).

A fresh ibsim (Debian ibsim-utils) simulates a fabric of three switches and one HCA; the
daemon, attached at the HCA through umad2sim (libumad2sim0, LD_PRELOAD), walks the subnet by
directed route, reads PMA PortCounters (values injected through ibsim's console, one of them
saturated) and reads module memory with MCIA through tests/e2e/ibsim_responder (one per switch,
attached at the switch as its "SM" client: ibsim does not simulate vendor class 0x0A). OpenSM
(--once, also under umad2sim) assigns the LIDs that LID-routed PMA and vendor MADs need.
Checks: the switches found are exactly the topology's, with their names; every module of every
switch is decoded in /metrics; the port counters beside them match what was injected, the
saturated one marked; an injected change shows up at a later link poll (counters are read,
never reset); the RS-FEC codeword histogram (PPHCR bins, PPCNT group 0x23 counts, answered by
the responders: RS(544,514), 16 bins, counts growing in bins 0-4 at every read) is served as
transceiver_link_fec_codewords_total by `symbols` (the full metrics profile, set explicitly), with
its tail (4) and correction limit (15). Exit 77 (skipped) only when ibsim, umad2sim or OpenSM is
not installed.

usage: ibsim_fabric.py TRANSCEIVER_EXPORTER IBSIM_RESPONDER"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import Processes, fail, free_port, http_get, log, wait_for  # noqa: E402

SIM_SO = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
SWITCHES = ["sw-spine-1", "sw-leaf-1", "sw-leaf-2"]
PORTS = 8       # per switch: 4 twin-port cages (MCIA module m, cage m + 1, carries ports 2m+1, 2m+2)
CAGES = 4
MODEL = "osfp-800g-2xsr4-finned"

TOPOLOGY = """# ibsim topology written by tests/e2e/ibsim_fabric.py (the first node is the daemon's)
Hca	1 "xcvr-host"
[1]	"sw-spine-1"[1]

Switch	8 "sw-spine-1"
[1]	"xcvr-host"[1]
[2]	"sw-leaf-1"[7]
[3]	"sw-leaf-2"[7]

Switch	8 "sw-leaf-1"
[7]	"sw-spine-1"[2]

Switch	8 "sw-leaf-2"
[7]	"sw-spine-1"[3]
"""

# (node, IB port, PortCounters field, value); IB port p is in front-panel cage (p - 1) // 2 + 1.
INJECT = [
    ("sw-leaf-1", 7, "SymbolErrorCounter", 65535),        # saturated: 16 bits
    ("sw-leaf-1", 7, "PortRcvErrors", 77),
    ("sw-spine-1", 2, "LinkDownedCounter", 3),
    ("sw-leaf-2", 7, "LinkErrorRecoveryCounter", 9),
    ("sw-leaf-2", 8, "LocalLinkIntegrityErrors", 15),     # saturated: 4 bits
]
FAMILY = {
    "SymbolErrorCounter": "transceiver_link_symbol_errors_total",
    "PortRcvErrors": "transceiver_link_rcv_errors_total",
    "LinkDownedCounter": "transceiver_link_downed_total",
    "LinkErrorRecoveryCounter": "transceiver_link_error_recovery_total",
    "LocalLinkIntegrityErrors": "transceiver_link_local_integrity_errors_total",
}
SATURATED = {("sw-leaf-1", 7, "SymbolErrorCounter"), ("sw-leaf-2", 8, "LocalLinkIntegrityErrors")}


def cage_port(node, ib_port):
    """The exporter's port (node description / front-panel cage) of a switch's IB port."""
    return f"{node}/{(ib_port - 1) // 2 + 1}"


def panel_link(ib_port):
    """The `link` label of a switch's IB port: cage/port as the panel numbers it (7 -> 4/1)."""
    return f"{(ib_port - 1) // 2 + 1}/{(ib_port - 1) % 2 + 1}"


def series(text, family):
    """{labels dict as a frozenset of items: value} of one family in an exposition."""
    out = {}
    for line in text.splitlines():
        m = re.match(re.escape(family) + r"\{(.*)\} (\S+)$", line)
        if m:
            labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            out[labels] = float(m.group(2))
    return out


def value(text, family, **labels):
    for ls, v in series(text, family).items():
        if set(labels.items()) <= set(ls):
            return v
    return None


class Sim:
    def __init__(self, procs):
        self.procs = procs
        self.env = dict(os.environ)
        # One simulator per test run: a socket name of our own, so runs may overlap.
        self.env["IBSIM_SOCKNAME"] = f"xcvr-ibsim-{os.getpid()}"
        self.preload = dict(self.env, LD_PRELOAD=SIM_SO)
        net = os.path.join(procs.work, "net")
        with open(net, "w") as f:
            f.write(TOPOLOGY)
        self.log_path = os.path.join(procs.work, "ibsim.log")
        self.proc = subprocess.Popen(["ibsim", "-s", net], stdin=subprocess.PIPE,
                                     stdout=open(self.log_path, "wb"), stderr=subprocess.STDOUT,
                                     cwd=procs.work, env=self.env)
        procs.children.append(("ibsim", self.proc))
        wait_for("ibsim to start", lambda: "simulator ready" in self.log(), timeout_s=20, interval_s=0.1)

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def console(self, command, expect):
        self.proc.stdin.write((command + "\n").encode())
        self.proc.stdin.flush()
        wait_for(f"ibsim to take '{command}'", lambda: expect in self.log(), timeout_s=10, interval_s=0.05)

    def perf_set(self, node, port, field, v):
        self.console(f'PerformanceSet "{node}"[{port}] PortCounters.{field}={v}',
                     f"{node}[{port}] PortCounters.{field} has been set to {v}")


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    exporter, responder = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    missing = [t for t in ("ibsim", "opensm") if shutil.which(t) is None]
    if not os.path.exists(SIM_SO):
        missing.append(SIM_SO)
    if missing:
        print(f"SKIP: not installed: {', '.join(missing)} (scripts/setup.sh: ibsim-utils libumad2sim0 opensm)")
        sys.exit(77)

    procs = Processes("xcvr-ibsim-")
    try:
        sim = Sim(procs)
        log("ibsim: 3 switches, 1 HCA")
        osm = subprocess.run(["opensm", "--once", "-f", os.path.join(procs.work, "opensm.log")],
                             cwd=procs.work, env=dict(sim.preload, OSM_CACHE_DIR=procs.work),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        if osm.returncode != 0:
            fail("opensm --once failed:\n" + osm.stdout.decode(errors="replace")[-2000:])
        log("opensm: LIDs assigned")

        responders = []
        for name in SWITCHES:
            env = dict(sim.preload, SIM_HOST=name, SIM_SET_ISSM="1")
            out = open(os.path.join(procs.work, f"responder-{name}.log"), "wb")
            p = subprocess.Popen([responder, name, "0", "0", str(PORTS), str(CAGES), MODEL], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=out, cwd=procs.work, env=env)
            procs.children.append((f"responder-{name}", p))
            if p.stdout.readline().strip() != b"ready":
                fail(f"ibsim_responder at {name} did not start:\n" + procs.log_tail(f"responder-{name}"))
            responders.append(p)
        log("responders attached at " + ", ".join(SWITCHES))

        for node, port, field, v in INJECT:
            sim.perf_set(node, port, field, v)
        # PPCNT (the physical layer BER) is vendor class 0x0A: the responder at sw-leaf-1 holds it.
        responders[SWITCHES.index("sw-leaf-1")].stdin.write(b"ber 7 2 5\n")
        responders[SWITCHES.index("sw-leaf-1")].stdin.flush()

        os.makedirs(os.path.join(procs.work, "state"), exist_ok=True)
        http = free_port()
        config = os.path.join(procs.work, "config.toml")
        with open(config, "w") as f:
            f.write(f"""# Written by tests/e2e/ibsim_fabric.py
[daemon]
state_directory = "{procs.work}/state"

[poll]
dynamic_interval = "1s"
link_interval = "1s"
settle_delay = "0s"

[web]
listen_addresses = ["127.0.0.1:{http}"]

[metrics]
profile = "full"         # the FEC histogram's bins are served in the full profile

[[source]]
type = "ib"
local = false
discover = true
one_lane = true          # umad2sim hands each management class to one umad file
timeout = "300ms"
""")
        daemon = subprocess.Popen([exporter, "--config", config], stdout=open(os.path.join(procs.work, "daemon.log"), "wb"),
                                  stderr=subprocess.STDOUT, cwd=procs.work, env=sim.preload)
        procs.children.append(("daemon", daemon))
        url = f"http://127.0.0.1:{http}/metrics"
        expected_ports = {f"{s}/{cage}" for s in SWITCHES for cage in range(1, CAGES + 1)}

        def ready():
            if daemon.poll() is not None:
                fail("the daemon exited:\n" + procs.log_tail("daemon"))
            status, body = http_get(url)
            if status != 200:
                return None
            text = body.decode()
            decoded = {dict(ls)["port"] for ls in series(text, "transceiver_temperature_celsius")}
            linked = {dict(ls)["port"] for ls in series(text, "transceiver_link_symbol_errors_total")}
            return text if decoded >= expected_ports and linked >= expected_ports else None

        text = wait_for("every module decoded with its link counters", ready, timeout_s=60, interval_s=0.5)

        nodes = {dict(ls).get("node") for ls in series(text, "transceiver_module_present")}
        if nodes != set(SWITCHES):
            fail(f"subnet walk: switches {sorted(nodes)}, topology has {sorted(SWITCHES)}")
        ports = {dict(ls)["port"] for ls in series(text, "transceiver_module_present")}
        if ports != expected_ports:
            fail(f"ports {sorted(ports)}, expected {sorted(expected_ports)}")
        log(f"subnet walk: {len(nodes)} switches by name; {len(ports)} modules decoded (MCIA via the responders)")

        for node, port, field, v in INJECT:
            got = value(text, FAMILY[field], port=cage_port(node, port), link=panel_link(port))
            if got != v:
                fail(f"{node}[{port}] {field}: /metrics has {got}, ibsim was set to {v}")
            sat = value(text, "transceiver_link_saturated", port=cage_port(node, port), link=panel_link(port),
                        counter=FAMILY[field])
            if ((node, port, field) in SATURATED) != (sat == 1):
                fail(f"{node}[{port}] {field}: saturated gauge {sat}")
        untouched = value(text, "transceiver_link_symbol_errors_total", port="sw-leaf-2/1", link="1/1")
        if untouched != 0:
            fail(f"sw-leaf-2[1] SymbolErrorCounter: {untouched}, expected 0")
        both = {dict(ls)["link"] for ls in series(text, "transceiver_link_symbol_errors_total")
                if dict(ls)["port"] == "sw-leaf-1/4"}
        if both != {"4/1", "4/2"}:
            fail(f"sw-leaf-1/4 (a twin-port cage: IB ports 7 and 8) has links {sorted(both)}, expected 4/1 and 4/2")
        log("PortCounters match the injected values; saturated counters marked")

        raw = value(text, "transceiver_link_raw_ber_ratio", port="sw-leaf-1/4", link="4/1")
        if raw != 2e-5:
            fail(f"sw-leaf-1[7] raw BER: /metrics has {raw}, the responder was set to 2E-5")
        clean = value(text, "transceiver_link_raw_ber_ratio", port="sw-leaf-1/4", link="4/2")
        if clean != 1.5e-254:
            fail(f"sw-leaf-1[8] raw BER: /metrics has {clean}, expected firmware's 'no errors' 15E-255")
        eff = value(text, "transceiver_link_effective_ber_ratio", port="sw-leaf-1/4", link="4/1")
        if eff != 1.5e-254:
            fail(f"sw-leaf-1[7] effective BER: /metrics has {eff}, expected 15E-255")
        log("PPCNT physical layer BER read through AccessRegisterGMP at the responder")

        # The FEC codeword histogram: bins from PPHCR, counts from PPCNT group 0x23; the tail needs
        # two reads (the first link poll has none).
        def fec_tails():
            t = http_get(url)[1].decode()
            tailed = {dict(ls)["port"] for ls in series(t, "transceiver_link_fec_tail_symbols")}
            return t if tailed >= expected_ports else None

        text = wait_for("every port's FEC tail after a second link poll", fec_tails, timeout_s=15, interval_s=0.5)
        for link in ("4/1", "4/2"):
            bins = {dict(ls)["symbols"]: v for ls, v in series(text, "transceiver_link_fec_codewords_total").items()
                    if dict(ls)["port"] == "sw-leaf-1/4" and dict(ls)["link"] == link}
            if set(bins) != {str(i) for i in range(16)}:
                fail(f"sw-leaf-1/4 {link}: FEC histogram bins {sorted(bins)}, expected symbols 0..15")
            if not (bins["0"] > bins["1"] > bins["4"] > 0) or any(bins[str(i)] != 0 for i in range(5, 16)):
                fail(f"sw-leaf-1/4 {link}: FEC histogram counts {bins}: expected growth in bins 0-4 only")
            tail = value(text, "transceiver_link_fec_tail_symbols", port="sw-leaf-1/4", link=link)
            if tail != 4:
                fail(f"sw-leaf-1/4 {link}: FEC tail {tail}, expected 4 (the highest bin that grew)")
            limit = value(text, "transceiver_link_fec_correction_limit_symbols", port="sw-leaf-1/4", link=link)
            if limit != 15:
                fail(f"sw-leaf-1/4 {link}: FEC correction limit {limit}, expected 15 (RS(544,514))")
        log("FEC codeword histogram (PPHCR + PPCNT group 0x23): 16 bins, tail 4, correction limit 15")

        api = json.loads(http_get(f"http://127.0.0.1:{http}/api/v1/modules")[1])
        cage = next(p for p in api["modules"] if p["port"] == "sw-leaf-1/4")
        if cage["link"]["ib_ports"] != {"4/1": 7, "4/2": 8}:
            fail(f"sw-leaf-1/4 link.ib_ports {cage['link'].get('ib_ports')}, expected 4/1 -> 7, 4/2 -> 8")
        log("front-panel links 4/1 and 4/2 carry their IB port numbers (7, 8) in /api/v1/modules")

        # Counters move only when the fabric's do: a later change shows at the next link poll.
        sim.perf_set("sw-leaf-1", 7, "PortRcvErrors", 90)
        wait_for("the changed PortRcvErrors at the next link poll",
                 lambda: value(http_get(url)[1].decode(), FAMILY["PortRcvErrors"], port="sw-leaf-1/4", link="4/1") == 90,
                 timeout_s=15, interval_s=0.5)
        final = http_get(url)[1].decode()
        if value(final, FAMILY["SymbolErrorCounter"], port="sw-leaf-1/4", link="4/1") != 65535:
            fail("the saturated SymbolErrorCounter changed: something reset it")
        log("an injected change arrives at the next link poll; nothing was reset")
        for p in responders:
            p.stdin.close()
        log("PASS")
    finally:
        procs.close()
        shutil.rmtree(procs.work, ignore_errors=True)


if __name__ == "__main__":
    main()
