"""Loud misconfiguration, end to end with the real daemon: a config that names a netdev, an i2c
bus, an optoe file and a presence file this host lacks is refused by --check-config (exit 2,
each port and what it lacks named), which also warns about a budget glob that matches no port
and says what netlink discovery looked at on this host's real kernel; a daemon started on it
anyway (hardware can appear after boot) keeps the good ports running and exports each bad one
as misconfigured — never as an empty cage — logs why, and follows the optoe file appearing.
(A netdev appearing is the same poller path: NetlinkMissing and Misconfiguration unit tests.)

  misconfiguration.py TRANSCEIVER_EXPORTER"""

import os
import re
import sys

from daemon_fleet import Processes, daemon_config, fail, free_port, http_get, log, wait_for


GOOD = "sw/p1"  # the emulated cage beside the misconfigured ports


def health(text, port):
    m = re.search(r'transceiver_port_health\{port="' + re.escape(port) + r'",health="([a-z]+)"\} 1', text)
    return m.group(1) if m else None


def main():
    if len(sys.argv) != 2:
        fail(__doc__)
    binary = os.path.abspath(sys.argv[1])
    with Processes("xcvr-misconfig-") as procs:
        w = procs.work
        os.makedirs(os.path.join(w, "state"))
        http = free_port()
        with open(os.path.join(w, "fleet.toml"), "w") as f:
            f.write('[emulator]\nclock = "virtual"\n[[system]]\nname = "sw"\nport_prefix = "p"\n'
                    '  [[system.bus]]\n  cage_form = "OSFP"\n  modules = ["osfp-800g-2xsr4-finned"]\n')
        config = os.path.join(w, "config.toml")
        with open(config, "w") as f:
            f.write(daemon_config("tests/e2e/misconfiguration.py", f"{w}/state", http) + f"""
[[source]]
type = "emulator"
fleet = "{w}/fleet.toml"

[[source]]
type = "netlink"
[[source.port]]
name = "gpu0"
netdev = "ens9np0"

# The shipped default: this host's NIC-attached modules, found through the real kernel.
[[source]]
type = "netlink"

[[source]]
type = "i2c"
[[source.port]]
name = "cage-bus"
bus = "/dev/i2c-250"
[[source.port]]
name = "cage-presence"
bus = "/dev/i2c-250"
presence_file = "{w}/no-such-presence"

[[source]]
type = "optoe"
[[source.port]]
name = "cage-optoe"
path = "{w}/i2c-9/9-0050/eeprom"

[[budget]]
group = "typo"
ports = "spine9/*"
per_port_watts = 5
total_watts = 320
""")
        checked = __import__("subprocess").run([binary, "--check-config", "--config", config],
                                               capture_output=True, text=True, timeout=30)
        if checked.returncode != 2:
            fail(f"--check-config: rc {checked.returncode}, expected 2\n{checked.stdout}{checked.stderr}")
        for port, what in (("gpu0", "netdev ens9np0 does not exist"),
                           ("cage-bus", "i2c bus device /dev/i2c-250 does not exist"),
                           ("cage-presence", "i2c bus device /dev/i2c-250 does not exist"),
                           ("cage-optoe", f"optoe file {w}/i2c-9/9-0050/eeprom does not exist")):
            if f"port {port}: {what}" not in checked.stderr:
                fail(f"--check-config does not name {port} ({what}):\n{checked.stderr}")
        if f"port {GOOD}" in checked.stderr:
            fail("--check-config blames the good port")
        if not re.search(r"budget group 'typo': ports = \"spine9/\*\" matches none of the \d+ configured ports",
                         checked.stdout):
            fail(f"--check-config does not warn about the budget glob that matches nothing:\n{checked.stdout}")
        notes = [l for l in checked.stdout.splitlines() if "netlink discovery: " in l]
        if len(notes) != 1 or "physical netdevs looked at: " not in notes[0] or " lo:" in notes[0]:
            fail(f"--check-config does not say what netlink discovery looked at:\n{checked.stdout}")
        log("--check-config: exit 2, each missing netdev, bus and file named with its port; "
            "the glob that matches nothing warned about; " + notes[0].split(": ", 1)[1])

        daemon = procs.start("daemon", [binary, "--config", config, "--log-level", "info"])
        url = f"http://127.0.0.1:{http}/metrics"

        def scrape():
            if daemon.poll() is not None:
                fail("the daemon exited:\n" + procs.log_tail("daemon"))
            status, body = http_get(url)
            text = body.decode(errors="replace") if status == 200 else ""
            return text if health(text, GOOD) == "ok" else None

        text = wait_for("the good port read", scrape, timeout_s=60)
        for port in ("gpu0", "cage-bus", "cage-presence", "cage-optoe"):
            if health(text, port) != "misconfigured":
                fail(f"{port}: health {health(text, port)}, expected misconfigured")
            if f'transceiver_module_present{{port="{port}"}}' in text:
                fail(f"{port}: exported as a cage (transceiver_module_present), not as misconfigured")
            if f'transceiver_port_lifecycle_state{{port="{port}",state="misconfigured"}} 1' not in text:
                fail(f"{port}: no lifecycle state misconfigured")
        daemon_log = procs.log_tail("daemon", 200)
        if "misconfigured: netdev ens9np0 does not exist" not in daemon_log:
            fail("the daemon log does not say why gpu0 is misconfigured:\n" + daemon_log)
        if not re.search(r"matches none of the \d+ configured ports", daemon_log):
            fail("the daemon log does not warn about the budget glob:\n" + daemon_log)
        log("running: the good port ok; 4 ports misconfigured (health, lifecycle state, log), none an empty cage")

        # Hardware that appears later is picked up without a restart.
        os.makedirs(os.path.join(w, "i2c-9", "9-0050"))
        open(os.path.join(w, "i2c-9", "9-0050", "eeprom"), "wb").close()

        def resolved():
            text = http_get(url)[1].decode(errors="replace")
            return health(text, "cage-optoe") not in (None, "misconfigured")

        wait_for("cage-optoe to leave misconfigured", resolved, timeout_s=30)
        if "configuration resolved: optoe file" not in procs.log_tail("daemon", 400):
            fail("no log line for the resolved optoe file")
        log("the optoe file appearing is followed without a restart")
        log("PASS")


if __name__ == "__main__":
    main()
