#!/usr/bin/env python3
"""Renders docs/benchmarks.md from the JSON files scripts/bench.sh collected."""
import json
import os
import platform
import subprocess
import sys

out = sys.argv[1]


def load(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def ns(b):
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return b["cpu_time"] * scale


def bench_rows(data):
    return {b["name"]: b for b in (data or {}).get("benchmarks", [])}


cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                     capture_output=True, text=True).stdout.strip()
print("# Benchmarks\n")
print("Produced by `bash scripts/bench.sh` (release build, one run). Machine: "
      f"{cpu or platform.processor()}, {os.cpu_count()} cores. Figures are ratios against the physical "
      "floor or a baseline measured in the same run; absolute times are for orientation only.\n")

decode = bench_rows(load("decode.json"))
if decode:
    print("## Decode cost\n")
    print("| what | CPU per decode | target |")
    print("|---|---|---|")
    for name, label, target in [("BM_DecodeCmis8Lane", "full CMIS 8-lane image (lower, 00h, 01h, 02h, 10h, 11h)", "≤ 1 µs"),
                                ("BM_DecodeSff8636", "SFF-8636 image with page 03h thresholds", ""),
                                ("BM_DecodeCmisToJson", "CMIS decode + JSON rendering", "")]:
        if name in decode:
            print(f"| {label} | {ns(decode[name]):.0f} ns | {target} |")
    print()

poll = load("poll.json")
if poll:
    print("## Bus cost per poll (CMIS 8-lane module, steady state)\n")
    print("| what | bytes per poll | transactions | vs |")
    print("|---|---|---|---|")
    print(f"| dynamic set (floor: lower 0-25 + page 11h 128-201) | {poll['dynamic_set_bytes']:.0f} | 2 reads | floor |")
    print(f"| what the daemon reads (data bytes) | {poll['poll_data_bytes_read']:.1f} | {poll['poll_transactions']:.2f} | "
          f"{poll['poll_data_bytes_read'] / poll['dynamic_set_bytes']:.2f} × floor (target ≤ 110 B) |")
    print(f"| on the wire (address, offset, page-select bytes included) | {poll['poll_wire_bytes']:.1f} | | |")
    print("| `ethtool -m` full read (lower + 00h + 01h + 02h + 10h + 11h) | 768 | ≥ 6 | "
          f"{768 / poll['poll_data_bytes_read']:.1f} × what we read |\n")
    print("## Poll cycle vs the bus-time floor (64 ports, 400 kHz, real wire time slept)\n")
    print("The floor is the wire time the cycle's transactions occupy on the bus (START, address, "
          "data bytes × 9 clocks, repeated START, STOP, mux selects), summed by the emulated bus.\n")
    print("| layout | cycle | floor | cycle ÷ floor | target |")
    print("|---|---|---|---|---|")
    for key, label in [("ports64_buses8", "64 ports on 8 buses (one worker per bus)"), ("ports64_buses1", "64 ports on 1 bus")]:
        print(f"| {label} | {poll[key + '_cycle_ms']:.2f} ms | {poll[key + '_floor_ms']:.2f} ms | "
              f"{poll[key + '_cycle_over_floor']:.3f} | ≤ 1.15 |")
    print()
    print("## Daemon CPU and memory\n")
    print("| fleet | CPU per port poll | RSS | target RSS |")
    print("|---|---|---|---|")
    print(f"| 64 ports (8 buses) | {poll['ports64_cpu_us_per_port_poll']:.1f} µs | {poll['ports64_rss_mib']:.1f} MiB | ≤ 16 MiB |")
    print(f"| 2048 ports (256 buses) | {poll['ports2048_cpu_us_per_port_poll']:.1f} µs | {poll['ports2048_rss_mib']:.1f} MiB | ≤ 64 MiB |")
    print("\nRSS is the benchmark process's (engine, emulated fleet and snapshots included); CPU per "
          "port poll includes decoding, flag accounting and snapshot publication.\n")

emu = bench_rows(load("emulator.json"))
if emu:
    print("## Emulator cost (to subtract from poll figures)\n")
    print("| benchmark | CPU per iteration |")
    print("|---|---|")
    for name, b in emu.items():
        print(f"| {name} | {ns(b):.0f} ns |")
    print()

scrape = bench_rows(load("scrape.json"))
if scrape:
    print("## Scrape rendering (Google Benchmark)\n")
    print("| benchmark | CPU per iteration |")
    print("|---|---|")
    for name, b in scrape.items():
        print(f"| {name} | {ns(b) / 1e3:.1f} µs |")
    print()
wrk = os.path.join(out, "scrape_wrk.md")
if os.path.exists(wrk):
    with open(wrk) as f:
        print(f.read())

ib = bench_rows(load("ib.json"))
if ib:
    print("## InfiniBand MCIA polling\n")
    print("| benchmark | CPU per iteration | counters |")
    print("|---|---|---|")
    for name, b in ib.items():
        extra = ", ".join(f"{k}={v:g}" for k, v in b.items() if isinstance(v, (int, float)) and k not in
                          ("iterations", "real_time", "cpu_time", "repetitions", "repetition_index", "threads",
                           "family_index", "per_family_instance_index"))
        print(f"| {name} | {ns(b):.0f} ns | {extra} |")
    print()
