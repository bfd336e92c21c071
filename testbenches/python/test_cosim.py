"""moesim.build_layer, moesim.cosim (the README demo, the CLI's report), the lockstep iterator,
planted faults, random programs, conformance, and the errors of bad input with the CLI's text."""
import json

import numpy as np
import pytest

import moesim
from conftest import cli, cli_error

DEMO = dict(model="gpt-oss-20b", tokens=4, hidden=128, intermediate=128)
SMALL = dict(model="gpt-oss-20b", tokens=4, hidden=64, intermediate=64)
# The report keys report::cosim_json writes (the CLI adds its run context beside them).
RESULT_KEYS = ["outputs_bit_exact", "cycles_match", "profiles_match", "completed",
               "instructions", "total_cycles", "retired", "stages", "units", "first_divergence",
               "trap", "final_state_equal", "final_state", "verdict", "engines"]


def test_readme_demo_is_equal_in_76112_cycles():
    r = moesim.cosim(**DEMO)
    assert r["verdict"] == "EQUAL"
    assert r["outputs_bit_exact"] and r["cycles_match"] and r["profiles_match"]
    assert r["total_cycles"] == {"golden": 76112, "rtl": 76112}
    assert r["first_divergence"] is None and r["preset"]["machine"] == "default"
    assert r["program"]["name"] == "gpt-oss-20b_T4_H128_I128_seed1_default.asm"


def test_result_is_the_cli_report(tmp_path):
    layer = moesim.build_layer(**SMALL)
    assert layer.program.source == layer.name and len(layer.program) > 100
    assert layer.layout["experts"] == 32 and layer.layout["top_k"] == 4
    r = moesim.cosim(layer)
    code, _, err = cli("cosim", "--tokens", 4, "--hidden", 64, "--intermediate", 64, "--quiet",
                       "--report", tmp_path / "r.json")
    assert code == 0, err
    j = json.loads((tmp_path / "r.json").read_text())
    for k in RESULT_KEYS:
        assert r[k] == j[k], k
    assert r["program"]["name"] == j["program"]["name"]
    # The layer's asm is the CLI's --asm-out.
    cli("cosim", "--tokens", 4, "--hidden", 64, "--intermediate", 64, "--quiet",
        "--asm-out", tmp_path / "p.asm", "--max-instructions", 1)
    assert layer.asm == (tmp_path / "p.asm").read_text()


def test_first_divergence_of_a_flipped_bit_is_the_cli_report(tmp_path):
    r = moesim.cosim(**SMALL, flip_bit="rtl:hbm:453:0")
    code, _, err = cli("cosim", "--tokens", 4, "--hidden", 64, "--intermediate", 64, "--quiet",
                       "--flip-bit", "rtl:hbm:453:0", "--report", tmp_path / "r.json")
    assert code == 1, err
    j = json.loads((tmp_path / "r.json").read_text())
    assert r["verdict"] == "MISMATCH" and r["first_divergence"] is not None
    d, jd = r["first_divergence"], j["first_divergence"]
    jd.pop("rerun")  # the CLI's re-run command line
    assert d == jd
    for k in RESULT_KEYS:
        if k != "first_divergence":
            assert r[k] == j[k], k


def test_lockstep_iterator(golden, rtl):
    layer = moesim.build_layer(**SMALL)
    golden.load(layer.program, layer.image)
    rtl.load(layer.program, layer.image)
    steps = 0
    with moesim.lockstep(golden, rtl) as run:
        for s in run:
            assert s.equal and s.golden == s.rtl and s.number == steps
            steps += 1
            if steps == 10:
                with pytest.raises(RuntimeError, match="lockstep"):
                    golden.close()  # in use
        assert run.done
        res = run.result()
        assert res is run.result()
    assert res["verdict"] == "EQUAL"
    # The same comparison as cosim() given the same engines.
    again = moesim.cosim(layer, golden=golden, rtl=rtl)
    for k in RESULT_KEYS:
        assert res[k] == again[k], k
    assert steps >= again["instructions"]  # transfers are records too (DMA queue 2)


def test_lockstep_stops_at_the_divergence(golden, rtl):
    golden.load("S_ADDI_INT gp1, gp0, 3\nS_ADDI_INT gp2, gp0, 4\nS_ADDI_INT gp3, gp0, 5\n")
    rtl.load("S_ADDI_INT gp1, gp0, 3\nS_ADDI_INT gp2, gp0, 5\nS_ADDI_INT gp3, gp0, 5\n")
    run = moesim.lockstep(golden, rtl)
    pairs = list(run)
    assert [p.equal for p in pairs] == [True, False]
    assert "word" in pairs[1].fields and pairs[1].golden.disassembly == "S_ADDI_INT gp2, gp0, 4"
    res = run.result()
    assert res["verdict"] == "MISMATCH" and res["first_divergence"]["index"] == 1
    run.close()
    with pytest.raises(moesim.ClosedError):
        next(run)
    golden.close()  # released by close()


