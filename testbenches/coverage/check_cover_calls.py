#!/usr/bin/python3
"""ctest coverage.cover_calls: no cover property's expression calls a function.

Verilator 5.006 (Debian 12) counts a cover property whose expression calls a user function as
never hit, even in cycles where the same call on a continuous assignment is 1 (the assertion
form is evaluated correctly). Such a property would be listed as uncovered whatever the tests
do, so the checkers of rtl_model/sva/cover compute those terms on wires. This check reads every
`MOE_COVER(NAME, PROP)` and `MOE_COVER_LOW(NAME, PROP)` of the files given and fails on a call
in PROP: an identifier followed by `(` (system functions such as `$countones` and casts such as
`W'(x)` are allowed).

Usage: check_cover_calls.py FILE.sv...
       check_cover_calls.py --self-test   (the check finds a planted call and passes a wire)
"""
import re
import sys

MACRO = re.compile(r"`MOE_COVER(?:_LOW)?\(")
CALL = re.compile(r"(?<![$'\w])([A-Za-z_]\w*)\s*\(")


def macro_args(text, start):
    """The text between the macro's parentheses, from the `(` at start - 1."""
    depth, i = 1, start
    while depth and i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def calls(name, text):
    found = []
    for m in MACRO.finditer(text):
        args = macro_args(text, m.end())
        prop = args.split(",", 1)[1] if "," in args else ""
        line = text.count("\n", 0, m.start()) + 1
        for c in CALL.finditer(prop):
            found.append(f"{name}:{line}: cover property calls {c.group(1)}(): compute it on a wire")
    return found


def self_test():
    planted = "  `MOE_COVER(X_C, we && has(sc,\n 8'h7F))\n"
    wired = "  `MOE_COVER(X_C, we && sp[0] && n == W'(3) && $countones(v) > 1)\n"
    bad = calls("planted.sv", planted)
    good = calls("wired.sv", wired)
    ok = bad == ["planted.sv:1: cover property calls has(): compute it on a wire"] and not good
    print("self-test:", "ok" if ok else f"FAIL (planted: {bad}, wired: {good})")
    return 0 if ok else 1


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if not argv:
        print("usage: check_cover_calls.py FILE.sv... | --self-test", file=sys.stderr)
        return 2
    found = []
    for path in argv:
        with open(path, encoding="utf-8") as f:
            found += calls(path, f.read())
    for line in found:
        print(line)
    print(f"{len(found)} cover properties call a function ({len(argv)} files)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
