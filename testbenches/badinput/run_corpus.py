#!/usr/bin/env python3
"""Runs the bad-input corpus (docs/fuzzing.md, The bad-input corpus) against the moesim CLI.

Each case is a command line and the files it reads. The case passes when moesim, run in a fresh
directory holding only those files, within --timeout seconds:
  * exits with code 2 (not by a signal, not 0 or 1),
  * prints exactly one line starting with `moesim: error:` (on stderr; none on stdout) and no
    `moesim: failed` line, and no control byte on stderr (a quoted input's are written \\xNN),
  * names the place of the error in that line (the case's `where`: file:line:col, a flag, a key),
  * and neither changes a file it was given nor leaves a new one behind.

Cases come from gen_cases.py (templates, generated when the test runs) and from cases/*.case
(hand-written). Usage: run_corpus.py --moesim BIN --work DIR [--shard I/N] [--list] [--filter RE]
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_cases  # noqa: E402


def parse_case_file(path):
    """A .case file: `# comment` lines, `args: ...`, `where: ...` (repeatable), then files:
    `file: NAME` followed by its lines up to the next `file:` / `filehex:` line or the end, or
    `filehex: NAME HEX` for bytes."""
    name = os.path.splitext(os.path.basename(path))[0]
    args, where, files = None, [], {}
    current = None
    with open(path, 'rb') as f:
        lines = f.read().split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    for raw in lines:
        if raw.startswith(b'file: '):
            current = raw[6:].decode().strip()
            files[current] = b''
            continue
        if raw.startswith(b'filehex: '):
            fname, hexbytes = raw[9:].decode().split(None, 1)
            files[fname] = bytes.fromhex(hexbytes)
            current = None
            continue
        if current is not None:
            files[current] += raw + b'\n'
            continue
        text = raw.decode()
        if text.startswith('#') or not text.strip():
            continue
        key, _, value = text.partition(':')
        value = value.strip()
        if key == 'args':
            args = shlex.split(value)
        elif key == 'where':
            where.append(value)
        else:
            raise SystemExit(f'{path}: unknown line {text!r}')
    if args is None or not where:
        raise SystemExit(f'{path}: needs args: and where:')
    return gen_cases.Case('hand/' + name, args, files, where)


def all_cases():
    cases = list(gen_cases.cases())
    case_dir = os.path.join(HERE, 'cases')
    for fn in sorted(os.listdir(case_dir)):
        if fn.endswith('.case'):
            cases.append(parse_case_file(os.path.join(case_dir, fn)))
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f'duplicate case names: {sorted(dup)}')
    return cases


def snapshot(d):
    out = {}
    for root, _, fns in os.walk(d):
        for fn in fns:
            p = os.path.join(root, fn)
            if os.path.islink(p):
                out[os.path.relpath(p, d)] = ('link', os.readlink(p))
                continue
            with open(p, 'rb') as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


def run_case(moesim, work, case, timeout):
    d = os.path.join(work, re.sub(r'[^A-Za-z0-9_.-]', '_', case.name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for fname, content in case.files.items():
        p = os.path.join(d, fname)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if isinstance(content, gen_cases.Dir):
            os.makedirs(p, exist_ok=True)
            continue
        with open(p, 'wb') as f:
            f.write(content if isinstance(content, bytes) else content.encode())
    before = snapshot(d)
    env = dict(os.environ, BOOST_TEST_COLOR_OUTPUT='no', TERM='dumb')
    try:
        r = subprocess.run([moesim] + case.args, cwd=d, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return [f'no exit within {timeout} s (a hang)']
    problems = []
    err = r.stderr.decode(errors='replace')
    out = r.stdout.decode(errors='replace')
    if r.returncode < 0:
        problems.append(f'killed by signal {-r.returncode}')
    elif r.returncode != 2:
        problems.append(f'exit {r.returncode}, expected 2')
    errors = [l for l in err.splitlines() if l.startswith('moesim: error:')]
    if len(errors) != 1:
        problems.append(f'{len(errors)} `moesim: error:` lines on stderr, expected 1')
    if any(l.startswith('moesim: failed') for l in err.splitlines()):
        problems.append('a `moesim: failed` line')
    if 'moesim: error:' in out:
        problems.append('`moesim: error:` on stdout')
    if re.search(r'[\x00-\x09\x0b-\x1f\x7f]', err):
        problems.append('a control byte on stderr (it must be written as \\xNN)')
    if len(errors) == 1:
        for w in case.where:
            if w not in errors[0]:
                problems.append(f'the error line does not name {w!r}')
    after = snapshot(d)
    for fname, content in before.items():
        if fname not in after:
            problems.append(f'input {fname} was removed')
        elif after[fname] != content:
            problems.append(f'input {fname} was changed')
    for fname in sorted(set(after) - set(before)):
        problems.append(f'left a new file {fname}')
    if problems:
        problems.append('command: moesim ' + ' '.join(shlex.quote(a) for a in case.args))
        problems.append('stderr: ' + err.strip()[:2000])
        if out.strip():
            problems.append('stdout: ' + out.strip()[:1000])
    else:
        shutil.rmtree(d, ignore_errors=True)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--moesim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--shard', default='0/1')
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--filter', default='')
    ap.add_argument('--list', action='store_true')
    a = ap.parse_args()
    cases = all_cases()
    if a.list:
        for c in cases:
            print(c.name, ' '.join(shlex.quote(x) for x in c.args))
        print(f'{len(cases)} cases', file=sys.stderr)
        return 0
    i, n = (int(x) for x in a.shard.split('/'))
    mine = [c for k, c in enumerate(cases) if k % n == i and re.search(a.filter, c.name)]
    os.makedirs(a.work, exist_ok=True)
    failed = 0
    for c in mine:
        problems = run_case(a.moesim, a.work, c, a.timeout)
        if problems:
            failed += 1
            print(f'FAIL {c.name}')
            for p in problems:
                print('    ' + p.replace('\n', '\n    '))
    print(f'bad-input corpus shard {a.shard}: {len(mine) - failed} of {len(mine)} cases refused '
          f'cleanly ({len(cases)} cases in all)')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
