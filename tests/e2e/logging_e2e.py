"""Logs an operator can use, end to end with the real daemon on one emulated module:

- `--log-level debgu` and `--log.format yaml` exit 2 naming the accepted words; `--version`
  names the git revision and build date;
- under the journal ($JOURNAL_STREAM naming the daemon's stderr, as systemd sets it) every line
  starts with its sd-daemon priority and carries no timestamp; a reload that sets
  daemon.log_level = "debug" brings debug lines; a failed reload logs "<3>"; the port's verdict
  change (an rx LOS injected after a few seconds) is logged exactly once;
- --log-level wins over daemon.log_level, at start and after a reload;
- the config's level is in force before the first line: daemon.log_level = "debug" shows the
  debug line that Service::start logs; --log.format=logfmt lines parse as logfmt, in UTC.
- under a real journald (the system's, or one the test starts where systemd is not running): the
  daemon's stream connected by systemd-cat, a failed reload is in `journalctl -p warning`, its
  info lines are not.

  logging_e2e.py TRANSCEIVER_EXPORTER"""

import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid

from daemon_fleet import ONE_MODULE_FLEET, Processes, fail, free_port, log, one_module_config, wait_for

PORT = "sw/p1"
LEVELS = "trace, debug, info, warn, error, critical, off"


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def config(w, http, level, broken=False):
    return one_module_config(w, http, "tests/e2e/logging_e2e.py",
                             daemon_extra=f'log_level = "{level}"\n' + ("no_such_key = 1\n" if broken else ""),
                             source_extra=f'scenarios = ["{w}/los.toml"]')


class Daemon:
    def __init__(self, procs, binary, name, level, args=(), journal=False):
        self.procs, self.name, self.w = procs, name, procs.work
        self.config = os.path.join(self.w, f"{name}.toml")
        self.http = free_port()
        write(self.config, config(self.w, self.http, level))
        env = dict(os.environ)
        env.pop("JOURNAL_STREAM", None)
        self.logfile = os.path.join(self.w, name + ".log")
        if journal:
            # Processes.start opens the log file as the daemon's stderr: the same device and inode.
            open(self.logfile, "wb").close()
            st = os.stat(self.logfile)
            env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        self.proc = procs.start(name, [binary, "--config", self.config, *args], env=env)
        wait_for(f"{name} to run", lambda: self.alive() and "running:" in self.text(), 30, 0.1)

    def alive(self):
        if self.proc.poll() is not None:
            fail(f"{self.name} exited:\n" + self.text())
        return True

    def text(self):
        with open(self.logfile, errors="replace") as f:
            return f.read()

    def reload(self, level, broken=False):
        before = len(self.text())
        write(self.config, config(self.w, self.http, level, broken))
        self.proc.send_signal(signal.SIGHUP)
        wait_for(f"{self.name}'s reload in the log", lambda: "config reload" in self.text()[before:], 20, 0.1)
        return self.text()[before:]


def bad_options(binary):
    for args, words in ((["--log-level", "debgu"], f"'debgu' is not a log level ({LEVELS})"),
                        (["--log.format", "yaml"], "'yaml' is not a log format (text, logfmt, json)")):
        r = subprocess.run([binary, *args, "--config", "/nonexistent"], capture_output=True, text=True, timeout=10)
        if r.returncode != 2 or words not in r.stderr:
            fail(f"{args}: expected exit 2 naming {words!r}, got {r.returncode}: {r.stderr}")
    r = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    if r.returncode != 0 or not re.search(r"^transceiver_exporter \S+ \(revision (unknown|[0-9a-f]{7,}(-dirty)?), "
                                          r"built \d{4}-\d\d-\d\d\)$", r.stdout.strip()):
        fail(f"--version: {r.returncode} {r.stdout!r}")
    log("bad --log-level and --log.format exit 2 naming the accepted words; " + r.stdout.strip())


def journal_daemon(procs, binary):
    d = Daemon(procs, binary, "journal", "info", journal=True)
    lines = d.text().splitlines()
    if not lines or not all(re.match(r"<[2-7]>\[(critical|error|warning|info|debug|trace)\] ", l) for l in lines):
        fail("under the journal every line starts with <N>[level] and no timestamp:\n" + d.text())
    if any(l.startswith("<7>") for l in lines):
        fail("debug lines at log level info:\n" + d.text())
    after = d.reload("debug")
    if not re.search(r"^<7>\[debug\] config .*: \d+ sources, \d+ ports, log level debug", after, re.M):
        fail("no debug line after a reload to log_level = \"debug\":\n" + after)
    after = d.reload("debug", broken=True)
    failed = [l for l in after.splitlines() if "config reload failed" in l]
    if not failed or not re.match(r"<[34]>", failed[0]):
        fail("a failed reload is not logged with priority err or warning:\n" + after)
    log("journal: priority prefixes, no timestamps; reload to debug shows debug lines; failed reload: " + failed[0])
    # The rx LOS of los.toml: one verdict change, logged once, however many polls see it. (The
    # emulated module powers up through ModuleLowPwr first: "down", then "down -> ok".)
    wait_for("the verdict change", lambda: d.alive() and f"port {PORT}: ok -> " in d.text(), 40, 0.2)
    time.sleep(3)
    ours = re.compile(rf"<6>\[info\] port {re.escape(PORT)}: (?:(\w+) -> )?(\w+)(?: \(.+\))?$")
    changes = [m for m in map(ours.match, d.text().splitlines()) if m]
    los = [m.group(0) for m in changes if re.search(r": ok -> (down|alarm) \(rx_los on lane 1", m.group(0))]
    chained = all(b.group(1) == a.group(2) for a, b in zip(changes, changes[1:]))
    if len(los) != 1 or not chained or changes[0].group(1) is not None:
        fail("expected each verdict change once, the rx LOS's with its reasons:\n" + "\n".join(m.group(0) for m in changes))
    log("verdict change: " + los[0])


