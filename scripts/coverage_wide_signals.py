#!/usr/bin/python3
"""Lists the signals that Verilator's toggle coverage leaves out of a preset's model because
they are wider than --coverage-max-width (docs/coverage.md, What toggle coverage leaves out).

Verilates moe_top (design, assertion checkers, cover properties and lane probes) into a scratch
folder with --coverage-toggle and Verilator's V3Coverage debug output, and prints one line per
module and signal: bits (width, and unpacked elements for an array). Verilator reads the same
sources the coverage build does; nothing is compiled.

Usage: scripts/coverage_wide_signals.py BUILD_DIR [--preset default] [--max-width 256]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir", help="a configured build folder (its generated/rtl is read)")
    ap.add_argument("--preset", default="default")
    ap.add_argument("--max-width", type=int, default=256)
    a = ap.parse_args()
    gen = pathlib.Path(a.build_dir) / "generated" / "rtl"
    cfg = gen / f"moesim_cfg_{a.preset}.vc"
    pkg = gen / "moesim_isa_pkg.sv"
    if not cfg.exists() or not pkg.exists():
        print(f"coverage_wide_signals: {cfg} or {pkg} missing (configure the build first)",
              file=sys.stderr)
        return 2
    rtl = ROOT / "rtl_model" / "rtl"
    pkgs = sorted(rtl.glob("*_pkg.sv"))
    mods = sorted(p for p in rtl.glob("*.sv") if p not in pkgs)
    sva = sorted((ROOT / "rtl_model" / "sva").glob("*.sv"))
    cover = sorted((ROOT / "rtl_model" / "sva" / "cover").glob("*.sv"))
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["verilator_bin", "--cc", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-f", str(cfg),
               "--top-module", "moe_top", "--assert", "--coverage-toggle", "--coverage-user",
               "--coverage-max-width", str(a.max_width),
               f"-I{ROOT / 'rtl_model' / 'sva'}", f"-I{ROOT / 'rtl_model' / 'sva' / 'cover'}",
               "--Mdir", tmp, "--debugi-V3Coverage", "9",
               str(rtl / "moe_verilator.vlt"), str(pkg), *map(str, pkgs), *map(str, mods),
               *map(str, sva), *map(str, cover)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", check=False)
    if proc.returncode != 0:
        print(proc.stdout[-4000:], file=sys.stderr)
        return 2
    module = None
    rows = []
    for line in proc.stdout.splitlines():
        m = re.search(r"line create h\d+ MODULE 0x\w+ \{\w+\}\s+(\S+)", line)
        if m:
            module = re.sub(r"__.*", "", m.group(1))  # moe_vector_unit__V40_H10_VBd: parameters
            continue
        if "Disable Toggle: Wide bus" not in line:
            continue
        m = re.search(r"@\(\w*/?w(\d+)\)(u\[(\d+):(\d+)\])?\s+(\S+)", line)
        if not m:
            continue
        width = int(m.group(1))
        elems = abs(int(m.group(4)) - int(m.group(3))) + 1 if m.group(2) else 1
        rows.append((module, m.group(5), width, elems))
    seen = set()
    for module, name, width, elems in rows:
        if (module, name) in seen:
            continue
        seen.add((module, name))
        shape = f"{width} x {elems} = {width * elems}" if elems > 1 else f"{width}"
        print(f"{module}.{name}: {shape} bits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
