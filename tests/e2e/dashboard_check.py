#!/usr/bin/env python3
"""The shipped Grafana dashboard (config/grafana/transceivers.json), checked in two ways.

Static (`dashboard_check.py` alone; ctest e2e_grafana_dashboard): a dashboard Grafana can import
(id null, uid, schemaVersion, unique panel ids, panels inside the 24-column grid and not
overlapping, every panel on the `$datasource` variable, unique refIds, every variable it uses
defined); `instance` chained on `job` (and both on `site`); and in every query each `by (...)` and
`on (...)` keeps `instance` and no `without (...)` / `ignoring (...)` drops it (so no panel merges
`Ethernet0` of every switch), and every series selector is filtered by `$job`, `$instance` and
`$site`. It also proves it can fail: broken copies of the dashboard must be refused.

Live (`check_live()`, from prometheus_scrape.py, against a real Prometheus scraping the daemon):
every panel and variable query, with the variables filled in as Grafana sends them, is accepted by
Prometheus (a parse error fails) as an instant and, for graph panels, a range query, and returns
data, and none when one of $job, $instance, $site matches nothing; every data link to a port
page, filled in from the panel's own series, opens that port's page on the exporter.
"""

import copy
import html
import json
import os
import re
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_fleet import REPO, HOT_PORT, fail, http_get, log  # noqa: E402

DASHBOARD = os.path.join(REPO, "config/grafana/transceivers.json")
FILTERS = {"job": "$job", "instance": "$instance", "site": "$site"}  # label -> variable, all =~
GRAFANA_VARS = {"__rate_interval", "__interval", "__range", "__field", "__data", "__value", "__series",
                "__from", "__to", "__url_time_range"}
PANEL_TYPES = {"row", "stat", "table", "timeseries", "status-history", "state-timeline", "bargauge", "gauge", "text"}
# Families served only once other parts of issue 17 are merged (the health model's metric and the
# margin recording rule): a query using one may be empty, but only while Prometheus has no series of
# that name at all; it must still be accepted.
PENDING_FAMILIES = {"transceiver_port_health", "port_lane:transceiver_lane_rx_power_margin:db"}

AGGREGATIONS = {"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk",
                "quantile", "limitk", "limit_ratio"}
KEEPS_INSTANCE = {"by", "on"}  # these label lists must name instance ...
DROPS_INSTANCE = {"without", "ignoring"}  # ... and these must not
KEYWORDS = {"bool", "offset", "and", "or", "unless", "atan2", "group_left", "group_right", "inf", "nan", "start", "end"}


# ---- the dashboard's structure

def load(path=DASHBOARD):
    try:
        with open(path) as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        fail(f"{path}:{e.lineno}:{e.colno}: {e.msg}")


def all_panels(dash):
    def walk(ps):
        for p in ps:
            yield p
            yield from walk(p.get("panels", []))
    return list(walk(dash.get("panels", [])))


def variables(dash):
    return {v.get("name"): v for v in dash.get("templating", {}).get("list", [])}


def variable_query(v):
    q = v.get("query")
    return q.get("query", "") if isinstance(q, dict) else (q or "")


def links(panel):
    """Every data link of a panel: field defaults and overrides."""
    fc = panel.get("fieldConfig", {})
    out = list(fc.get("defaults", {}).get("links", []))
    for o in fc.get("overrides", []):
        for prop in o.get("properties", []):
            if prop.get("id") == "links":
                out += prop.get("value", [])
    return out + panel.get("links", [])


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


VAR_REF = re.compile(r"\$\{(\w+)(?:[.:][^}]*)?\}|\$(\w+)|\[\[(\w+)\]\]")


# ---- PromQL, as far as the checks need it

TOKEN = re.compile(r"""\s+|(?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`)|(?P<var>\$\{[^}]*\}|\$\w+)"""
                   r"""|(?P<num>\d[\w.]*)|(?P<id>[A-Za-z_:][\w:]*)|(?P<op>=~|!~|!=|==|<=|>=|.)""")


def tokens(expr):
    pos, out = 0, []
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        kind = m.lastgroup
        if kind:
            out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def label_list(toks, i):
    """Labels in the parenthesised list at toks[i] ('('); returns (labels, index after ')')."""
    labels, i = [], i + 1
    while i < len(toks) and toks[i][1] != ")":
        if toks[i][0] == "id":
            labels.append(toks[i][1])
        i += 1
    return labels, i + 1