def command_line_wins(procs, binary):
    d = Daemon(procs, binary, "pinned", "debug", args=["--log-level", "info"])
    d.reload("trace")
    if "[debug]" in d.text() or "[trace]" in d.text():
        fail("--log-level info, yet debug lines (at start or after a reload):\n" + d.text())
    log("--log-level wins over daemon.log_level at start and after a reload")


def level_before_first_line(procs, binary):
    d = Daemon(procs, binary, "logfmt", "debug", args=["--log.format=logfmt"])
    lines = d.text().splitlines()
    pattern = re.compile(r'^ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=(\w+) msg="((?:[^"\\]|\\.)*)"$')
    parsed = [pattern.match(l) for l in lines]
    if not lines or not all(parsed):
        fail("not logfmt in UTC:\n" + d.text())
    running = next(i for i, m in enumerate(parsed) if "running:" in m.group(2))
    if not any(m.group(1) == "debug" and m.group(2).startswith("config ") for m in parsed[:running]):
        fail("daemon.log_level = \"debug\" is not in force while the service starts:\n" + d.text())
    log("logfmt in UTC; daemon.log_level applies before the service's first line")


JOURNALD = "/lib/systemd/systemd-journald"


def journal_socket_answers():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect("/run/systemd/journal/stdout")
        return True
    except OSError:
        return False
    finally:
        s.close()


def journalctl(tag, *args):
    return subprocess.run(["journalctl", "-t", tag, "-o", "cat", "--no-pager", *args],
                          capture_output=True, text=True).stdout


def under_journald(procs, binary):
    """The daemon as systemd runs it: stdout and stderr a journald stream, $JOURNAL_STREAM naming
    it. systemd-cat connects the stream (it does not set $JOURNAL_STREAM; the shell sets it from
    the stream's device and inode, as systemd does). Where no journald answers (a container without
    systemd), the test starts one of its own: the same journald, only not started by systemd."""
    if not journal_socket_answers():
        procs.start("journald", [JOURNALD])
        wait_for("journald to answer", journal_socket_answers, 20, 0.1)
    tag = "xcvr-logging-e2e-" + uuid.uuid4().hex[:8]
    w = procs.work
    path = os.path.join(w, "journald.toml")
    http = free_port()
    write(path, config(w, http, "info"))
    proc = procs.start("under-journald", [
        "systemd-cat", "-t", tag, "sh", "-c",
        'JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) && export JOURNAL_STREAM && exec "$0" "$@"',
        binary, "--config", path])
    wait_for("the daemon's start in the journal", lambda: proc.poll() is None and "running:" in journalctl(tag), 30, 0.2)
    write(path, config(w, http, "info", broken=True))
    proc.send_signal(signal.SIGHUP)
    wait_for("journalctl -p warning to show the failed reload",
             lambda: "config reload failed" in journalctl(tag, "-p", "warning"), 20, 0.2)
    warnings = journalctl(tag, "-p", "warning")
    if "running:" in warnings or "running:" not in journalctl(tag, "-p", "info"):
        fail("journald did not file the daemon's lines by their priority prefixes:\n" + journalctl(tag, "-o", "verbose"))
    failed = [l for l in warnings.splitlines() if "config reload failed" in l]
    log("journalctl -p warning shows the failed reload and no info line: " + failed[0])


def main():
    if len(sys.argv) != 2:
        fail(__doc__)
    binary = os.path.abspath(sys.argv[1])
    bad_options(binary)
    with Processes("xcvr-logging-") as procs:
        w = procs.work
        os.makedirs(os.path.join(w, "state"))
        write(os.path.join(w, "fleet.toml"), ONE_MODULE_FLEET)
        write(os.path.join(w, "los.toml"), f'[[fault]]\nat = "8s"\nport = "{PORT}"\nkind = "rx_los"\nlane = 1\n')
        journal_daemon(procs, binary)
        command_line_wins(procs, binary)
        level_before_first_line(procs, binary)
        under_journald(procs, binary)
    log("PASS")


if __name__ == "__main__":
    main()
