#!/usr/bin/env python3
"""Independent oracle for the M_BMM / M_BTMM / M_BMM_WO conformance cases (default preset).

Writes testbenches/conformance/{M_BMM,M_BTMM}/layout and M_BMM/{accumulate,after_wo} (.asm and
.yaml): the inputs come from a fixed-seed generator; the expected VRAM rows are computed here from
isa.yaml's semantics with Python arithmetic (no moesim code): BF16 / E4M3 / E8M0 decoded by their
definitions, every FP32 RNE step as a binary64 operation rounded to binary32 (exact for products of
two binary32 values; for sums binary64 has 53 >= 2*24+2 bits, so the double rounding is innocuous),
the pairwise tree over HLEN, times BMM_SCALE = 0.25, the FP32 add into hm, then BF16 RNE.

Usage: scripts/oracle_bmm.py [REPO]   (REPO defaults to this script's parent directory)
"""
import math
import os
import random
import struct
import sys

MLEN, VLEN, HLEN, MX = 64, 64, 16, 8
B = MLEN // HLEN
NAN = float("nan")


def f32(x):
    """Round a binary64 value to binary32 (RNE), overflow to infinity."""
    if math.isnan(x):
        return NAN
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def add(a, b):
    return f32(a + b)


def mul(a, b):
    return f32(a * b)


def bf16_val(u):
    return struct.unpack("<f", struct.pack("<I", u << 16))[0]


def e4m3_val(c):
    s = -1.0 if c & 0x80 else 1.0
    e, m = (c >> 3) & 0xF, c & 7
    if e == 0xF and m == 7:
        return NAN
    if e == 0:
        return s * m / 8.0 * 2.0 ** -6
    return s * (1 + m / 8.0) * 2.0 ** (e - 7)


def e8m0_val(s):
    return NAN if s == 0xFF else 2.0 ** (s - 127)


