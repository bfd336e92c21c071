"""No leaked engines: loops of engine creation, load and run hold the process's resident set
flat (after a warm-up that lets the allocator settle)."""
import ctypes
import gc
import os

import numpy as np

import moesim

PROGRAM = """\
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 640
C_LOOP_START gp4, 50
V_ADD_VV gp3, gp1, gp2
C_LOOP_END gp4
"""
MB = 1 << 20
LIBC = ctypes.CDLL("libc.so.6")


def rss():
    # Freed heap chunks below a live one stay resident until malloc_trim hands them back; without
    # it, memory an earlier test freed absorbs a new leak and the reading does not move.
    gc.collect()
    LIBC.malloc_trim(0)
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


IMAGE = moesim.Image().add("vram", 1, np.full((2, 64), 0x3F80, np.uint16))


def cycle_rtl():
    # An RTL engine holds HBM_BYTES (64 MB on `default`) of backing store: a leaked one shows.
    e = moesim.Rtl("default")
    e.load(PROGRAM, IMAGE)
    e.run()
    e.read("hbm")  # a 64 MB array
    e.close()


def cycle_golden():
    with moesim.Golden("default") as g:
        g.load(PROGRAM, IMAGE)
        g.run()
        g.write("vram", 0, np.zeros((1, 64), np.uint16))  # a checkpoint of every memory


def test_engine_cycles_hold_rss_flat():
    for f in (cycle_rtl, cycle_golden):
        for _ in range(2):
            f()
        before = rss()
        for _ in range(5):
            f()
        grew = rss() - before
        print(f"{f.__name__}: RSS {before / MB:.0f} MB, {grew / MB:+.1f} MB after 5 more cycles")
        assert grew < 16 * MB, f"{f.__name__}: RSS grew {grew / MB:.1f} MB in 5 cycles"


def test_thousand_load_run_cycles_hold_rss_flat():
    # One engine of each kind loaded and run 1,000 times (about 10 s on the RTL): a leak of
    # 16 KB per load / run shows as 16 MB.
    for make in (moesim.Golden, moesim.Rtl):
        with make("default") as e:
            for _ in range(20):
                e.load(PROGRAM, IMAGE)
                e.run()
            before = rss()
            for _ in range(1000):
                e.load(PROGRAM, IMAGE)
                e.run()
            grew = rss() - before
        print(f"{make.__name__}: RSS {before / MB:.0f} MB, {grew / MB:+.1f} MB after 1,000 load / run")
        assert grew < 16 * MB, f"{make.__name__}: RSS grew {grew / MB:.1f} MB in 1,000 load / run"


def test_rss_probe_sees_a_planted_leak():
    # The probe the tests above trust: 1,000 retained 32 KB buffers (32 MB) must show, even on a
    # heap that holds 64 MB of freed chunks below a live one (what earlier tests leave behind).
    freed = [bytearray(b"y" * (32 << 10)) for _ in range(2000)]
    pin = bytearray(b"z" * (32 << 10))
    del freed
    before = rss()
    kept = [bytearray(b"x" * (32 << 10)) for _ in range(1000)]
    grew = rss() - before
    assert grew > 16 * MB, f"a planted 32 MB leak showed as {grew / MB:.1f} MB"
    del kept, pin


def test_abandoned_engines_are_freed():
    # Engines dropped without close() (garbage collected) free their models too.
    def drop():
        e = moesim.Rtl("default")
        e.load(PROGRAM)
        e.step()
    for _ in range(2):
        drop()
    before = rss()
    for _ in range(5):
        drop()
    grew = rss() - before
    print(f"dropped Rtl engines: RSS {before / MB:.0f} MB, {grew / MB:+.1f} MB after 5 more")
    assert grew < 16 * MB
    # And a dropped Golden hands the golden model back.
    g = moesim.Golden("default")
    del g
    gc.collect()
    moesim.Golden("default").close()


def test_cosim_runs_hold_rss_flat():
    layer = moesim.build_layer(model="gpt-oss-20b", tokens=4, hidden=64, intermediate=64)
    for _ in range(3):
        moesim.cosim(layer, max_instructions=500)
    before = rss()
    for _ in range(5):
        assert moesim.cosim(layer, max_instructions=500)["verdict"] == "STOPPED"
    grew = rss() - before
    print(f"cosim runs: RSS {before / MB:.0f} MB, {grew / MB:+.1f} MB after 5 more")
    assert grew < 16 * MB
