#!/usr/bin/env python3
"""Property: windowed co-simulation checks exactly what one run checks (docs/checkpoints.md,
"Window equivalence as a property").

For each instance drawn from a seed (a program of `moesim random` on the `default`, `tiny`,
`mx32` or `serial` machine, a generated MoE layer, a layer replaying a route trace, or the
program of a deployment rank) it runs

  1. one co-simulation with `--report` and `--trace-log`: it must be EQUAL (exit 0); its
     report gives N, the retired instructions;
  2. `--windows K --jobs 2` with K random in 2..min(8, N): exit 0, verdict EQUAL, the windows
     it printed must tile retires 0..N at the even boundaries (moved only where a DMA transfer
     is pending), and its merged `--report` must equal the single run's on every field except
     the timing and provenance fields of EXCLUDED;
  3. one or two focused ranges `--from-retire A [--to-retire B]`, A < B <= N random (B left
     out: to the end): exit 0, verdict EQUAL, and every retire record of the range, on each
     engine (the `--trace-log` lines: cycles, pc, word, stage, tag, register and memory
     writes), equal to the single run's records of the same retires; the range's stage table
     counts those records, both engines stop at B, and a range to the end ends in the single
     run's final state, cycles and trap.

A split is a boundary between two windows that ran (K' - 1 for K' windows) or a focused range.
Exit 0 when every instance held, 1 on any difference (the first differing field, both values and
the commands that reproduce it are printed), 2 on bad usage.

`--self-test` checks the checks: every non-excluded field of a real merged report, perturbed
alone, must be reported at its path; a perturbed excluded field must not; a window listing with
a window missing, fewer windows than asked on a machine without a DMA queue, a MISMATCH verdict,
and a focused trace with a record dropped or changed must each be flagged; and a windowed run
with a fault planted by `--flip-bit` must be reported.

Standard library only; run with the Python the build uses (/usr/bin/python3).
"""
import argparse
import copy
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

# Fields of the report that differ between a windowed run and one run of the same program
# without either of them being wrong. Every other field -- verdict, instructions, retired and
# total cycles, stage and unit tables, final state of every memory and register, outputs, trap,
# program, preset, notes, the rest of the provenance -- must be equal. The merged report carries
# no window bookkeeping of its own (the windows, their ranges and times are printed on the
# console and kept in --checkpoint-dir, not in --report); a key that appeared for it would be
# reported as a difference until listed here with its reason.
EXCLUDED = {
    ("wall_time_s",): "host wall time of the whole command (windowed: golden passes, "
                      "process starts and checkpoint files included)",
    ("simulation_time_s",): "host time of the co-simulation (windowed: measured by the parent "
                            "across the window processes)",
    ("provenance", "command_line"): "the command as typed: names --windows, --jobs, "
                                    "--checkpoint-dir and the report's own path",
    ("trace_log",): "the paths of the --trace-log files the single run writes (for the focused "
                    "ranges' records); --windows refuses --trace-log (one process per window)",
}

# Machines of generated layers (the small layers fit all of them; the machines of `moesim random`
# programs are in KINDS).
LAYER_MACHINES = ("default", "tiny", "mx32", "serial")
# Small generated layers (hidden and intermediate 64): model, whether --shared is valid, tokens,
# lowerings. Expert-major lowering loops over every expert, so it is drawn only for the models
# with few experts (a layer stays under about 25,000 retires: a single run well under 2 s).
LAYER_MODELS = (
    ("gpt-oss-20b", False, (1, 2), ("pair", "expert")),
    ("deepseek-v2-lite", True, (1, 2), ("pair",)),
    ("qwen1.5-moe-a2.7b", True, (1, 2), ("pair",)),
    ("mixtral-8x7b", False, (1, 2), ("pair", "expert")),
    ("olmoe", False, (1,), ("pair",)),
    ("qwen3-30b-a3b", False, (1,), ("pair",)),
    ("deepseek-v3", True, (1,), ("pair",)),
    ("llama-4-scout", True, (1, 2), ("pair", "expert")),
)
ROUTE_TRACE_MODELS = (("gpt-oss-20b", ("pair", "expert")), ("mixtral-8x7b", ("pair", "expert")),
                      ("olmoe", ("pair",)), ("qwen1.5-moe-a2.7b", ("pair",)))
# Deployment ranks: `--deployment` refuses --windows and --from-retire and the rank's generated
# image cannot be written out, so the rank's program (--asm-out) runs on a seeded random image.
DEPLOYMENTS = (("gpt-oss-20b-ep2-r4", 2), ("deepseek-v2-lite-ep2-fused", 2),
               ("mixtral-8x7b-ep2", 2), ("qwen1.5-moe-a2.7b-ep4", 4))
