#!/usr/bin/env python3
"""Host instructions per simulated cycle, counted by valgrind's callgrind (docs/performance.md).

Wall time on a shared machine moves with its load; the number of host instructions a run
executes does not (same binary, same inputs, same valgrind). This script runs `moesim run`
under `valgrind --tool=callgrind` with collection switched on only inside chosen functions
(`--toggle-collect`), reads the simulated cycle count from the run's report and prints host
instructions per simulated cycle. Parts (`--parts`, comma separated):

  eval     the Verilated model's evaluation, Vmoe_top_<preset>___024root___eval (every call:
           the reset cycles of the load as well as the run), `moesim run --engine rtl`
  harness  the same run, collected inside moesim::cosim::run_single only, split with
           callgrind_annotate's inclusive costs into `wrapper` (the RTL model's C++ wrapper:
           Model::step less the evaluations inside it: clocking, trace ports, records) and
           `loop` (run_single less Model::step: the single-engine run loop and its sinks)
  golden   the golden model, moesim::golden::GoldenModel::step, `moesim run --engine golden`
           (per cycle of the golden model, which is the RTL's count: co-simulation is
           cycle-exact)

Each part is one valgrind run (about 20 s for the default program on an idle core). The
program flags after `--` replace the default, the README's layer at one token:
--model gpt-oss-20b --tokens 1 --hidden 128 --intermediate 128 (any flags of `moesim run`
but --engine, --report and --quiet, which the script sets).

Output: one line per part, `NAME: I host instructions / C cycles = P per cycle`, and with
--json FILE the same as JSON. Exit status: 0 done, 1 a run failed or collected nothing,
2 bad usage.
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FLAGS = ["--model", "gpt-oss-20b", "--tokens", "1", "--hidden", "128",
                 "--intermediate", "128"]
PARTS = ["eval", "harness", "golden"]

# Function patterns (callgrind matches the demangled name, signature included; `*` is a
# wildcard). `___eval(` and not `___eval_nba(` etc.: the whole evaluation, entered once per
# eval() of the model.
EVAL_FN = "Vmoe_top_*___024root___eval(*"
RUN_FN = "moesim::cosim::run_single(*"
GOLDEN_FN = "moesim::golden::GoldenModel::step(*"
# The same functions as callgrind_annotate prints them.
EVAL_RE = re.compile(r":Vmoe_top_\w+___024root___eval\(")
STEP_RE = re.compile(r":moesim::rtl::variant_\w+::Model::step\(")
RUN_RE = re.compile(r":moesim::cosim::run_single\(")


def die(msg, status=1):
    print(f"count_instructions: error: {msg}", file=sys.stderr)
    sys.exit(status)


def callgrind(valgrind, moesim, engine, flags, toggles, work, tag):
    """Runs `moesim run --engine ENGINE FLAGS` under callgrind, collecting inside TOGGLES.
    Returns (collected instructions, callgrind output file, the run's report)."""
    out = work / f"{tag}.callgrind"
    report = work / f"{tag}.report.json"
    cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no"]
    cmd += [f"--toggle-collect={t}" for t in toggles]
    cmd += [str(moesim), "run", "--engine", engine, *flags, "--quiet", "--report", str(report)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        die(f"{' '.join(cmd)} exited {proc.returncode}:\n{tail}")
    totals = None
    for line in out.read_text().splitlines():
        m = re.match(r"^totals:\s+(\d+)", line) or re.match(r"^summary:\s+(\d+)", line)
        if m:
            totals = int(m.group(1))
            break
    if not totals:
        die(f"callgrind collected no instructions inside {', '.join(toggles)} "
            f"({out}): is {moesim} the moesim binary, with its symbols?")
    return totals, out, json.loads(report.read_text())


def inclusive(annotate, out, patterns):
    """Inclusive cost of the first function matching each pattern (callgrind_annotate)."""
    proc = subprocess.run([annotate, "--inclusive=yes", "--threshold=100", str(out)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        die(f"callgrind_annotate {out} exited {proc.returncode}: {proc.stderr.strip()}")
    found = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$", line)
        if not m:
            continue
        for name, pat in patterns.items():
            if name not in found and pat.search(m.group(2)):
                found[name] = int(m.group(1).replace(",", ""))
    missing = [n for n in patterns if n not in found]
    if missing:
        die(f"callgrind_annotate {out}: no inclusive cost for {', '.join(missing)}")
    return found


def part(name, instructions, cycles, what):
    return {"name": name, "host_instructions": instructions, "cycles": cycles,
            "per_cycle": round(instructions / cycles, 1), "what": what}


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: scripts/count_instructions.py --parts eval,harness,golden "
               "--json counts.json -- --model gpt-oss-20b --tokens 1 --hidden 128 "
               "--intermediate 128")
    ap.add_argument("--moesim", help="the moesim binary (default: build/bin/moesim of this "
                                     "checkout, else moesim on PATH)")
    ap.add_argument("--parts", default="eval",
                    help=f"comma-separated parts to count, of {', '.join(PARTS)} (default eval)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep the callgrind outputs and reports in DIR (for callgrind_annotate)")
    ap.add_argument("flags", nargs="*",
                    help="program flags of `moesim run`, after -- (default: the README layer "
                         "at one token)")
    args = ap.parse_args()

    parts = [p for p in args.parts.split(",") if p]
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        die(f"--parts: unknown part {', '.join(bad) or '(none)'} (known: {', '.join(PARTS)})", 2)
    flags = args.flags or DEFAULT_FLAGS
    for f in flags:
        if f.split("=")[0] in ("--engine", "--report", "--quiet"):
            die(f"{f}: set by the script, not a program flag", 2)
    moesim = Path(args.moesim or ROOT / "build" / "bin" / "moesim")
    if not args.moesim and not moesim.is_file() and shutil.which("moesim"):
        moesim = Path(shutil.which("moesim"))
    if not moesim.is_file():
        die(f"{moesim}: no such binary (build first: cmake --build build)", 2)
    valgrind = shutil.which("valgrind")
    annotate = shutil.which("callgrind_annotate")
    if not valgrind or not annotate:
        die("valgrind and callgrind_annotate are needed (Debian package valgrind)", 2)
    version = subprocess.run([valgrind, "--version"], stdout=subprocess.PIPE,
                             text=True).stdout.strip()

    if args.keep:
        work = Path(args.keep)
        work.mkdir(parents=True, exist_ok=True)
        tmp = None
    else:
        tmp = tempfile.TemporaryDirectory(prefix="count_instructions.")
        work = Path(tmp.name)

    results = []
    run = None
    try:
        if "eval" in parts:
            n, _, rep = callgrind(valgrind, moesim, "rtl", flags, [EVAL_FN], work, "eval")
            run = run or rep
            results.append(part("eval", n, rep["total_cycles"],
                                "the Verilated model's eval (" + EVAL_FN + "), every call"))
        if "harness" in parts:
            n, out, rep = callgrind(valgrind, moesim, "rtl", flags, [RUN_FN], work, "harness")
            run = run or rep
            inc = inclusive(annotate, out, {"eval": EVAL_RE, "step": STEP_RE, "run": RUN_RE})
            cycles = rep["total_cycles"]
            results.append(part("wrapper", inc["step"] - inc["eval"], cycles,
                                "the RTL model's C++ wrapper: Model::step less the evals in it"))
            results.append(part("loop", inc["run"] - inc["step"], cycles,
                                "moesim::cosim::run_single less Model::step"))
        if "golden" in parts:
            n, _, rep = callgrind(valgrind, moesim, "golden", flags, [GOLDEN_FN], work,
                                  "golden")
            run = run or rep
            results.append(part("golden", n, rep["total_cycles"],
                                "the golden model (" + GOLDEN_FN + ")"))
    finally:
        if tmp:
            tmp.cleanup()

    command = ["moesim", "run", "--engine", "rtl", *flags]
    print(f"{' '.join(command)}: {run['instructions']:,} instructions retired, "
          f"{run['total_cycles']:,} cycles ({version})")
    for r in results:
        print(f"{r['name']}: {r['host_instructions']:,} host instructions / {r['cycles']:,} "
              f"cycles = {r['per_cycle']:,.1f} per cycle")
    if args.json:
        doc = {"tool": "count_instructions", "valgrind": version, "moesim": str(moesim),
               "flags": flags, "instructions": run["instructions"],
               "cycles": run["total_cycles"], "parts": results}
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
