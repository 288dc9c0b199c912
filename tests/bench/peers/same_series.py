#!/usr/bin/python3
"""Fails (exit 1) unless a peer's exposition body has the exporter's families (name, type, HELP),
the same set of series (sample name + labels, an empty label being no label) and the same sample
count; values may differ.
The benchmark's peer rows compare nothing else, so it runs before they are measured.

  same_series.py EXPORTER_BODY PEER_BODY PEER_NAME"""
import sys

from prometheus_client.parser import text_string_to_metric_families


def read(path):
    families, series, samples = {}, set(), 0
    with open(path) as f:
        for family in text_string_to_metric_families(f.read()):
            families[family.name] = (family.type, family.documentation)
            for s in family.samples:
                # An empty label is no label (Prometheus' data model): a peer library writes an
                # optional label it has no value for as "".
                series.add((s.name, tuple(sorted((k, v) for k, v in s.labels.items() if v != ""))))
                samples += 1
    return families, series, samples


def main():
    exporter_path, peer_path, peer = sys.argv[1:4]
    ef, es, en = read(exporter_path)
    pf, ps, pn = read(peer_path)
    problems = [f"family {n}: exporter {ef.get(n)}, {peer} {pf.get(n)}"
                for n in sorted(ef.keys() | pf.keys()) if ef.get(n) != pf.get(n)]
    problems += [f"series only in the exporter's body: {s}" for s in sorted(es - ps)[:5]]
    problems += [f"series only in {peer}'s body: {s}" for s in sorted(ps - es)[:5]]
    if en != pn:
        problems.append(f"samples: exporter {en}, {peer} {pn}")
    if problems:
        print(f"same_series: {peer} does not serve the exporter's series:", *problems[:20], sep="\n  ", file=sys.stderr)
        return 1
    print(f"same_series: {peer}: {len(ef)} families, {len(es)} series, {en} samples, as the exporter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
