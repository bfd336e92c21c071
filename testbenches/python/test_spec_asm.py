"""moesim.Spec, moesim.Machine, the assembler and disassembler, Program and Image."""
import numpy as np
import pytest

import moesim
from conftest import cli, cli_error

PROGRAM = """\
; @stage=residual_setup
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
; @stage=expert_projection
; @pair=0,1,5
V_ADD_VV gp3, gp1, gp2
C_SET_STRIDE_REG gp1
"""


def test_spec_presets_instructions_stages():
    s = moesim.spec()
    assert {"default", "tiny", "mx32", "bench", "serial"} <= set(s.presets)
    assert s.units == ["scalar", "control", "vector", "topk", "matrix", "dma"]
    add = s.instruction("V_ADD_VV")
    assert add["unit"] == "vector" and [o["name"] for o in add["operands"]][:3] == ["rd", "rs1", "rs2"]
    assert add["latency"] == "2" and s.latency("V_ADD_VV", "default") == 2
    assert s.stage_name(7) == "expert_projection"
    assert any(t["name"] == "address_out_of_range" for t in s.traps)
    assert any(c["name"] == "TOPK_POLICY" for c in s.control_registers)
    assert "INSTRUCTION_BUDGET" in s.runtime_parameters
    with pytest.raises(KeyError):
        s.instruction("NOPE")
    # Spec(dir) loads the same files.
    assert moesim.Spec(s.dir).presets == s.presets


def test_machine():
    m = moesim.spec().machine("default")
    assert m.name == "default" and m["MLEN"] == 64 and m.params["DMA_QUEUE"] == 2
    assert m.size("vram") == 8192 and m.unit_bytes("vram") == 128
    assert m.unit_bytes("mram") == 64 + 8 and m.size("hbm") == 64 << 20
    serial = m.with_dma_queue(0)
    assert serial["DMA_QUEUE"] == 0 and serial.name == "default" and m["DMA_QUEUE"] == 2
    with pytest.raises(KeyError):
        m["NOPE"]
    with pytest.raises(ValueError, match="unknown memory space"):
        m.size("dram")
    with pytest.raises(ValueError):
        m.with_dma_queue(9)


def test_unknown_machine_has_the_cli_text():
    with pytest.raises(moesim.UsageError) as e:
        moesim.spec().machine("huge")
    assert str(e.value) == cli_error("cosim", "--machine", "huge", "--quiet")


def test_assemble_disassemble_round_trip():
    p = moesim.assemble(PROGRAM)
    assert len(p) == 4 and p.words.dtype == np.uint32
    assert list(p.stages) == [1, 1, 7, 7]
    assert p.lines == [2, 3, 6, 7]
    assert p.work == ["-", "-", "0,1,5", "0,1,5"]
    text = moesim.disassemble(p)
    assert moesim.assemble(text) == p
    assert moesim.disassemble(int(p.words[2])) == "V_ADD_VV gp3, gp1, gp2, 0"
    # Words alone (a list or an array) disassemble without stages.
    assert moesim.disassemble(list(p.words)).count("S_ADDI_INT") == 2
    assert moesim.Program(p.words).disassemble().count("\n") >= 4


def test_program_files_as_the_cli_reads_and_writes_them(tmp_path):
    src = tmp_path / "k.asm"
    src.write_text(PROGRAM)
    code, _, err = cli("asm", src, "-o", tmp_path / "cli.hex")
    assert code == 0, err
    p = moesim.Program.read(str(src))
    assert p == moesim.Program.read(str(tmp_path / "cli.hex"))
    p.write(str(tmp_path / "py.hex"))
    assert (tmp_path / "py.hex").read_text() == (tmp_path / "cli.hex").read_text()
    assert (tmp_path / "py.stages").read_text() == (tmp_path / "cli.stages").read_text()
    # The CLI's disassembly of the module's file re-assembles to the same program.
    code, out, err = cli("disasm", tmp_path / "py.hex")
    assert code == 0, err and moesim.assemble(out) == p


@pytest.mark.parametrize("text", [
    "S_ADDI_INT gp1, gp0, 64\nV_FOO gp1, gp2, gp3\n",        # unknown mnemonic
    "S_ADDI_INT gp1, gp0\n",                                 # operand count
    "S_ADDI_INT gp99, gp0, 1\n",                             # register index
    "; @stage=no_such_stage\nS_ADDI_INT gp1, gp0, 1\n",      # stage marker
    "S_ADDI_INT gp1, gp0, 0x1000000000\n",                   # immediate too wide
])
def test_assembly_errors_are_the_cli_errors(tmp_path, text):
    src = tmp_path / "bad.asm"
    src.write_text(text)
    with pytest.raises(moesim.AsmError) as e:
        moesim.assemble(text, file=str(src))
    assert str(e.value) == cli_error("asm", src, "-o", tmp_path / "bad.hex")
    assert e.value.file == str(src) and e.value.line >= 1 and e.value.col >= 1
    assert str(e.value).startswith(f"{src}:{e.value.line}:{e.value.col}: ")
    # An AsmError is a UsageError and a ValueError.
    assert isinstance(e.value, moesim.UsageError) and isinstance(e.value, ValueError)
    with pytest.raises(moesim.AsmError):
        moesim.Program.read(str(src))


