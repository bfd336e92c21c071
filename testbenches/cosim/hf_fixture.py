#!/usr/bin/env python3
"""Writes a small Hugging Face checkpoint in qwen3_moe's, olmoe's, mixtral's, deepseek_v2's or
deepseek_v3's layout (docs/checkpoints-hf.md, Test fixture): config.json, the tensors of every layer
(attention, norms, router, per-expert gate / up / down projections; DeepSeek's shared expert and
V3's F32 correction bias) under the model's names, BF16, with the embedding and LM head, in one
model.safetensors or sharded with model.safetensors.index.json (layer 0 and the embedding in the
first shard, the rest in the second). Weights are drawn from a
seeded numpy generator with a few outliers per matrix (tens of standard deviations), as real
checkpoints have.

numpy only: no torch, no moesim. As a module, write_checkpoint() returns the MoE weights it
meant to write (float64 arrays of the BF16 values), so a test can compute the layer from them
independently of how moesim reads the files. --swap-gate-up plants a layout error: every
expert's gate projection is written under the up projection's name and the up projection under
the gate projection's.
"""
import argparse
import json
import os
import struct

import numpy as np


def bf16_bits(a):
    """float32 array -> BF16 bits (uint16), round to nearest even (finite values)."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def write_safetensors(path, tensors):
    """tensors: {name: (dtype name, shape, bytes)}; offsets contiguous in name order, the header
    padded with spaces to a multiple of 8 bytes as the reference writer pads it."""
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name in sorted(tensors):
        dtype, shape, data = tensors[name]
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name in sorted(tensors):
            f.write(tensors[name][2])


def draw(rng, shape, sd, outliers=2):
    """Normal values with `outliers` entries of +-30 sd, as BF16 bits."""
    a = rng.normal(0.0, sd, size=shape).astype(np.float32)
    flat = a.reshape(-1)
    for i in rng.choice(flat.size, size=outliers, replace=False):
        flat[i] = np.float32(30.0 * sd * rng.choice([-1.0, 1.0]))
    return bf16_bits(a)


def config_json(model_type, H, I, E, top_k, layers, norm_topk_prob, heads, kv_heads, head_dim,
                vocab):
    """config.json as each model_type's Hugging Face config class writes it (small sizes)."""
    common = {"hidden_act": "silu", "hidden_size": H, "model_type": model_type,
              "num_attention_heads": heads, "num_experts_per_tok": top_k,
              "num_hidden_layers": layers, "num_key_value_heads": kv_heads,
              "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": vocab,
              "initializer_range": 0.02, "max_position_embeddings": 128, "use_cache": True,
              "attention_dropout": 0.0, "output_router_logits": False}
    if model_type == "qwen3_moe":
        return dict(common, **{
            "architectures": ["Qwen3MoeForCausalLM"], "attention_bias": False,
            "bos_token_id": 0, "decoder_sparse_step": 1, "eos_token_id": 1,
            "head_dim": head_dim, "intermediate_size": 4 * H, "max_window_layers": layers,
            "mlp_only_layers": [], "moe_intermediate_size": I, "norm_topk_prob": norm_topk_prob,
            "num_experts": E, "rms_norm_eps": 1e-06, "rope_scaling": None,
            "rope_theta": 1000000.0, "router_aux_loss_coef": 0.001, "sliding_window": None,
            "use_sliding_window": False})
    if model_type == "olmoe":
        return dict(common, **{
            "architectures": ["OlmoeForCausalLM"], "attention_bias": False, "clip_qkv": None,
            "eos_token_id": 1, "intermediate_size": I, "norm_topk_prob": norm_topk_prob,
            "num_experts": E, "pad_token_id": 1, "rms_norm_eps": 1e-05, "rope_scaling": None,
            "rope_theta": 10000.0, "router_aux_loss_coef": 0.01})
    if model_type == "mixtral":
        return dict(common, **{
            "architectures": ["MixtralForCausalLM"], "bos_token_id": 0, "eos_token_id": 1,
            "intermediate_size": I, "num_local_experts": E, "rms_norm_eps": 1e-05,
            "rope_theta": 1000000.0, "router_aux_loss_coef": 0.02, "sliding_window": None})
    if model_type == "deepseek_v3":
        return dict(common, **{
            "architectures": ["DeepseekV3ForCausalLM"], "attention_bias": False,
            "bos_token_id": 0, "eos_token_id": 1, "ep_size": 1, "first_k_dense_replace": 0,
            "intermediate_size": 4 * H, "kv_lora_rank": 16, "moe_intermediate_size": I,
            "moe_layer_freq": 1, "n_group": 4, "n_routed_experts": E, "n_shared_experts": 1,
            "norm_topk_prob": norm_topk_prob, "num_nextn_predict_layers": 0, "q_lora_rank": 32,
            "qk_nope_head_dim": head_dim, "qk_rope_head_dim": 8, "rms_norm_eps": 1e-06,
            "rope_theta": 10000.0, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid",
            "topk_group": 2, "topk_method": "noaux_tc", "v_head_dim": head_dim})
    if model_type == "deepseek_v2":  # DeepSeek-V2-Lite's routing: softmax, greedy top-k
        c = config_json("deepseek_v3", H, I, E, top_k, layers, norm_topk_prob, heads, kv_heads,
                        head_dim, vocab)
        c.update({"architectures": ["DeepseekV2ForCausalLM"], "model_type": "deepseek_v2",
                  "n_group": 1, "topk_group": 1, "topk_method": "greedy",
                  "scoring_func": "softmax", "routed_scaling_factor": 1.0})
        return c
    raise ValueError("model_type " + model_type)