def unquote(s):
    return s[1:-1].replace('\\"', '"').replace("\\\\", "\\") if s[:1] in "\"'" else s[1:-1]


def query_problems(expr, need_filters=True):
    """What the dashboard's rules find wrong in one PromQL expression; also the series names it reads."""
    toks, problems, names, i = tokens(expr), [], set(), 0
    while i < len(toks):
        kind, text = toks[i]
        nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
        if kind == "id" and text in KEEPS_INSTANCE | DROPS_INSTANCE and nxt == "(":
            labels, i = label_list(toks, i + 1)
            if text in KEEPS_INSTANCE and "instance" not in labels:
                problems.append(f"`{text} ({', '.join(labels)})` drops instance: series of different exporters merge")
            if text in DROPS_INSTANCE and "instance" in labels:
                problems.append(f"`{text} ({', '.join(labels)})` drops instance: series of different exporters merge")
            continue
        if kind == "id" and text in ("group_left", "group_right") and nxt == "(":
            i = label_list(toks, i + 1)[1]
            continue
        if kind == "id" and (text.lower() in KEYWORDS or text in AGGREGATIONS or nxt == "("):
            i += 1  # operator or function name
            continue
        if kind == "id" or (kind == "op" and text == "{"):
            name = text if kind == "id" else None
            if kind == "id":
                names.add(text)
                i += 1
            matchers = {}
            if i < len(toks) and toks[i][1] == "{":
                i += 1
                while i + 2 < len(toks) and toks[i][1] != "}":
                    if toks[i][0] == "id" and toks[i + 2][0] == "str":
                        matchers[toks[i][1]] = (toks[i + 1][1], unquote(toks[i + 2][1]))
                        i += 3
                    else:
                        i += 1
                i += 1
            missing = [f'{label}=~"{var}"' for label, var in FILTERS.items() if matchers.get(label) != ("=~", var)]
            if need_filters and missing:
                problems.append(f"selector {name or '{...}'} lacks {', '.join(missing)}")
            continue
        i += 1
    return problems, names


# ---- static checks

def grid_problems(panels):
    out, cells = [], {}
    for p in panels:
        g, pid = p.get("gridPos", {}), p.get("id")
        if not all(isinstance(g.get(k), int) for k in "hwxy") or g["h"] < 1 or g["w"] < 1 or g["x"] < 0 or \
                g["y"] < 0 or g["x"] + g["w"] > 24:
            out.append(f"panel {pid}: gridPos {g} outside the 24-column grid")
            continue
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                if (x, y) in cells:
                    out.append(f"panel {pid} overlaps panel {cells[(x, y)]} at column {x}, row {y}")
                    return out
                cells[(x, y)] = pid
    return out


def static_problems(dash):
    out = []
    if dash.get("id") is not None:
        out.append("top-level id must be null (Grafana assigns it on import)")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", str(dash.get("uid", ""))):
        out.append(f"uid {dash.get('uid')!r}: 1-40 characters of [A-Za-z0-9_-]")
    if not isinstance(dash.get("schemaVersion"), int) or dash["schemaVersion"] < 36:
        out.append(f"schemaVersion {dash.get('schemaVersion')!r}: expected an integer >= 36 (Grafana 9+)")
    if not dash.get("title"):
        out.append("no title")
    panels, top = all_panels(dash), dash.get("panels", [])
    ids = [p.get("id") for p in panels]
    if any(not isinstance(i, int) for i in ids) or len(set(ids)) != len(ids):
        out.append(f"panel ids must be unique integers: {sorted(ids, key=str)}")
    out += grid_problems(top)  # a collapsed row's panels are laid out when it expands
    vs = variables(dash)
    if len(vs) != len(dash.get("templating", {}).get("list", [])):
        out.append("variable names must be unique")
    ds = vs.get("datasource", {})
    if ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        out.append("no `datasource` variable of Prometheus data sources")
    for p in panels:
        where = f"panel {p.get('id')} '{p.get('title')}'"
        if p.get("type") not in PANEL_TYPES:
            out.append(f"{where}: unknown type {p.get('type')!r}")
        if p.get("type") == "row":
            if not p.get("collapsed") and p.get("panels"):
                out.append(f"{where}: an expanded row holds no panels")
            continue
        targets = p.get("targets", [])
        if not targets:
            out.append(f"{where}: no query")
        if p.get("datasource", {}).get("uid") != "${datasource}":
            out.append(f"{where}: datasource is not $datasource")
        refs = [t.get("refId") for t in targets]
        if len(set(refs)) != len(refs) or None in refs:
            out.append(f"{where}: refIds {refs} not unique")
        for t in targets:
            if t.get("datasource", {}).get("uid") != "${datasource}":
                out.append(f"{where} {t.get('refId')}: datasource is not $datasource")
            out += [f"{where} {t.get('refId')}: {pr}" for pr in query_problems(t.get("expr", ""))[0]]
            if not t.get("expr"):
                out.append(f"{where} {t.get('refId')}: empty query")
        for link in links(p):
            if "/port/" in link.get("url", "") and "${exporter_scheme}" not in link["url"]:
                out.append(f"{where}: port link {link['url']} does not start with ${{exporter_scheme}}")
    for s in list(strings(dash.get("panels", []))) + list(strings(dash.get("templating", {}))):
        for m in VAR_REF.finditer(s):
            name = next(g for g in m.groups() if g)
            if name not in vs and name not in GRAFANA_VARS:
                out.append(f"undefined variable ${name} in {s!r}")
    for name, chained_on in {"job": ["site"], "instance": ["job", "site"], "port": ["job", "instance", "site"]}.items():
        q = variable_query(vs.get(name, {}))
        missing = [c for c in chained_on if f"${c}" not in q]
        if not q or missing:
            out.append(f"variable {name} ({q!r}) is not chained on {missing or chained_on}")
    for name in ("site", "instance"):
        if vs.get(name, {}).get("allValue") != ".*":  # All must match series without the label too
            out.append(f"variable {name}: allValue must be .*")
    return out