def test_bad_arguments_raise():
    with pytest.raises(TypeError):
        moesim.assemble(42)
    with pytest.raises(TypeError):
        moesim.disassemble("S_ADDI_INT gp1, gp0, 1")
    with pytest.raises(ValueError):
        moesim.disassemble([-1])
    with pytest.raises(TypeError):
        moesim.Spec(3)
    with pytest.raises(moesim.SpecError):
        moesim.Spec("/nonexistent")
    with pytest.raises(moesim.UsageError):
        moesim.Program.read("/nonexistent.hex")


def test_image():
    m = moesim.spec().machine("default")
    img = moesim.Image()
    img.add("vram", 3, np.arange(128, dtype=np.uint16).reshape(2, 64))
    img.add("int_sram", 10, np.array([7, 8], dtype=np.uint32))
    img.add("hbm", 100, b"\x01\x02")
    img.add("mram", 1, (np.full((1, 64), 0x38, np.uint8), np.full((1, 8), 127, np.uint8)))
    (base, data), = img.segments("vram")
    assert base == 3 * 128 and len(data) == 256
    assert img.segments("mram")[0][0] == 72 and list(img.segments("mram")[0][1][62:66]) == [0x38, 0x38, 127, 127]
    with pytest.raises(TypeError, match="uint16"):
        img.add("vram", 0, np.zeros(64, dtype=np.float32))
    with pytest.raises(ValueError, match="whole units"):
        img.add("vram", 0, np.zeros(10, dtype=np.uint16))
    with pytest.raises(IndexError):
        img.add("vram", m.size("vram"), np.zeros(64, dtype=np.uint16))
    r = moesim.Image.random(1)
    assert len(r.segments("hbm")) == 1
    f = moesim.Image.from_file(moesim.spec().dir + "/../testbenches/conformance/V_ADD_VV/values.yaml")
    assert [b // 128 for b, _ in f.segments("vram")] == [1, 2]


def test_numerics_helpers():
    bits = np.array([0x3F80, 0xC000, 0x7FC0, 0x0001], dtype=np.uint16)
    f = moesim.bf16_to_float32(bits)
    assert f.dtype == np.float32 and f[0] == 1.0 and f[1] == -2.0 and np.isnan(f[2])
    assert list(moesim.float32_to_bf16(np.array([1.0, 1.00390625, 1.01171875], np.float32))) == [0x3F80, 0x3F80, 0x3F82]
    assert moesim.e4m3_to_float32(np.array([0x38, 0x7E], np.uint8)).tolist() == [1.0, 448.0]
    assert moesim.e8m0_to_float32(np.array([127, 130], np.uint8)).tolist() == [1.0, 8.0]
    v = moesim.mx_to_float32(np.full((2, 64), 0x38, np.uint8), np.full((2, 8), 128, np.uint8))
    assert v.shape == (2, 64) and (v == 2.0).all()
    with pytest.raises(TypeError):
        moesim.bf16_to_float32(np.zeros(3, np.float32))


def test_plena_syntax(tmp_path):
    """syntax='plena' takes PLENA's forms with PLENA's meaning (a UserWarning naming the line where
    it differs from moesim's), as `moesim asm --syntax plena` does; moesim's syntax refuses them."""
    text = "S_SQRT_FP f1, f1, 0\nV_SHIFT_V gp1, gp2, gp3\nV_RED_SUM f1, gp2, 1, 0\n"
    with pytest.warns(UserWarning, match=r"^p\.asm:3:20: V_RED_SUM rmask 1: PLENA's binary sums"):
        p = moesim.assemble(text, file="p.asm", syntax="plena")
    assert p == moesim.assemble("S_SQRT_FP f1, f1\nV_SHFT_V gp1, gp2, gp3\nV_RED_SUM f1, gp2, 0\n")
    with pytest.raises(moesim.AsmError, match="--syntax plena"):
        moesim.assemble(text, file="p.asm")
    src = tmp_path / "p.asm"
    src.write_text(text)
    with pytest.warns(UserWarning):
        assert moesim.assemble_file(str(src), syntax="plena") == p
    with pytest.warns(UserWarning):
        assert moesim.Program.read(str(src), syntax="plena") == p
    with pytest.raises(ValueError, match="syntax: expected 'moesim' or 'plena'"):
        moesim.assemble(text, syntax="PLENA")
