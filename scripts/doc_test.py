#!/usr/bin/env python3
"""The doc test: runs every shell command block of README.md and docs/*.md (ctest `doc.commands`,
label `doc`), so the commands the docs show cannot rot.

A block is a fenced block whose info string is sh, bash or shell. Its commands run in order, one
logical line at a time (a trailing backslash continues a line; a here-document runs with the line
that opens it), with `bash -o pipefail -c`, in a scratch directory per markdown file
(BUILD/doc_test/<file>/) where `build` is a link to the build directory and `scripts`,
`testbenches`, `isa_spec` and `docs` link to the source tree, and with BUILD/bin first on PATH
(so `moesim` and `build/bin/moesim` both work) and, before it, a `python3` that is the interpreter
running the doc test (CMake's Python3_EXECUTABLE, the one the moesim Python module is built for,
docs/python.md). A command must exit 0, or N when its comment says
`exits N`. A block is skipped when the line before its fence is
`<!-- doc-test: skip REASON -->`; the reason is printed. Exit 0 when every command passed, 1 when
one failed, 2 for bad usage.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([A-Za-z0-9_-]*)")
SKIP = re.compile(r"^\s*<!--\s*doc-test:\s*skip\b\s*(.*?)\s*-->\s*$")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
EXITS = re.compile(r"#.*\bexits (\d+)")
SHELLS = {"sh", "bash", "shell"}


def blocks(path):
    """Yields (line number of the fence, skip reason or None, [(line number, text)])."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    prev = ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].strip():
                prev = lines[i]
            i += 1
            continue
        fence, lang, start = m.group(2), m.group(3), i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if lang in SHELLS:
            s = SKIP.match(prev)
            yield start, (s.group(1) or "no reason given") if s else None, body
        prev = ""


def commands(body):
    """Logical commands of a block: (line number, text)."""
    out = []
    k = 0
    while k < len(body):
        no, text = body[k]
        k += 1
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        cmd = text
        while cmd.endswith("\\") and k < len(body):
            cmd = cmd + "\n" + body[k][1]  # bash joins the backslash-newline itself
            k += 1
        h = HEREDOC.search(cmd)
        if h:
            end = h.group(2)
            while k < len(body):
                cmd += "\n" + body[k][1]
                k += 1
                if body[k - 1][1].strip() == end:
                    break
        out.append((no, cmd))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="the build directory (with bin/moesim)")
    ap.add_argument("--source", required=True, help="the source tree")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per command")
    ap.add_argument("files", nargs="*", help="markdown files (default README.md and docs/*.md)")
    a = ap.parse_args()
    src, build = os.path.abspath(a.source), os.path.abspath(a.build)
    if not os.path.isfile(os.path.join(build, "bin", "moesim")):
        print(f"doc_test: error: {build}/bin/moesim does not exist (build first)", file=sys.stderr)
        return 2
    files = a.files or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(src, "docs")) if f.endswith(".md"))
    env = dict(os.environ)
    # `python3` in a command is this interpreter (a python3 earlier on PATH may be another one,
    # without the packages the module is built for).
    pybin = os.path.join(build, "doc_test", "python_bin")
    os.makedirs(pybin, exist_ok=True)
    link = os.path.join(pybin, "python3")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(sys.executable, link)
    env["PATH"] = os.pathsep.join([pybin, os.path.join(build, "bin"), env.get("PATH", "")])
    passed = failed = skipped = 0
    t0 = time.monotonic()
    for rel in files:
        md = os.path.join(src, rel)
        scratch = os.path.join(build, "doc_test", rel.replace(os.sep, "_"))
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
        os.symlink(build, os.path.join(scratch, "build"))
        for d in ("scripts", "testbenches", "isa_spec", "docs"):
            os.symlink(os.path.join(src, d), os.path.join(scratch, d))
        for start, skip, body in blocks(md):
            if skip is not None:
                print(f"SKIP {rel}:{start}: {skip}")
                skipped += 1
                continue
            for no, cmd in commands(body):
                m = EXITS.search(cmd)
                want = int(m.group(1)) if m else 0
                t = time.monotonic()
                try:
                    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=scratch, env=env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, timeout=a.timeout)
                    code, out = r.returncode, r.stdout.decode("utf-8", "replace")
                except subprocess.TimeoutExpired as e:
                    code, out = None, (e.stdout or b"").decode("utf-8", "replace")
                took = time.monotonic() - t
                first = cmd.split("\n")[0]
                if code == want:
                    passed += 1
                    print(f"PASS {rel}:{no} ({took:.1f} s, exit {code}): {first}")
                else:
                    failed += 1
                    got = f"timed out after {a.timeout:.0f} s" if code is None else f"exit {code}"
                    print(f"FAIL {rel}:{no}: {got}, expected exit {want}: {cmd}")
                    tail = out.strip().split("\n")[-15:]
                    for line in tail:
                        print(f"    | {line}")
    print(f"doc test: {time.monotonic() - t0:.0f} s, {skipped} blocks skipped")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