def tree(q):
    while len(q) > 1:
        q = [add(q[2 * i], q[2 * i + 1]) for i in range(len(q) // 2)]
    return q[0]


def bf16_rne(x):
    if math.isnan(x):
        return 0x7FC0
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def hdot(tile, r0, act, b, c, transposed):
    """isa.yaml M_BMV / M_BTMV HDOT(b, c) x BMM_SCALE (tile: MLEN rows of (codes, scales))."""
    q = []
    for d in range(HLEN):
        row, col = (c, r0 + d) if transposed else (r0 + d, c)
        x = act[b * HLEN + d] if transposed else act[d * B + b]
        codes, scales = tile[row]
        q.append(mul(mul(bf16_val(x), e4m3_val(codes[col])), e8m0_val(scales[col // MX])))
    return mul(tree(q), 0.25)


def bmm(hm, tile, r0, rows, transposed):
    for m in range(MLEN):
        for b in range(B):
            for c in range(MLEN):
                i = b * MLEN + m
                hm[i][c] = add(hm[i][c], hdot(tile, r0, rows[m], b, c, transposed))


def rand_row(rng):
    codes = []
    for _ in range(MLEN):
        c = rng.randrange(256)
        codes.append(c & 0xFE if (c & 0x7F) == 0x7F else c)  # no NaN codes
    return codes, [rng.randrange(120, 134) for _ in range(MLEN // MX)]


def rand_act(rng):
    return [((rng.randrange(2) << 15) | (rng.randrange(118, 134) << 7) | rng.randrange(128))
            for _ in range(VLEN)]


def fmt_bf16(u):
    v = bf16_val(u)
    return '"0x%04X"' % u if not math.isfinite(v) else repr(v)


def mram_lines(rows):
    out = []
    for r in sorted(rows):
        codes, scales = rows[r]
        out.append("    - {row: %d, bytes: [%s]}" % (r, ", ".join(str(x) for x in codes + scales)))
    return out


def vram_line(r, vals, indent="    "):
    return indent + "- {row: %d, bf16: [%s]}" % (r, ", ".join(fmt_bf16(u) for u in vals))


def expect_rows(hm, row0, indent="      "):
    """expect.mem.vram regions for hm written at row0: zero runs as fills."""
    out, i, n = [], 0, len(hm)
    while i < n:
        bits = [bf16_rne(x) for x in hm[i]]
        if all(u == 0 for u in bits):
            j = i
            while j < n and all(bf16_rne(x) == 0 for x in hm[j]):
                j += 1
            out.append(indent + "- {row: %d, fill: 0.0, rows: %d}" % (row0 + i, j - i))
            i = j
        else:
            out.append(vram_line(row0 + i, bits, indent))
            i += 1
    return out


def tile_of(mram, t):
    zero = ([0] * MLEN, [0] * (MLEN // MX))
    return [mram.get(t * MLEN + r, zero) for r in range(MLEN)]


def rows_of(vram, r0):
    return [vram.get(r0 + m, [0] * VLEN) for m in range(MLEN)]


def write(d, name, asm, init_m, init_v, exp):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".asm"), "w") as f:
        f.write(asm)
    y = ["init:"]
    if init_m:
        y += ["  mram:"] + mram_lines(init_m)
    if init_v:
        y += ["  vram:"] + [vram_line(r, init_v[r]) for r in sorted(init_v)]
    y += exp
    with open(os.path.join(d, name + ".yaml"), "w") as f:
        f.write("\n".join(y) + "\n")


def layout(repo, transposed):
    rng = random.Random(31 if transposed else 17)
    mn = "M_BTMM" if transposed else "M_BMM"
    tile, r0 = (1, 48) if transposed else (2, 32)
    arow, live = (300, [0, 2, 62]) if transposed else (100, [0, 1, 63])
    wrow = 2000 if transposed else 1000
    # The whole tile (M_BTMM reads all of it) or tile rows r0-16 .. r0+HLEN+15 (M_BMM reads
    # r0 .. r0+HLEN-1; its neighbours hold data so a wrong row offset shows).
    span = range(MLEN) if transposed else range(r0 - 16, r0 + HLEN + 16)
    mram = {tile * MLEN + r: rand_row(rng) for r in span}
    # Activation rows m in `live` and the rows just outside the block are nonzero.
    vram = {arow + m: rand_act(rng) for m in live + [-1, MLEN]}
    hm = [[0.0] * MLEN for _ in range(B * MLEN)]
    bmm(hm, tile_of(mram, tile), r0, rows_of(vram, arow), transposed)
    a = tile * MLEN * MLEN + r0
    lay = "[B][HLEN] (head b's element d is A_m[b*16 + d])" if transposed else \
          "[HLEN][B] (head b's element d is A_m[d*4 + b])"
    read = "all 64 rows of tile %d, columns %d..%d" % (tile, r0, r0 + HLEN - 1) if transposed \
        else "MRAM rows %d..%d (tile rows %d..%d; the rows around them hold other data)" % (
            tile * MLEN + r0, tile * MLEN + r0 + HLEN - 1, r0, r0 + HLEN - 1)
    lat = (MLEN if transposed else HLEN) + B * MLEN * MLEN + 1
    asm = f"""; {mn}: a = gp[rs1] = {a}: tile T = {tile}, row offset r0 = {r0}; reads {read}.
; The activation is the 64 VRAM rows {arow}..{arow + 63} (gp[rs2] = {arow * VLEN}), each laid out
; {lay}; only rows m = {", ".join(map(str, live))} are nonzero (rows {arow - 1} and {arow + 64} just
; outside the block are nonzero too and must not be read). For m < 64, b < 4, c < 64:
; hm[b*64 + m][c] += HDOT_m(b, c) x 0.25. M_BMM_WO writes bf16_rne(hm[i]) to VRAM row {wrow} + i for
; i < 256: rows {wrow} + 64b + m. Zero activation rows give +0.0. Expected values: scripts/oracle_bmm.py.
; Latencies: {mn} {lat}, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, {a}
S_ADDI_INT gp2, gp0, {arow * VLEN}
{mn} 0, gp1, gp2
S_ADDI_INT gp4, gp0, {wrow * VLEN}
M_BMM_WO gp4, 0
"""
    exp = ["expect:", "  retired: 5", "  cycles: %d" % (3 + lat + 257),
           "  regs: {gp1: %d, gp2: %d, gp4: %d}" % (a, arow * VLEN, wrow * VLEN),
           "  mem:", "    vram:"] + expect_rows(hm, wrow)
    write(os.path.join(repo, "testbenches/conformance", mn), "layout", asm, mram, vram, exp)


def accumulate(repo):
    rng = random.Random(23)
    mram = {r: rand_row(rng) for r in range(MLEN)}  # tile 0
    arow, m5 = 400, 5
    vram = {arow + m5: rand_act(rng)}
    tile = tile_of(mram, 0)
    rows = rows_of(vram, arow)
    hm = [[0.0] * MLEN for _ in range(B * MLEN)]
    bmm(hm, tile, 0, rows, False)      # M_BMM 0, gp0, gp2: tile 0, r0 = 0
    hv = [[0.0] * MLEN for _ in range(B)]
    for b in range(B):                 # M_BMV gp0, gp0, gp3: tile 0, r0 = 0, row 405
        for c in range(MLEN):
            hv[b][c] = add(hv[b][c], hdot(tile, 0, rows[m5], b, c, False))
    bmm(hm, tile, 16, rows, True)      # M_BTMM 0, gp5, gp2: tile 0, r0 = 16
    asm = """; M_BMM and M_BTMM accumulate into one per-head matrix accumulator hm (B*MLEN x MLEN FP32),
; separate from M_BMV's hv: M_BMM (tile 0, r0 = 0), M_BMV (tile 0, r0 = 0, VRAM row 405), M_BTMM
; (tile 0, r0 = gp[rs1] = 16), both matrix ops on VRAM rows 400..463 of which only row 405 (m = 5)
; is nonzero. M_BMV_WO writes hv alone (M_BMV's result) to rows 3000..3003; M_BMM_WO writes hm
; (both ops' sums, FP32 RNE in program order; nonzero rows 1000 + 64b + 5) to rows 1000..1255 and
; clears it: the second M_BMM_WO (imm 16384 in imm18: rows 1256..1511) writes +0.0.
; Expected values: scripts/oracle_bmm.py.
; Latencies: M_BMM 16401, M_BMV 273, M_BTMM 16449, M_BMV_WO 4, M_BMM_WO 257.
S_ADDI_INT gp2, gp0, 25600
S_ADDI_INT gp3, gp0, 25920
S_ADDI_INT gp5, gp0, 16
S_ADDI_INT gp6, gp0, 192000
S_ADDI_INT gp4, gp0, 64000
M_BMM 0, gp0, gp2
M_BMV gp0, gp0, gp3
M_BTMM 0, gp5, gp2
M_BMV_WO gp6, 0
M_BMM_WO gp4, 0
M_BMM_WO gp4, 16384
"""
    exp = ["expect:", "  retired: 11", "  cycles: %d" % (5 + 16401 + 273 + 16449 + 4 + 257 + 257),
           "  regs: {gp2: 25600, gp3: 25920, gp4: 64000, gp5: 16, gp6: 192000}",
           "  mem:", "    vram:"]
    exp += [vram_line(3000 + b, [bf16_rne(x) for x in hv[b]], "      ") for b in range(B)]
    exp += expect_rows(hm, 1000)
    exp += ["      - {row: 1256, fill: 0.0, rows: 256}"]
    write(os.path.join(repo, "testbenches/conformance/M_BMM"), "accumulate", asm, mram, vram, exp)


def after_wo(repo):
    rng = random.Random(29)
    mram = {r: rand_row(rng) for r in range(MLEN)}  # tile 0
    arow, live = 400, [3, 60]
    vram = {arow + m: rand_act(rng) for m in live}
    hm = [[0.0] * MLEN for _ in range(B * MLEN)]
    bmm(hm, tile_of(mram, 0), 0, rows_of(vram, arow), False)
    asm = """; M_BMM after M_BMM_WO starts from a cleared hm: M_BMM (tile 0, r0 = 0, VRAM rows 400..463 of
; which rows 403 and 460 are nonzero), M_BMM_WO to rows 1000..1255, the same M_BMM again and
; M_BMM_WO to rows 1256..1511: both write the one M_BMM's hm (rows 1000 / 1256 + 64b + 3 and
; + 60 nonzero). An hm row cleared by M_BMM_WO reads +0.0 even though its words still hold the old
; sums, so a second M_BMM that added to them would write twice the values.
; Expected values: scripts/oracle_bmm.py.
; Latencies: M_BMM 16401, M_BMM_WO 257.
S_ADDI_INT gp2, gp0, 25600
S_ADDI_INT gp4, gp0, 64000
S_ADDI_INT gp5, gp0, 80384
M_BMM 0, gp0, gp2
M_BMM_WO gp4, 0
M_BMM 0, gp0, gp2
M_BMM_WO gp5, 0
"""
    exp = ["expect:", "  retired: 7", "  cycles: %d" % (3 + 2 * (16401 + 257)),
           "  regs: {gp2: 25600, gp4: 64000, gp5: 80384}",
           "  mem:", "    vram:"]
    exp += expect_rows(hm, 1000) + expect_rows(hm, 1256)
    write(os.path.join(repo, "testbenches/conformance/M_BMM"), "after_wo", asm, mram, vram, exp)


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    layout(repo, False)
    layout(repo, True)
    accumulate(repo)
    after_wo(repo)


if __name__ == "__main__":
    main()
