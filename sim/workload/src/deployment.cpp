// Deployments file loader and per-rank shapes: see deployment.hpp and docs/deployments.md.
#include "moesim/workload/deployment.hpp"

#include <filesystem>
#include <map>
#include <set>

#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"
#include "moesim/workload/builder.hpp"

#ifndef MOESIM_DEPLOYMENTS_FILE
#error "MOESIM_DEPLOYMENTS_FILE must name the shipped deployments.yaml"
#endif

namespace moesim::workload {

namespace fs = std::filesystem;

namespace {

constexpr const char* kKnown =
    "name, model, ep, redundant, replicas, dispatch, fuse_shared, max_tokens_per_rank";
constexpr const char* kRequired[] = {"name", "model", "ep", "max_tokens_per_rank"};

/// Why `model` cannot fuse its shared experts, or "" when it can: fused shared experts are
/// routed-expert-shaped MLPs selected with weight 1 (an ungated shared expert of
/// n_shared_experts x moe_intermediate_size).
std::string fusion_refusal(const ModelPreset& m) {
  if (m.shared_experts == 0) return "model " + m.name + " has no shared experts (n_shared_experts)";
  if (m.shared_gate)
    return "model " + m.name +
           "'s shared expert is gated (shared_expert_gate): a fused column has weight 1";
  if (m.shared_intermediate != m.intermediate * m.shared_experts)
    return "model " + m.name + "'s shared expert is " + std::to_string(m.shared_intermediate) +
           " wide, not n_shared_experts x the routed width (" + std::to_string(m.shared_experts) +
           " x " + std::to_string(m.intermediate) + "): it is not routed-expert-shaped";
  return "";
}

std::string split_refusal(const Deployment& d) {
  const unsigned p = d.model.experts + d.redundant;
  if (d.ep == 0) return "ep must be >= 1";
  const uint64_t shared = d.fuse_shared ? d.model.shared_experts : 0;
  const uint64_t entries = uint64_t{d.ep} * (uint64_t{p} + shared + 1);
  if (entries > kMaxDeploymentMaskEntries)
    return "ep " + std::to_string(d.ep) + " ranks x " + std::to_string(uint64_t{p} + shared + 1) +
           " expert-mask entries (" + std::to_string(p) + " physical + " + std::to_string(shared) +
           " fused shared + 1) = " + std::to_string(entries) + ", more than the limit of " +
           std::to_string(kMaxDeploymentMaskEntries);
  if (p % d.ep != 0)
    return std::to_string(p) + " physical experts (" + std::to_string(d.model.experts) +
           " routed + " + std::to_string(d.redundant) + " redundant) do not split over ep " +
           std::to_string(d.ep);
  return "";
}

}  // namespace

DeploymentShape derive_shape(const Deployment& d) {
  if (const std::string why = split_refusal(d); !why.empty())
    throw UsageError(d.where + ": deployment " + d.name + ": " + why);
  if (d.fuse_shared)
    if (const std::string why = fusion_refusal(d.model); !why.empty())
      throw UsageError(d.where + ": deployment " + d.name + ": fuse_shared: " + why);
  if (d.replicas.size() != d.redundant)
    throw UsageError(d.where + ": deployment " + d.name + ": " + std::to_string(d.replicas.size()) +
                     " replicas for " + std::to_string(d.redundant) + " redundant experts");
  DeploymentShape s;
  s.routed = d.model.experts;
  s.redundant = d.redundant;
  s.physical = s.routed + s.redundant;
  s.shared = d.fuse_shared ? d.model.shared_experts : 0;
  s.ep = d.ep;
  s.top_k = d.model.top_k;
  s.routing_columns = s.top_k + (s.shared != 0 ? s.shared + 1 : 0);
  s.mask_entries = s.physical + s.shared + 1;
  for (unsigned p = 0; p < s.routed; ++p) s.physical_to_logical.push_back(p);
  for (unsigned r : d.replicas) s.physical_to_logical.push_back(r);
  const unsigned per_rank = s.physical / s.ep;
  for (unsigned r = 0; r < s.ep; ++r) {
    RankShape k;
    k.rank = r;
    k.first_physical = r * per_rank;
    k.local_routed = per_rank;
    k.local_shared = s.shared;
    k.local_experts = per_rank + s.shared;
    k.routing_columns = s.routing_columns;
    k.mask.assign(s.mask_entries, -1);
    for (unsigned i = 0; i < per_rank; ++i) k.mask[k.first_physical + i] = static_cast<int32_t>(i);
    for (unsigned i = 0; i < s.shared; ++i)
      k.mask[s.physical + i] = static_cast<int32_t>(per_rank + i);
    // k.mask[P + S], the sentinel, stays -1 on every rank.
    s.ranks.push_back(std::move(k));
  }
  return s;
}

std::vector<Deployment> load_deployments(const std::string& path) {
  const isa::YamlReader r(path);
  const YAML::Node root = r.load("deployments file");
  if (!root.IsMap()) r.fail(root.Mark(), "expected a mapping with the key 'deployments'");
  for (const auto& kv : root)
    if (kv.first.Scalar() != "deployments")
      r.fail(kv.first.Mark(), "unknown key '" + kv.first.Scalar() + "' (known: deployments)");
  const YAML::Node list = root["deployments"];
  if (!list) r.fail(root.Mark(), "missing key 'deployments'");
  if (!list.IsSequence() || list.size() == 0)
    r.fail(list.Mark(), "'deployments': expected a non-empty list of entries");
  const fs::path base = fs::absolute(fs::path(path)).parent_path();
  std::vector<Deployment> out;
  std::map<std::string, std::string> names;  // name -> where
  for (const YAML::Node& e : list) {
    if (!e.IsMap()) r.fail(e.Mark(), "a 'deployments' entry must be a mapping of keys");
    std::map<std::string, YAML::Node> keys;
    for (const auto& kv : e) {
      const std::string k = kv.first.Scalar();
      bool known = false;
      for (const char* w : {"name", "model", "ep", "redundant", "replicas", "dispatch",
                            "fuse_shared", "max_tokens_per_rank"})
        known = known || k == w;
      if (!known) r.fail(kv.first.Mark(), "unknown key '" + k + "' (known: " + kKnown + ")");
      keys[k] = kv.second;
    }
    for (const char* k : kRequired)
      if (!keys.count(k)) r.fail(e.Mark(), std::string("missing key '") + k + "'");
    Deployment d;
    d.where = r.where(e);
    d.name = r.scalar<std::string>(keys["name"], "name", "a name");
    if (d.name.empty()) r.fail(keys["name"].Mark(), "'name': empty");
    if (const auto it = names.find(d.name); it != names.end())
      r.fail(keys["name"].Mark(), "'name': " + d.name + " is also the deployment at " + it->second);
    names[d.name] = d.where;
    d.model_arg = r.scalar<std::string>(keys["model"], "model", "a preset name or a config.json");
    std::string model_path = d.model_arg;
    if (d.model_arg.size() > 5 && d.model_arg.compare(d.model_arg.size() - 5, 5, ".json") == 0 &&
        fs::path(d.model_arg).is_relative())
      model_path = (base / d.model_arg).string();
    try {
      d.model = resolve_model(model_path);
      // The shapes need top-k <= E only; a router the builder does not lower is refused when a
      // rank's program is built (`cosim --deployment`), so `deploy list` still shows its shapes.
      check_model_top_k(d.model);
    } catch (const ModelError& ex) {
      r.fail(keys["model"].Mark(), std::string("'model': ") + ex.what());
    }
    d.ep = static_cast<unsigned>(r.count(keys["ep"], "ep", 1, 4096));
    d.max_tokens_per_rank = static_cast<unsigned>(
        r.count(keys["max_tokens_per_rank"], "max_tokens_per_rank", 1, 1u << 20));
    if (keys.count("redundant"))
      d.redundant = static_cast<unsigned>(r.count(keys["redundant"], "redundant", 0, 1u << 16));
    if (keys.count("fuse_shared"))
      d.fuse_shared = r.scalar<bool>(keys["fuse_shared"], "fuse_shared", "true or false");
    if (keys.count("dispatch")) {
      const std::string v = r.scalar<std::string>(keys["dispatch"], "dispatch", "a dispatch name");
      if (v != "round-robin")
        r.fail(keys["dispatch"].Mark(), "'dispatch': unknown '" + v + "' (known: round-robin)");
    }
    if (keys.count("replicas")) {
      const YAML::Node n = keys["replicas"];
      if (!n.IsSequence()) r.fail(n.Mark(), "'replicas': expected a list of logical expert ids");
      std::map<unsigned, YAML::Mark> seen;
      for (const YAML::Node& v : n) {
        const auto id = static_cast<unsigned>(
            r.count(v, "replicas", 0, d.model.experts == 0 ? 0 : d.model.experts - 1));
        if (const auto it = seen.find(id); it != seen.end())
          r.fail(v.Mark(), "'replicas': logical expert " + std::to_string(id) +
                               " listed twice (also at line " +
                               std::to_string(it->second.line + 1) +
                               "); one replica per listed expert");
        seen.emplace(id, v.Mark());
        d.replicas.push_back(id);
      }
      if (d.replicas.size() != d.redundant)
        r.fail(n.Mark(), "'replicas': " + std::to_string(d.replicas.size()) +
                             " ids for redundant: " + std::to_string(d.redundant));
    } else {
      // SGLang's trivial expert location: physical expert p holds logical p mod E.
      if (d.redundant > d.model.experts)
        r.fail(keys["redundant"].Mark(), "'redundant': " + std::to_string(d.redundant) +
                                             " exceeds the " + std::to_string(d.model.experts) +
                                             " routed experts without a 'replicas' list");
      for (unsigned i = 0; i < d.redundant; ++i) d.replicas.push_back(i % d.model.experts);
    }
    if (const std::string why = split_refusal(d); !why.empty())
      r.fail(keys["ep"].Mark(), "'ep': " + why);
    if (d.fuse_shared)
      if (const std::string why = fusion_refusal(d.model); !why.empty())
        r.fail(keys["fuse_shared"].Mark(), "'fuse_shared': " + why);
    out.push_back(std::move(d));
  }
  return out;
}

std::string default_deployments_file() { return MOESIM_DEPLOYMENTS_FILE; }

}  // namespace moesim::workload
