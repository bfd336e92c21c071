"""The route-trace and deployment variants of the layer builder (moesim.build_layer(route_trace=),
moesim.build_deployment): the CLI's programs, EQUAL co-simulations, the deployment reference
against the engines, and the CLI's errors."""
import json

import numpy as np
import pytest

import moesim
from conftest import cli, cli_error

SHAPE = dict(tokens=4, hidden=64, intermediate=64)
SHAPE_FLAGS = ["--tokens", 4, "--hidden", 64, "--intermediate", 64]


@pytest.fixture
def trace(tmp_path):
    """A route trace of gpt-oss-20b's shape (E 32, k 4), 6 tokens, written by the CLI."""
    path = tmp_path / "trace.json"
    code, _, err = cli("route-trace", "gen", "--model", "gpt-oss-20b", "--tokens", 6,
                       "--zipf", 1.2, "--seed", 3, "-o", path)
    assert code == 0, err
    return path


def test_route_trace_layer_is_the_clis(tmp_path, trace):
    layer = moesim.build_layer(model="gpt-oss-20b", hidden=64, intermediate=64,
                               route_trace=str(trace), tokens_from=1, tokens_to=4)
    assert layer.layout["tokens"] == 3
    assert layer.model["routing"].startswith("recorded: V_TOPK over the recorded logits of ")
    code, _, err = cli("cosim", "--model", "gpt-oss-20b", "--hidden", 64, "--intermediate", 64,
                       "--route-trace", trace, "--tokens-from", 1, "--tokens-to", 4, "--quiet",
                       "--asm-out", tmp_path / "p.asm", "--max-instructions", 1)
    assert code in (0, 2), err
    assert layer.asm == (tmp_path / "p.asm").read_text()
    r = moesim.cosim(layer)
    assert r["verdict"] == "EQUAL", r["first_divergence"]
    # The golden model's routing is the recorded one: the reference's top-k ids are the trace's.
    recorded = json.loads(trace.read_text())["tokens"][1:4]
    assert layer.reference()["expert_ids"].tolist() == [t["ids"] for t in recorded]


def test_route_trace_errors_are_the_clis(trace):
    with pytest.raises(moesim.UsageError) as e:
        moesim.build_layer(model="mixtral-8x7b", route_trace=str(trace))
    assert str(e.value) == cli_error("cosim", "--model", "mixtral-8x7b", "--route-trace", trace,
                                     "--quiet")
    with pytest.raises(moesim.UsageError) as e:
        moesim.build_layer(model="gpt-oss-20b", route_trace=str(trace), tokens_to=7)
    assert str(e.value) == cli_error("cosim", "--model", "gpt-oss-20b", "--route-trace", trace,
                                     "--tokens-to", 7, "--quiet")
    with pytest.raises(moesim.UsageError, match="--tokens-from"):
        moesim.build_layer(tokens_from=1)


def test_deployment_ranks_are_the_clis_and_match_the_reference(tmp_path, golden):
    d = moesim.build_deployment("gpt-oss-20b-ep2-r4", **SHAPE)
    assert d.name == "gpt-oss-20b-ep2-r4" and d.ep == 2 and len(d.ranks) == 2
    assert len(d.owner) == 4
    ref = d.reference()
    for r, layer in enumerate(d.ranks):
        code, _, err = cli("cosim", "--deployment", d.name, "--rank", r, *SHAPE_FLAGS, "--quiet",
                           "--asm-out", tmp_path / f"rank{r}.asm", "--max-instructions", 1)
        assert code in (0, 2), err
        assert layer.asm == (tmp_path / f"rank{r}.asm").read_text()
        golden.load(layer.program, layer.image)
        golden.run()
        out = layer.output(golden)
        # The independent reference of the rank against the golden model's memory.
        assert np.array_equal(out["accumulator"], ref["rank_accumulator"][r])
        assert np.array_equal(out["output_mxfp8"], ref["rank_output_mxfp8"][r])
        with pytest.raises(RuntimeError, match="Deployment.reference"):
            layer.reference()
    assert ref["combined"].shape == (4, 64)
    # One rank co-simulated EQUAL (the CLI's deploy tests run every rank).
    assert moesim.cosim(d.ranks[1], golden=golden)["verdict"] == "EQUAL"
    assert d.layer.layout["tokens"] == 4


def test_deployment_errors_are_the_clis():
    with pytest.raises(moesim.UsageError) as e:
        moesim.build_deployment("no-such-deployment", **SHAPE)
    assert str(e.value) == cli_error("cosim", "--deployment", "no-such-deployment", "--rank", 0,
                                     *SHAPE_FLAGS, "--quiet")
    assert "gpt-oss-20b-ep2-r4" in moesim.deployments()
