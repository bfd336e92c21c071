#!/usr/bin/env python3
"""Independent oracle for the MX_BLOCK = 32 conformance cases (machine preset mx32).

Writes testbenches/conformance/{M_MM,M_MV,M_TMV,M_TMM,M_BMV,M_BTMV,M_BMM,M_BTMM,H_STORE_V}/
mx32_*.{asm,yaml}. Expected values come from isa.yaml's semantics of those instructions (with
M_MM_WO, M_MV_WO, M_BMV_WO, M_BMM_WO) and docs/numerics.md §4-5.1 evaluated here in exact
rational arithmetic (fractions.Fraction) with one explicit round-to-nearest-even to binary32
after every FP32 operation, to BF16 at write-back and to E4M3 (saturating) in quantisation.
No moesim code is used or imported.

Usage: python3 scripts/conformance_mx32.py [SUITE]   (SUITE defaults to testbenches/conformance of
this repository, found from this file; any working directory)
"""

import random
import sys
from fractions import Fraction
from pathlib import Path

MLEN, BLEN, MX_BLOCK = 64, 4, 32  # machine.yaml preset mx32
NB = MLEN // MX_BLOCK
ROW_BYTES = MLEN + NB  # MRAM row: MLEN codes, then MLEN / MX_BLOCK scales
# The suite written to: testbenches/conformance of this repository, or the directory given as
# the one argument (scripts/check_generated_cases.sh writes to a scratch copy and diffs).
SUITE = (Path(sys.argv[1]) if len(sys.argv) > 1 else
         Path(__file__).resolve().parent.parent / "testbenches" / "conformance")


class F:
    """A finite binary32 (or BF16) value: exact rational plus the sign of a zero."""

    def __init__(self, v, neg_zero=False):
        self.v = Fraction(v)
        self.neg_zero = neg_zero and self.v == 0

    def __repr__(self):
        return f"F({float(self.v)})"


def floor_log2(m):
    """floor(log2(m)) for a positive Fraction."""
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    while Fraction(2) ** (e + 1) <= m:
        e += 1
    return e


def rne(x, prec, emin, emax):
    """Round F x to a binary format with `prec` significand bits (RNE); inf is an error here."""
    if x.v == 0:
        return x
    sign = -1 if x.v < 0 else 1
    m = abs(x.v)
    e = max(floor_log2(m), emin)
    q = Fraction(2) ** (e - (prec - 1))
    n, r = divmod(m, q)
    n = int(n)
    if r * 2 > q or (r * 2 == q and n % 2 == 1):
        n += 1
    out = n * q
    assert out < Fraction(2) ** (emax + 1), "overflow: these cases stay finite"
    return F(sign * out, neg_zero=(sign < 0))


def f32(x):
    return rne(x, 24, -126, 127)


def bf16(x):
    return rne(x, 8, -126, 127)


def add(a, b):
    s = a.v + b.v
    if s == 0:  # RNE: x + (-x) = +0, (-0) + (-0) = -0
        return F(0, neg_zero=(a.neg_zero and b.neg_zero))
    return f32(F(s))


def mul(a, b):
    p = a.v * b.v
    neg = (a.v < 0 or a.neg_zero) != (b.v < 0 or b.neg_zero)
    if p == 0:
        return F(0, neg_zero=neg)
    return f32(F(p))


def bf16_bits(x):
    """BF16 encoding of a value already rounded to BF16."""
    if x.v == 0:
        return 0x8000 if x.neg_zero else 0
    sign = 0x8000 if x.v < 0 else 0
    m = abs(x.v)
    e = floor_log2(m)
    if e < -126:  # subnormal: m = k * 2^-133
        k = m / Fraction(2) ** -133
        assert k.denominator == 1
        return sign | int(k)
    frac = m / Fraction(2) ** e - 1
    k = frac * 128
    assert k.denominator == 1
    return sign | ((e + 127) << 7) | int(k)


def bf16_value(bits):
    s = -1 if bits & 0x8000 else 1
    e = (bits >> 7) & 0xFF
    m = bits & 0x7F
    assert e != 0xFF, "no inf/NaN inputs in these cases"
    if e == 0:
        return F(s * Fraction(m, 128) * Fraction(2) ** -126, neg_zero=(s < 0))
    return F(s * (1 + Fraction(m, 128)) * Fraction(2) ** (e - 127), neg_zero=False)


def e4m3_value(code):
    s = -1 if code & 0x80 else 1
    e = (code >> 3) & 0xF
    m = code & 7
    assert (code & 0x7F) != 0x7F, "no NaN codes in these cases"
    if e == 0:
        return F(s * Fraction(m, 8) * Fraction(2) ** -6, neg_zero=(s < 0))
    return F(s * (1 + Fraction(m, 8)) * Fraction(2) ** (e - 7))


def e8m0_value(scale):
    assert scale != 0xFF
    return F(Fraction(2) ** (scale - 127))


