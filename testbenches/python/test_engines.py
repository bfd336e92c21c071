"""moesim.Golden and moesim.Rtl: load, step (every record field), run, registers, typed memory
reads and writes, checkpoints, and bad input (wrong types, closed engines, out-of-range
indices, a second golden engine) raising Python exceptions."""
import numpy as np
import pytest

import moesim

# Row 10 = row 1 + row 2 (VRAM element addresses: row r is r * VLEN = r * 64); then a scalar
# store to INT SRAM and a BF16 load from FP SRAM.
PROGRAM = """\
; @stage=residual_setup
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 640
; @stage=expert_projection
V_ADD_VV gp3, gp1, gp2
S_ST_INT gp3, gp0, 5
S_LD_FP f1, gp0, 2
"""


def image():
    img = moesim.Image()
    img.add("vram", 1, moesim.float32_to_bf16(np.linspace(-4, 4, 128, dtype=np.float32)).reshape(2, 64))
    img.add("fp_sram", 2, moesim.float32_to_bf16(np.array([1.5], np.float32)))
    return img


def records(engine):
    out = []
    while (r := engine.step()) is not None:
        out.append(r)
    return out


@pytest.mark.parametrize("kind", ["golden", "rtl"])
def test_step_fills_every_record_field(kind, golden, rtl):
    e = golden if kind == "golden" else rtl
    assert e.name == kind and e.machine.name == "default"
    e.load(PROGRAM, image())
    rs = records(e)
    assert [r.pc for r in rs] == list(range(6)) and [r.index for r in rs] == list(range(6))
    assert all(r.kind == "retire" and r.trap is None for r in rs)
    add = rs[3]
    assert add.disassembly == "V_ADD_VV gp3, gp1, gp2, 0" and add.stage == 7
    assert add.stage_name == "expert_projection"
    assert add.end_cycle - add.start_cycle == 2 and add.ready_cycle == add.start_cycle
    assert add.stall_cycles == 0 and add.stall_cause == "none"
    (space, begin, end, digest), = add.mems
    assert (space, begin, end) == ("vram", 10, 11) and digest != 0
    assert rs[0].regs == [("gp1", 64)] and rs[5].regs == [("f1", 0x3FC0)]
    assert rs[4].mems[0][:3] == ("int_sram", 5, 6)
    assert add.hbm_read == 0 and add.hbm_written == 0
    d = add.to_dict()
    assert d["disassembly"] == add.disassembly and d["mems"][0]["space"] == "vram"
    assert "V_ADD_VV" in repr(add)
    assert e.step() is None and e.halted and e.retired == 6 and e.cycles == rs[-1].end_cycle
    regs = e.regs
    assert regs.gp[3] == 640 and regs["f1"] == 0x3FC0 and regs.stride == 1
    assert regs.as_dict()["gp2"] == 128
    # Typed memory.
    row = e.read("vram", 10, 1)
    assert row.dtype == np.uint16 and row.shape == (1, 64)
    x = moesim.bf16_to_float32(moesim.float32_to_bf16(np.linspace(-4, 4, 128, dtype=np.float32)))
    want = moesim.float32_to_bf16(x[:64] + x[64:])
    assert (row[0] == want).all()
    assert e.read("int_sram", 5, 1).tolist() == [640]
    codes, scales = e.read("mram", 0, 2)
    assert codes.shape == (2, 64) and scales.shape == (2, 8) and codes.dtype == np.uint8
    assert e.read("fp_sram").shape == (e.size("fp_sram"),)
    assert e.read("hbm", 0, 16).dtype == np.uint8


def test_both_engines_give_equal_records(golden, rtl):
    golden.load(PROGRAM, image())
    rtl.load(PROGRAM, image())
    g, r = records(golden), records(rtl)
    assert g == r and all(moesim.differing_fields(a, b) == [] for a, b in zip(g, r))


@pytest.mark.parametrize("kind", ["golden", "rtl"])
def test_run_returns_the_run_report(kind, golden, rtl):
    e = golden if kind == "golden" else rtl
    e.load(PROGRAM, image())
    e.step()
    rep = e.run()
    # From where the engine was to the end; instructions counts every retire of the run.
    assert rep["engine"] == kind and rep["instructions"] == 6 and not rep["limit_reached"]
    assert rep["stages"]["expert_projection"]["instructions"] == 3
    e.load(PROGRAM, image())
    assert e.run(max_instructions=2)["limit_reached"]


@pytest.mark.parametrize("kind", ["golden", "rtl"])
def test_write_save_restore(kind, golden, rtl):
    e = golden if kind == "golden" else rtl
    e.load(PROGRAM, image())
    for _ in range(3):
        e.step()
    # Write the second input row before V_ADD_VV runs.
    ones = np.full((1, 64), 0x3F80, np.uint16)
    e.write("vram", 2, ones)
    assert (e.read("vram", 2, 1) == ones).all()
    cp = e.save()
    assert cp.pc == 3 and cp.retired == 3 and cp.regs.gp[3] == 640
    assert (cp.read("vram")[2] == ones[0]).all()
    first = records(e)
    after = e.read("vram", 10, 1)
    e.restore(cp)
    assert e.retired == 3 and records(e) == first and (e.read("vram", 10, 1) == after).all()
    assert e.save().differences(cp) != [] and cp == cp
    if kind == "rtl":
        return  # the rest is the same code (Engine.write) on the golden model: quicker
    # Memory write of every typed space.
    e.restore(cp)
    e.write("int_sram", 0, np.array([1, 2, 3], np.uint32))
    e.write("fp_sram", 7, np.array([0x4000], np.uint16))
    e.write("hbm", 5, np.array([9, 9], np.uint8))
    e.write("mram", 3, (np.full((1, 64), 0x40, np.uint8), np.full((1, 8), 126, np.uint8)))
    assert e.read("int_sram", 0, 3).tolist() == [1, 2, 3]
    assert e.read("fp_sram", 7, 1).tolist() == [0x4000]
    assert e.read("hbm", 5, 2).tolist() == [9, 9]
    codes, scales = e.read("mram", 3, 1)
    assert (codes == 0x40).all() and (scales == 126).all()


