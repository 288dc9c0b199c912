#!/usr/bin/env python3
"""End to end, the two tiers of Prometheus a fleet runs (docs/deployment.md, "Global view"): two
sites, each the real transceiver_exporter daemon on the emulated demo fleet scraped by its own
site Prometheus (Debian `prometheus`) with the shipped alerts.yml, recording.yml and runbook.yml and an
external label `site`; and a global Prometheus that federates both site servers through
/federate (honor_labels; the recording-rule series but the per-lane and per-module-side ones, and
the runbook base, as the docs say) and evaluates the shipped fleet-level rules
(config/prometheus/global.yml).

  ams1: the demo fleet with the fault scenario of daemon_fleet.py (overheat, LOS, Tx fault,
        ModuleFault, an unreadable cage): 4 of its 98 identified modules failing, over the
        alert's threshold (more than 2 %, at least 3).
  fra2: the demo fleet with one rx LOS: 1 of 101 failing, under it.

Asserted: TransceiverSiteFailingModules fires in the global Prometheus for ams1, with its labels
and rendered annotations (the runbook URL from the federated transceiver:runbook:info), and stays
quiet for fra2 while fra2's counts are in the global store, for longer than its `for:`; every
federated series carries its site's external label; every federated series of a site is in the
global store, and every federated sample (timestamp, value) equals the site's own. Logged: the
series per emulated switch and GPU host, per site, and how many of them federate.

The rule files are loaded rewritten by daemon_fleet.rewrite_rules only (every `for:` and
`keep_firing_for:` 5s, group intervals 1s), as in prometheus_scrape.py.

  federation_e2e.py PATH/TO/transceiver_exporter
"""

import os
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import (LOS_LANE, LOS_PORT, Daemon, Processes, fail, require_tools, http_get, json_get,  # noqa: E402
                          log, run_prometheus, start_prometheus, wait_for)

FAULTY_SITE, QUIET_SITE = "ams1", "fra2"
# One rx LOS on fra2 (the LOS of daemon_fleet's FAULTS, so that Daemon.wait_ready holds): a
# failing module, but no site-wide problem.
QUIET_FAULTS = f"""# Written by tests/e2e/federation_e2e.py: one failing module.
[[fault]]
at = "0s"
port = "{LOS_PORT}"
kind = "rx_los"
lane = {LOS_LANE}
"""
FAULTY_SITE_FAILING = 4  # FAULTS: overheat past the alarm, LOS, Tx fault, ModuleFault (the unreadable cage has no identity)
FEDERATE_JOB = "federate-transceiver"
# As docs/deployment.md and config/prometheus/global.yml give them: the recording-rule series but
# the per-lane (port_lane:*) and per-module-side (instance_port_side:*) ones, which are as many
# as the lanes or modules, and the runbook base.
RECORDED = '__name__=~"[a-z_]+:transceiver_.*"'
NOT_PER_LANE = '__name__!~"port_lane:.*|instance_port_side:.*"'
FEDERATE_MATCH = [f"{{{RECORDED},{NOT_PER_LANE}}}", '{__name__="transceiver:runbook:info"}']
GLOBAL_RECORDED = "site:transceiver_failing_modules:ratio"  # recorded by the global server itself


def federated(*more):
    """A selector of the series the global server federates (both match[]), and `more` matchers."""
    return "{" + ",".join(['__name__=~"[a-z_]+:transceiver_.*|transceiver:runbook:info"', NOT_PER_LANE, *more]) + "}"


def by_level(lines):
    """'level: count, ...' of /federate sample lines (the level is the name up to its first colon)."""
    levels = {}
    for ln in lines:
        level = ln.split(":", 1)[0]
        levels[level] = levels.get(level, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))


