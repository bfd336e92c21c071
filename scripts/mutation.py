#!/usr/bin/env python3
"""Mutation score of the RTL (docs/mutation.md).

Each testbenches/mutation/mutants/NN_name.patch plants one bug in rtl_model/rtl. For every
mutant this script applies the patch to a scratch copy of the sources (never to the checkout),
rebuilds what changed in one build folder reused across mutants (ccache when installed), runs
the checks in increasing cost and records the first that fails (kills the mutant):

  unit         the RTL unit benches (test_rtl_leaves, test_rtl_matrix_unit, test_rtl_topk_unit)
  conformance  moesim conformance --engine rtl (the default and bench cases)
  cosim        three generated MoE layers, golden vs RTL vs reference
  random       moesim random --cosim, --random-count programs (default 1,000)

A baseline run without a mutant must pass every check first. Output: a table on stdout, a
JSON report and a markdown table. With --check-patches it only checks that every patch has its
header line and applies to the checkout (the default ctest mutation.patches_apply).

Exit status: 0 done (survivors are listed, not an error), 1 baseline failed or a mutant did not
build, 2 bad input (a patch without header or that does not apply, a bad flag).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "testbenches" / "mutation" / "mutants"
HEADER = re.compile(r"^# ([^:]+): (.+)$")
PATCH_NAME = re.compile(r"^\d\d_[a-z0-9_]+\.patch$")
# What a mutant may touch: the RTL and nothing else.
ALLOWED = re.compile(r"^rtl_model/rtl/[a-z0-9_]+\.sv$")
TARGETS = ["moesim", "test_rtl_leaves", "test_rtl_matrix_unit", "test_rtl_topk_unit"]
CHECKS = ["unit", "conformance", "cosim", "random"]


def die(msg, status=2):
    print(f"moesim: error: {msg}", file=sys.stderr)
    sys.exit(status)


class Mutant:
    def __init__(self, path):
        self.path = path
        self.name = path.stem
        lines = path.read_text().splitlines()
        m = HEADER.match(lines[0]) if lines else None
        if not PATCH_NAME.match(path.name):
            die(f"{path}: a mutant is named NN_name.patch (lower case)")
        if not m:
            die(f"{path}:1: the first line must be '# <bug class>: <what it breaks>'")
        self.bug_class, self.breaks = m.group(1), m.group(2)
        self.files = [l[len("+++ b/"):] for l in lines if l.startswith("+++ b/")]
        if not self.files:
            die(f"{path}: no '+++ b/FILE' line: not a patch")
        for f in self.files:
            if not ALLOWED.match(f):
                die(f"{path}: patches {f}; a mutant changes rtl_model/rtl/*.sv only")


def load_mutants(only):
    paths = sorted(MUTANTS.glob("*.patch"))
    if not paths:
        die(f"{MUTANTS}: no *.patch")
    mutants = [Mutant(p) for p in paths]
    if only:
        mutants = [m for m in mutants if re.search(only, m.name)]
        if not mutants:
            die(f"--only {only}: matches no mutant")
    return mutants


def patch(mutant, tree, dry_run):
    """patch -p1 without fuzz: the context must match exactly (line offsets are fine)."""
    cmd = ["patch", "-p1", "--forward", "--batch", "--fuzz=0", "-s", "-d", str(tree)]
    if dry_run:
        cmd.append("--dry-run")
    with open(mutant.path) as f:
        r = subprocess.run(cmd, stdin=f, capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def check_patches(mutants, tree):
    for m in mutants:
        ok, out = patch(m, tree, dry_run=True)
        if not ok:
            die(f"{m.path}: does not apply to {tree}: {out.splitlines()[0] if out else ''}")


def tracked_files():
    r = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                        "--exclude-standard"], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"{ROOT}: not a git checkout (git ls-files failed): {r.stderr.strip()}", 1)
    return [f for f in r.stdout.split("\0") if f and (ROOT / f).is_file()]


def sync_file(rel, src):
    """Copy the checkout's file into the scratch tree if the contents differ (keeps mtimes of
    unchanged files, so make rebuilds only what a mutant changed)."""
    a, b = ROOT / rel, src / rel
    if b.is_file() and b.read_bytes() == a.read_bytes():
        return
    b.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(a, b)


def run(cmd, log, cwd=None, timeout=None, append=False):
    t0 = time.monotonic()
    with open(log, "a" if append else "w") as f:
        f.write("$ " + " ".join(str(c) for c in cmd) + "\n")
        f.flush()
        try:
            r = subprocess.run([str(c) for c in cmd], stdout=f, stderr=subprocess.STDOUT,
                               cwd=cwd, timeout=timeout,
                               env=dict(os.environ, BOOST_TEST_COLOR_OUTPUT="no"))
            status = r.returncode
        except subprocess.TimeoutExpired:
            f.write(f"\ntimed out after {timeout} s\n")
            status = "timeout"
    return status, time.monotonic() - t0


def evidence(log):
    """The failing conformance cases (FAIL lines), else the last line of a check's output."""
    lines = [l for l in Path(log).read_text(errors="replace").splitlines() if l.strip()]
    fails = [l.split()[2] for l in lines if l.startswith("FAIL ") and len(l.split()) > 2]
    if fails:
        return "FAIL " + " ".join(fails)[:200]
    return lines[-1][:160] if lines else ""


