#!/usr/bin/env python3
"""ctest bench.count_instructions: scripts/count_instructions.py on two programs of different
length (docs/performance.md, "Host instructions per cycle").

Checks that its output is well formed (the header line, one `NAME: I host instructions / C
cycles = P per cycle` line per part, the same figures in its JSON), that the cycle and
instruction counts are those of a plain `moesim run` of the same program, that every part
collected something and its per-cycle figure is plausible, and that the figure is a count and
not a constant: the longer program executes more host instructions in eval, in a ratio near
its ratio of cycles. Exit 0 when all hold, 1 otherwise.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HEAD = re.compile(r"^moesim run --engine rtl (.*): ([\d,]+) instructions retired, ([\d,]+) cycles "
                  r"\(valgrind-[\d.]+\)$")
LINE = re.compile(r"^(\w+): ([\d,]+) host instructions / ([\d,]+) cycles = ([\d,]+\.\d) per cycle$")
# Per simulated cycle, a Verilated eval of this design costs thousands to hundreds of thousands
# of host instructions (two evaluations per cycle); outside this range the count is wrong.
EVAL_RANGE = (1_000, 2_000_000)

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def num(s):
    s = s.replace(",", "")
    return float(s) if "." in s else int(s)


def plain_run(moesim, flags):
    """Cycles and retired instructions of a run without valgrind."""
    with tempfile.TemporaryDirectory() as d:
        rep = Path(d) / "r.json"
        subprocess.run([moesim, "run", "--engine", "rtl", *flags, "--quiet", "--report",
                        str(rep)], check=True, stdout=subprocess.DEVNULL)
        r = json.loads(rep.read_text())
    return r["total_cycles"], r["instructions"]


def count(script, moesim, parts, flags, name):
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "c.json"
        proc = subprocess.run([sys.executable, script, "--moesim", moesim, "--parts", parts,
                               "--json", str(out), "--", *flags],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        print(f"--- {name}: exit {proc.returncode}")
        print(proc.stdout + proc.stderr, end="")
        check(proc.returncode == 0, f"{name}: count_instructions.py exits 0")
        if proc.returncode != 0:
            return None
        doc = json.loads(out.read_text())
    lines = proc.stdout.strip().split("\n")
    head = HEAD.match(lines[0])
    check(bool(head), f"{name}: header line well formed")
    rows = [LINE.match(line) for line in lines[1:]]
    check(all(rows), f"{name}: every part line well formed")
    if not head or not all(rows):
        return None
    check(head.group(1) == " ".join(flags), f"{name}: header names the program flags")
    check(num(head.group(2)) == doc["instructions"] and num(head.group(3)) == doc["cycles"],
          f"{name}: header equals the JSON")
    printed = {m.group(1): (num(m.group(2)), num(m.group(3)), num(m.group(4)))
               for m in rows}
    want = {"eval": ["eval"], "harness": ["wrapper", "loop"], "golden": ["golden"]}
    names = [n for p in parts.split(",") for n in want[p]]
    check([p["name"] for p in doc["parts"]] == names == list(printed),
          f"{name}: parts {names} in the JSON and printed")
    for p in doc["parts"]:
        i, c, per = printed.get(p["name"], (None, None, None))
        check((i, c) == (p["host_instructions"], p["cycles"]) and
              abs(per - p["per_cycle"]) < 0.06,
              f"{name}: {p['name']} printed as in the JSON")
        check(p["host_instructions"] > 0 and p["cycles"] == doc["cycles"],
              f"{name}: {p['name']} collected instructions over the run's cycles")
        check(abs(p["per_cycle"] - p["host_instructions"] / p["cycles"]) < 0.06,
              f"{name}: {p['name']} per cycle = instructions / cycles")
    cycles, retired = plain_run(moesim, flags)
    check((doc["cycles"], doc["instructions"]) == (cycles, retired),
          f"{name}: {doc['cycles']} cycles, {doc['instructions']} instructions, as moesim run "
          f"without valgrind ({cycles}, {retired})")
    ev = next((p for p in doc["parts"] if p["name"] == "eval"), None)
    check(ev is not None and EVAL_RANGE[0] <= ev["per_cycle"] <= EVAL_RANGE[1],
          f"{name}: eval per cycle within {EVAL_RANGE}")
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moesim", required=True)
    ap.add_argument("--source", required=True, help="the source tree")
    a = ap.parse_args()
    src = Path(a.source)
    script = str(src / "scripts" / "count_instructions.py")
    case = src / "testbenches" / "conformance" / "V_ADD_VV"
    short = ["--program", str(case / "values.asm"), "--image", str(case / "values.yaml")]
    long = ["--model", "gpt-oss-20b", "--tokens", "1", "--hidden", "64", "--intermediate", "64"]

    a_doc = count(script, a.moesim, "eval,harness,golden", short, "short program")
    b_doc = count(script, a.moesim, "eval", long, "longer program")
    if a_doc and b_doc:
        ea = next(p for p in a_doc["parts"] if p["name"] == "eval")
        eb = next(p for p in b_doc["parts"] if p["name"] == "eval")
        ratio = eb["host_instructions"] / ea["host_instructions"]
        cyc = b_doc["cycles"] / a_doc["cycles"]
        check(b_doc["cycles"] > a_doc["cycles"], "the longer program runs more cycles")
        # Not a constant: more cycles, more instructions; the short program's figure also holds
        # the reset cycles of the load, so its per-cycle figure is larger, but not 100 times.
        check(eb["host_instructions"] > 10 * ea["host_instructions"],
              f"eval instructions grow with the program ({ratio:.1f}x for {cyc:.1f}x cycles)")
        check(ratio <= cyc * 1.5, "eval instructions grow no faster than the cycles")
    print(f"{len(failures)} check(s) failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
