#!/usr/bin/env python3
"""ctest cosim.hf_checkpoint: `moesim cosim --checkpoint DIR --layer N` on checkpoints written
in the layouts of qwen3_moe, olmoe, mixtral, deepseek_v2 and deepseek_v3 by hf_fixture.py
(docs/checkpoints-hf.md), against a numpy oracle.

The fixture is sharded (layer 0 in the first file, layer 1 in the second) and the input hidden
states are given with --inputs, so the oracle knows every value the layer starts from. Checks:
both layers of the qwen3_moe checkpoint co-simulate EQUAL with the independent reference
bit-exact, each reading only the shard that holds it, and layer 0 of the olmoe (norm_topk_prob
false), mixtral, deepseek_v2 (a shared expert) and deepseek_v3 (sigmoid routing with the
correction bias, groups, a shared expert) ones EQUAL; the layer's output agrees with the layer
computed in float64 by numpy from the weights the fixture meant to write (each model's routing,
SwiGLU experts; the machine's MXFP8 rounding of inputs and weights is the only difference, so
the BF16 accumulator has a cosine above COSINE_MIN and every token's output norm within NORM_MAX
of the oracle's, which the other renormalisation, or DeepSeek-V3 without its shared expert, has
not); a checkpoint with every expert's gate and up projections swapped by the fixture writer
co-simulates EQUAL (both engines read the same wrong weights) but fails the oracle; and bad
checkpoints exit 2 naming the file, tensor and field. The oracle imports no moesim code.
Exit 0 when all hold, 1 otherwise.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_fixture  # noqa: E402  (the fixture writer beside this file)

TOKENS = 5
# The machine rounds X and every weight to MXFP8 (E4M3 elements: 3 mantissa bits; an outlier
# takes the precision of its block's other elements) and accumulates in BF16; against the float64
# layer of the unrounded weights the accumulator measured cosine 0.9966 to 0.9974 (each layer
# and model type), the planted gate/up swap 0.199. A token's output norm differs from the
# oracle's by up to 0.138 (measured); with the other renormalisation by 0.435 or more.
COSINE_MIN = 0.99
NORM_MAX = 0.25

failures = []


def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what)
    if not ok:
        failures.append(what)


def e4m3(codes):
    """OCP E4M3 codes -> float64 (bias 7, no infinities; 0x7F / 0xFF NaN)."""
    c = codes.astype(np.int64)
    sign = np.where(c & 0x80, -1.0, 1.0)
    exp, man = (c >> 3) & 0xF, c & 7
    val = np.where(exp == 0, man / 8.0 * 2.0 ** -6, (1 + man / 8.0) * 2.0 ** (exp - 7))
    return np.where((c & 0x7F) == 0x7F, np.nan, sign * val)


def mxfp8(raw, rows, cols, block):
    """An MXFP8 matrix as moesim stores it (codes row-major, then one E8M0 scale per block)."""
    codes = np.frombuffer(raw[:rows * cols], np.uint8).reshape(rows, cols)
    scales = np.frombuffer(raw[rows * cols:rows * cols + rows * cols // block], np.uint8)
    scale = 2.0 ** (scales.astype(np.float64) - 127)
    return e4m3(codes) * np.repeat(scale.reshape(rows, cols // block), block, axis=1)


def layer_float64(x, w, top_k, norm_topk_prob=True, shared=False):
    """Qwen3-MoE's sparse MoE block in float64: softmax over the router logits, top-k (ties to
    the lower index), renormalised when norm_topk_prob, SwiGLU experts (DeepSeek-V2: the
    ungated shared expert added)."""
    y = np.zeros_like(x)
    for t in range(x.shape[0]):
        logits = w["router"] @ x[t]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        chosen = sorted(range(len(p)), key=lambda e: (-p[e], e))[:top_k]
        weights = p[chosen] / (p[chosen].sum() if norm_topk_prob else 1.0)
        for e, r in zip(chosen, weights):
            g, u = w["gate"][e] @ x[t], w["up"][e] @ x[t]
            y[t] += r * (w["down"][e] @ (g / (1.0 + np.exp(-g)) * u))
        if shared:
            y[t] += silu_mlp(*w["shared"], x[t])
    return y


def silu_mlp(gate, up, down, x):
    g, u = gate @ x, up @ x
    return down @ (g / (1.0 + np.exp(-g)) * u)


def layer_float64_v3(x, w, top_k, n_group, topk_group, rsf, shared=True):
    """DeepSeek-V3's MoE block in float64: sigmoid scores, the correction bias for selection,
    group scores (the sum of each group's two best biased scores), topk_group groups kept,
    top-k of the kept (ties to the lower index), weights from the unbiased scores renormalised
    and scaled by routed_scaling_factor, plus the shared expert."""
    y = np.zeros_like(x)
    for t in range(x.shape[0]):
        s = 1.0 / (1.0 + np.exp(-(w["router"] @ x[t])))
        b = s + w["bias"]
        groups = b.reshape(n_group, -1)
        score = np.sort(groups, axis=1)[:, -2:].sum(axis=1)
        kept = sorted(range(n_group), key=lambda g: (-score[g], g))[:topk_group]
        size = len(b) // n_group
        masked = [b[e] if e // size in kept else -np.inf for e in range(len(b))]
        chosen = sorted(range(len(b)), key=lambda e: (-masked[e], e))[:top_k]
        weights = s[chosen] / (s[chosen].sum() + 1e-20) * rsf
        for e, r in zip(chosen, weights):
            y[t] += r * silu_mlp(w["gate"][e], w["up"][e], w["down"][e], x[t])
        if shared:
            y[t] += silu_mlp(*w["shared"], x[t])
    return y


def write_inputs(path, hidden):
    """TOKENS x hidden hidden states (F32 holding BF16 values, one outlier) as a safetensors file;
    returns them as float64."""
    rng = np.random.default_rng(7)
    x = rng.normal(0.0, 1.0, size=(TOKENS, hidden)).astype(np.float32)
    x[2, 5] = 24.0
    x = hf_fixture.bf16_value(hf_fixture.bf16_bits(x)).astype(np.float32)
    hf_fixture.write_safetensors(path, {"hidden_states": ("F32", x.shape,
                                                          x.astype("<f4").tobytes())})
    return x.astype(np.float64)


def cosim(moesim, work, ck, layer, inputs, tag):
    """Runs moesim cosim on layer `layer`; returns (exit code, output, report, dump folder)."""
    report, dump = os.path.join(work, tag + ".json"), os.path.join(work, tag + ".dump")
    shutil.rmtree(dump, ignore_errors=True)
    args = [moesim, "cosim", "--checkpoint", ck, "--layer", str(layer), "--inputs", inputs,
            "--reference", "--report", report, "--dump", dump, "--quiet"]
    p = subprocess.run(args, capture_output=True, text=True)
    rep = None
    if os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
    return p.returncode, p.stdout + p.stderr, rep, dump


def oracle_cosine(dump, x, w, top_k, norm_topk_prob=True, ref=None):
    """Cosine similarity of the golden model's BF16 accumulator (the layer's output before its
    MXFP8 store) with the float64 layer (`ref`, or layer_float64's), and the largest relative
    difference of a token's output norm from the oracle's."""
    with open(os.path.join(dump, "golden", "accumulator_bf16.bin"), "rb") as f:
        y = hf_fixture.bf16_value(np.frombuffer(f.read(), "<u2")).reshape(TOKENS, -1)
    if ref is None:
        ref = layer_float64(x, w, top_k, norm_topk_prob)
    cosine = float((y * ref).sum() / np.sqrt((y * y).sum() * (ref * ref).sum()))
    # Per token, the norm of the output against the oracle's: the route weights' scale (a
    # renormalisation too many or missing moves it by 1 / sum of the top-k probabilities).
    ratio = np.linalg.norm(y, axis=1) / np.linalg.norm(ref, axis=1)
    return cosine, float(np.abs(ratio - 1.0).max())


def refused(moesim, args, parts, what, absent=()):
    p = subprocess.run([moesim] + args, capture_output=True, text=True)
    err = p.stderr.strip()
    check(p.returncode == 2 and err.startswith("moesim: error:") and all(s in err for s in parts)
          and not any(s in err for s in absent), what + " (exit %d: %s)" % (p.returncode, err))


def poke(checkpoint, name, flats, value):
    """Overwrites elements `flats` (row-major) of tensor `name` (BF16 or F32) with `value` (a
    float that BF16 holds exactly), in the shard the index maps it to; returns that shard's
    path."""
    with open(os.path.join(checkpoint, "model.safetensors.index.json")) as f:
        path = os.path.join(checkpoint, json.load(f)["weight_map"][name])
    f32 = struct.pack("<f", value)
    with open(path, "r+b") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        t = json.loads(f.read(n))[name]
        size, bits = {"BF16": (2, f32[2:]), "F32": (4, f32)}[t["dtype"]]
        for i in flats:
            f.seek(8 + n + t["data_offsets"][0] + size * i)
            f.write(bits)
    return path


def with_config(work, src, tag, **keys):
    """A copy of checkpoint `src` as WORK/TAG with config.json's `keys` set (None: the key left
    out, except mlp_only_layers, whose null is a value); returns its path."""
    out = os.path.join(work, tag)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(src, out)
    with open(os.path.join(out, "config.json")) as f:
        c = json.load(f)
    c.update(keys)
    for k in [k for k, v in keys.items() if v is None and k != "mlp_only_layers"]:
        del c[k]
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(c, f)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--moesim", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    H, top_k = 64, 2
    ck = os.path.join(a.work, "qwen3_moe")
    meant = hf_fixture.write_checkpoint(ck, hidden=H, intermediate=64, experts=8, top_k=top_k)
    inputs = os.path.join(a.work, "hidden_states.safetensors")
    x = write_inputs(inputs, H)

    for layer in (0, 1):
        rc, out, rep, dump = cosim(a.moesim, a.work, ck, layer, inputs, "layer%d" % layer)
        check(rc == 0 and rep is not None and rep["verdict"] == "EQUAL",
              "layer %d co-simulates EQUAL (exit %d)" % (layer, rc) + ("" if rc == 0 else out))
        if rep is None:
            continue
        ref = rep["reference"]
        check(all(ref[e]["bit_exact"] for e in ("golden", "rtl")),
              "layer %d: the independent reference is bit-exact on both engines" % layer)
        check(any("from the checkpoint" in n and "(1 safetensors file opened)" in n
                  for n in rep["notes"]), "layer %d: one of the two shards opened" % layer)
        check(rep["preset"]["tokens"] == TOKENS,
              "layer %d: --inputs gives %d tokens" % (layer, TOKENS))
        c, r = oracle_cosine(dump, x, meant[layer], top_k)
        check(c >= COSINE_MIN and r <= NORM_MAX, "layer %d: cosine %.6f with the numpy float64 "
              "layer >= %s, token norms within %.4f <= %s" % (layer, c, COSINE_MIN, r, NORM_MAX))

    # Layer 0 in OLMoE's layout (norm_topk_prob false) and Mixtral's (w1 / w3 / w2), with router
    # logits of unit spread, so that the top-k probabilities sum well below 1 and the oracle
    # tells the two renormalisations apart.
    for model_type, norm in (("olmoe", False), ("mixtral", True)):
        d = os.path.join(a.work, model_type)
        w = hf_fixture.write_checkpoint(d, hidden=H, intermediate=64, experts=8, top_k=top_k,
                                        norm_topk_prob=norm, model_type=model_type,
                                        router_sd=1.0)
        rc, out, rep, dump = cosim(a.moesim, a.work, d, 0, inputs, model_type)
        check(rc == 0 and rep is not None and rep["verdict"] == "EQUAL",
              "%s layer 0 co-simulates EQUAL (exit %d)" % (model_type, rc))
        if rep is not None:
            c, r = oracle_cosine(dump, x, w[0], top_k, norm)
            check(c >= COSINE_MIN and r <= NORM_MAX,
                  "%s layer 0: cosine %.6f with the numpy float64 layer >= %s, token norms "
                  "within %.4f <= %s" % (model_type, c, COSINE_MIN, r, NORM_MAX))
            _, r = oracle_cosine(dump, x, w[0], top_k, not norm)
            check(r > NORM_MAX, "%s layer 0: the oracle with norm_topk_prob %s is off by %.3f"
                  % (model_type, not norm, r))

    # Layer 0 in DeepSeek-V3's layout: sigmoid routing with e_score_correction_bias (F32 in the
    # file), 4 groups of which 2 are kept, routed_scaling_factor 2.5, one shared expert.
    d = os.path.join(a.work, "deepseek_v3")
    w = hf_fixture.write_checkpoint(d, hidden=H, intermediate=64, experts=8, top_k=top_k,
                                    model_type="deepseek_v3", router_sd=1.0)[0]
    rc, out, rep, dump = cosim(a.moesim, a.work, d, 0, inputs, "deepseek_v3")
    check(rc == 0 and rep is not None and rep["verdict"] == "EQUAL",
          "deepseek_v3 layer 0 co-simulates EQUAL (exit %d)" % rc)
    if rep is not None:
        check(rep["preset"]["shared_intermediate"] == 64,
              "deepseek_v3: the shared expert is in the layer")
        c, r = oracle_cosine(dump, x, w, top_k, ref=layer_float64_v3(x, w, top_k, 4, 2, 2.5))
        check(c >= COSINE_MIN and r <= NORM_MAX,
              "deepseek_v3 layer 0: cosine %.6f with the numpy float64 layer >= %s, token norms "
              "within %.4f <= %s" % (c, COSINE_MIN, r, NORM_MAX))
        c, r = oracle_cosine(dump, x, w, top_k,
                             ref=layer_float64_v3(x, w, top_k, 4, 2, 2.5, shared=False))
        check(c < COSINE_MIN, "deepseek_v3 layer 0: the oracle without the shared expert is off "
              "(cosine %.6f)" % c)

    # DeepSeek-V2-Lite's routing (softmax over all, greedy top-k, not renormalised) with its
    # shared expert.
    d = os.path.join(a.work, "deepseek_v2")
    w = hf_fixture.write_checkpoint(d, hidden=H, intermediate=64, experts=8, top_k=top_k,
                                    model_type="deepseek_v2", norm_topk_prob=False,
                                    router_sd=1.0)[0]
    rc, out, rep, dump = cosim(a.moesim, a.work, d, 0, inputs, "deepseek_v2")
    check(rc == 0 and rep is not None and rep["verdict"] == "EQUAL",
          "deepseek_v2 layer 0 co-simulates EQUAL (exit %d)" % rc)
    if rep is not None:
        c, r = oracle_cosine(dump, x, w, top_k, ref=layer_float64(x, w, top_k, False, True))
        check(c >= COSINE_MIN and r <= NORM_MAX,
              "deepseek_v2 layer 0: cosine %.6f with the numpy float64 layer >= %s, token norms "
              "within %.4f <= %s" % (c, COSINE_MIN, r, NORM_MAX))

    # The planted layout error: gate and up swapped in the files.
    swapped = os.path.join(a.work, "qwen3_moe_swapped")
    hf_fixture.write_checkpoint(swapped, hidden=H, intermediate=64, experts=8, top_k=top_k,
                                swap_gate_up=True)
    rc, out, rep, dump = cosim(a.moesim, a.work, swapped, 0, inputs, "swapped")
    check(rc == 0 and rep is not None and rep["verdict"] == "EQUAL",
          "swapped gate/up: both engines agree (exit %d)" % rc)
    if rep is not None:
        c, _ = oracle_cosine(dump, x, meant[0], top_k)
        check(c < COSINE_MIN, "swapped gate/up: the oracle catches it (cosine %.6f < %s)"
              % (c, COSINE_MIN))

    # Weights near BF16's range: 2^119 in column 5 of every expert's up_proj. The matrix unit
    # scales a block's sum, not its products (docs/numerics.md §5), so the second projection's
    # products of these activations overflow to inf before the small scale of W2 applies; the
    # independent reference must do the same.
    huge = os.path.join(a.work, "huge")
    shutil.rmtree(huge, ignore_errors=True)
    shutil.copytree(ck, huge)
    for e in range(8):
        poke(huge, "model.layers.0.mlp.experts.%d.up_proj.weight" % e, range(5, 64 * 64, 64),
             2.0 ** 119)
    rc, out, rep, dump = cosim(a.moesim, a.work, huge, 0, inputs, "huge")
    check(rc == 0 and rep is not None and rep["verdict"] == "EQUAL"
          and all(rep["reference"][e]["bit_exact"] for e in ("golden", "rtl")),
          "weights of 2^119: EQUAL, the independent reference bit-exact (exit %d)" % rc
          + ("" if rc == 0 else out))
    if rep is not None:
        with open(os.path.join(dump, "golden", "accumulator_bf16.bin"), "rb") as f:
            acc = np.frombuffer(f.read(), "<u2")
        check(np.any((acc & 0x7FFF) == 0x7F80), "weights of 2^119: the output holds inf")

    # Bad checkpoints: exit 2 naming file, tensor and field.
    refused(a.moesim, ["cosim", "--checkpoint", ck, "--layer", "2", "--quiet"],
            ["config.json: key 'num_hidden_layers': 2", "no layer 2"], "--layer past the model")
    bad = with_config(a.work, ck, "bad_shape", moe_intermediate_size=128)
    refused(a.moesim, ["cosim", "--checkpoint", bad, "--layer", "0", "--quiet"],
            ["model-00001-of-00002.safetensors: tensor 'model.layers.0.mlp.experts.0.gate_proj"
             ".weight': 'shape' [64, 64], but config.json gives [128, 64]"],
            "a tensor shape other than config.json's")
    truncated = with_config(a.work, ck, "truncated")
    shard = os.path.join(truncated, "model-00001-of-00002.safetensors")
    with open(shard, "rb") as f:
        data = f.read()
    with open(shard, "wb") as f:
        f.write(data[:-2])
    refused(a.moesim, ["cosim", "--checkpoint", truncated, "--layer", "0", "--quiet"],
            ["model-00001-of-00002.safetensors: the tensors' data ends at"],
            "a truncated shard")
    # A layer the model's decoder builds as a dense MLP is refused naming the key that says so;
    # with decoder_sparse_step 2, layer 1 is an MoE layer and runs.
    for src, layer, keys, why in (
            (ck, 1, {"mlp_only_layers": [1]}, "it is in 'mlp_only_layers' [1]"),
            (ck, 0, {"decoder_sparse_step": 2}, "'decoder_sparse_step' is 2"),
            (os.path.join(a.work, "deepseek_v3"), 0, {"first_k_dense_replace": 1},
             "'first_k_dense_replace' is 1 (the layers below it are dense)"),
            (os.path.join(a.work, "deepseek_v3"), 1, {"moe_layer_freq": 2},
             "'moe_layer_freq' is 2"),
            (ck, 1, {"mlp_only_layers": [1.0]}, "it is in 'mlp_only_layers' [1.0]"),
            # DeepseekV3Config's default, when the file has no first_k_dense_replace
            (os.path.join(a.work, "deepseek_v3"), 0, {"first_k_dense_replace": None},
             "'first_k_dense_replace' is 3 (the layers below it are dense)")):
        dense = with_config(a.work, src, "dense", **keys)
        refused(a.moesim, ["cosim", "--checkpoint", dense, "--layer", str(layer), "--quiet"],
                ["config.json: layer %d is a dense MLP layer, not an MoE layer: " % layer + why],
                "a dense layer: %s" % keys)
    # null: the config class's empty list
    nulled = with_config(a.work, ck, "nulled", mlp_only_layers=None)
    p = subprocess.run([a.moesim, "cosim", "--checkpoint", nulled, "--layer", "1", "--quiet"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "mlp_only_layers null: layer 1 is an MoE layer (exit %d: %s)"
          % (p.returncode, p.stderr.strip()))
    sparse = with_config(a.work, ck, "sparse", decoder_sparse_step=2)
    p = subprocess.run([a.moesim, "cosim", "--checkpoint", sparse, "--layer", "1", "--quiet"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "decoder_sparse_step 2: layer 1 is an MoE layer (exit %d: %s)"
          % (p.returncode, p.stderr.strip()))

    # A NaN weight is a bad value, not a size the machine cannot hold; a 1-D tensor's element is
    # named by one index.
    for name, flat, at in (("model.layers.0.mlp.experts.3.up_proj.weight", 67, "[1, 3]"),
                           ("model.layers.0.mlp.gate.e_score_correction_bias", 5, "[5]")):
        nan = os.path.join(a.work, "nan")
        shutil.rmtree(nan, ignore_errors=True)
        shutil.copytree(os.path.join(a.work, "deepseek_v3"), nan)
        where = poke(nan, name, [flat], float("nan"))
        refused(a.moesim, ["cosim", "--checkpoint", nan, "--layer", "0", "--quiet"],
                [where + ": tensor '" + name + "': element " + at + " is infinite or NaN in BF16"],
                "a NaN in " + name, absent=["does not fit"])
    wide = os.path.join(a.work, "wide")  # K = 1088 needs 17 MRAM tiles; `default` has 16
    hf_fixture.write_checkpoint(wide, hidden=1088, intermediate=64, experts=2, top_k=1, layers=1,
                                sharded=False, keep=False)
    refused(a.moesim, ["cosim", "--checkpoint", wide, "--layer", "0", "--quiet"],
            ["layer 0 (model.layers.0.mlp.gate.weight [2, 1088], the experts' gate and up "
             "[64, 1088], down [1088, 64]) does not fit", "MRAM_TILES=16"],
            "a layer the machine preset cannot hold")
    refused(a.moesim, ["cosim", "--checkpoint", ck, "--layer", "0", "--hidden", "128", "--quiet"],
            ["--hidden 128: the checkpoint's layer has 64"], "--hidden other than the checkpoint's")
    refused(a.moesim, ["cosim", "--checkpoint", ck, "--layer", "0", "--inputs", shard, "--quiet"],
            ["--inputs", "model-00001-of-00002.safetensors"], "--inputs of a bad file")

    many = os.path.join(a.work, "many_tokens.safetensors")  # 3,000 tokens: past VRAM_ROWS
    hf_fixture.write_safetensors(many, {"hidden_states": (
        "F32", (3000, H), np.zeros((3000, H), "<f4").tobytes())})
    refused(a.moesim, ["cosim", "--checkpoint", ck, "--layer", "0", "--inputs", many, "--quiet"],
            ["--inputs (3000 tokens), the checkpoint's hidden 64 and intermediate 64: the layer "
             "needs", "VRAM_ROWS=8192"], "more tokens in --inputs than the machine holds",
            absent=["--tokens", "--hidden"])

    # A Hugging Face cache snapshot links its shards to blobs outside the directory: an output
    # naming a blob is refused as an overwrite of the checkpoint (the blob keeps its bytes).
    hub = os.path.join(a.work, "hub")
    shutil.rmtree(hub, ignore_errors=True)
    os.makedirs(os.path.join(hub, "blobs"))
    os.makedirs(os.path.join(hub, "snap"))
    for n in os.listdir(ck):
        if n.endswith(".safetensors"):
            shutil.copy(os.path.join(ck, n), os.path.join(hub, "blobs", n))
            os.symlink(os.path.join("..", "blobs", n), os.path.join(hub, "snap", n))
        else:
            shutil.copy(os.path.join(ck, n), os.path.join(hub, "snap", n))
    blob = os.path.join(hub, "blobs", "model-00001-of-00002.safetensors")
    with open(blob, "rb") as f:
        before = f.read()
    refused(a.moesim, ["run", "--engine", "golden", "--checkpoint", os.path.join(hub, "snap"),
                       "--layer", "0", "--quiet", "--trace-log", blob],
            ["would overwrite the input --checkpoint"], "an output over a linked shard's blob")
    with open(blob, "rb") as f:
        check(f.read() == before, "the linked shard's blob is unchanged")
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