ALERT = "TransceiverSiteFailingModules"
ALERT_FOR_S = 5  # `for:` after rewrite_rules
SYSTEMS = {"spine-01": "64-port spine switch", "qm9700-01": "32-cage Quantum-2", "gpu-node-01": "8-GPU host with 2 storage ports"}
# Each scraped series (not the recorded ones, which keep the job label) attributed to the emulated
# system its port, poll domain or power group names; the rest (build info, reloads, Prometheus'
# scrape series) is the exporter's own.
BY_SYSTEM = ('label_replace(label_replace(label_replace({job="transceiver",__name__!~".*:.*"}, "system", "$1", "group", "(.+)"), '
             '"system", "$1", "domain", "([^/]+)/.*"), "system", "$1", "port", "([^/]+)/.*")')


def federation_scrape_config(targets):
    match = ", ".join(f"'{m}'" for m in FEDERATE_MATCH)
    return f"""  - job_name: {FEDERATE_JOB}
    honor_labels: true
    metrics_path: /federate
    params:
      'match[]': [{match}]
    static_configs: [{{targets: {targets!r}}}]"""


def key(labels, drop=()):
    return frozenset((k, v) for k, v in labels.items() if k not in drop)


class Site:
    def __init__(self, procs, binary, name, scenario):
        self.name = name
        self.daemon = Daemon(procs, binary, name=f"exporter-{name}", scenario=scenario)
        self.prom, self.port = start_prometheus(procs, f"127.0.0.1:{self.daemon.port}", name=f"prometheus-{name}",
                                                external_labels={"site": name})
        self.address = f"127.0.0.1:{self.port}"

    def global_key(self, labels):
        """A federated series' labels as the site has them: without the external label and without
        the target labels the global scrape added where the series had none (honor_labels)."""
        drop = {"site"}
        if labels.get("job") == FEDERATE_JOB:
            drop.add("job")
        if labels.get("instance") == self.address:
            drop.add("instance")
        return key(labels, drop)


def range_samples(prom, selector, window_s, at):
    """[(labels, {timestamp: value string})]: the raw samples of `selector` in the window before
    `at` (an instant query of a range selector returns them unmodified)."""
    result = prom.query(f"{selector}[{window_s}s]", at=at)
    return [(s["metric"], {float(t): v for t, v in s["values"]}) for s in result]


def check_federated_samples(glob, site, at):
    """Every sample the global store holds of the site's federated series equals the site's own
    sample of the same series at the same timestamp. Returns (series, samples) compared."""
    site_samples = {key(m): samples for m, samples in range_samples(site.prom, federated(), 60, at)}
    compared = 0
    series = 0
    for metric, samples in range_samples(glob, federated(f'__name__!="{GLOBAL_RECORDED}"', f'site="{site.name}"'),
                                         20, at):
        own = site_samples.get(site.global_key(metric))
        if own is None:
            fail(f"{site.name}: federated series {metric} is not in the site's store")
        for t, v in samples.items():
            if own.get(t) != v:
                fail(f"{site.name}: federated {metric} at {t}: {v} in the global store, {own.get(t)} at the site")
            compared += 1
        series += 1
    if not compared:
        fail(f"{site.name}: no federated samples to compare")
    return series, compared


def federate_lines(site, match):
    """The samples a /federate scrape of `site` with these match[] returns."""
    query = "&".join("match[]=" + urllib.parse.quote(m, safe="") for m in match)
    status, body = http_get(f"{site.prom.url}/federate?{query}", timeout=10)
    lines = [ln for ln in body.decode().splitlines() if ln and not ln.startswith("#")]
    if status != 200 or not lines:
        fail(f"{site.name} /federate?{query}: {status} {body[:300]!r}")
    return lines


