#!/usr/bin/env python3
"""Runs the bad-input corpus (docs/fuzzing.md, The bad-input corpus) against the moesim CLI.

Each case is a command line and the files it reads. The case passes when moesim, run in a fresh
directory holding only those files, within --timeout seconds of wall time, under an address-space
limit (--max-memory-mb) and a CPU-time limit (--timeout), and within the case's own limits when
it has them (CPU seconds and peak resident memory: the hostile cases' 2 s and 100 MB), so that a
hang or a blow-up fails the case instead of the machine:
  * exits with code 2 (not by a signal, not 0 or 1),
  * prints exactly one line starting with `moesim: error:` (on stderr; none on stdout) and no
    `moesim: failed` line, and no control byte on stderr (a quoted input's are written \\xNN),
  * names the place of the error in that line (the case's `where`: file:line:col, a flag, a key),
  * and neither changes a file it was given nor leaves a new one (or a directory) behind.

Cases come from gen_cases.py (templates, generated when the test runs; the output guard
collisions from `moesim help-files`) and from cases/*.case (hand-written). Usage: run_corpus.py --moesim BIN --work DIR [--shard I/N] [--list] [--filter RE]
"""
import argparse
import hashlib
import os
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_cases  # noqa: E402


def parse_case_file(path):
    """A .case file: `# comment` lines, `args: ...`, `where: ...` (repeatable), `env: NAME=VALUE`
    (repeatable), `limits: SECONDS MEGABYTES` (the case's CPU and memory bound), then files:
    `file: NAME` followed by its lines up to the next `file:` / `filehex:` line or the end, or
    `filehex: NAME HEX` for bytes."""
    name = os.path.splitext(os.path.basename(path))[0]
    args, where, files, env, limits = None, [], {}, {}, None
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
        elif key == 'env':
            k, _, v = value.partition('=')
            env[k] = v
        elif key == 'limits':
            sec, mb = value.split()
            limits = gen_cases.Limits(float(sec), float(mb))
        else:
            raise SystemExit(f'{path}: unknown line {text!r}')
    if args is None or not where:
        raise SystemExit(f'{path}: needs args: and where:')
    return gen_cases.Case('hand/' + name, args, files, where, env, limits)


def all_cases(moesim):
    try:
        cases = list(gen_cases.cases(moesim))
    except gen_cases.CorpusError as e:
        raise SystemExit(f'bad-input corpus: {e}')
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
    """Every entry under `d`: a link's target, a directory, a special file's type, a regular
    file's size and SHA-256 (never opening a FIFO, which would block)."""
    out = {}
    for root, dirs, fns in os.walk(d):
        for fn in fns + dirs:
            p = os.path.join(root, fn)
            st = os.lstat(p)
            if stat.S_ISDIR(st.st_mode):
                out[os.path.relpath(p, d)] = ('dir',)
            elif stat.S_ISLNK(st.st_mode):
                out[os.path.relpath(p, d)] = ('link', os.readlink(p))
            elif not stat.S_ISREG(st.st_mode):
                out[os.path.relpath(p, d)] = ('special', stat.S_IFMT(st.st_mode))
            else:
                h = hashlib.sha256()
                with open(p, 'rb') as f:
                    for block in iter(lambda: f.read(1 << 20), b''):
                        h.update(block)
                out[os.path.relpath(p, d)] = ('file', st.st_size, h.hexdigest())
    return out


def make_files(d, files):
    for fname, content in files.items():
        p = os.path.join(d, fname)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if isinstance(content, gen_cases.Dir):
            os.makedirs(p, exist_ok=True)
        elif isinstance(content, gen_cases.Fifo):
            os.mkfifo(p)
        elif isinstance(content, gen_cases.Sparse):
            with open(p, 'wb') as f:
                f.truncate(content.size)
        elif isinstance(content, gen_cases.Link):
            os.symlink(content.target, p)
        elif isinstance(content, gen_cases.HardLink):
            os.link(os.path.join(d, content.target), p)
        else:
            with open(p, 'wb') as f:
                f.write(content if isinstance(content, bytes) else content.encode())