# Per model_type: the MoE block's prefix in a layer and the names of an expert's gate, up and
# down projections.
NAMES = {"qwen3_moe": ("mlp.", "gate_proj", "up_proj", "down_proj"),
         "olmoe": ("mlp.", "gate_proj", "up_proj", "down_proj"),
         "mixtral": ("block_sparse_moe.", "w1", "w3", "w2"),
         "deepseek_v2": ("mlp.", "gate_proj", "up_proj", "down_proj"),
         "deepseek_v3": ("mlp.", "gate_proj", "up_proj", "down_proj")}


def write_checkpoint(out, hidden=64, intermediate=64, experts=8, top_k=2, layers=2,
                     norm_topk_prob=True, sharded=True, swap_gate_up=False, seed=0, keep=True,
                     model_type="qwen3_moe", router_sd=3.0):
    """Writes the checkpoint to folder `out` in `model_type`'s layout (qwen3_moe, olmoe,
    mixtral, deepseek_v2, deepseek_v3); returns {layer: {"router": E x H, "gate": [I x H],
    "up": [I x H], "down": [H x I]}, for DeepSeek also "shared": (gate, up, down) and for V3
    "bias": E} of float64
    arrays (the weights as meant, not as written), or nothing without `keep` (a full-size
    checkpoint). Router logits have about `router_sd` standard deviations for inputs of unit
    variance."""
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(seed)
    H, I, E = hidden, intermediate, experts
    heads, kv_heads, head_dim, vocab = 2, 1, 16, 32
    config = config_json(model_type, H, I, E, top_k, layers, norm_topk_prob, heads, kv_heads,
                         head_dim, vocab)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)

    shards = [{}, {}]
    meant = {}

    def put(shard, name, bits):
        shards[shard][name] = ("BF16", bits.shape, bits.astype("<u2").tobytes())

    sd_h, sd_i = 1.0 / np.sqrt(H), 1.0 / np.sqrt(I)
    put(0, "model.embed_tokens.weight", draw(rng, (vocab, H), 0.02))
    for n in range(layers):
        s = 0 if n == 0 else 1
        p = "model.layers.%d." % n
        put(s, p + "input_layernorm.weight", bf16_bits(np.ones(H, np.float32)))
        put(s, p + "post_attention_layernorm.weight", bf16_bits(np.ones(H, np.float32)))
        q, kv = heads * head_dim, kv_heads * head_dim
        attention = (("q_proj", (q, H)), ("k_proj", (kv, H)), ("v_proj", (kv, H)),
                     ("o_proj", (H, q)))
        if model_type.startswith("deepseek"):  # multi-head latent attention
            attention = (("q_a_proj", (32, H)), ("q_b_proj", (heads * (head_dim + 8), 32)),
                         ("kv_a_proj_with_mqa", (16 + 8, H)),
                         ("kv_b_proj", (heads * 2 * head_dim, 16)), ("o_proj", (H, q)))
            put(s, p + "self_attn.q_a_layernorm.weight", bf16_bits(np.ones(32, np.float32)))
            put(s, p + "self_attn.kv_a_layernorm.weight", bf16_bits(np.ones(16, np.float32)))
        for proj, shape in attention:
            put(s, p + "self_attn." + proj + ".weight", draw(rng, shape, sd_h))
        if model_type in ("qwen3_moe", "olmoe"):  # Qwen3-MoE per head, OLMoE over all heads
            qn, kn = (head_dim, head_dim) if model_type == "qwen3_moe" else (q, kv)
            put(s, p + "self_attn.q_norm.weight", bf16_bits(np.ones(qn, np.float32)))
            put(s, p + "self_attn.k_norm.weight", bf16_bits(np.ones(kn, np.float32)))
        block, gname, uname, dname = NAMES[model_type]
        # Router logits ~ router_sd; gate/up pre-activations ~ 2; outputs ~ 1.
        router = draw(rng, (E, H), router_sd * sd_h)
        put(s, p + block + "gate.weight", router)
        m = {"router": bf16_value(router), "gate": [], "up": [], "down": []}
        for e in range(E):
            gate, up = draw(rng, (I, H), 2.0 * sd_h), draw(rng, (I, H), 2.0 * sd_h)
            down = draw(rng, (H, I), sd_i)
            x = p + block + "experts.%d." % e
            put(s, x + gname + ".weight", up if swap_gate_up else gate)
            put(s, x + uname + ".weight", gate if swap_gate_up else up)
            put(s, x + dname + ".weight", down)
            if keep:
                m["gate"].append(bf16_value(gate))
                m["up"].append(bf16_value(up))
                m["down"].append(bf16_value(down))
        if model_type.startswith("deepseek"):  # one shared expert; V3's correction bias, F32
            gate, up = draw(rng, (I, H), 2.0 * sd_h), draw(rng, (I, H), 2.0 * sd_h)
            down = draw(rng, (H, I), sd_i)
            x = p + "mlp.shared_experts."
            put(s, x + "gate_proj.weight", up if swap_gate_up else gate)
            put(s, x + "up_proj.weight", gate if swap_gate_up else up)
            put(s, x + "down_proj.weight", down)
            m["shared"] = (bf16_value(gate), bf16_value(up), bf16_value(down))
            if model_type == "deepseek_v3":
                bias = rng.normal(0.0, 0.03, size=E).astype(np.float32)
                shards[s][p + "mlp.gate.e_score_correction_bias"] = (
                    "F32", bias.shape, bias.astype("<f4").tobytes())
                m["bias"] = bias.astype(np.float64)
        if keep:
            meant[n] = m
    put(1, "model.norm.weight", bf16_bits(np.ones(H, np.float32)))
    put(1, "lm_head.weight", draw(rng, (vocab, H), 0.02))

    if not sharded:
        write_safetensors(os.path.join(out, "model.safetensors"), {**shards[0], **shards[1]})
        return meant
    names = ["model-%05d-of-00002.safetensors" % (i + 1) for i in range(2)]
    weight_map, total = {}, 0
    for name, shard in zip(names, shards):
        write_safetensors(os.path.join(out, name), shard)
        for t, (_, _, data) in shard.items():
            weight_map[t] = name
            total += len(data)
    with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total},
                   "weight_map": dict(sorted(weight_map.items()))}, f, indent=2)
    return meant


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="the checkpoint folder to write")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--intermediate", type=int, default=64)
    ap.add_argument("--experts", type=int, default=8)
    ap.add_argument("--top-k", type=int, default=2)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--single-file", action="store_true", help="one model.safetensors, no index")
    ap.add_argument("--swap-gate-up", action="store_true", help="plant the gate/up layout error")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model-type", default="qwen3_moe", choices=sorted(NAMES))
    ap.add_argument("--no-norm-topk-prob", action="store_true",
                    help="norm_topk_prob false (qwen3_moe, olmoe)")
    a = ap.parse_args()
    write_checkpoint(a.out, a.hidden, a.intermediate, a.experts, a.top_k, a.layers,
                     norm_topk_prob=not a.no_norm_topk_prob, sharded=not a.single_file,
                     swap_gate_up=a.swap_gate_up, seed=a.seed, keep=False,
                     model_type=a.model_type)


if __name__ == "__main__":
    main()