def self_test(dash):
    """The checks refuse a dashboard that breaks each rule."""
    def broken(mutate):
        d = copy.deepcopy(dash)
        mutate(d)
        return static_problems(d)

    def first_target(d, needle):
        return next(t for p in all_panels(d) for t in p.get("targets", []) if needle in t["expr"])

    def set_expr(d, needle, old, new):
        t = first_target(d, needle)
        t["expr"] = t["expr"].replace(old, new, 1)

    cases = {
        "min by (port)": lambda d: set_expr(d, "min by (instance, job, port)", "by (instance, job, port)", "by (port)"),
        "without instance": lambda d: set_expr(d, "min by (instance, job, port)", "by (instance, job, port)",
                                               "without (instance, lane)"),
        "on (port)": lambda d: set_expr(d, "on (instance, job, port)", "on (instance, job, port)", "on (port)"),
        "no $site": lambda d: set_expr(d, 'site=~"$site"', ', site=~"$site"', ""),
        "duplicate id": lambda d: d["panels"][2].update(id=d["panels"][1]["id"]),
        "overlap": lambda d: d["panels"][2]["gridPos"].update(x=d["panels"][1]["gridPos"]["x"]),
        "undefined variable": lambda d: set_expr(d, '$instance', '$instance', "$switch"),
        "instance not chained": lambda d: variables(d)["instance"]["query"].update(
            query="label_values(transceiver_exporter_build_info, instance)"),
    }
    for what, mutate in cases.items():
        if not broken(mutate):
            fail(f"dashboard check accepts a dashboard with {what}")
    return len(cases)


def check_static(dash=None):
    dash = dash or load()
    problems = static_problems(dash)
    if problems:
        fail(f"{DASHBOARD}:\n  " + "\n  ".join(problems))
    n_queries = sum(len(p.get("targets", [])) for p in all_panels(dash))
    log(f"ok: dashboard {dash['uid']} (schemaVersion {dash['schemaVersion']}): {len(all_panels(dash))} panels, "
        f"{n_queries} queries keep instance and filter by $job/$instance/$site; "
        f"{self_test(dash)} broken copies refused")
    return dash


# ---- live checks against Prometheus

def grafana_values(instance):
    """The variables as Grafana's Prometheus data source interpolates them: multi-value variables
    regex-escaped in parentheses, All of site as its allValue, the built-in intervals."""
    esc = re.sub(r"([\\^$*+?.()|{}\[\]])", r"\\\\\1", instance)
    return {"job": "(transceiver)", "instance": f"({esc})", "site": ".*", "port": HOT_PORT,
            "__rate_interval": "1m", "__interval": "15s", "__range": "6h",
            "exporter_scheme": "http", "exporter_suffix": ""}


def fill(text, values):
    out = VAR_REF.sub(lambda m: values.get(next(g for g in m.groups() if g), m.group(0)), text)
    if "$" in out:
        fail(f"unknown template variable in {out}")
    return out