def run_limited(cmd, cwd, env, timeout, max_memory_mb):
    """Runs `cmd`; returns (exit code or -signal, stdout, stderr, timed out, CPU seconds, peak
    resident MB). The child gets an address-space limit and a CPU-time limit (a blow-up or a
    spin ends the child, not the machine); wall time is bounded by a kill after `timeout`."""
    def limit():
        mem = int(max_memory_mb) << 20
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        cpu = int(timeout) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    # Its own process group: a hang is ended with every process it started (which would
    # otherwise keep the pipes open).
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit, start_new_session=True)
    out, err = [], []
    readers = [threading.Thread(target=lambda: out.append(p.stdout.read())),
               threading.Thread(target=lambda: err.append(p.stderr.read()))]
    for t in readers:
        t.start()
    timed_out = []
    def kill():
        timed_out.append(True)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    timer = threading.Timer(timeout, kill)
    timer.start()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    try:  # anything the child left running
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    p.stdout.close()
    p.stderr.close()
    return (p.returncode, out[0] if out else b'', err[0] if err else b'', bool(timed_out),
            usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0)


def run_case(moesim, work, case, timeout, max_memory_mb):
    d = os.path.join(work, re.sub(r'[^A-Za-z0-9_.-]', '_', case.name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    make_files(d, case.files)
    before = snapshot(d)
    env = dict(os.environ, BOOST_TEST_COLOR_OUTPUT='no', TERM='dumb', **case.env)
    rc, stdout, stderr, timed_out, cpu_s, peak_mb = run_limited(
        [moesim] + case.args, d, env, timeout, max_memory_mb)
    if timed_out:
        shutil.rmtree(d, ignore_errors=True)
        return [f'no exit within {timeout} s (a hang)']
    problems = []
    err = stderr.decode(errors='replace')
    out = stdout.decode(errors='replace')
    if rc == -signal.SIGXCPU:
        problems.append(f'killed at the CPU-time limit of {int(timeout) + 1} s (a hang)')
    elif rc < 0:
        problems.append(f'killed by signal {-rc}')
    elif rc != 2:
        problems.append(f'exit {rc}, expected 2')
    if case.limits is not None:
        if cpu_s > case.limits.seconds:
            problems.append(f'{cpu_s:.2f} s of CPU, more than the case\'s {case.limits.seconds} s')
        if peak_mb > case.limits.megabytes:
            problems.append(f'{peak_mb:.0f} MB peak memory, more than the case\'s '
                            f'{case.limits.megabytes} MB')
    errors = [l for l in err.splitlines() if l.startswith('moesim: error:')]
    if len(errors) != 1:
        problems.append(f'{len(errors)} `moesim: error:` lines on stderr, expected 1')
    if any(l.startswith('moesim: failed') for l in err.splitlines()):
        problems.append('a `moesim: failed` line')
    if 'moesim: error:' in out:
        problems.append('`moesim: error:` on stdout')
    if re.search(r'[\x00-\x09\x0b-\x1f\x7f]', err):
        problems.append('a control byte on stderr (it must be written as \\xNN)')
    try:
        stderr.decode('utf-8')
    except UnicodeDecodeError as e:
        problems.append(f'byte {stderr[e.start]:#04x} on stderr is not UTF-8 (it must be written '
                        'as \\xNN)')
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
        problems.append(f'left a new {"directory" if after[fname] == ("dir",) else "file"} '
                        f'{fname}')
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
    ap.add_argument('--max-memory-mb', type=float, default=4096,
                    help='address-space limit of each run (a blow-up fails its case)')
    ap.add_argument('--filter', default='')
    ap.add_argument('--list', action='store_true')
    a = ap.parse_args()
    a.moesim = os.path.abspath(a.moesim)
    cases = all_cases(a.moesim)
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
        problems = run_case(a.moesim, a.work, c, a.timeout, a.max_memory_mb)
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
