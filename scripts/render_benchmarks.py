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
                                ("BM_DecodeCmis8LaneDynamic", "steady-state poll decode of the same module "
                                 "(`decode_dynamic`: state, flags, monitors, lanes, VDM into the previous report)", "≤ 1 µs"),
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
    print("| layout | cycle | floor | cycle ÷ floor | start-to-start ÷ floor | target |")
    print("|---|---|---|---|---|---|")
    for key, label in [("ports64_buses8", "64 ports on 8 buses (one worker per bus)"), ("ports64_buses1", "64 ports on 1 bus")]:
        period = poll.get(key + "_period_over_floor")
        print(f"| {label} | {poll[key + '_cycle_ms']:.2f} ms | {poll[key + '_floor_ms']:.2f} ms | "
              f"{poll[key + '_cycle_over_floor']:.3f} | {f'{period:.3f}' if period else ''} | ≤ 1.15 |")
    print("\nMeasured over whole cycles after the static reads (10 on 1 bus, 100 on 8). Start-to-start "
          "includes the work between cycles (building the domain's port snapshots). The emulated bus "
          "sleeps each transaction's wire time with a 1 ns timer slack: the default 50 µs slack is an "
          "emulator artefact a real i2c-dev read, which waits for its interrupt, does not have.\n")
    print("## Daemon CPU and memory\n")
    print("| fleet | CPU per port poll | process RSS | emulator heap | daemon heap | daemon RSS | target (daemon) |")
    print("|---|---|---|---|---|---|---|")
    for key, label, target in [("ports64", "64 ports (8 buses)", "≤ 16 MiB"), ("ports2048", "2048 ports (256 buses)", "≤ 64 MiB")]:
        d = lambda k: poll.get(f"{key}_{k}")
        mib = lambda v: f"{v:.1f} MiB" if v is not None else ""
        print(f"| {label} | {d('cpu_us_per_port_poll'):.1f} µs | {mib(d('rss_mib'))} | {mib(d('emulator_heap_mib'))} | "
              f"{mib(d('daemon_heap_mib'))} | {mib(d('daemon_rss_mib'))} | {target} |")
    print("\nThe emulated fleet runs in the benchmark process. Its heap is measured (mallinfo2) after the "
          "modules are built and before any daemon object exists; daemon RSS = process RSS − emulator "
          "heap (the shared libraries, thread stacks and allocator slack all count as the daemon's). "
          "CPU per port poll is the process's, emulator included (see its cost below); it includes "
          "decoding, flag accounting and snapshot publication.\n")

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
    # tests/bench/bench_ib.cpp: emulated fabric in virtual time; see docs/benchmarks-ib.md.
    print("## InfiniBand MCIA polling\n")
    print("Emulated Quantum-2 switches (64 cages) in virtual time: exact, repeatable figures of what "
          "the transport and its scheduling add to the fabric's per-MAD latency "
          "(details: [benchmarks-ib.md](benchmarks-ib.md)).\n")
    print("| MCIA transfer | MADs per module per steady-state poll | target |")
    print("|---|---|---|")
    for arg, label, target in (("1", "128 bytes (MCAM bit 34)", "≤ 2"), ("0", "48 bytes", "≤ 4")):
        b = ib.get(f"BM_IbMadsPerModulePoll/{arg}")
        if b:
            print(f"| {label} | {b['mads_per_module']:.3f} | {target} |")
    print()
    print("One poll of 16 switches × 64 modules (every module due at once), against its lower bound "
          "max(busiest lane's MADs × latency, (MADs − burst 32) / rate + latency):\n")
    print("| latency | lanes per switch | rate limit | MCIA | MADs | poll (virtual) | bound | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for name, b in ib.items():
        if not name.startswith("BM_IbFabricSweep16x64/"):
            continue
        args = dict(part.split(":", 1) for part in name.split("/")[1:] if ":" in part)
        lat = int(args.get("lat_us", 0))
        rate = int(args.get("rate", 0))
        print(f"| {lat / 1000:g} ms | {args.get('lanes')} | {f'{rate:,}/s' if rate else 'none'} | "
              f"{'128 B' if args.get('mcia128') == '1' else '48 B'} | {b['mads']:.0f} | {b['virtual_ms']:.1f} ms | "
              f"{b['bound_ms']:.1f} ms | {b['ratio']:.3f} |")
    print()