def prom_query(api, expr, range_s=None):
    """Result list; fails with Prometheus's own error (a parse error included)."""
    now = time.time()
    url = f"{api}/query?query={urllib.parse.quote(expr, safe='')}" if range_s is None else \
        f"{api}/query_range?query={urllib.parse.quote(expr, safe='')}&start={now - range_s}&end={now}&step=15"
    status, body = http_get(url, timeout=10)
    try:
        r = json.loads(body)
    except ValueError:
        r = {}
    if status != 200 or r.get("status") != "success":
        fail(f"Prometheus refuses {expr}: HTTP {status} {r.get('errorType', '')}: {r.get('error', body[:200])}")
    return r["data"]["result"]


def dashboard_queries(dash, values):
    """(where, expr, panel, range?) for every panel target and every label_values() variable."""
    out = [(f"panel '{p.get('title')}' {t.get('refId')}", fill(t["expr"], values), p, not t.get("instant"))
           for p in all_panels(dash) for t in p.get("targets", []) if t.get("expr")]
    for v in variables(dash).values():
        m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", variable_query(v))
        if m:  # what Grafana asks Prometheus for a variable's values
            out.append((f"variable {v['name']}", fill(f"group by ({m.group(2)}) ({m.group(1)})", values), None, False))
    return out


def render_link(url, values, labels):
    def label(m):
        name, fmt = m.group(2), m.group(3) or ""
        if name not in labels:
            fail(f"link {url}: the panel's series have no label {name} ({sorted(labels)})")
        return labels[name] if fmt == "raw" else urllib.parse.quote(labels[name], safe="")
    url = re.sub(r"\$\{__(field\.labels|data\.fields)\.(\w+)(?::(\w+))?\}", label, url)
    return fill(url, values)


def check_live(api, instance):
    """Every query of the dashboard against the real Prometheus at api (…/api/v1), scraping the
    daemon at instance (host:port); then every port-page link."""
    dash = check_static()
    values = grafana_values(instance)
    queries = dashboard_queries(dash, values)
    served = {n for n in PENDING_FAMILIES if prom_query(api, f'group({{__name__="{n}"}})')}
    empty_pending, results = [], {}
    for where, expr, panel, as_range in queries:
        res = prom_query(api, expr)
        if as_range:
            prom_query(api, expr, range_s=120)
        if not res:
            pending = query_problems(expr, need_filters=False)[1] & (PENDING_FAMILIES - served)
            if not pending:
                fail(f"dashboard {where} returns no data: {expr}")
            empty_pending.append(where)
        if panel is not None and res:
            results.setdefault(panel["id"], res)
    pending_note = f"; empty while {sorted(PENDING_FAMILIES - served)} not served: {len(empty_pending)}" \
        if empty_pending else ""
    log(f"ok: {len(queries)} dashboard queries (panels as instant and range queries, variables), with "
        f"$job/$instance/$site/$port and $__rate_interval/$__range filled in, run on Prometheus and return "
        f"data{pending_note}")
    # The filters are live: one variable pointing nowhere leaves every query empty or only its
    # label-less `or vector(0)` fallback.
    for name in FILTERS:
        nowhere = dashboard_queries(dash, dict(values, **{name: "(no-such-" + name + ")"}))
        for (where, expr, _, _), (_, unfiltered, _, _) in zip(nowhere, queries):
            if expr == unfiltered:
                continue  # a variable's query that does not depend on this variable
            leak = [r for r in prom_query(api, expr) if r["metric"] or float(r["value"][1]) != 0]
            if leak:
                fail(f"dashboard {where} with ${name} matching nothing still returns {leak[:2]}: {expr}")
    log("ok: with $job, $instance or $site matching nothing, every query is empty (or 0)")
    opened = 0
    for p in all_panels(dash):
        for link in links(p):
            if "/port/" not in link.get("url", "") or p["id"] not in results:
                continue
            for series in results[p["id"]][:3]:
                labels = series["metric"]
                url = render_link(link["url"], values, labels)
                status, body = http_get(url)
                port = html.escape(labels["port"])
                if status != 200 or port.encode() not in body:
                    fail(f"panel '{p['title']}': link {url} -> HTTP {status}, not the page of {labels['port']}")
                opened += 1
    if opened == 0:
        fail("no port-page link of the dashboard could be followed")
    log(f"ok: {opened} port-page links from {sum(1 for p in all_panels(dash) if links(p))} panels open the "
        f"port's page on the exporter")


if __name__ == "__main__":
    check_static()
    log("PASS grafana dashboard (static)")