class Campaign:
    def __init__(self, args):
        self.args = args
        self.work = Path(args.work).resolve()
        self.src = self.work / "src"
        self.build = self.work / "build"
        self.logs = self.work / "logs"
        self.bin = self.build / "bin"

    def check_commands(self):
        moesim = self.bin / "moesim"
        layer = ["--machine", "default", "--tokens", "2", "--hidden", "64", "--intermediate", "64",
                 "--reference", "--quiet"]
        return {
            "unit": [[self.bin / t] for t in TARGETS[1:]],
            "conformance": [[moesim, "conformance", "--engine", "rtl", "--quiet"],
                            [moesim, "conformance", "--engine", "rtl", "--machine", "bench",
                             "--filter", "/bench_", "--quiet"]],
            "cosim": [[moesim, "cosim", "--model", "gpt-oss-20b", "--lowering", "pair"] + layer,
                      [moesim, "cosim", "--model", "deepseek-v2-lite", "--shared", "--lowering",
                       "expert", "--topk-policy", "register"] + layer,
                      [moesim, "cosim", "--model", "qwen1.5-moe-a2.7b", "--shared", "--lowering",
                       "pair"] + layer],
            "random": [[moesim, "random", "--cosim", "--seed", "1", "--count",
                        str(self.args.random_count), "--machine", "default", "--quiet"]],
        }

    def prepare(self):
        self.logs.mkdir(parents=True, exist_ok=True)
        for rel in tracked_files():
            sync_file(rel, self.src)
        if not (self.build / "CMakeCache.txt").is_file():
            cmd = ["cmake", "-S", self.src, "-B", self.build, "-DCMAKE_BUILD_TYPE=Release",
                   "-DMOESIM_RTL_PRESETS=default"]
            if shutil.which("ccache"):
                cmd.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            status, _ = run(cmd, self.logs / "configure.log")
            if status != 0:
                die(f"configure failed: see {self.logs / 'configure.log'}", 1)

    def file_lists(self):
        return {p: p.read_bytes() for p in self.build.rglob("*_copy.cmake")}

    def build_targets(self, tag):
        """Builds until no Verilated model's file list changes during a build. Verilator's
        verilate() compiles the generated files listed at the last configure (V*_copy.cmake);
        a verilation that adds, drops or renames a file (a mutant can) updates that list, but
        CMake reconfigures only when the next make starts, so this build compiled the old list:
        missing objects (undefined references) or stale files of an earlier verilation linked
        in. The next pass reconfigures, compiles the new list and relinks."""
        log = self.logs / f"{tag}.build.log"
        cmd = ["cmake", "--build", self.build, "-j", str(self.args.jobs), "--target"] + TARGETS
        secs = 0.0
        for attempt in range(3):
            lists = self.file_lists()
            status, t = run(cmd, log, append=attempt > 0)
            secs += t
            if self.file_lists() == lists:
                return status == 0, secs, log
        with open(log, "a") as f:
            f.write("\nmutation: the Verilated file lists still changed after three builds\n")
        return False, secs, log

    def run_checks(self, tag, skip=()):
        """Runs the checks in order; returns (first failing check or None, its evidence, times).
        Commands in `skip` are not run."""
        times = {}
        for check, cmds in self.check_commands().items():
            t = 0.0
            for i, cmd in enumerate(cmds):
                if cmd[0] in skip:
                    continue
                log = self.logs / f"{tag}.{check}.{i}.log"
                status, secs = run(cmd, log, cwd=self.work, timeout=self.args.timeout)
                t += secs
                if status != 0:
                    times[check] = round(t, 1)
                    return check, f"{Path(str(cmd[0])).name} {' '.join(str(c) for c in cmd[1:3])}: " \
                                  f"exit {status}: {evidence(log)}", times
            times[check] = round(t, 1)
        return None, "", times

    def bench_stamps(self):
        return {self.bin / t: (self.bin / t).stat().st_mtime_ns for t in TARGETS[1:]}

    def restore(self, mutant):
        for rel in mutant.files:
            sync_file(rel, self.src)

    def campaign(self, mutants):
        t_start = time.monotonic()
        self.prepare()
        check_patches(mutants, self.src)
        print(f"mutation: work folder {self.work}; {len(mutants)} mutants; checks "
              f"{', '.join(CHECKS)} (random: {self.args.random_count} programs)", flush=True)
        ok, secs, log = self.build_targets("baseline")
        if not ok:
            die(f"baseline: the unmutated build failed: see {log}", 1)
        killer, why, times = self.run_checks("baseline")
        if killer:
            die(f"baseline: check '{killer}' fails without a mutant ({why}); fix the tree first", 1)
        print(f"baseline: build {secs:.0f} s, every check passes "
              f"({', '.join(f'{k} {v:.0f} s' for k, v in times.items())})", flush=True)
        results = []
        report = {"random_count": self.args.random_count, "checks": CHECKS,
                  "baseline": {"build_s": round(secs, 1), "check_s": times}, "mutants": results}
        for m in mutants:
            t0 = time.monotonic()
            applied, out = patch(m, self.src, dry_run=False)
            if not applied:
                self.restore(m)
                die(f"{m.path}: does not apply to {self.src}: {out}")
            try:
                before = self.bench_stamps()
                ok, bsecs, log = self.build_targets(m.name)
                if ok:
                    # A unit bench the build did not relink runs the baseline's models, which
                    # passed: it cannot kill this mutant (none of its sources changed).
                    same = [b for b, t in self.bench_stamps().items() if before[b] == t]
                    killer, why, times = self.run_checks(m.name, skip=same)
                    status = f"killed by {killer}" if killer else "SURVIVED"
                else:
                    killer, why, times = "build", f"build failed: see {log}", {}
                    status = "BUILD FAILED"
            finally:
                self.restore(m)
            r = {"mutant": m.name, "bug_class": m.bug_class, "breaks": m.breaks,
                 "files": m.files, "killed_by": killer, "evidence": why,
                 "build_s": round(bsecs, 1), "check_s": times,
                 "total_s": round(time.monotonic() - t0, 1)}
            results.append(r)
            print(f"{m.name:<28} {status:<22} build {bsecs:5.0f} s  checks "
                  f"{sum(times.values()):6.0f} s  {why[:90]}", flush=True)
            self.write(report)
        report["wall_s"] = round(time.monotonic() - t_start, 1)
        self.write(report)
        self.summary(report)
        return 1 if any(r["killed_by"] == "build" for r in results) else 0

    def write(self, report):
        Path(self.args.report).write_text(json.dumps(report, indent=2) + "\n")
        rows = ["| mutant | bug class | killed by | build s | checks s |", "|---|---|---|---|---|"]
        for r in report["mutants"]:
            rows.append(f"| {r['mutant']} | {r['bug_class']} | {r['killed_by'] or '**survived**'}"
                        f" | {r['build_s']:.0f} | {sum(r['check_s'].values()):.0f} |")
        Path(self.args.markdown).write_text("\n".join(rows) + "\n")

    def summary(self, report):
        res = report["mutants"]
        print()
        print(f"{'mutant':<28} {'bug class':<36} {'killed by':<12} {'time s':>7}")
        for r in res:
            print(f"{r['mutant']:<28} {r['bug_class'][:36]:<36} {r['killed_by'] or 'SURVIVED':<12} "
                  f"{r['total_s']:7.0f}")
        by = {c: sum(1 for r in res if r["killed_by"] == c) for c in CHECKS + ["build"]}
        survivors = [r["mutant"] for r in res if not r["killed_by"]]
        killed = sum(by[c] for c in CHECKS)
        print(f"\nmutation score: {killed}/{len(res)} killed ("
              + ", ".join(f"{c} {by[c]}" for c in CHECKS) + f"); survivors: "
              f"{', '.join(survivors) or 'none'}; build failures {by['build']}; "
              f"wall {report['wall_s']:.0f} s")
        print(f"reports: {self.args.report}, {self.args.markdown}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check-patches", action="store_true",
                    help="only check every patch's header and that it applies to the checkout")
    ap.add_argument("--work", default=str(ROOT / "build" / "mutation"),
                    help="scratch folder: src/ (the mutated copy), build/, logs/ (default: %(default)s)")
    ap.add_argument("--only", help="only the mutants whose name matches this regex")
    ap.add_argument("--random-count", type=int, default=1000,
                    help="random programs co-simulated per mutant (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="build jobs (default: %(default)s)")
    ap.add_argument("--timeout", type=int, default=3600,
                    help="seconds per check command before it counts as killing (default: %(default)s)")
    ap.add_argument("--report", help="JSON report (default: WORK/mutation_report.json)")
    ap.add_argument("--markdown", help="markdown table (default: WORK/mutation_report.md)")
    args = ap.parse_args()
    if args.random_count < 1:
        die("--random-count must be at least 1")
    if args.jobs < 1:
        die("--jobs must be at least 1")
    mutants = load_mutants(args.only)
    if args.check_patches:
        check_patches(mutants, ROOT)
        print(f"mutation: {len(mutants)} mutants have their header and apply to {ROOT}")
        return 0
    args.report = args.report or str(Path(args.work) / "mutation_report.json")
    args.markdown = args.markdown or str(Path(args.work) / "mutation_report.md")
    for out in (args.report, args.markdown):
        if Path(out).resolve().is_relative_to(MUTANTS.resolve()):
            die(f"--report/--markdown {out}: would write among the mutants")
    return Campaign(args).campaign(mutants)


if __name__ == "__main__":
    sys.exit(main())