def tree(xs):
    """The pairwise tree of isa.yaml: level 0 adds (2i, 2i+1), each level halves."""
    assert len(xs) & (len(xs) - 1) == 0
    while len(xs) > 1:
        xs = [add(xs[2 * i], xs[2 * i + 1]) for i in range(len(xs) // 2)]
    return xs[0]


def mxdot(a_bits, codes, scale):
    """MXDOT of one block of MX_BLOCK: exact products, tree, times 2^(scale-127)."""
    p = [mul(bf16_value(a), e4m3_value(c)) for a, c in zip(a_bits, codes)]
    return mul(tree(p), e8m0_value(scale))


def txdot(a_bits, codes, scales):
    """TXDOT of one K block: each product times its own scale, then the tree."""
    q = [mul(mul(bf16_value(a), e4m3_value(c)), e8m0_value(s))
         for a, c, s in zip(a_bits, codes, scales)]
    return tree(q)


# ---- Operands ------------------------------------------------------------------------------

rng = random.Random(0x6D783332)  # "mx32"


def rand_bf16():
    return (rng.getrandbits(1) << 15) | (rng.randint(118, 134) << 7) | rng.getrandbits(7)


def rand_code():
    return (rng.getrandbits(1) << 7) | (rng.randint(3, 11) << 3) | rng.getrandbits(3)


def rand_scale():
    return rng.randint(118, 136)


def b(x):
    """BF16 bits of an exactly representable number."""
    return bf16_bits(bf16(F(x)))


ONE, HALF = 0x38, 0x30  # E4M3 1.0, 0.5
P24 = 2 ** 24


def fmt_bf16(bits):
    return f'"0x{bits:04X}"'


def fmt_row(key, row, vals, fmt):
    lines, cur = [], []
    for i, v in enumerate(vals):
        cur.append(fmt(v))
        if len(cur) == 16:
            lines.append(", ".join(cur))
            cur = []
    if cur:
        lines.append(", ".join(cur))
    body = (",\n          ").join(lines)
    return f"    - {{row: {row}, {key}: [{body}]}}"


def write_case(mnemonic, name, asm, init_mram, init_vram, expect):
    d = SUITE / mnemonic
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{name}.asm").write_text(asm)
    out = ["# Generated by scripts/conformance_mx32.py (exact-rational oracle of isa.yaml); do not",
           "# edit by hand. VRAM values are BF16 bit patterns.",
           "machine: mx32", "init:", "  mram:"]
    for row, data in init_mram:
        out.append(fmt_row("bytes", row, data, str))
    out.append("  vram:")
    for row, data in init_vram:
        if isinstance(data, str):
            out.append(f"    - {{row: {row}, {data}}}")
        else:
            out.append(fmt_row("bf16", row, data, fmt_bf16))
    out += expect
    (d / f"{name}.yaml").write_text("\n".join(out) + "\n")


def out_rows(fill_bits, rows_vals):
    """expect.mem.vram rows: each a full row of fill except the written elements."""
    out = ["    vram:"]
    for row, cols in rows_vals:
        vals = [fill_bits] * MLEN
        for c, v in cols.items():
            vals[c] = v
        out.append(fmt_row("bf16", row, vals, fmt_bf16).replace("    - ", "      - ", 1))
    return out


# ---- M_MM/mx32_tree ------------------------------------------------------------------------


def case_mm():
    # Tile 1, c = 8: W[c+j] = MRAM rows 72 + j. Activation rows: VRAM 4..7.
    w = {r: [rand_code() for _ in range(MLEN)] + [rand_scale() for _ in range(NB)]
         for r in range(71, 77)}
    a = {r: [rand_bf16() for _ in range(MLEN)] for r in range(4, 8)}
    # W row 72 (j = 0): block 0 all 1.0, block 1 only element 32 = 1.0; scales 127, 127.
    w[72] = [ONE] * 32 + [ONE] + [0] * 31 + [127, 127]
    # W row 73 (j = 1): the same codes, scales 128, 128 (x2 per block).
    w[73] = [ONE] * 32 + [ONE] + [0] * 31 + [128, 128]
    # A row 0: block 0 = [2^24, 1 x 31], block 1 starts with -2^24: against W row 72, block 0 is
    # the tree 2^24 + 30 (a running sum would give 2^24), block 1 is -2^24, so acc = 30.
    a[4][:33] = [b(P24)] + [b(1)] * 31 + [b(-P24)]
    # A row 1: block 0 = 2^24 at 0, 1 at 16 and 24: the tree pairs the 8-product subtrees as
    # (2^24 + 0) + (1 + 1) = 2^24 + 2 (adding them one after the other gives 2^24); acc = 2.
    a[5][:33] = [b(P24)] + [0] * 15 + [b(1)] + [0] * 7 + [b(1)] + [0] * 7 + [b(-P24)]
    acc = [[F(0) for _ in range(BLEN)] for _ in range(BLEN)]
    for i in range(BLEN):
        for j in range(BLEN):
            row = w[72 + j]
            for blk in range(NB):
                lo = MX_BLOCK * blk
                d = mxdot(a[4 + i][lo:lo + MX_BLOCK], row[lo:lo + MX_BLOCK], row[MLEN + blk])
                acc[i][j] = add(acc[i][j], d)
    assert acc[0][0].v == 30 and acc[1][0].v == 2 and acc[0][1].v == 60 and acc[1][1].v == 4
    res = [[bf16_bits(bf16(acc[i][j])) for j in range(BLEN)] for i in range(BLEN)]
    asm = """; M_MM on mx32 (MX_BLOCK 32): tile 1, column offset c = 8 (gp[rs1] = 4608): W rows 72..75 of
; MRAM (66 bytes each: 64 codes, then 2 E8M0 scales, one per 32 codes); rows 71 and 76 hold other
; data. Activations VRAM rows 4..7. MXDOT per isa.yaml: per K block of 32, 32 exact products,
; the pairwise tree over 32 (level 0 adds (2i, 2i+1)), times 2^(scale-127), added in K order.
; acc[0][0]: block 0 = [2^24, 1 x 31] x 1.0 -> tree 2^24 + 30 (left to right: 2^24), block 1 =
; -2^24 -> 30. acc[1][0]: 2^24 at 0, 1 at 16 and 24 -> (2^24 + 0) + (1 + 1) = 2^24 + 2 (a running
; sum of the four 8-product subtrees gives 2^24) -> 2. Column 1 has scales 128: 60 and 4.
; Everything else random (expected values: scripts/conformance_mx32.py, an exact oracle).
; Latencies: M_MM BLEN + MLEN/MX_BLOCK + 1 = 7, M_MM_WO BLEN = 4.
S_ADDI_INT gp1, gp0, 4608
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MM_WO gp5, gp0, 8   ; rows 10..13 cols 8..11
"""
    fill = b(7)
    expect = ["expect:", "  retired: 5", f"  cycles: {3 + 7 + 4}",
              "  regs: {gp1: 4608, gp2: 256, gp5: 640}", "  mem:"]
    expect += out_rows(fill, [(10 + i, {8 + j: res[i][j] for j in range(BLEN)})
                              for i in range(BLEN)])
    write_case("M_MM", "mx32_tree", asm, sorted(w.items()), sorted(a.items()) +
               [(10, "fill: 7.0, rows: 4")], expect)


# ---- M_MV/mx32_tree ------------------------------------------------------------------------


def case_mv():
    # Tile 0, c = 4 (gp[rs1] = 4, element granular): W[c+j] = MRAM rows 4 + j. Activation: VRAM
    # row 2 (gp[rs2] = 128).
    w = {r: [rand_code() for _ in range(MLEN)] + [rand_scale() for _ in range(NB)]
         for r in range(3, 9)}
    act = [rand_bf16() for _ in range(MLEN)]
    # Block 1 tree order: 2^24 at 32, 1 at 48 and 56 (x 1.0), block 0 = -2^24 first: the
    # accumulation runs block 0 then block 1: -2^24 + (2^24 + 2) = 2.
    act[:32] = [b(-P24)] + [0] * 31
    act[32:] = [b(P24)] + [0] * 15 + [b(1)] + [0] * 7 + [b(1)] + [0] * 7
    w[4] = [ONE] + [0] * 31 + [ONE] * 32 + [127, 127]
    vacc = [F(0) for _ in range(BLEN)]
    for j in range(BLEN):
        row = w[4 + j]
        for blk in range(NB):
            lo = MX_BLOCK * blk
            vacc[j] = add(vacc[j], mxdot(act[lo:lo + MX_BLOCK], row[lo:lo + MX_BLOCK],
                                         row[MLEN + blk]))
    assert vacc[0].v == 2
    res = [bf16_bits(bf16(v)) for v in vacc]
    asm = """; M_MV on mx32 (MX_BLOCK 32): tile 0, element column offset c = 4 (gp[rs1] = 4): W rows 4..7 of
; MRAM (66 bytes each, one scale per 32 codes); rows 3 and 8 hold other data. Activation VRAM
; row 2. MXDOT per isa.yaml with K blocks of 32 in order. vacc[0]: block 0 = -2^24, block 1 =
; 2^24 at 32, 1 at 48 and 56 -> tree (2^24 + 0) + (1 + 1) = 2^24 + 2 -> vacc = 2 (a running sum
; of 8-product subtrees would give 0). Everything else random (scripts/conformance_mx32.py).
; Latencies: M_MV BLEN + MLEN/MX_BLOCK + 1 = 7, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 4
S_ADDI_INT gp2, gp0, 128
M_MV 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 20   ; row 10, elements 20..23
"""
    fill = b(-1)
    expect = ["expect:", "  retired: 5", f"  cycles: {3 + 7 + 1}",
              "  regs: {gp1: 4, gp2: 128, gp5: 640}", "  mem:"]
    expect += out_rows(fill, [(10, {20 + j: res[j] for j in range(BLEN)})])
    write_case("M_MV", "mx32_tree", asm, sorted(w.items()),
               [(2, act), (10, "fill: -1.0, rows: 1")], expect)


# ---- M_TMV/mx32_txdot ----------------------------------------------------------------------


def case_tmv():
    # Tile 2, c = 36 (gp[rs1] = 2*4096 + 36): columns 36..39, whose scale in every tile row is
    # the row's second scale byte (floor(36 / 32) = 1). K runs over tile rows 0..63 (MRAM rows
    # 128..191) in two K blocks of 32 rows.
    w = {r: [rand_code() for _ in range(MLEN)] + [rand_scale() for _ in range(NB)]
         for r in range(128, 192)}
    act = [rand_bf16() for _ in range(MLEN)]
    # Column 36 (j = 0): codes 1.0 in rows 0..32, 0 below; rows 0..32 scale byte 1 = 127.
    # A = 2^24 at 0, 1 at 16 and 24, -2^24 at 32: block 0 tree 2^24 + 2, block 1 -2^24 -> 2.
    for k in range(MLEN):
        w[128 + k][36] = ONE if k <= 32 else 0
    for k in range(33):
        w[128 + k][MLEN + 1] = 127
    act[:33] = [b(P24)] + [0] * 15 + [b(1)] + [0] * 7 + [b(1)] + [0] * 7 + [b(-P24)]
    vacc = [F(0) for _ in range(BLEN)]
    for j in range(BLEN):
        col = 36 + j
        for blk in range(NB):
            rows = [w[128 + MX_BLOCK * blk + t] for t in range(MX_BLOCK)]
            codes = [r[col] for r in rows]
            scales = [r[MLEN + col // MX_BLOCK] for r in rows]
            lo = MX_BLOCK * blk
            vacc[j] = add(vacc[j], txdot(act[lo:lo + MX_BLOCK], codes, scales))
    assert vacc[0].v == 2
    res = [bf16_bits(bf16(v)) for v in vacc]
    asm = """; M_TMV on mx32 (MX_BLOCK 32): tile 2, column offset c = 36 (gp[rs1] = 2*4096 + 36 = 8228); the
; tile is read transposed: K runs over the 64 tile rows (MRAM rows 128..191, 66 bytes each), and
; element k of column 36+j is code row_k[36+j] with row k's scale of block floor((36+j)/32) = 1
; (its second scale byte), so every K element has its own scale. TXDOT per isa.yaml: K blocks of
; 32 tile rows, q_t = (A[k] x e4m3, exact) x 2^(scale_k-127), the pairwise tree over 32, blocks
; added in K order. Column 36: A = 2^24 at 0, 1 at 16 and 24, -2^24 at 32 against codes 1.0
; (scale 127) -> (2^24 + 0) + (1 + 1) = 2^24 + 2, then -2^24 -> 2. Columns 37..39 random
; (expected values: scripts/conformance_mx32.py, an exact oracle).
; Latencies: M_TMV MLEN + MLEN/MX_BLOCK + 1 = 67, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 8228
S_ADDI_INT gp2, gp0, 256
M_TMV 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 20   ; row 10, elements 20..23
"""
    fill = b(7)
    expect = ["expect:", "  retired: 5", f"  cycles: {3 + 67 + 1}",
              "  regs: {gp1: 8228, gp2: 256, gp5: 640}", "  mem:"]
    expect += out_rows(fill, [(10, {20 + j: res[j] for j in range(BLEN)})])
    write_case("M_TMV", "mx32_txdot", asm, sorted(w.items()),
               [(4, act), (10, "fill: 7.0, rows: 1")], expect)


# ---- H_STORE_V/mx32_quantise ---------------------------------------------------------------


def e4m3_code(x):
    """OCP E4M3 code of the exact value x: RNE, saturated to +-448, sign of zero kept."""
    neg = x.v < 0 or x.neg_zero
    m = abs(x.v)
    if m == 0:
        return 0x80 if neg else 0
    e = max(floor_log2(m), -6)
    q = Fraction(2) ** (e - 3)
    n, r = divmod(m, q)
    n = int(n)
    if r * 2 > q or (r * 2 == q and n % 2 == 1):
        n += 1
    v = min(n * q, Fraction(448))
    if v == 0:
        return 0x80 if neg else 0
    ev = floor_log2(v)
    if ev < -6:  # subnormal: v = k * 2^-9
        code = int(v / Fraction(2) ** -9)
    else:
        code = ((ev + 7) << 3) | int((v / Fraction(2) ** ev - 1) * 8)
    return (0x80 if neg else 0) | code


def quantise(block_bits):
    """isa.yaml H_STORE_V on one block of MX_BLOCK finite BF16 values: (scale, codes)."""
    xs = [bf16_value(v) for v in block_bits]
    amax = max(abs(x.v) for x in xs)
    e = -127 if amax == 0 else min(max(floor_log2(amax) - 8, -127), 127)
    return e + 127, [e4m3_code(F(x.v / Fraction(2) ** e, x.neg_zero)) for x in xs]


def case_store():
    rows = {r: [rand_bf16() for _ in range(MLEN)] for r in range(5, 9)}
    # Row 5 block 0: small values with the block maximum 1000 at element 31 only, so all 32
    # elements share e = floor(log2(1000)) - 8 = 1 (blocks of 8 would give elements 0..7 their
    # own scale): 0.75 / 2 = 0.375 exact (0x2C), 0.01 / 2 rounds to the E4M3 subnormal 3 * 2^-9,
    # +-2^-10 / 2 = +-2^-11 round to +0 and -0 (0x80), 1000 / 2 = 500 saturates to 448 (0x7E).
    rows[5][:32] = ([b(0.75), b(0.01), b(0.0009765625), b(-0.0009765625)] + [b(1.5)] * 27 +
                    [b(1000)])
    # Row 6 block 1: all zero but -0 at element 40 -> scale 0 (e = -127), codes 0 and 0x80.
    rows[6][32:] = [0] * 32
    rows[6][40] = 0x8000
    codes, scales = [], []
    for r in range(5, 9):
        for blk in range(NB):
            sc, cs = quantise(rows[r][MX_BLOCK * blk:MX_BLOCK * (blk + 1)])
            scales.append(sc)
            codes += cs
    assert scales[0] == 128 and codes[31] == 0x7E and codes[3] == 0x80 and scales[3] == 0
    asm = """; H_STORE_V on mx32 (MX_BLOCK 32), rstride 0, prec 0: VRAM rows 5..8 -> MXFP8 codes at a5 + o,
; o = i*64, and 2 scales per row at a5 + SCALE + o/32. OCP MX quantisation per isa.yaml over
; blocks of 32: e = floor(log2(amax)) - 8 clamped to [-127, 127] (0 -> -127), code = RNE(x / 2^e)
; to E4M3 saturated to +-448, -0 kept (0x80). Row 5 block 0: the maximum 1000 at element 31 sets
; the scale of all 32 (2^1): 1000 saturates to 448, 0.01 becomes an E4M3 subnormal, +-2^-10 round
; to +-0. Row 6 block 1: zeros and one -0 (scale 0). Other blocks random (expected bytes:
; scripts/conformance_mx32.py, an exact oracle). Latency 24 + 1 + 4 * (1 + 1) = 33.
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 8192
C_SET_ADDR_REG a5, gp13, gp14
S_ADDI_INT gp12, gp0, 4096
C_SET_SCALE_REG gp12
S_ADDI_INT gp1, gp0, 320
H_STORE_V gp1, gp0, a5, 0, 0
"""
    d = SUITE / "H_STORE_V"
    d.mkdir(parents=True, exist_ok=True)
    (d / "mx32_quantise.asm").write_text(asm)
    out = ["# Generated by scripts/conformance_mx32.py (exact-rational oracle of isa.yaml); do not",
           "# edit by hand. VRAM values are BF16 bit patterns.",
           "machine: mx32", "init:", "  vram:"]
    for r in range(5, 9):
        out.append(fmt_row("bf16", r, rows[r], fmt_bf16))
    out += ["expect:", "  retired: 7", f"  cycles: {6 + 33}",
            "  regs: {gp13: 0, gp14: 8192, a5: 8192, gp12: 4096, SCALE: 4096, gp1: 320}",
            "  mem:", "    hbm:",
            fmt_row("bytes", 0, codes, str).replace("    - {row: 0,", "      - {addr: 8192,"),
            fmt_row("bytes", 0, scales, str).replace("    - {row: 0,", "      - {addr: 12288,")]
    (d / "mx32_quantise.yaml").write_text("\n".join(out) + "\n")


# ---- Shared by the M_TMM and per-head cases ----------------------------------------------

HLEN = 16  # machine.yaml preset mx32
NH = MLEN // HLEN  # B, the heads
BMM_SCALE = F(Fraction(1, 4))  # isa.yaml fp32_constants BMM_SCALE (0x3E800000)


def rand_mx_row():
    """An MRAM row of random codes whose two E8M0 scales differ (so the scale index shows)."""
    s0 = rand_scale()
    s1 = rand_scale()
    while s1 == s0:
        s1 = rand_scale()
    return [rand_code() for _ in range(MLEN)] + [s0, s1]


def code(row, c):
    """W[r][c] of isa.yaml: (code, scale) = (Tile[r][c], Tile_scale[r][floor(c / MX_BLOCK)])."""
    return row[c], row[MLEN + c // MX_BLOCK]


def hdot(xs, ws):
    """isa.yaml HDOT x BMM_SCALE: q_d = (x_d * e4m3, exact) x 2^(scale-127), tree over HLEN."""
    return mul(txdot(xs, [w[0] for w in ws], [w[1] for w in ws]), BMM_SCALE)


def head_rows(row0, rows_vals):
    """expect.mem.vram from row0 on: whole rows of BF16 bits; a run of None is a run of +0.0
    rows (the checker wants every written row in some expect region)."""
    out, i = ["    vram:"], 0
    while i < len(rows_vals):
        if rows_vals[i] is None:
            n = 1
            while i + n < len(rows_vals) and rows_vals[i + n] is None:
                n += 1
            out.append(f"      - {{row: {row0 + i}, fill: 0.0, rows: {n}}}")
            i += n
        else:
            out.append(fmt_row("bf16", row0 + i, rows_vals[i], fmt_bf16).replace("    - ",
                                                                                "      - ", 1))
            i += 1
    return out


# ---- M_TMM/mx32_txdot ----------------------------------------------------------------------


def case_tmm():
    # Tile 2 (MRAM rows 128..191, all read), activation VRAM rows 4..7. Two M_TMM: c = 20
    # (scale byte floor(20/32) = 0 of every tile row; floor(c/16) = 1 and floor(c/8) = 2 would
    # be wrong) and c = 44 (byte 1; floor(c/16) = 2, floor(c/8) = 5 are past the row's two).
    # Every tile row's two scales differ.
    w = {r: rand_mx_row() for r in range(128, 192)}
    a = {r: [rand_bf16() for _ in range(MLEN)] for r in range(4, 8)}
    # Column 20: codes 1.0 in tile rows 0..32, 0 below; those rows' byte 0 = 127, byte 1 = 130.
    # Column 44: codes 0.5 in rows 0..32, 0 below; byte 1 = 130 (x 8), so each q = 4 x A.
    for k in range(MLEN):
        w[128 + k][20] = ONE if k <= 32 else 0
        w[128 + k][44] = HALF if k <= 32 else 0
    for k in range(33):
        w[128 + k][MLEN:] = [127, 130]
    # A row 0: 2^24 at 0, 1 at 16 and 24, -2^24 at 32. Column 20: block 0 tree (2^24 + 0) +
    # (1 + 1) = 2^24 + 2, block 1 -2^24 -> 2 (byte 1's scale would give 16). Column 44: q = 4A:
    # (2^26 + 0) + (4 + 4) = 2^26 + 8, then -2^26 -> 8 (a running sum of the four 8-subtrees
    # gives 2^26 and 0; byte 0's scale would give 1).
    a[4][:33] = [b(P24)] + [0] * 15 + [b(1)] + [0] * 7 + [b(1)] + [0] * 7 + [b(-P24)]
    res = {}
    for c0 in (20, 44):
        acc = [[F(0) for _ in range(BLEN)] for _ in range(BLEN)]
        for i in range(BLEN):
            for j in range(BLEN):
                col = c0 + j
                for blk in range(NB):
                    rows = [w[128 + MX_BLOCK * blk + t] for t in range(MX_BLOCK)]
                    lo = MX_BLOCK * blk
                    acc[i][j] = add(acc[i][j], txdot(a[4 + i][lo:lo + MX_BLOCK],
                                                     [r[col] for r in rows],
                                                     [r[MLEN + col // MX_BLOCK] for r in rows]))
        res[c0] = acc
    assert res[20][0][0].v == 2 and res[44][0][0].v == 8
    asm = """; M_TMM on mx32 (MX_BLOCK 32): activation VRAM rows 4..7 (gp[rs1] = 256); tile 2 (MRAM rows
; 128..191, 66 bytes each: 64 codes, then 2 E8M0 scales, which differ in every row), read
; transposed: element k of column c+j is code row_k[c+j] with row k's scale of block
; floor((c+j)/32). TXDOT per isa.yaml (each product scaled, then the pairwise tree over 32, the
; two K blocks added in order). First c = 20 (gp[rs2] = 2*4096 + 20*64 = 9472): scale byte 0
; (floor(c/16) = 1 or floor(c/8) = 2 would be wrong). Then c = 44 (gp[rs2] = 11008): byte 1.
; acc[0][0] of c = 20: A row 0 = 2^24 at 0, 1 at 16 and 24, -2^24 at 32 against codes 1.0 with
; scale 127 (byte 1 of those rows is 130) -> (2^24 + 0) + (1 + 1) = 2^24 + 2, then -2^24 -> 2.
; acc[0][0] of c = 44: codes 0.5 with byte 1 = 130 -> (2^26 + 0) + (4 + 4), then -2^26 -> 8.
; Everything else random (expected values: scripts/conformance_mx32.py, an exact oracle).
; M_MM_WO writes rows 10..13, columns 20..23, then columns 44..47, and clears acc each time.
; Latencies: M_TMM MLEN + BLEN*MLEN/MX_BLOCK + 1 = 73, M_MM_WO BLEN = 4.
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 9472
M_TMM 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MM_WO gp5, gp0, 20  ; rows 10..13 cols 20..23
S_ADDI_INT gp3, gp0, 11008
M_TMM 0, gp1, gp3
M_MM_WO gp5, gp0, 44  ; rows 10..13 cols 44..47
"""
    fill = b(7)
    expect = ["expect:", "  retired: 8", f"  cycles: {4 + 2 * 73 + 2 * 4}",
              "  regs: {gp1: 256, gp2: 9472, gp3: 11008, gp5: 640}", "  mem:"]
    rows = []
    for i in range(BLEN):
        cols = {}
        for c0 in (20, 44):
            for j in range(BLEN):
                cols[c0 + j] = bf16_bits(bf16(res[c0][i][j]))
        rows.append((10 + i, cols))
    expect += out_rows(fill, rows)
    write_case("M_TMM", "mx32_txdot", asm, sorted(w.items()), sorted(a.items()) +
               [(10, "fill: 7.0, rows: 4")], expect)


# ---- M_BMV/mx32_heads ----------------------------------------------------------------------


def case_bmv():
    # a = gp[rs1] + gp[rd] = 12288 + 16: tile 3, r0 = 16, MRAM rows 208..223 (207 and 224 hold
    # other data). K runs down tile column c; W[r][c]'s scale is row r's byte floor(c/32), so
    # columns 0..31 take byte 0 and 32..63 byte 1 (floor(c/16) would take byte 1 for 16..31).
    w = {r: rand_mx_row() for r in range(207, 225)}
    act = [rand_bf16() for _ in range(MLEN)]
    hv = [[F(0) for _ in range(MLEN)] for _ in range(NH)]
    for h in range(NH):
        for c in range(MLEN):
            xs = [act[d * NH + h] for d in range(HLEN)]
            hv[h][c] = add(hv[h][c], hdot(xs, [code(w[208 + d], c) for d in range(HLEN)]))
    asm = """; M_BMV on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): a = gp[rs1] + gp[rd] = 12288 + 16: tile
; 3, row offset r0 = 16, MRAM rows 208..223 (66 bytes each; rows 207 and 224 hold other data).
; Activation VRAM row 5 (gp[rs2] = 320), [HLEN][B]: head b's element d is A[d*4 + b]. W[r][c] is
; code Tile[r][c] with row r's scale byte floor(c/32): one scale covers two heads' worth of
; columns (0..31 byte 0, 32..63 byte 1; the two bytes differ in every row, so indexing the scale
; by floor(c/16) or floor(c/8) fails). hv[b][c] += tree_d((A[d*4 + b] x e4m3(W[16+d][c])) x
; 2^(scale-127)) x 0.25 (BMM_SCALE). Random data (expected values: scripts/conformance_mx32.py,
; an exact oracle). M_BMV_WO writes bf16_rne(hv[b]) to VRAM rows 10 + b and clears hv.
; Latencies: M_BMV HLEN + B*MLEN + 1 = 273, M_BMV_WO B = 4.
S_ADDI_INT gp1, gp0, 12288
S_ADDI_INT gp3, gp0, 16
S_ADDI_INT gp2, gp0, 320
M_BMV gp3, gp1, gp2
S_ADDI_INT gp4, gp0, 640
M_BMV_WO gp4, 0
"""
    expect = ["expect:", "  retired: 6", f"  cycles: {4 + 273 + 4}",
              "  regs: {gp1: 12288, gp2: 320, gp3: 16, gp4: 640}", "  mem:"]
    expect += head_rows(10, [[bf16_bits(bf16(v)) for v in hv[h]] for h in range(NH)])
    write_case("M_BMV", "mx32_heads", asm, sorted(w.items()),
               [(5, act), (10, "fill: 7.0, rows: 4")], expect)


# ---- M_BTMV/mx32_heads ---------------------------------------------------------------------


def case_btmv():
    # Tile 2 (MRAM rows 128..191, all read). K runs along tile row c, columns r0..r0+15, whose
    # scale is row c's byte floor((r0+d)/32). Two M_BTMV into the same hv: r0 = 16 (columns
    # 16..31, byte 0; floor/16 gives 1) with activation VRAM row 6, then r0 = 32 (columns 32..47,
    # byte 1; floor(d/32) without r0 gives 0, floor/16 gives 2) with row 7.
    w = {r: rand_mx_row() for r in range(128, 192)}
    acts = {r: [rand_bf16() for _ in range(MLEN)] for r in (6, 7)}
    hv = [[F(0) for _ in range(MLEN)] for _ in range(NH)]
    for r0, ar in ((16, 6), (32, 7)):
        for h in range(NH):
            xs = acts[ar][h * HLEN:(h + 1) * HLEN]
            for c in range(MLEN):
                hv[h][c] = add(hv[h][c], hdot(xs, [code(w[128 + c], r0 + d)
                                                   for d in range(HLEN)]))
    asm = """; M_BTMV on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): tile 2 (gp[rs1] = 8192; MRAM rows
; 128..191, all read, 66 bytes each, the two scale bytes differ in every row), read transposed:
; K runs along tile row c, element d is code Tile[c][r0+d] with row c's scale byte
; floor((r0+d)/32). The activation is head-contiguous ([B][HLEN]): head b's element d is
; A[b*16 + d]. hv[b][c] += tree_d((A[b*16 + d] x e4m3(Tile[c][r0+d])) x 2^(scale-127)) x 0.25.
; Two M_BTMV into the same hv, one on each side of the 32 boundary: r0 = 16 (gp[rd] = 16,
; columns 16..31, scale byte 0; floor((r0+d)/16) would give 1) with VRAM row 6 (gp[rs2] = 384),
; then r0 = 32 (columns 32..47, byte 1; floor(d/32) would give 0) with VRAM row 7 (448).
; Random data (expected values: scripts/conformance_mx32.py, an exact oracle). M_BMV_WO writes
; bf16_rne(hv[b]) to VRAM rows 16 + b and clears hv.
; Latencies: M_BTMV MLEN + B*MLEN + 1 = 321, M_BMV_WO B = 4.
S_ADDI_INT gp1, gp0, 8192
S_ADDI_INT gp3, gp0, 16
S_ADDI_INT gp2, gp0, 384
M_BTMV gp3, gp1, gp2
S_ADDI_INT gp3, gp0, 32
S_ADDI_INT gp2, gp0, 448
M_BTMV gp3, gp1, gp2
S_ADDI_INT gp4, gp0, 1024
M_BMV_WO gp4, 0
"""
    expect = ["expect:", "  retired: 9", f"  cycles: {6 + 2 * 321 + 4}",
              "  regs: {gp1: 8192, gp2: 448, gp3: 32, gp4: 1024}", "  mem:"]
    expect += head_rows(16, [[bf16_bits(bf16(v)) for v in hv[h]] for h in range(NH)])
    write_case("M_BTMV", "mx32_heads", asm, sorted(w.items()),
               sorted(acts.items()) + [(16, "fill: 7.0, rows: 4")], expect)


# ---- M_BMM/mx32_heads and M_BTMM/mx32_heads ------------------------------------------------


def case_bmm():
    # a = gp[rs1] = 8208: tile 2, r0 = 16, MRAM rows 144..159 (143 and 160 hold other data).
    # Activation VRAM rows 100..163 ([HLEN][B] each); only m = 0 and 63 are nonzero, and rows 99
    # and 164 just outside are nonzero too. W[r][c]'s scale is byte floor(c/32) of row r.
    w = {r: rand_mx_row() for r in range(143, 161)}
    nz = (0, 63)
    acts = {100 + m: [rand_bf16() for _ in range(MLEN)] for m in nz}
    acts[99] = [rand_bf16() for _ in range(MLEN)]
    acts[164] = [rand_bf16() for _ in range(MLEN)]
    hm = {}
    for m in nz:
        for h in range(NH):
            xs = [acts[100 + m][d * NH + h] for d in range(HLEN)]
            hm[h * MLEN + m] = [add(F(0), hdot(xs, [code(w[144 + d], c) for d in range(HLEN)]))
                                for c in range(MLEN)]
    asm = """; M_BMM on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): a = gp[rs1] = 8208: tile 2, row offset
; r0 = 16, MRAM rows 144..159 (66 bytes each, the two scale bytes differ in every row; rows 143
; and 160 hold other data). The activation is the 64 VRAM rows 100..163 (gp[rs2] = 6400), each
; [HLEN][B] (head b's element d is A_m[d*4 + b]); only m = 0 and 63 are nonzero (rows 99 and 164
; just outside are nonzero too and must not be read). W[r][c] is code Tile[r][c] with row r's
; scale byte floor(c/32): columns 0..31 byte 0, 32..63 byte 1 (floor(c/16) or floor(c/8) fail).
; hm[b*64 + m][c] += tree_d((A_m[d*4 + b] x e4m3(W[16+d][c])) x 2^(scale-127)) x 0.25.
; M_BMM_WO writes bf16_rne(hm[i]) to VRAM row 1000 + i for i < 256 (prefilled with 7.0): rows
; 1000 + 64b + m; m = 0, 63 carry values, the zero activation rows give +0.0. Random data
; (expected values: scripts/conformance_mx32.py, an exact oracle).
; Latencies: M_BMM HLEN + B*MLEN*MLEN + 1 = 16401, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, 8208
S_ADDI_INT gp2, gp0, 6400
M_BMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 64000
M_BMM_WO gp4, 0
"""
    expect = ["expect:", "  retired: 5", f"  cycles: {3 + 16401 + 257}",
              "  regs: {gp1: 8208, gp2: 6400, gp4: 64000}", "  mem:"]
    expect += head_rows(1000, [[bf16_bits(bf16(v)) for v in hm[i]] if i in hm else None
                                 for i in range(NH * MLEN)])
    write_case("M_BMM", "mx32_heads", asm, sorted(w.items()),
               sorted(acts.items()) + [(1000, "fill: 7.0, rows: 256")], expect)


def case_btmm():
    # Tile 1 (MRAM rows 64..127, all read); K runs along tile row c, columns r0..r0+15 with row
    # c's scale byte floor((r0+d)/32). Two M_BTMM into the same hm, on both sides of the 32
    # boundary: r0 = 16 (byte 0) and r0 = 48 (byte 1), both on activation VRAM rows 300..363
    # ([B][HLEN] each), of which only m = 1 and 62 are nonzero (299 and 364 are nonzero too).
    w = {r: rand_mx_row() for r in range(64, 128)}
    nz = (1, 62)
    acts = {300 + m: [rand_bf16() for _ in range(MLEN)] for m in nz}
    acts[299] = [rand_bf16() for _ in range(MLEN)]
    acts[364] = [rand_bf16() for _ in range(MLEN)]
    hm = {h * MLEN + m: [F(0)] * MLEN for m in nz for h in range(NH)}
    for r0 in (16, 48):
        for m in nz:
            for h in range(NH):
                xs = acts[300 + m][h * HLEN:(h + 1) * HLEN]
                i = h * MLEN + m
                hm[i] = [add(hm[i][c], hdot(xs, [code(w[64 + c], r0 + d) for d in range(HLEN)]))
                         for c in range(MLEN)]
    asm = """; M_BTMM on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): tile 1 (MRAM rows 64..127, all read, 66
; bytes each, the two scale bytes differ in every row), read transposed: K runs along tile row
; c, element d is code Tile[c][r0+d] with row c's scale byte floor((r0+d)/32). The activation is
; the 64 VRAM rows 300..363 (gp[rs2] = 19200), each head-contiguous ([B][HLEN]: head b's element
; d is A_m[b*16 + d]); only m = 1 and 62 are nonzero (rows 299 and 364 just outside are nonzero
; too and must not be read). hm[b*64 + m][c] += tree_d((A_m[b*16 + d] x e4m3(Tile[c][r0+d])) x
; 2^(scale-127)) x 0.25. Two M_BTMM into the same hm, one on each side of the 32 boundary:
; r0 = 16 (gp[rs1] = 4112, scale byte 0; floor((r0+d)/16) would give 1), then r0 = 48 (4144,
; byte 1; floor(d/32) would give 0). M_BMM_WO writes bf16_rne(hm[i]) to VRAM row 2000 + i for
; i < 256 (prefilled with 7.0): rows 2000 + 64b + m; m = 1, 62 carry values, the zero
; activation rows give +0.0. Random data (expected values: scripts/conformance_mx32.py, an exact
; oracle).
; Latencies: M_BTMM MLEN + B*MLEN*MLEN + 1 = 16449, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, 4112
S_ADDI_INT gp2, gp0, 19200
M_BTMM 0, gp1, gp2
S_ADDI_INT gp1, gp0, 4144
M_BTMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 128000
M_BMM_WO gp4, 0
"""
    expect = ["expect:", "  retired: 7", f"  cycles: {4 + 2 * 16449 + 257}",
              "  regs: {gp1: 4144, gp2: 19200, gp4: 128000}", "  mem:"]
    expect += head_rows(2000, [[bf16_bits(bf16(v)) for v in hm[i]] if i in hm else None
                                 for i in range(NH * MLEN)])
    write_case("M_BTMM", "mx32_heads", asm, sorted(w.items()),
               sorted(acts.items()) + [(2000, "fill: 7.0, rows: 256")], expect)


if __name__ == "__main__":
    case_mm()
    case_mv()
    case_tmv()
    case_store()
    case_tmm()
    case_bmv()
    case_btmv()
    case_bmm()
    case_btmm()
