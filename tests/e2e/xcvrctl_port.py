"""From a page to the module (#41): `xcvrctl verify --port <port label> --config <daemon config>`
gives the coding verdict the running daemon exports for that port, on the demo fleet
(config/demo.toml) with the daemon's catalog list: a site catalog entry in a catalog.d the
config names changes both alike; an unknown port exits 2 naming close matches; and a config
whose `catalog` replaces the shipped catalog still passes vendor_oui on every genuine NVIDIA
optic (Mellanox OUI 00:02:c9 under the name NVIDIA), in the daemon and in xcvrctl.

  xcvrctl_port.py TRANSCEIVER_EXPORTER XCVRCTL"""

import json
import os
import signal
import subprocess
import sys

from daemon_fleet import DEMO_CAGE_STYLES, Processes, daemon_config, fail, free_port, json_get, log, wait_for

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MISCODED = "spine-01/swp20"  # config/demo.toml: a third-party optic with sloppy vendor coding
NVIDIA_PORTS = ["qm9700-01/1", "gpu-node-01/mlx5_0"]
FLEET_CHECKS = {"serial_duplicate", "serial_recoded"}  # need every port: the daemon's alone


def write_config(path, w, http, catalogs):
    with open(path, "w") as f:
        f.write(daemon_config("tests/e2e/xcvrctl_port.py", f"{w}/state", http,
                              f"catalog = {json.dumps(catalogs)}") + f"""
[[source]]
type = "emulator"
fleet = "{REPO}/config/demo.toml"
""" + DEMO_CAGE_STYLES)


def daemon_port(http, port):
    modules = json_get(f"http://127.0.0.1:{http}/api/v1/modules")
    if not modules:
        return None
    return next((m for m in modules["modules"] if m["port"] == port and m.get("module")), None)


def vendor_name(entry):
    return ((entry.get("module") or {}).get("vendor") or {}).get("name", "").upper()


def daemon_problems(entry):
    return {(c["check"], c["severity"]) for c in entry["coding"] if c["check"] not in FLEET_CHECKS}


