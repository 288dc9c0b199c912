#!/usr/bin/env python3
"""Keeps the five-minute first run honest (issue 19, README quick start).

  1. `scripts/setup.sh demo`'s set holds none of the test-only tools, neither listed nor pulled
     in as a dependency (apt-cache's Depends/Pre-Depends closure, no Recommends), and on a
     fresh Debian 12 (tests/scripts/bookworm-minbase.txt: what `debootstrap --variant=minbase
     bookworm` installs) it installs fewer than 100 packages.
  2. The test set (`setup.sh` with no argument) contains the demo set.
  3. `scripts/build.sh demo` configures build/demo with the unit tests and benchmarks off and
     builds only transceiver_exporter and xcvrctl (cmake and ninja stubbed to record their
     arguments), and that configuration succeeds with GoogleTest and Google Benchmark hidden
     from CMake (a real configure into a scratch directory).

Usage: demo_setup.py SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Heavy or test-only packages the demo must never install.
FORBIDDEN = [
    "qemu-system-x86", "linux-image-amd64", "chromium", "lintian", "prometheus",
    "prometheus-alertmanager", "clang", "libclang-rt-14-dev", "libgtest-dev", "libgmock-dev",
    "libbenchmark-dev", "wrk", "python3", "git", "build-essential", "dpkg-dev", "strace",
    "golang-go", "golang-github-prometheus-client-golang-dev", "python3-prometheus-client",
]
LIMIT = 100  # README: fewer than 100 packages on a fresh Debian 12


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def setup_list(src, which):
    out = subprocess.run(["bash", os.path.join(src, "scripts/setup.sh"), f"--list-{which}"],
                         check=True, capture_output=True, text=True).stdout
    return [p for p in out.split() if p]


def apt_depends(pkgs):
    """{package: [[alternative, ...], ...]} from apt-cache depends (Depends, Pre-Depends only).
    An alternative is [name, providers, virtual]."""
    out = subprocess.run(
        ["apt-cache", "depends", "--no-recommends", "--no-suggests", "--no-conflicts",
         "--no-breaks", "--no-replaces", "--no-enhances", *pkgs],
        capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"apt-cache depends failed (run apt-get update / scripts/setup.sh): {out.stderr.strip()}")
    deps, cur, group, last = {}, None, [], None
    for line in out.stdout.splitlines():
        if not line.startswith(" "):
            cur, group, last = line.strip(), [], None
            deps[cur] = []
            continue
        m = re.match(r"^ (\|| )(Pre)?Depends: (.*)$", line)
        if m:
            name = m.group(3).strip()
            last = [name.strip("<>").split(":")[0], [], name.startswith("<")]
            group.append(last)
            if m.group(1) != "|":  # the last alternative of its group
                deps[cur].append(group)
                group = []
        elif line.startswith("    ") and last is not None:
            last[1].append(line.strip().split(":")[0])  # a provider of the virtual package `last`
    return deps


def closure(roots, base):
    """Packages apt would newly install for roots on a system holding base: Depends and
    Pre-Depends, recursively; of alternatives the first unless another is already chosen."""
    chosen, frontier = set(), [p for p in roots if p not in base]
    chosen.update(frontier)
    while frontier:
        deps = apt_depends(sorted(set(frontier)))
        frontier = []
        for pkg in deps:
            for group in deps[pkg]:
                names = []
                for name, providers, virtual in group:
                    names += providers if virtual else [name] + providers
                if any(n in chosen or n in base for n in names):
                    continue
                if not names:
                    continue  # a virtual package nothing provides (apt would fail; not ours)
                pick = names[0]
                chosen.add(pick)
                frontier.append(pick)
    return chosen


def check_packages(src):
    demo, test = setup_list(src, "demo"), setup_list(src, "test")
    if not demo:
        fail("setup.sh --list-demo printed nothing")
    missing = sorted(set(demo) - set(test))
    if missing:
        fail(f"the test set lacks demo packages: {missing}")
    listed = sorted(set(FORBIDDEN) & set(demo))
    if listed:
        fail(f"setup.sh demo lists test-only packages: {listed}")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bookworm-minbase.txt")) as f:
        base = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    new = closure(demo, base)
    pulled = sorted(set(FORBIDDEN) & new)
    if pulled:
        fail(f"setup.sh demo pulls in test-only packages as dependencies: {pulled}")
    print(f"demo set: {len(demo)} packages listed, about {len(new)} installed on a fresh "
          f"Debian 12 minbase (must be under {LIMIT}); test set: {len(test)} listed")
    if len(new) >= LIMIT:
        fail(f"setup.sh demo would install {len(new)} packages on a fresh Debian 12: "
             f"{' '.join(sorted(new))}")


def check_build(src):
    with tempfile.TemporaryDirectory() as tmp:
        stubs = os.path.join(tmp, "bin")
        os.mkdir(stubs)
        for tool in ("cmake", "ninja"):
            with open(os.path.join(stubs, tool), "w") as f:
                f.write(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{tmp}/{tool}.args"\n')
            os.chmod(os.path.join(stubs, tool), 0o755)
        env = dict(os.environ, PATH=f"{stubs}:{os.environ['PATH']}", XCVR_JOBS="1")
        r = subprocess.run(["bash", os.path.join(src, "scripts/build.sh"), "demo"], env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"scripts/build.sh demo failed ({r.returncode}): {r.stderr.strip()}")
        cmake_args = open(os.path.join(tmp, "cmake.args")).read().split("\n")[:-1]
        ninja_args = open(os.path.join(tmp, "ninja.args")).read().split("\n")[:-1]
        demo_dir = os.path.join(os.path.realpath(src), "build/demo")
        if cmake_args[cmake_args.index("-B") + 1] != demo_dir:
            fail(f"build.sh demo configures {cmake_args[cmake_args.index('-B') + 1]}, not {demo_dir}")
        for want in ("-DXCVR_UNIT_TESTS=OFF", "-DXCVR_BENCH=OFF", "-DCMAKE_BUILD_TYPE=Release"):
            if want not in cmake_args:
                fail(f"build.sh demo does not pass {want}: {cmake_args}")
        if any(a.startswith("-DXCVR_FUZZ=ON") or a.startswith("-DXCVR_SANITIZE=ON") for a in cmake_args):
            fail(f"build.sh demo turns on fuzzing or sanitizers: {cmake_args}")
        targets = [a for a in ninja_args[ninja_args.index("-C") + 2:] if not a.startswith("-j")
                   and not a.isdigit()]
        if ninja_args[ninja_args.index("-C") + 1] != demo_dir or sorted(targets) != ["transceiver_exporter", "xcvrctl"]:
            fail(f"build.sh demo must build only transceiver_exporter and xcvrctl in {demo_dir}: ninja {ninja_args}")

        # The same configuration, for real, with GoogleTest and Google Benchmark out of reach.
        scratch = os.path.join(tmp, "demo")
        args = [a for a in cmake_args if a not in ("-B", demo_dir)]
        args = [a for a in args if not a.startswith("-DCMAKE_CXX_COMPILER_LAUNCHER")]
        r = subprocess.run(["cmake", *args, "-B", scratch, "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON",
                            "-DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON"], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"the demo configuration needs a test package:\n{r.stdout}\n{r.stderr}")
        ninja = open(os.path.join(scratch, "build.ninja")).read()
        for target in ("transceiver_exporter", "xcvrctl"):
            if f"build {target}:" not in ninja:
                fail(f"the demo configuration has no {target} target")
        for target in ("unit_tests", "bench_"):
            if f"build {target}" in ninja:
                fail(f"the demo configuration builds {target}")
    print("build.sh demo: build/demo, tests and benchmarks off, two targets; configures without GTest/benchmark")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    src = sys.argv[1]
    for tool in ("apt-cache", "cmake", "bash"):
        if shutil.which(tool) is None:
            fail(f"{tool} missing (scripts/setup.sh installs it)")
    check_packages(src)
    check_build(src)
    print("PASS")


if __name__ == "__main__":
    main()
