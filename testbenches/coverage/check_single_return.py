#!/usr/bin/python3
"""ctest coverage.single_return: every function of the RTL ends in its one return.

Verilator's line coverage never counts a branch arm that ends in `return` (an `if (c) return x;`
arm stays at 0 however often it runs), so such an arm is listed uncovered whatever the tests do.
The RTL's functions therefore assign a result in each arm and return it once, as their last
statement. This check reads every `function ... endfunction` of the files given and fails on a
function with more than one `return` or whose `return` is not its last statement.

Usage: check_single_return.py FILE.sv...
       check_single_return.py --self-test   (the check finds planted early returns, passes one)
"""
import re
import sys

FUNC = re.compile(r"\bfunction\b(.*?)\bendfunction\b", re.S)
NAME = re.compile(r"(\w+)\s*\(")
RETURN = re.compile(r"\breturn\b")


def strip_comments(text):
    """Comments blanked (line structure kept), so a `return` in a comment is not counted."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def early_returns(name, text):
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
        last = returns[-1]
        tail = body[last.end():]
        # The last return's statement must be the function's last: nothing but its expression
        # up to the `;` and then only `end`-free whitespace before endfunction.
        after_stmt = tail[tail.index(";") + 1:] if ";" in tail else tail
        if len(returns) > 1 or after_stmt.strip():
            found.append(f"{name}:{line}: function {fname} returns early ({len(returns)} "
                         "return(s), not one as its last statement): assign a result and "
                         "return it once")
    return found


def self_test():
    planted = ("function automatic logic [3:0] f(logic a);\n"
               "  if (a) return 4'd1;\n  return 4'd2;\nendfunction\n"
               "function automatic logic g(logic a);\n"
               "  if (a) begin\n    return 1'b1;\n  end\nendfunction\n")
    one = ("function automatic logic [3:0] h(logic a);\n  logic [3:0] r;\n"
           "  if (a) r = 4'd1;  // return early? no\n  else r = 4'd2;\n  return r;\nendfunction\n")
    bad = early_returns("planted.sv", planted)
    good = early_returns("one.sv", one)
    ok = [b.split(":")[1] for b in bad] == ["1", "5"] and not good
    print("self-test:", "ok" if ok else f"FAIL (planted: {bad}, one return: {good})")
    return 0 if ok else 1


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if not argv:
        print("usage: check_single_return.py FILE.sv... | --self-test", file=sys.stderr)
        return 2
    found = []
    for path in argv:
        with open(path, encoding="utf-8") as f:
            found += early_returns(path, f.read())
    for line in found:
        print(line)
    print(f"{len(found)} functions return early ({len(argv)} files)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