def xcvrctl(xcvrctl_bin, *args):
    r = subprocess.run([xcvrctl_bin, *args], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def cli_verdict(xcvrctl_bin, config, port):
    rc, out, err = xcvrctl(xcvrctl_bin, "verify", "--json", "--port", port, "--config", config)
    if rc not in (0, 1):
        fail(f"xcvrctl verify --port {port}: exit {rc}\n{err}")
    j = json.loads(out)
    problems = {(c["check"], c["status"]) for c in j["checks"] if c["status"] in ("warn", "fail")}
    return j, problems


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    daemon_bin, xcvrctl_bin = (os.path.abspath(a) for a in sys.argv[1:])
    with Processes("xcvr-port-") as procs:
        w = procs.work
        os.makedirs(os.path.join(w, "state"))
        site = os.path.join(w, "catalog.d")
        os.makedirs(site)
        http = free_port()
        config = os.path.join(w, "config.toml")
        write_config(config, w, http, [f"{REPO}/config/catalog", site])
        daemon = procs.start("daemon", [daemon_bin, "--config", config])

        # 1. The same verdict for the miscoded optic.
        entry = wait_for(f"the daemon to read {MISCODED}", lambda: daemon_port(http, MISCODED), 60)
        cli, problems = cli_verdict(xcvrctl_bin, config, MISCODED)
        if not daemon_problems(entry):
            fail(f"{MISCODED}: the daemon finds no coding problem; the demo's miscoded optic should have some")
        if problems != daemon_problems(entry):
            fail(f"{MISCODED}: xcvrctl {sorted(problems)} != daemon {sorted(daemon_problems(entry))}")
        log(f"ok: {MISCODED}: xcvrctl and the daemon agree: {sorted(problems)}")
        part = cli["module"]["vendor"]["part_number"]

        # 2. A site catalog entry for its part changes both alike.
        with open(os.path.join(site, "50-site.toml"), "w") as f:
            f.write(f'[part."{part}"]\ndescription = "site entry (xcvrctl_port.py)"\nsource = "test"\n'
                    f'vendor_names = ["SITE-ONLY-VENDOR"]\n')
        daemon.send_signal(signal.SIGHUP)
        entry = wait_for(f"the daemon to judge {MISCODED} with the site entry",
                         lambda: (e := daemon_port(http, MISCODED)) and
                         ("catalog_vendor", "fail") in daemon_problems(e) and e, 30)
        cli, problems = cli_verdict(xcvrctl_bin, config, MISCODED)
        if ("catalog_vendor", "fail") not in problems or cli["catalog"]["key"] != part:
            fail(f"{MISCODED}: xcvrctl ignores the site catalog entry: {sorted(problems)}, {cli['catalog']}")
        if problems != daemon_problems(entry):
            fail(f"{MISCODED} with a site entry: xcvrctl {sorted(problems)} != daemon {sorted(daemon_problems(entry))}")
        log(f"ok: a catalog.d entry changes xcvrctl and the daemon alike: {sorted(problems)}")

        # 3. Unknown port: exit 2, close matches named.
        for wrong, expected in (("spine-01/swp200", MISCODED), ("swp20", MISCODED), ("qm9700-1/7", "qm9700-01/7")):
            for command in ("verify", "show"):
                rc, _, err = xcvrctl(xcvrctl_bin, command, "--port", wrong, "--config", config)
                if rc != 2 or expected not in err:
                    fail(f"xcvrctl {command} --port {wrong}: exit {rc}, want 2 naming {expected}:\n{err}")
        log("ok: an unknown port exits 2 and names its close matches")

        # 4. A catalog setting that replaces the shipped catalog: NVIDIA optics still pass vendor_oui.
        replaced = os.path.join(w, "replaced")
        os.makedirs(replaced)
        with open(os.path.join(replaced, "site.toml"), "w") as f:
            f.write(f'[part."{part}"]\ndescription = "the only entry"\nsource = "test"\n'
                    f'vendor_names = ["REPLACED-CATALOG"]\n')
        write_config(config, w, http, [replaced])
        daemon.send_signal(signal.SIGHUP)
        wait_for("the daemon to load the replacing catalog",
                 lambda: any("REPLACED-CATALOG" in c["message"] for c in (daemon_port(http, MISCODED) or {}).get("coding", [])),
                 30)
        # Every demo port read (a slow machine may still be on its first pass): NVIDIA's optics all there.
        def all_read():
            modules = json_get(f"http://127.0.0.1:{http}/api/v1/modules")["modules"]
            return modules if all(m["state"] not in ("unknown", "settling", "reading") for m in modules) and \
                sum(1 for m in modules if vendor_name(m) == "NVIDIA") >= 30 else None
        modules = wait_for("the daemon to read every demo port", all_read, 60)
        nvidia = [m for m in modules if vendor_name(m) == "NVIDIA"]
        # (The miscoded optic's zero OUI stays a warning: it cannot confirm any vendor.)
        failing = [m["port"] for m in nvidia
                   if any(c["check"] == "vendor_oui" and c["severity"] == "fail" for c in m["coding"])]
        if len(nvidia) < 30 or failing:
            fail(f"replaced catalog: {len(nvidia)} NVIDIA optics, vendor_oui findings on {failing}")
        for port in NVIDIA_PORTS:
            cli, problems = cli_verdict(xcvrctl_bin, config, port)
            vendor_oui = next(c for c in cli["checks"] if c["check"] == "vendor_oui")
            if vendor_oui["status"] != "pass":
                fail(f"replaced catalog: xcvrctl verify --port {port}: vendor_oui {vendor_oui}")
        log(f"ok: with the shipped catalog replaced, none of {len(nvidia)} NVIDIA optics fails vendor_oui "
            "(daemon and xcvrctl)")
        if daemon.poll() is not None:
            fail("the daemon exited:\n" + procs.log_tail("daemon"))


if __name__ == "__main__":
    main()