# Instance i is of kind KINDS[i % 7]: any 7 consecutive instances hold one of each.
KINDS = ("layer", "random:tiny", "route-trace", "random:serial", "deploy-rank", "random:mx32",
         "random:default")

# The regression of ea4d5d0 (rtl_model's retired() counted a retire whose record it still held
# back, so windows ended one record early on this layer with --windows 5): always run.
FIXED = (
    {"name": "f0", "kind": "layer", "machine": "default", "seed": 1,  # the CLI's default --seed
     "flags": ["--model", "deepseek-v2-lite", "--shared", "--tokens", "4", "--hidden", "128",
               "--intermediate", "64"],
     "windows": 5, "ranges": [(18243, 24383)]},
)

PENDING = re.compile(r"--(from|to)-retire (\d+): \d+ DMA transfers? pending at this boundary.*?"
                     r"(?:the next boundary with an empty queue is retire (\d+)|"
                     r"no later boundary has an empty queue)")
WINDOW_LINE = re.compile(r"^  window (\d+): retires (\d+)\.\.(\d+), (\w+)", re.M)
WINDOWS_HEAD = re.compile(r"; (\d+) windows?, --executor")


class Difference(Exception):
    """A property that did not hold: what, where, both values."""

    def __init__(self, what, path="", one=None, other=None):
        super().__init__(what)
        self.what, self.path, self.one, self.other = what, path, one, other

    def __str__(self):
        s = self.what
        if self.path:
            s += f"\n    field: {self.path}\n    single run: {short(self.one)}\n    this run:   " \
                 f"{short(self.other)}"
        return s


def short(v, n=300):
    s = json.dumps(v) if not isinstance(v, str) else v
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


# ---------------------------------------------------------------------------------------------
# The checks, as functions of what a run left (exit code, console, report, trace lines), so that
# --self-test can feed them planted failures.