def test_checkpoint_moves_between_engines_and_files(golden, rtl, tmp_path):
    golden.load(PROGRAM, image())
    for _ in range(4):
        golden.step()
    cp = golden.save()
    rtl.restore(cp)
    assert rtl.save() == cp
    assert records(rtl) == records(golden)
    cp.write(str(tmp_path / "c.ckpt"))
    back = moesim.read_checkpoint(str(tmp_path / "c.ckpt"), cp.program, image())
    assert back == cp
    with pytest.raises(moesim.CheckpointError):
        moesim.read_checkpoint(str(tmp_path / "c.ckpt"), PROGRAM + "S_ADDI_INT gp1, gp0, 1\n", image())


def test_traps_end_the_program(golden):
    golden.load("S_ADDI_INT gp1, gp0, 1\nV_ADD_VV gp1, gp1, gp1\n")  # not a row address
    rs = records(golden)
    assert rs[-1].trap["name"] == "address_misaligned" and rs[-1].trap["pc"] == 1
    assert golden.retired == 1
    with pytest.raises(RuntimeError):  # a trapped machine has no checkpoint
        golden.save()


def test_bad_input_raises(golden, rtl):
    for e in (golden, rtl):
        with pytest.raises(RuntimeError, match="load"):
            e.step()
        e.load(PROGRAM)
        with pytest.raises(IndexError):
            e.read("vram", e.size("vram"), 1)
        with pytest.raises(IndexError):
            e.read("hbm", 2**40, 1)
        with pytest.raises(TypeError):
            e.read("vram", -1, 1)
        with pytest.raises(ValueError, match="unknown memory space"):
            e.read("sram", 0, 1)
        with pytest.raises(TypeError, match="uint16"):
            e.write("vram", 0, np.zeros((1, 64), np.float64))
        with pytest.raises(TypeError):
            e.write("vram", 0, [0] * 64)
        with pytest.raises(IndexError):
            e.write("int_sram", e.size("int_sram"), np.zeros(1, np.uint32))
        with pytest.raises(TypeError):
            e.load(123)
        with pytest.raises(TypeError):
            e.load(PROGRAM, "not an image")
        with pytest.raises(moesim.AsmError):
            e.load("V_NOPE gp1\n")
        with pytest.raises(ValueError):
            e.set_instruction_budget(0)
        with pytest.raises(ValueError):
            e.load(moesim.Program(np.zeros(70000, np.uint32)))  # past IMEM_WORDS


def test_closed_engines_raise():
    for make in (lambda: moesim.Golden("default"), lambda: moesim.Rtl("default")):
        e = make()
        e.load(PROGRAM)
        e.close()
        e.close()  # closing twice is fine
        assert e.closed and "closed" in repr(e)
        for call in (e.step, e.run, e.save, lambda: e.read("vram", 0, 1), lambda: e.regs,
                     lambda: e.load(PROGRAM), lambda: e.cycles):
            with pytest.raises(moesim.ClosedError):
                call()


def test_one_golden_engine_per_process():
    with moesim.Golden("default") as g:
        with pytest.raises(moesim.GoldenError, match="in use by an open moesim.Golden"):
            moesim.Golden("default")
        with pytest.raises(moesim.GoldenError):
            moesim.cosim(PROGRAM)  # needs the golden engine too
        g.load(PROGRAM, image())
        g.run()
    # Closed: the next user gets it back, reset (zero memories, registers at reset).
    with moesim.Golden("default", dma_queue=0) as g:
        assert g.machine["DMA_QUEUE"] == 0
        assert g.regs.gp[3] == 0 and not g.read("vram", 10, 1).any()
    # Another machine needs another process.
    with pytest.raises(moesim.GoldenError, match="elaborated for machine 'default'"):
        moesim.Golden("tiny")
    with moesim.Golden("default"):
        pass


def test_engine_type_checks():
    with pytest.raises(TypeError):
        moesim.Rtl(3)
    with pytest.raises(moesim.UsageError):
        moesim.Rtl("nope")
    with moesim.Rtl("tiny") as t:  # any number of RTL engines, of any built preset
        t.load(PROGRAM)
        assert t.run()["instructions"] == 6


def golden_tiny(_):
    with moesim.Golden("tiny") as g:
        g.load("S_ADDI_INT gp1, gp0, 7\n")
        g.run()
        return int(g.regs.gp[1])


def test_another_machine_in_a_spawned_process():
    # What docs/python.md says to do for a golden model of another machine.
    import multiprocessing
    with moesim.Golden("default"):
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            assert pool.map(golden_tiny, [0]) == [7]
