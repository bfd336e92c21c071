#!/usr/bin/env python3
"""Times the README demo co-simulated by `moesim cosim` and by the Python module's moesim.cosim,
each a whole process, alternating, and prints the medians of wall time and CPU time (user + sys)
with the ratio Python / CLI (docs/python.md, Overhead). With --baseline BIN it also times another
moesim executable (e.g. one built with -DMOESIM_PYTHON=OFF, whose libraries are not
position-independent). Prints `uptime` before and after: the machine's load weighs on wall time.

Usage: python_overhead.py --build build [--repeat 5] [--baseline build-nopic/bin/moesim]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

DEMO = ["--model", "gpt-oss-20b", "--tokens", "4", "--hidden", "128", "--intermediate", "128"]
PY = ("import moesim; r = moesim.cosim(model='gpt-oss-20b', tokens=4, hidden=128, "
      "intermediate=128); assert r['verdict'] == 'EQUAL', r['verdict']; "
      "print('VERDICT:', r['verdict'], r['total_cycles'])")


def timed(cmd, env=None):
    """(wall s, user + sys CPU s) of one run of `cmd`, which must exit 0."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"python_overhead: {' '.join(cmd)} failed:\n{out.decode()}")
    return wall, ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="build directory (bin/moesim, python/)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each (alternating)")
    ap.add_argument("--baseline", help="another moesim executable to time the same way")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    runs = {"cli": [os.path.join(build, "bin", "moesim"), "cosim", *DEMO, "--quiet"],
            "python": [sys.executable, "-c", PY]}
    if a.baseline:
        runs["baseline"] = [os.path.abspath(a.baseline), "cosim", *DEMO, "--quiet"]
    print("uptime before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    times = {k: [] for k in runs}
    for i in range(a.repeat):
        order = list(runs) if i % 2 == 0 else list(reversed(runs))
        for k in order:
            times[k].append(timed(runs[k], env if k == "python" else None))
    print("uptime after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in times.items()}
    for k, v in times.items():
        print(f"{k:8s} wall {med[k][0]:6.2f} s  cpu {med[k][1]:6.2f} s  (runs: " +
              ", ".join(f"{w:.2f}/{c:.2f}" for w, c in v) + ")")
    for k in runs:
        if k != "cli":
            print(f"{k} / cli: wall {med[k][0] / med['cli'][0]:.3f}, "
                  f"cpu {med[k][1] / med['cli'][1]:.3f}")


if __name__ == "__main__":
    main()