def test_compiler_style_program_on_both_engines():
    """What a compiler's test would do: emit assembly from Python, run it on both engines and
    compare every memory, and the result with NumPy."""
    rows, vlen = 4, 64
    x = np.random.default_rng(7).uniform(-3, 3, (rows, vlen)).astype(np.float32)
    w = np.random.default_rng(8).uniform(-1, 1, (1, vlen)).astype(np.float32)
    b = np.random.default_rng(9).uniform(-1, 1, (1, vlen)).astype(np.float32)
    xb, wb, bb = (moesim.float32_to_bf16(a) for a in (x, w, b))
    X, W, B, Y = 0, 8, 9, 16  # VRAM rows
    lines = ["; @stage=expert_projection",
             f"S_ADDI_INT gp1, gp0, {X * vlen}", f"S_ADDI_INT gp2, gp0, {W * vlen}",
             f"S_ADDI_INT gp3, gp0, {B * vlen}", f"S_ADDI_INT gp5, gp0, {Y * vlen}",
             f"C_LOOP_START gp4, {rows}",
             "V_MUL_VV gp5, gp1, gp2", "V_ADD_VV gp5, gp5, gp3",
             f"S_ADDI_INT gp1, gp1, {vlen}", f"S_ADDI_INT gp5, gp5, {vlen}",
             "C_LOOP_END gp4"]
    program = moesim.assemble("\n".join(lines) + "\n", file="affine.asm")
    image = moesim.Image().add("vram", X, xb).add("vram", W, wb).add("vram", B, bb)
    outs = []
    for engine in (moesim.Golden("default"), moesim.Rtl("default")):
        with engine:
            engine.load(program, image)
            rep = engine.run()
            assert rep["trap"] is None and rep["instructions"] == 5 + rows * 5
            outs.append({s: engine.read(s) for s in ("vram", "fp_sram", "int_sram", "hbm")})
            outs[-1]["mram"] = engine.read("mram")
    g, r = outs
    for s in ("vram", "fp_sram", "int_sram", "hbm"):
        assert np.array_equal(g[s], r[s]), s
    assert all(np.array_equal(a, c) for a, c in zip(g["mram"], r["mram"]))
    # FP32 multiply and add, each rounded to BF16 (docs/numerics.md).
    prod = moesim.bf16_to_float32(moesim.float32_to_bf16(moesim.bf16_to_float32(xb) * moesim.bf16_to_float32(wb)))
    want = moesim.float32_to_bf16(prod + moesim.bf16_to_float32(bb))
    assert np.array_equal(g["vram"][Y:Y + rows], want)
    # And the co-simulation of the same program agrees.
    assert moesim.cosim(program, image)["verdict"] == "EQUAL"


def test_random_programs_are_the_clis(tmp_path):
    rp = moesim.random_program(17)
    code, _, err = cli("random", "--seed", 17, "--count", 1, "-o", tmp_path)
    assert code == 0, err
    assert rp.asm == (tmp_path / "random_17.asm").read_text()
    assert rp.case_yaml().split("init:")[1] == (tmp_path / "random_17.yaml").read_text().split("init:")[1]
    assert [p.seed for p in moesim.random_programs(seed=3, count=2)] == [3, 4]
    r = moesim.cosim(random_seed=17)
    code, out, _ = cli("cosim", "--random-seed", 17, "--quiet")
    assert r["verdict"] in out and r["program"]["name"] == rp.name
    assert f"cycles golden {r['total_cycles']['golden']}," in out


def test_conformance():
    r = moesim.conformance(engine="both", filter="^V_ADD_VV/")
    assert r["verdict"] == "PASS"
    cases = r["engines"]["golden"]["cases"]
    assert [c["name"] for c in cases] == [c["name"] for c in r["engines"]["rtl"]["cases"]]
    assert all(c["pass"] for c in cases) and len(cases) == 6
    with pytest.raises(moesim.UsageError) as e:
        moesim.conformance(filter="^NOPE/")
    assert str(e.value) == cli_error("conformance", "--filter", "^NOPE/")


@pytest.mark.parametrize("kwargs,flags", [
    (dict(model="gpt-5"), ["--model", "gpt-5"]),
    (dict(hidden=100), ["--hidden", "100"]),
    (dict(tokens=0), ["--tokens", "0"]),
    (dict(model="gpt-oss-20b", shared=True), ["--model", "gpt-oss-20b", "--shared"]),
    (dict(plant_fault="nope"), ["--plant-fault", "nope"]),
])
def test_build_errors_are_the_cli_errors(kwargs, flags):
    with pytest.raises(moesim.UsageError) as e:
        moesim.build_layer(**kwargs)
    assert str(e.value) == cli_error("cosim", *flags, "--quiet")


def test_cosim_bad_input():
    with pytest.raises(moesim.UsageError) as e:
        moesim.cosim(**SMALL, flip_bit="rtl:hbm:x:0")
    assert str(e.value) == cli_error("cosim", "--flip-bit", "rtl:hbm:x:0", "--quiet")
    with pytest.raises(TypeError):
        moesim.cosim(3.5)
    with pytest.raises(TypeError):
        moesim.cosim("S_ADDI_INT gp1, gp0, 1\n", golden="not an engine")
    with pytest.raises(moesim.UsageError):
        moesim.cosim("S_ADDI_INT gp1, gp0, 1\n", tokens=4)
    with pytest.raises(TypeError):
        moesim.lockstep(1, 2)
