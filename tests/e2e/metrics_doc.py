"""docs/metrics.md against a real /metrics scrape: every served family is documented with its type
and labels, and every documented family is served (the families a fleet cannot produce are
named by the caller). Used by prometheus_scrape.py on the daemon's demo-fleet scrape."""

import os
import re

from daemon_fleet import REPO

ROW = re.compile(r"^\| `([a-z0-9_:]+)` \| ([a-z]+) \|([^|]*)\|([^|]*)\|")
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"')


def documented():
    """family -> (type, required labels, optional labels, unit) from the docs table."""
    out = {}
    with open(os.path.join(REPO, "docs", "metrics.md")) as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if not m:
                continue
            name, typ, labels, unit = m.group(1), m.group(2), m.group(3), m.group(4).strip()
            required, optional = set(), set()
            for part in (p.strip() for p in labels.split(",")):
                if part.startswith("[") and part.endswith("]"):
                    optional.add(part[1:-1])
                elif part and part != "—":
                    required.add(part)
            if "port" in required:
                optional.add("node")  # ports read over an InfiniBand fabric (see Conventions)
            if name in out:
                raise ValueError(f"docs/metrics.md lists {name} twice")
            out[name] = (typ, required, optional, unit)
    return out


def documented_with(word):
    """Families whose docs/metrics.md row mentions `word` (e.g. "C-CMIS")."""
    with open(os.path.join(REPO, "docs", "metrics.md")) as f:
        return {m.group(1) for m in (ROW.match(line) for line in f if word in line) if m}


def served(text):
    """family -> (type, {frozenset of label names per sample}) from exposition text."""
    types, labels = {}, {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ", 3)
            types[name] = typ
            labels.setdefault(name, set())
        elif line and not line.startswith("#"):
            m = SAMPLE.match(line)
            if not m:
                raise ValueError(f"unreadable sample line: {line}")
            name = m.group(1)
            family = name if name in types else re.sub(r"_(bucket|sum|count)$", "", name)
            names = frozenset(LABEL.findall(m.group(2) or "")) - {"le"}
            labels.setdefault(family, set()).add(names)
    return {name: (types.get(name), labels.get(name, set())) for name in types}


def compare(text, not_expected=(), either=()):
    """Problems (strings) between docs/metrics.md and a scrape. not_expected: documented
    families this scrape cannot contain (each must indeed be absent); either: families it may or
    may not contain yet, by timing (checked like every other when served)."""
    docs, got = documented(), served(text)
    problems = []
    for name, (typ, label_sets) in sorted(got.items()):
        if name not in docs:
            problems.append(f"{name} is served but not documented")
            continue
        dtyp, required, optional, unit = docs[name]
        if typ != dtyp:
            problems.append(f"{name}: served as {typ}, documented as {dtyp}")
        if not unit:
            problems.append(f"{name}: no unit documented")
        for names in label_sets:
            if not required <= names or not names <= required | optional:
                problems.append(f"{name}: served with labels {sorted(names)}, documented "
                                f"{sorted(required)} + optional {sorted(optional)}")
                break
    for name in sorted(docs):
        if name in got and name in not_expected:
            problems.append(f"{name} is served, but listed as not expected in this scrape")
        elif name not in got and name not in not_expected and name not in either:
            problems.append(f"{name} is documented but not served")
    return problems
