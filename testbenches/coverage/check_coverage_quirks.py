#!/usr/bin/python3
"""ctest coverage.cover_calls and coverage.single_return: SystemVerilog that Verilator 5.006's
coverage (Debian 12) would miscount, refused in the files given.

cover_calls: no cover property's expression calls a function. Verilator counts a cover property
whose expression calls a user function as never hit, even in cycles where the same call on a
continuous assignment is 1 (the assertion form is evaluated correctly), so the checkers of
rtl_model/sva/cover compute those terms on wires. Every `MOE_COVER(NAME, PROP)` and
`MOE_COVER_LOW(NAME, PROP)` is read; a call in PROP is an identifier followed by `(` (system
functions such as `$countones` and casts such as `W'(x)` are allowed).

single_return: every function ends in its one return. Verilator's line coverage never counts a
branch arm that ends in `return` (an `if (c) return x;` arm stays at 0 however often it runs), so
the RTL's functions assign a result in each arm and return it once, as their last statement.

Usage: check_coverage_quirks.py CHECK FILE.sv...
       check_coverage_quirks.py CHECK --self-test   (the check finds planted cases, passes good ones)
CHECK: cover_calls or single_return.
"""
import re
import sys

MACRO = re.compile(r"`MOE_COVER(?:_LOW)?\(")
CALL = re.compile(r"(?<![$'\w])([A-Za-z_]\w*)\s*\(")
FUNC = re.compile(r"\bfunction\b(.*?)\bendfunction\b", re.S)
NAME = re.compile(r"(\w+)\s*\(")
RETURN = re.compile(r"\breturn\b")


def macro_args(text, start):
    """The text between the macro's parentheses, from the `(` at start - 1."""
    depth, i = 1, start
    while depth and i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def cover_calls(name, text):
    found = []
    for m in MACRO.finditer(text):
        args = macro_args(text, m.end())
        prop = args.split(",", 1)[1] if "," in args else ""
        line = text.count("\n", 0, m.start()) + 1
        for c in CALL.finditer(prop):
            found.append(f"{name}:{line}: cover property calls {c.group(1)}(): compute it on a wire")
    return found


def strip_comments(text):
    """Comments blanked (line structure kept), so a `return` in a comment is not counted."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def single_return(name, text):
    found = []
    text = strip_comments(text)
    for m in FUNC.finditer(text):
        body = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        fname = NAME.search(body)
        fname = fname.group(1) if fname else "?"
        returns = list(RETURN.finditer(body))
        if not returns:
            continue
        # The last return's statement must be the function's last: nothing but whitespace
        # between its `;` and endfunction.
        tail = body[returns[-1].end():]
        after_stmt = tail[tail.index(";") + 1:] if ";" in tail else tail
        if len(returns) > 1 or after_stmt.strip():
            found.append(f"{name}:{line}: function {fname} returns early ({len(returns)} "
                         "return(s), not one as its last statement): assign a result and "
                         "return it once")
    return found


def self_test_cover_calls():
    planted = "  `MOE_COVER(X_C, we && has(sc,\n 8'h7F))\n"
    wired = "  `MOE_COVER(X_C, we && sp[0] && n == W'(3) && $countones(v) > 1)\n"
    bad = cover_calls("planted.sv", planted)
    good = cover_calls("wired.sv", wired)
    ok = bad == ["planted.sv:1: cover property calls has(): compute it on a wire"] and not good
    return ok, f"planted: {bad}, wired: {good}"


def self_test_single_return():
    planted = ("function automatic logic [3:0] f(logic a);\n"
               "  if (a) return 4'd1;\n  return 4'd2;\nendfunction\n"
               "function automatic logic g(logic a);\n"
               "  if (a) begin\n    return 1'b1;\n  end\nendfunction\n")
    one = ("function automatic logic [3:0] h(logic a);\n  logic [3:0] r;\n"
           "  if (a) r = 4'd1;  // return early? no\n  else r = 4'd2;\n  return r;\nendfunction\n")
    bad = single_return("planted.sv", planted)
    good = single_return("one.sv", one)
    ok = [b.split(":")[1] for b in bad] == ["1", "5"] and not good
    return ok, f"planted: {bad}, one return: {good}"


CHECKS = {
    "cover_calls": (cover_calls, self_test_cover_calls, "cover properties call a function"),
    "single_return": (single_return, self_test_single_return, "functions return early"),
}


def main(argv):
    if len(argv) < 2 or argv[0] not in CHECKS:
        print("usage: check_coverage_quirks.py cover_calls|single_return FILE.sv... | --self-test",
              file=sys.stderr)
        return 2
    check, self_test, what = CHECKS[argv[0]]
    if argv[1:] == ["--self-test"]:
        ok, detail = self_test()
        print("self-test:", "ok" if ok else f"FAIL ({detail})")
        return 0 if ok else 1
    found = []
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            found += check(path, f.read())
    for line in found:
        print(line)
    print(f"{len(found)} {what} ({len(argv) - 1} files)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