def main():
    binary = os.path.abspath(sys.argv[1])
    require_tools("prometheus", "promtool")
    started = time.monotonic()
    with Processes("xcvr-e2e-fed-") as procs:
        quiet_faults = os.path.join(procs.work, "quiet-faults.toml")
        with open(quiet_faults, "w") as f:
            f.write(QUIET_FAULTS)
        faulty = Site(procs, binary, FAULTY_SITE, None)
        quiet = Site(procs, binary, QUIET_SITE, quiet_faults)
        sites = (faulty, quiet)
        glob, _ = run_prometheus(procs, federation_scrape_config([s.address for s in sites]), ("global.yml",),
                                         name="prometheus-global")

        def alive():
            return all(s.daemon.alive() for s in sites)

        for s in sites:
            s.daemon.wait_ready()
        for s in sites:
            wait_for(f"the {s.name} Prometheus to scrape its exporter", lambda: alive() and
                     http_get(f"{s.prom.url}/-/ready")[0] == 200 and s.prom.value('up{job="transceiver"}') == 1, 90)
        wait_for("the global Prometheus to federate both sites", lambda: alive() and
                 http_get(f"{glob.url}/-/ready")[0] == 200 and
                 glob.value(f'count(up{{job="{FEDERATE_JOB}"}} == 1)') == len(sites), 90)

        # ---- the fleet-level alert fires for the faulty site -------------------------------------
        # Once every fault of the scenario is a failing module at the site (the overheating one
        # passes its alarm threshold last), the global alert counts them all.
        wait_for(f"{FAULTY_SITE_FAILING} failing modules at {FAULTY_SITE}", lambda: alive() and faulty.prom.value(
            "sum(vendor_part_number:transceiver_failing_modules:count)") == FAULTY_SITE_FAILING, 90)
        modules = faulty.prom.value("sum(vendor_part_number:transceiver_modules:count)")
        counted = f"{FAULTY_SITE_FAILING} of {modules:g} modules failing"

        def fired():
            alive()
            return next((a for a in glob.alert_list() if a["labels"].get("alertname") == ALERT and
                         a["labels"].get("site") == FAULTY_SITE and a["state"] == "firing" and
                         counted in a["annotations"].get("description", "")), None)

        try:
            alert = wait_for(f"{ALERT} to fire for {FAULTY_SITE} in the global Prometheus ({counted})", fired, 120, 1)
        except SystemExit:
            log(f"global: {glob.query(GLOBAL_RECORDED)}; alerts {glob.alert_list()}")
            raise
        fired_after = time.monotonic() - started
        labels, annotations = alert["labels"], alert["annotations"]
        want = {"alertname": ALERT, "site": FAULTY_SITE, "severity": "warning", "category": "fleet"}
        if labels != want:
            fail(f"{ALERT} labels {labels}, want {want}")
        runbook = faulty.prom.query("transceiver:runbook:info")[0]["metric"]["url"]
        if annotations.get("runbook_url") != f"{runbook}#{ALERT.lower()}":
            fail(f"{ALERT} runbook_url {annotations.get('runbook_url')!r}, want {runbook}#{ALERT.lower()}")
        for text in annotations.values():
            if "<no value>" in text or "error expanding template" in text:
                fail(f"{ALERT}: annotation did not render: {text!r}")
        if not annotations.get("summary", "").startswith(f"site {FAULTY_SITE}: "):
            fail(f"{ALERT} annotations: {annotations}")
        log(f"ok: {ALERT} fired for {FAULTY_SITE} after {fired_after:.0f} s: {annotations['summary']}; "
            f"{annotations['description']}")

        # ---- quiet for the site with one failing module, its counts in the global store ----------
        def quiet_site_in_store():
            alive()
            ratio = glob.value(f'{GLOBAL_RECORDED}{{site="{QUIET_SITE}"}}')
            n = glob.value(f'sum(vendor_part_number:transceiver_modules:count{{site="{QUIET_SITE}"}})')
            return ratio is not None and n == quiet.prom.value("sum(vendor_part_number:transceiver_modules:count)") \
                and (ratio, n)

        ratio, n = wait_for(f"{QUIET_SITE}'s counts in the global store", quiet_site_in_store, 60)
        if not 0 < ratio <= 0.02 or round(ratio * n) != 1:
            fail(f"{QUIET_SITE}: failing ratio {ratio} of {n} modules, the scenario makes 1 failing module")

        def group_evaluated():
            """The time of the global rules' last evaluation; every rule of it must be healthy."""
            group = next(g for g in json_get(f"{glob.api}/rules")["data"]["groups"] if g["name"] == "transceiver-global")
            for rule in group["rules"]:
                if rule.get("health") != "ok":
                    fail(f"global rule {rule['name']}: {rule.get('health')} {rule.get('lastError')}")
            return group["lastEvaluation"]

        first_eval = group_evaluated()
        evaluations = set()

        def quiet_for_long_enough():
            alive()
            loud = [a for a in glob.alert_list() if a["labels"].get("site") == QUIET_SITE]
            if loud:
                fail(f"alerts for {QUIET_SITE}, whose one failing module is no site-wide problem: {loud}")
            evaluations.add(group_evaluated())
            return len(evaluations - {first_eval}) > 2 * ALERT_FOR_S

        # Counted in evaluations of the global rules, not in wall time.
        wait_for(f"{2 * ALERT_FOR_S} global rule evaluations", quiet_for_long_enough, 120, 0.5)
        log(f"ok: quiet for {QUIET_SITE} ({ratio:.1%} of {n:g} modules failing) over {len(evaluations) - 1} "
            f"evaluations of the global rules, more than its `for:` of {ALERT_FOR_S} s")

        # ---- the site label arrives; series and samples equal the sites' own ---------------------
        unlabelled = glob.query("count(" + federated(f'site!~"{FAULTY_SITE}|{QUIET_SITE}"') + ")")
        if unlabelled:
            fail(f"federated series without a site label: {unlabelled}")
        for s in sites:
            missing = []

            def arrived():
                # The site's series a few seconds ago, so that the global server has scraped them.
                alive()
                at = time.time() - 3
                have = {s.global_key(r["metric"]) for r in glob.query(
                    federated(f'__name__!="{GLOBAL_RECORDED}"', f'site="{s.name}"'), at=at)}
                missing[:] = [r["metric"] for r in s.prom.query(federated(), at=at) if key(r["metric"]) not in have]
                return not missing

            try:
                wait_for(f"every federated series of {s.name} in the global store", arrived, 60)
            except SystemExit:
                log(f"missing: {missing[:10]}")
                raise
            series, samples = check_federated_samples(glob, s, time.time() - 1)
            log(f"ok: site={s.name}: every series of /federate in the global store with its site label; "
                f"{samples} samples of {series} series equal the site's own (same timestamps, same values)")

        # ---- how many series: per switch and host, per site, and what federates -------------------
        for s in sites:
            per_system = {r["metric"].get("system", ""): int(float(r["value"][1]))
                          for r in s.prom.query(f"count by (system) ({BY_SYSTEM})")}
            present = {r["metric"]["system"]: int(float(r["value"][1])) for r in s.prom.query(
                'count by (system) (label_replace(transceiver_module_present == 1, "system", "$1", "port", "([^/]+)/.*"))')}
            own = per_system.pop("", 0)
            lines = federate_lines(s, FEDERATE_MATCH)
            every_recorded = federate_lines(s, [f"{{{RECORDED}}}"])
            in_global = glob.value("count(" + federated(f'__name__!="{GLOBAL_RECORDED}"', f'site="{s.name}"') + ")")
            log(f"series at site {s.name} (scraped, incl. Prometheus' 5 per target): " + "; ".join(
                f"{system} ({SYSTEMS.get(system, '?')}, {present.get(system, 0)} modules present) {count}"
                for system, count in sorted(per_system.items())) +
                f"; the exporter's own {own}; total {sum(per_system.values()) + own}")
            log(f"federated from {s.name}: {len(lines)} series per /federate scrape ({by_level(lines)}), "
                f"{in_global:g} in the global store; every recording-rule series would be {len(every_recorded)} "
                f"({by_level(every_recorded)})")
        total = glob.value('count({__name__=~".+"})')
        log(f"global store: {total:g} series in all (federated, its own recording rule, scrape series)")
    log(f"PASS federation end to end ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
