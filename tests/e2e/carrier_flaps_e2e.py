"""Link flaps counted through the real kernel's rtnetlink (issue 38): two network namespaces
joined by a veth pair (created here, as root; no addresses), the daemon in the first with a
`netlink` port on its end, the far end taken down and up from the second.

- a 2 s loss: transceiver_link_carrier_down_total moves by one, the daemon shows the carrier
  down while it lasts, and transceiver_link_last_down_duration_seconds says about 2 s;
- a 50 ms loss, shorter than the 1 s link interval: counted once all the same (the kernel's
  carrier_down_count), timed under half a second from the live notifications;
- a restarted daemon serves the same count (the kernel's, not one it kept) and no duration it
  did not see; /api/v1/modules carries the carrier.

  carrier_flaps_e2e.py TRANSCEIVER_EXPORTER"""

import json
import os
import re
import subprocess
import sys
import time

from daemon_fleet import Processes, daemon_config, fail, free_port, log, require_tools, wait_for

NS_NEAR, NS_FAR = f"xcvr-near-{os.getpid()}", f"xcvr-far-{os.getpid()}"
NEAR, FAR = "xnear0", "xfar0"
PORT = "host/p1"


def run(*argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(argv)}: {r.stderr.strip()}")
    return r.stdout


def far(state):
    run("ip", "-n", NS_FAR, "link", "set", FAR, state)


def metrics(http):
    r = subprocess.run(["ip", "netns", "exec", NS_NEAR, "curl", "-s", "--max-time", "5",
                        f"http://127.0.0.1:{http}/metrics"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else ""


def value(text, name):
    m = re.search(rf'^{name}\{{port="{re.escape(PORT)}",link="{NEAR}"\}} (\S+)$', text, re.M)
    return float(m.group(1)) if m else None


def start(procs, binary, config, name):
    return procs.start(name, ["ip", "netns", "exec", NS_NEAR, binary, "--config", config])


def main():
    if len(sys.argv) != 2:
        fail(__doc__)
    binary = sys.argv[1]
    require_tools("ip", "curl", packages="iproute2 curl")
    if os.geteuid() != 0:
        fail("needs root: it creates network namespaces and a veth pair")
    for ns in (NS_NEAR, NS_FAR):
        run("ip", "netns", "add", ns)
    try:
        run("ip", "link", "add", NEAR, "netns", NS_NEAR, "type", "veth", "peer", "name", FAR, "netns", NS_FAR)
        for ns, dev in ((NS_NEAR, "lo"), (NS_NEAR, NEAR), (NS_FAR, FAR)):
            run("ip", "-n", ns, "link", "set", dev, "up")
        with Processes("xcvr-carrier-") as procs:
            check(procs, binary)
    finally:
        for ns in (NS_NEAR, NS_FAR):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    log("PASS: carrier flaps counted through rtnetlink, a short one too, and the count survives a restart")


def check(procs, binary):
    http = free_port()
    config = os.path.join(procs.work, "carrier.toml")
    with open(config, "w") as f:
        f.write(daemon_config("tests/e2e/carrier_flaps_e2e.py", f"{procs.work}/state", http)
                .replace("[poll]\n", '[poll]\nlink_interval = "1s"\n') +
                f'\n[[source]]\ntype = "netlink"\n[[source.port]]\nname = "{PORT}"\nnetdev = "{NEAR}"\n')

    daemon = start(procs, binary, config, "daemon")

    def served(name, want=None):
        def probe():
            if daemon.poll() is not None:
                fail(f"daemon exited {daemon.returncode}:\n{procs.log_tail('daemon')}")
            v = value(metrics(http), name)
            return v is not None and (want is None or want(v)) and (v if v != 0 else "0")
        return probe

    base = float(wait_for("the carrier of the veth end", served("transceiver_link_carrier_down_total"), 30))
    wait_for("carrier up", served("transceiver_link_carrier_up", lambda v: v == 1), 30)
    log(f"carrier up, the kernel's down count {base:.0f}")

    far("down")
    wait_for("the daemon to see the carrier down", served("transceiver_link_carrier_up", lambda v: v == 0), 15)
    time.sleep(2.0)
    far("up")
    wait_for("one loss counted", served("transceiver_link_carrier_down_total", lambda v: v == base + 1), 15)
    lasted = float(wait_for("the loss's duration", served("transceiver_link_last_down_duration_seconds"), 15))
    log(f"a 2 s loss: counted once, timed {lasted:.3f} s")
    if not 1.8 <= lasted <= 6.0:
        fail(f"a loss of about 2 s was timed {lasted:.3f} s")

    far("down")
    time.sleep(0.05)
    far("up")
    wait_for("the short loss counted", served("transceiver_link_carrier_down_total", lambda v: v == base + 2), 15)
    short = float(wait_for("the short loss's duration",
                           served("transceiver_link_last_down_duration_seconds", lambda v: v < 1.0), 15))
    log(f"a 50 ms loss: counted once, timed {short:.3f} s")
    if short >= 0.5:
        fail(f"a 50 ms loss was timed {short:.3f} s")
    text = metrics(http)
    if value(text, "transceiver_link_carrier_down_total") != base + 2:
        fail(f"after two losses the count is {value(text, 'transceiver_link_carrier_down_total')}, not {base + 2:.0f}")
    api = subprocess.run(["ip", "netns", "exec", NS_NEAR, "curl", "-s", f"http://127.0.0.1:{http}/api/v1/modules"],
                         capture_output=True, text=True).stdout
    ports = {p["port"]: p for p in json.loads(api)["modules"]} if api else {}
    carrier = ((ports.get(PORT) or {}).get("link") or {}).get("carrier")
    if not carrier or carrier[0]["link"] != NEAR or carrier[0]["up"] is not True or carrier[0]["last_down_s"] is None:
        fail(f"/api/v1/modules has no carrier for {PORT}: {carrier!r}")

    daemon.terminate()
    daemon.wait(timeout=10)
    daemon = start(procs, binary, config, "daemon-restarted")
    again = float(wait_for("the restarted daemon's count", served("transceiver_link_carrier_down_total"), 30))
    if again != base + 2:
        fail(f"after a restart the count is {again:.0f}, not the kernel's {base + 2:.0f}")
    if value(metrics(http), "transceiver_link_last_down_duration_seconds") is not None:
        fail("a restarted daemon serves a loss duration it did not see")
    log(f"restarted: count {again:.0f} (the kernel's), no duration it did not see")


if __name__ == "__main__":
    main()