def first_difference(a, b, path=()):
    """First path (tuple) where JSON values a and b differ, skipping EXCLUDED; None if equal."""
    if path in EXCLUDED:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if (*path, k) in EXCLUDED:
                continue
            if k not in a or k not in b:
                return (*path, k)
            d = first_difference(a[k], b[k], (*path, k))
            if d is not None:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return (*path, f"length {len(a)} vs {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, (*path, i))
            if d is not None:
                return d
        return None
    if type(a) is not type(b) or a != b:
        return path
    return None


def lookup(j, path):
    for k in path:
        if isinstance(k, str) and k.startswith("length "):
            return f"<{k}>"
        if isinstance(j, dict):
            if k not in j:
                return "<absent>"
            j = j[k]
        else:
            j = j[k]
    return j


def path_str(path):
    return "/".join(str(k) for k in path) or "<root>"


def check_reports_equal(single, windowed):
    d = first_difference(single, windowed)
    if d is not None:
        raise Difference("merged windowed report differs from the single run's", path_str(d),
                         lookup(single, d), lookup(windowed, d))


def check_verdict(what, rc, out, report=None):
    if rc != 0 or "VERDICT: EQUAL" not in out:
        verdict = next((l for l in out.splitlines() if l.startswith(("VERDICT", "moesim: error"))),
                       "no VERDICT line")
        raise Difference(f"{what}: exit {rc}, {verdict}", "exit code / verdict", 0, rc)
    if report is not None and report.get("verdict") != "EQUAL":
        raise Difference(f"{what}: report verdict", "verdict", "EQUAL", report.get("verdict"))


def even_bounds(n, k):
    return sorted({k_ * n // k for k_ in range(k + 1)})


def check_windows(out, n, k, queued, ck_dir=None):
    """The windows a run printed tile retires 0..n at the even boundaries of k windows (a
    boundary moved later only with a DMA queue). Returns the boundaries."""
    head = WINDOWS_HEAD.search(out)
    lines = sorted((int(w), int(a), int(b), v) for w, a, b, v in WINDOW_LINE.findall(out))
    if head is None:
        raise Difference(f"--windows {k}: no windows header printed (did the run window?)",
                         "windows", k, None)
    ran = int(head.group(1))
    if len(lines) != ran:
        raise Difference(f"--windows {k}: the header says {ran} windows, {len(lines)} printed",
                         "windows printed", ran, len(lines))
    if [w for w, *_ in lines] != list(range(ran)):
        raise Difference(f"--windows {k}: window numbers", "windows printed",
                         list(range(ran)), [w for w, *_ in lines])
    bounds = [0] + [b for _, _, b, _ in lines]
    starts = [a for _, a, _, _ in lines]
    if starts != bounds[:-1] or bounds[-1] != n or any(x >= y for x, y in zip(bounds, bounds[1:])):
        raise Difference(f"--windows {k}: windows do not tile retires 0..{n}", "window bounds",
                         f"0..{n}", [f"{a}..{b}" for _, a, b, _ in lines])
    bad = [f"window {w}: {v}" for w, _, _, v in lines if v != "EQUAL"]
    if bad:
        raise Difference(f"--windows {k}: window verdict", "window verdicts", "EQUAL", bad)
    even = even_bounds(n, k)
    if not queued:
        if bounds != even:
            raise Difference(f"--windows {k} without a DMA queue ran other windows than asked",
                             "window bounds", even, bounds)
    else:
        # With a queue each even boundary moves to the next boundary with an empty queue and
        # equal ones are dropped: never more windows than asked, and every window that ends
        # before the program's end ends at the first boundary run at or after an even boundary,
        # so it holds one in (its start, its end].
        if len(bounds) > len(even):
            raise Difference(f"--windows {k}: more windows than asked", "windows",
                             len(even) - 1, len(bounds) - 1)
        for p, b in zip(bounds, bounds[1:-1]):
            if not any(p < e <= b for e in even):
                raise Difference(f"--windows {k}: window {p}..{b} ends before any even "
                                 f"boundary after its start", "window bounds", even, bounds)
    if ck_dir is not None:
        tasks = sorted(d for d in os.listdir(ck_dir) if d.startswith("window_"))
        if len(tasks) != ran:
            raise Difference(f"--windows {k}: {len(tasks)} window folders for {ran} windows",
                             "window folders", ran, len(tasks))
        for t in tasks:
            with open(os.path.join(ck_dir, t, "exit_code")) as f:
                code = f.read().strip()
            if code != "0":
                raise Difference(f"--windows {k}: {t} exited {code}", f"{t}/exit_code", "0", code)
    return bounds


def trace_records(path):
    """The retire lines of a --trace-log file, by retire number (header and end lines dropped)."""
    recs = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            recs.append((int(line.split(None, 1)[0]), line.rstrip("\n")))
    return recs


def check_focused(single, single_trace, a, b, report, trace):
    """A focused run of retires [a, b) (b None: to the end) against the single run."""
    n = single["retired"]["golden"]
    for engine in ("golden", "rtl"):
        want = [r for r in single_trace[engine] if r[0] >= a and (b is None or r[0] < b)]
        got = trace[engine]
        if got != want:
            i = next((i for i, (x, y) in enumerate(zip(want, got)) if x != y),
                     min(len(want), len(got)))
            raise Difference(
                f"focused [{a}, {b if b is not None else 'end'}): {engine} record differs from "
                f"the single run's", f"{engine} trace record {i} of the range",
                want[i][1] if i < len(want) else "<none>", got[i][1] if i < len(got) else "<none>")
    stop = n if b is None else b
    for engine in ("golden", "rtl"):
        if report["retired"][engine] != stop:
            raise Difference(f"focused [{a}, {b}): {engine} stopped elsewhere",
                             f"retired/{engine}", stop, report["retired"][engine])
    want = [r for r in single_trace["golden"] if r[0] >= a and (b is None or r[0] < b)]
    if report["instructions"] != len(want):
        raise Difference(f"focused [{a}, {b}): instructions compared", "instructions",
                         len(want), report["instructions"])
    counts = {}
    for _, line in want:
        st = line.split()[5]
        counts[st] = counts.get(st, 0) + 1
    got = {s: v["instructions"] for s, v in report["stages"].items() if v["instructions"]}
    if got != counts:
        raise Difference(f"focused [{a}, {b}): stage table against the range's records",
                         "stages/*/instructions", counts, got)
    if b is None:
        for key in ("verdict", "retired", "total_cycles", "trap", "final_state",
                    "final_state_equal", "outputs_bit_exact", "cycles_match", "completed"):
            d = first_difference(single.get(key), report.get(key), (key,))
            if d is not None:
                raise Difference(f"focused [{a}, end): end of the run differs from the single "
                                 f"run's", path_str(d), lookup(single, d), lookup(report, d))


# ---------------------------------------------------------------------------------------------
# Running moesim.

class Runner:
    def __init__(self, moesim, jobs, verbose):
        self.moesim, self.jobs, self.verbose = moesim, jobs, verbose
        self.commands = []  # of the current instance, for the reproducer

    def run(self, args, cwd, timeout=900):
        cmd = [self.moesim, *args]
        self.commands.append(f"cd {shlex.quote(cwd)} && {shlex.join(cmd)}")
        if self.verbose:
            print("    $ " + shlex.join(cmd), flush=True)
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Difference(f"timed out after {timeout} s: {shlex.join(cmd)}")
        if self.verbose:
            print(f"      exit {p.returncode}, {time.monotonic() - t0:.2f} s", flush=True)
        return p.returncode, p.stdout, p.stderr


def read_json(path):
    with open(path) as f:
        return json.load(f)


def draw_instance(seed, index):
    """Instance `index` of master seed `seed`: its own generator, so --only reproduces it."""
    rng = random.Random(f"{seed}/{index}")
    kind = KINDS[index % len(KINDS)]
    inst = {"name": str(index), "kind": kind, "rng": rng, "setup": [], "seed": None}
    if kind.startswith("random:"):
        m = kind.split(":")[1]
        s = rng.randrange(1, 1_000_000)
        inst.update(machine=m, seed=s,
                    setup=[["random", "--seed", str(s), "--count", "1", "--machine", m,
                            "-o", "."]],
                    flags=["--machine", m, "--program", f"random_{s}.asm",
                           "--image", f"random_{s}.yaml"])
    elif kind == "layer":
        model, shared, tokens, lowerings = rng.choice(LAYER_MODELS)
        m = rng.choice(LAYER_MACHINES)
        s = rng.randrange(1, 1000)
        flags = ["--machine", m, "--model", model, "--tokens", str(rng.choice(tokens)),
                 "--hidden", "64", "--intermediate", "64", "--seed", str(s),
                 "--lowering", rng.choice(lowerings),
                 "--topk-policy", rng.choice(("auto", "register"))]
        if shared and rng.random() < 0.6:
            flags.append("--shared")
        if m != "serial" and rng.random() < 0.3:
            flags += ["--dma-queue", str(rng.choice((0, 1, 3)))]
        inst.update(machine=m, seed=s, flags=flags)
    elif kind == "route-trace":
        model, lowerings = rng.choice(ROUTE_TRACE_MODELS)
        m = rng.choice(LAYER_MACHINES)
        s = rng.randrange(1, 1000)
        t0 = rng.randrange(0, 6)
        inst.update(machine=m, seed=s,
                    setup=[["route-trace", "gen", "-o", "trace.json", "--model", model,
                            "--tokens", "8", "--seed", str(s)]],
                    flags=["--machine", m, "--model", model, "--route-trace", "trace.json",
                           "--tokens-from", str(t0), "--tokens-to", str(t0 + rng.choice((1, 2))),
                           "--hidden", "64", "--intermediate", "64",
                           "--lowering", rng.choice(lowerings)])
    else:  # deploy-rank
        dep, ranks = rng.choice(DEPLOYMENTS)
        rank = rng.randrange(ranks)
        s = rng.randrange(1, 1000)
        inst.update(machine="default", seed=s,
                    setup=[["cosim", "--deployment", dep, "--rank", str(rank), "--tokens", "2",
                            "--hidden", "64", "--intermediate", "64", "--asm-out", "rank.asm",
                            "--quiet", "--progress", "never"]],
                    flags=["--program", "rank.asm", "--random-image", str(s)],
                    label=f"{dep} rank {rank}")
    return inst


def queued(single):
    return single["preset"]["machine_params"].get("DMA_QUEUE", 0) != 0


def run_instance(inst, runner, work, stats):
    """Runs one instance: returns N, its splits and a description of them; raises Difference."""
    rng = inst["rng"]
    d = os.path.join(work, f"i{inst['name']}")
    shutil.rmtree(d, ignore_errors=True)  # nothing left from an earlier run is read
    os.makedirs(d)
    runner.commands = []
    for s in inst.get("setup", []):
        rc, out, err = runner.run(s, d)
        if rc != 0:
            raise Difference(f"setup failed (exit {rc}): {err.strip() or out.strip()}")
    flags = ["cosim"] + inst["flags"] + ["--progress", "never"]

    # 1. One run.
    rc, out, err = runner.run(flags + ["--report", "single.json", "--trace-log", "single.log"], d)
    single = read_json(os.path.join(d, "single.json")) if rc in (0, 1) else None
    check_verdict("single run", rc, out + err, single)
    n = single["retired"]["golden"]
    if single["retired"]["rtl"] != n:
        raise Difference("single run: retire counts", "retired", n, single["retired"]["rtl"])
    single_trace = {e: trace_records(os.path.join(d, f"single.{e}.log")) for e in ("golden", "rtl")}
    has_queue = queued(single)
    splits = ranges = 0
    desc = []

    # 2. Windows.
    if n >= 2:
        k = inst.get("windows") or rng.randint(2, min(8, n))
        ck = os.path.join(d, "ck")
        shutil.rmtree(ck, ignore_errors=True)
        rc, out, err = runner.run(flags + ["--windows", str(k), "--jobs", str(runner.jobs),
                                           "--checkpoint-dir", "ck", "--report", "windows.json"], d)
        win = read_json(os.path.join(d, "windows.json")) if rc in (0, 1) else None
        check_verdict(f"--windows {k}", rc, out + err, win)
        check_reports_equal(single, win)
        bounds = check_windows(out, n, k, has_queue, ck)
        shutil.rmtree(ck, ignore_errors=True)
        splits += len(bounds) - 2
        stats["windows"] += len(bounds) - 1
        if len(bounds) - 1 < k:
            stats["fewer_windows"] += 1
        desc.append(f"windows {len(bounds) - 1}/{k} at " + "..".join(map(str, bounds)))
    else:
        desc.append("no windows (N < 2)")

    # 3. Focused ranges.
    todo = list(inst.get("ranges", []))
    for _ in range(rng.choice((1, 2)) if not todo else 1):
        a = rng.randrange(0, n) if n > 0 else 0
        b = None if rng.random() < 0.2 or n == 0 else rng.randint(a + 1, n)
        todo.append((a, b))
    for a, b in todo:
        a, b = focus(runner, d, flags, single, single_trace, a, b, n, rng, stats)
        if a is None:
            desc.append("range: no startable boundary")
            continue
        ranges += 1
        splits += 1
        desc.append(f"[{a},{b if b is not None else 'end'})")
    stats["splits"] += splits
    stats["ranges"] += ranges
    return n, splits, desc


def focus(runner, d, flags, single, single_trace, a, b, n, rng, stats):
    """One focused range, moving a start or end the CLI refuses (a DMA transfer pending there:
    a documented limitation) to the boundary it names. Returns the range run, (None, None) if
    no boundary at or after the drawn start can start a range."""
    for _attempt in range(8):
        args = ["--from-retire", str(a)] + (["--to-retire", str(b)] if b is not None else [])
        rc, out, err = runner.run(flags + args + ["--report", "focused.json",
                                                  "--trace-log", "focused.log"], d)
        m = PENDING.search(err) if rc == 2 else None
        if m is None:
            break
        which, at, nxt = m.group(1), int(m.group(2)), m.group(3)
        nxt = int(nxt) if nxt is not None else None
        if nxt == at:
            stats["named_itself"] += 1
        if which == "from":
            stats["starts_moved"] += 1
            if nxt is None or nxt >= n or nxt == at:
                # No later boundary to start at (the last retire's transfer is still pending at
                # the end; the CLI then names the refused end itself): draw an earlier start.
                stats["starts_redrawn"] += 1
                if a == 0:
                    return None, None
                a = rng.randrange(0, a)
                if b is not None and b <= a:
                    b = None
            else:
                a = nxt
                if b is not None and b <= a:
                    b = None
        else:
            stats["ends_moved"] += 1
            # The named boundary; at the program's end (named even when it is the refused end
            # itself) run to the end instead.
            b = None if nxt is None or nxt >= n or nxt == at else nxt
    else:
        raise Difference(f"focused range: still refused after 8 moves: {err.strip()}")
    report = read_json(os.path.join(d, "focused.json")) if rc in (0, 1) else None
    check_verdict(f"--from-retire {a}" + (f" --to-retire {b}" if b is not None else ""),
                  rc, out + err, report)
    trace = {e: trace_records(os.path.join(d, f"focused.{e}.log")) for e in ("golden", "rtl")}
    check_focused(single, single_trace, a, b, report, trace)
    return a, b


# ---------------------------------------------------------------------------------------------
# --self-test: the checks catch what they are for.

def self_test(runner, work):
    fails = []

    def expect(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            fails.append(what)

    def raises(fn, what, path=None):
        try:
            fn()
        except Difference as e:
            expect(path is None or e.path == path,
                   f"{what}: flagged" + (f" at {path} (reported {e.path})" if path else ""))
            return
        expect(False, f"{what}: flagged")

    # A real instance: a program of `moesim random` on `serial` (no DMA queue, so the windows must
    # be exactly the even ones) and on `default`.
    d = os.path.join(work, "selftest")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    rc, out, err = runner.run(["random", "--seed", "7", "--count", "1", "--machine", "serial",
                               "-o", "."], d)
    expect(rc == 0, "moesim random writes a program")
    flags = ["cosim", "--machine", "serial", "--program", "random_7.asm", "--image",
             "random_7.yaml", "--progress", "never"]
    rc, out1, err = runner.run(flags + ["--report", "single.json", "--trace-log", "single.log"], d)
    single = read_json(os.path.join(d, "single.json"))
    n = single["retired"]["golden"]
    k = min(4, n)
    rc, outw, err = runner.run(flags + ["--windows", str(k), "--jobs", str(runner.jobs),
                                        "--report", "windows.json"], d)
    win = read_json(os.path.join(d, "windows.json"))
    expect(rc == 0 and n >= 2, f"the real instance runs (N = {n}, --windows {k})")
    try:
        check_reports_equal(single, win)
        check_windows(outw, n, k, queued(single))
        expect(True, "the real merged report and windows pass")
    except Difference as e:
        expect(False, f"the real merged report and windows pass: {e}")

    # Every leaf that is not excluded, perturbed alone, is reported at its own path.
    leaves = []

    def walk(j, path):
        if path in EXCLUDED:
            return
        if isinstance(j, dict):
            for key, v in j.items():
                walk(v, (*path, key))
        elif isinstance(j, list):
            if not j:
                leaves.append(path)
            for i, v in enumerate(j):
                walk(v, (*path, i))
        else:
            leaves.append(path)
    walk(win, ())
    missed = []
    for p in leaves:
        w = copy.deepcopy(win)
        parent = lookup(w, p[:-1]) if p else None
        old = parent[p[-1]] if p else w
        if isinstance(old, bool):
            new = not old
        elif isinstance(old, (int, float)):
            new = old + 1
        elif isinstance(old, str):
            new = old + "x"
        elif old is None:
            new = 0
        elif isinstance(old, list):
            new = [0]
        else:
            new = None
        parent[p[-1]] = new
        got = first_difference(single, w)
        if got is None or got[:len(p)] != p:  # a list's length difference adds its lengths
            missed.append(path_str(p))
    expect(not missed and len(leaves) > 100,
           f"each of the {len(leaves)} non-excluded fields of the merged report, perturbed alone, "
           f"is reported at its path" + (f" (missed: {missed[:5]})" if missed else ""))
    for p in (("total_cycles", "rtl"), ("stages", "router_topk", "instructions"),
              ("final_state", "memories", "hbm", "differing_bytes"), ("verdict",),
              ("retired", "golden"), ("instructions",)):
        if lookup(win, p) == "<absent>":
            continue
        w = copy.deepcopy(win)
        old = lookup(w, p)
        lookup(w, p[:-1])[p[-1]] = "MISMATCH" if isinstance(old, str) else old + 1
        raises(lambda: check_reports_equal(single, w), f"merged report with {path_str(p)} "
               "changed", path_str(p))
    w = copy.deepcopy(win)
    w["stages"].pop(next(iter(w["stages"])))
    raises(lambda: check_reports_equal(single, w), "merged report missing a stage row")
    w = copy.deepcopy(win)
    w["windows"] = k
    raises(lambda: check_reports_equal(single, w), "merged report with a new (unlisted) key",
           "windows")
    w = copy.deepcopy(win)
    w["wall_time_s"] += 100
    w["simulation_time_s"] += 100
    w["provenance"]["command_line"].append("--windows")
    try:
        check_reports_equal(single, w)
        expect(True, "perturbed timing and command line are not reported")
    except Difference as e:
        expect(False, f"perturbed timing and command line are not reported: {e}")
    w = copy.deepcopy(win)
    w["provenance"]["git_hash"] = "0" * 40
    raises(lambda: check_reports_equal(single, w), "other provenance (git hash) changed",
           "provenance/git_hash")

    # The window listing: fewer windows than asked, a missing window, a gap, a MISMATCH window.
    lines = WINDOW_LINE.findall(outw)
    expect(len(lines) == k, f"the real run printed {k} windows")
    one_fewer = re.sub(r"^  window %d: .*\n" % (k - 1), "", outw, flags=re.M)
    raises(lambda: check_windows(one_fewer, n, k, False), "a window line missing")
    short_run = outw.replace(f"; {k} windows, --executor", f"; {k - 1} windows, --executor")
    short_run = re.sub(r"^  window %d: .*\n" % (k - 1), "", short_run, flags=re.M)
    short_run = re.sub(r"^(  window %d: retires \d+)\.\.\d+" % (k - 2), r"\g<1>..%d" % n,
                       short_run, flags=re.M)
    raises(lambda: check_windows(short_run, n, k, False),
           f"{k - 1} windows run for --windows {k} without a DMA queue", "window bounds")
    raises(lambda: check_windows(re.sub(r"; \d+ windows?, --executor", "", outw), n, k, False),
           "a windowed run that printed no windows (--windows ignored)")
    def edit_windows(text, fn):
        """The console with each window line's (start, end) replaced by fn(window, start, end)."""
        def one(m):
            a, b = fn(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            return f"  window {m.group(1)}: retires {a}..{b}, {m.group(4)}"
        return WINDOW_LINE.sub(one, text)
    # Window 0 ends, and window 1 starts, one retire before the even boundary.
    early = edit_windows(outw, lambda w, a, b: (a - 1 if w == 1 else a, b - 1 if w == 0 else b))
    expect(early != outw, "the early-ending listing differs from the real one")
    shifted = edit_windows(outw, lambda w, a, b: (a - 1 if w == 1 else a, b))
    raises(lambda: check_windows(shifted, n, k, False), "windows that overlap",
           "window bounds")
    raises(lambda: check_windows(early, n, k, False),
           "a window ending one retire before its even boundary", "window bounds")
    raises(lambda: check_windows(early, n, k, True),
           "a window ending one retire early, with a DMA queue", "window bounds")
    mism = re.sub(r"^(  window 1: retires \d+\.\.\d+, )EQUAL", r"\1MISMATCH", outw, flags=re.M)
    raises(lambda: check_windows(mism, n, k, False), "a window with verdict MISMATCH")
    raises(lambda: check_verdict("windows", 1, outw.replace("VERDICT: EQUAL", "VERDICT: MISMATCH")),
           "a windowed run that exits 1 with MISMATCH (how the ea4d5d0 bug showed)")
    # The ea4d5d0 bug's merged report: one stage row one instruction short on the RTL.
    w = copy.deepcopy(win)
    st = next(s for s, v in w["stages"].items() if v["instructions"])
    w["stages"][st]["rtl_cycles"] -= 1
    raises(lambda: check_reports_equal(single, w), f"merged report whose {st} row has one RTL "
           "cycle fewer", f"stages/{st}/rtl_cycles")

    # Focused trace: a dropped record, a changed cycle, an early stop.
    single_trace = {e: trace_records(os.path.join(d, f"single.{e}.log")) for e in ("golden", "rtl")}
    a, b = n // 3, 2 * n // 3
    rc, outf, err = runner.run(flags + ["--from-retire", str(a), "--to-retire", str(b),
                                        "--report", "focused.json", "--trace-log", "focused.log"], d)
    rep = read_json(os.path.join(d, "focused.json"))
    trace = {e: trace_records(os.path.join(d, f"focused.{e}.log")) for e in ("golden", "rtl")}
    try:
        check_verdict("focused", rc, outf, rep)
        check_focused(single, single_trace, a, b, rep, trace)
        expect(True, f"the real focused range [{a}, {b}) passes")
    except Difference as e:
        expect(False, f"the real focused range [{a}, {b}) passes: {e}")
    t = copy.deepcopy(trace)
    t["rtl"].pop()
    raises(lambda: check_focused(single, single_trace, a, b, rep, t),
           "a focused range whose RTL stopped one record early")
    t = copy.deepcopy(trace)
    r0, line = t["golden"][0]
    t["golden"][0] = (r0, re.sub(r"^(\s*\d+\s+\d+\s+)(\d+)", lambda m: m.group(1) +
                                 str(int(m.group(2)) + 1), line))
    raises(lambda: check_focused(single, single_trace, a, b, rep, t),
           "a focused record with another end cycle")
    r = copy.deepcopy(rep)
    r["retired"]["rtl"] -= 1
    raises(lambda: check_focused(single, single_trace, a, b, r, trace),
           "a focused report whose RTL retired one fewer", "retired/rtl")

    # End to end: a fault planted in the windowed run only (--flip-bit in the golden model's
    # initial HBM, read by the layer's first weight prefetch) must be reported.
    d2 = os.path.join(work, "selftest_flip")
    shutil.rmtree(d2, ignore_errors=True)
    os.makedirs(d2)
    inst = {"name": "flip", "kind": "layer", "machine": "default", "rng": random.Random(1),
            "flags": ["--model", "gpt-oss-20b", "--tokens", "1", "--hidden", "64",
                      "--intermediate", "64"], "windows": 3, "ranges": []}
    real_run = runner.run

    def planted(args, cwd, timeout=900):
        if "--windows" in args:
            args = args + ["--flip-bit", "golden:hbm:453:0"]
        return real_run(args, cwd, timeout)
    runner.run = planted
    stats = new_stats()
    try:
        run_instance(inst, runner, d2, stats)
        expect(False, "a windowed run with a planted --flip-bit is reported")
    except Difference as e:
        expect("--windows" in str(e), f"a windowed run with a planted --flip-bit is reported "
               f"({str(e).splitlines()[0]})")
    finally:
        runner.run = real_run

    print(f"self-test: {len(fails)} failed" if fails else "self-test: every planted difference "
          "was reported")
    return 1 if fails else 0


# ---------------------------------------------------------------------------------------------

def new_stats():
    return {"instances": 0, "splits": 0, "windows": 0, "ranges": 0, "starts_moved": 0,
            "starts_redrawn": 0, "ends_moved": 0, "named_itself": 0, "fewer_windows": 0,
            "differences": 0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moesim", required=True, help="the moesim executable")
    ap.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    ap.add_argument("--count", type=int, default=14,
                    help="drawn instances besides the fixed ones (default 14)")
    ap.add_argument("--no-fixed", action="store_true", help="leave out the fixed instances")
    ap.add_argument("--only", help="run only instance ID (a number, or f0 for a fixed one)")
    ap.add_argument("--jobs", type=int, default=2, help="--jobs of the windowed runs (1..2)")
    ap.add_argument("--work", help="work folder (default: a temporary one, removed on success)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--keep-going", action="store_true",
                    help="run every instance even after a difference")
    ap.add_argument("--self-test", action="store_true",
                    help="check that the checks report planted differences, then exit")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each command")
    args = ap.parse_args()
    if args.count < 0 or not 1 <= args.jobs <= 2:
        ap.error("--count must be >= 0 and --jobs 1 or 2")
    moesim = os.path.abspath(args.moesim)
    if not (os.path.isfile(moesim) and os.access(moesim, os.X_OK)):
        ap.error(f"--moesim {args.moesim}: not an executable file")
    insts = [] if args.no_fixed else [dict(f, rng=random.Random(f"{args.seed}/{f['name']}"))
                                      for f in FIXED]
    insts += [draw_instance(args.seed, i) for i in range(args.count)]
    if args.only is not None:
        insts = [i for i in insts if i["name"] == args.only] or (
            [draw_instance(args.seed, int(args.only))] if args.only.isdigit() else [])
        if not insts:
            ap.error(f"--only {args.only}: no such instance")
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="window_property_")
    os.makedirs(work, exist_ok=True)
    runner = Runner(moesim, args.jobs, args.verbose)
    if args.self_test:
        rc = self_test(runner, work)
        if rc == 0 and not args.keep and not args.work:
            shutil.rmtree(work, ignore_errors=True)
        elif rc:
            print(f"work folder kept: {work}")
        return rc

    script = os.path.abspath(__file__)
    stats = new_stats()
    t0 = time.monotonic()
    first = None
    for inst in insts:
        t1 = time.monotonic()
        label = inst.get("label") or " ".join(f for f in inst["flags"] if f != "--machine"
                                             and f != inst.get("machine"))
        head = (f"[{inst['name']}] {inst['kind']} machine={inst.get('machine', 'default')} "
                f"seed={inst.get('seed')}")
        try:
            n, splits, desc = run_instance(inst, runner, work, stats)
            stats["instances"] += 1
            if not args.keep:
                shutil.rmtree(os.path.join(work, f"i{inst['name']}"), ignore_errors=True)
            print(f"{head} N={n} splits={splits} {'; '.join(desc)} EQUAL "
                  f"({time.monotonic() - t1:.1f} s) -- {label}", flush=True)
        except (Difference, OSError, ValueError, KeyError) as e:
            # OSError, ValueError, KeyError: a report or trace missing or not what it should be.
            stats["instances"] += 1
            stats["differences"] += 1
            print(f"{head} DIFFERENCE -- {label}\n  {e}", flush=True)
            print("  reproduce the instance: " + shlex.join(
                [sys.executable, script, "--moesim", moesim, "--seed", str(args.seed),
                 "--only", inst["name"], "--work", os.path.join(work, "repro")]))
            print("  commands run (the difference showed in the last one):")
            for c in runner.commands:
                print("    " + c)
            first = first or inst["name"]
            if not args.keep_going:
                break
    wall = time.monotonic() - t0
    print(f"summary: {stats['instances']} instances, {stats['splits']} splits "
          f"({stats['splits'] - stats['ranges']} window boundaries in {stats['windows']} windows, "
          f"{stats['ranges']} focused ranges), {stats['differences']} differences; "
          f"{stats['starts_moved']} focused starts moved from a boundary with a DMA transfer "
          f"pending ({stats['starts_redrawn']} of them redrawn earlier: no later startable "
          f"boundary), {stats['ends_moved']} ends moved ({stats['named_itself']} refusals named the "
          f"refused retire itself: the program's end with the last transfer pending); "
          f"{stats['fewer_windows']} windowed runs "
          f"with fewer windows than asked (boundaries moved together by a DMA queue); "
          f"{wall:.1f} s")
    if stats["differences"]:
        print(f"FAILED: first difference in instance {first}; work folder kept: {work}")
        return 1
    if not args.keep and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
