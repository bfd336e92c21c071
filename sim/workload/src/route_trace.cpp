// Route traces: see route_trace.hpp and docs/route_traces.md.
#include "moesim/workload/route_trace.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/json_file.hpp"

namespace moesim::workload {

namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw UsageError(path + ": " + what);
}

unsigned header_count(const std::string& path, const Json& root, const char* key, unsigned max) {
  if (!root.contains(key)) fail(path, std::string("missing key '") + key + "'");
  const Json& v = root.at(key);
  if (!v.is_number_unsigned() || v.get<uint64_t>() == 0 || v.get<uint64_t>() > max)
    fail(path, std::string("'") + key + "': expected an integer in [1, " + std::to_string(max) +
                   "], got " + v.dump());
  return static_cast<unsigned>(v.get<uint64_t>());
}

/// A uniform double in [0, 1) from the top 53 bits.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// A standard normal draw (Box-Muller, the cosine branch).
double normal(std::mt19937_64& rng) {
  const double u1 = 1.0 - uniform(rng);  // (0, 1]
  const double u2 = uniform(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

}  // namespace

RouteTrace load_route_trace(const std::string& path) {
  const Json root = read_json_file(path, path, kRouteTraceMaxBytes);
  if (!root.is_object()) fail(path, "expected a JSON object with 'format', 'version', 'tokens'");
  static const std::set<std::string> known = {"format", "version", "experts", "top_k",
                                              "model",  "source",  "tokens"};
  for (const auto& kv : root.items())
    if (!known.count(kv.key()))
      fail(path, "unknown key '" + kv.key() +
                     "' (known: format, version, experts, top_k, model, source, tokens)");
  if (!root.contains("format") || root["format"] != kRouteTraceFormat)
    fail(path, std::string("'format': expected \"") + kRouteTraceFormat + "\"" +
                   (root.contains("format") ? ", got " + root["format"].dump() : ""));
  if (!root.contains("version") || root["version"] != kRouteTraceVersion)
    fail(path, "'version': expected " + std::to_string(kRouteTraceVersion) +
                   (root.contains("version") ? ", got " + root["version"].dump() : " (missing)"));
  RouteTrace t;
  t.experts = header_count(path, root, "experts", kRouteTraceMaxExperts);
  t.top_k = header_count(path, root, "top_k", t.experts);
  for (const char* k : {"model", "source"})
    if (root.contains(k)) {
      if (!root[k].is_string()) fail(path, std::string("'") + k + "': expected a string");
      (std::string(k) == "model" ? t.model : t.source) = root[k].get<std::string>();
    }
  if (!root.contains("tokens") || !root["tokens"].is_array() || root["tokens"].empty())
    fail(path, "'tokens': expected a non-empty list of tokens");
  size_t n = 0;
  for (const Json& tok : root["tokens"]) {
    const std::string at = "token " + std::to_string(n++) + ": ";
    if (!tok.is_object()) fail(path, at + "expected an object with 'ids' and 'weights'");
    for (const auto& kv : tok.items())
      if (kv.key() != "ids" && kv.key() != "weights" && kv.key() != "logits")
        fail(path, at + "unknown key '" + kv.key() + "' (known: ids, weights, logits)");
    RouteToken r;
    for (const char* field : {"ids", "weights"}) {
      if (!tok.contains(field) || !tok[field].is_array())
        fail(path, at + "'" + field + "': expected a list of " + std::to_string(t.top_k));
      if (tok[field].size() != t.top_k)
        fail(path, at + "'" + field + "': " + std::to_string(tok[field].size()) +
                       " entries, top_k is " + std::to_string(t.top_k));
    }
    std::set<uint32_t> seen;
    for (size_t j = 0; j < t.top_k; ++j) {
      const Json& id = tok["ids"][j];
      if (!id.is_number_unsigned())
        fail(path,
             at + "'ids'[" + std::to_string(j) + "]: expected an expert id, got " + id.dump());
      const uint64_t v = id.get<uint64_t>();
      if (v >= t.experts)
        fail(path, at + "'ids'[" + std::to_string(j) + "]: expert " + std::to_string(v) +
                       " >= experts " + std::to_string(t.experts));
      if (!seen.insert(static_cast<uint32_t>(v)).second)
        fail(path, at + "'ids'[" + std::to_string(j) + "]: expert " + std::to_string(v) +
                       " selected twice");
      r.ids.push_back(static_cast<uint32_t>(v));
      const Json& w = tok["weights"][j];
      // JSON has no NaN or infinity: they arrive as strings ("nan", "inf") or null.
      if (!w.is_number() || !std::isfinite(w.get<double>()))
        fail(path, at + "'weights'[" + std::to_string(j) + "]: expected a finite number, got " +
                       w.dump());
      const double x = w.get<double>();
      if (x < 0)
        fail(path, at + "'weights'[" + std::to_string(j) + "]: negative weight " + w.dump());
      if (j > 0 && x > r.weights.back())
        fail(path, at + "'weights'[" + std::to_string(j) + "]: " + w.dump() +
                       " exceeds the weight of rank " + std::to_string(j - 1) +
                       " (ids are in rank order)");
      r.weights.push_back(x);
    }
    if (tok.contains("logits")) {
      const Json& l = tok["logits"];
      if (!l.is_array() || l.size() != t.experts)
        fail(path, at + "'logits': expected " + std::to_string(t.experts) + " numbers");
      for (size_t e = 0; e < l.size(); ++e) {
        if (!l[e].is_number() || !std::isfinite(l[e].get<double>()))
          fail(path, at + "'logits'[" + std::to_string(e) + "]: expected a finite number, got " +
                         l[e].dump());
        r.logits.push_back(l[e].get<double>());
      }
    }
    t.tokens.push_back(std::move(r));
  }
  return t;
}

std::string route_trace_json(const RouteTrace& t) {
  std::ostringstream os;
  Json head = {{"format", kRouteTraceFormat},
               {"version", kRouteTraceVersion},
               {"experts", t.experts},
               {"top_k", t.top_k},
               {"model", t.model},
               {"source", t.source}};
  std::string h = head.dump();
  h.pop_back();  // the closing brace: the tokens follow
  os << h << ",\n\"tokens\": [\n";
  for (size_t i = 0; i < t.tokens.size(); ++i) {
    const RouteToken& r = t.tokens[i];
    Json tok = {{"ids", r.ids}, {"weights", r.weights}};
    if (!r.logits.empty()) tok["logits"] = r.logits;
    os << "  " << tok.dump() << (i + 1 < t.tokens.size() ? ",\n" : "\n");
  }
  os << "]}\n";
  return os.str();
}

RouteTrace generate_route_trace(const TraceGenOptions& o) {
  if (o.experts == 0 || o.experts > kRouteTraceMaxExperts)
    throw UsageError("route-trace gen: --experts " + std::to_string(o.experts) +
                     ": must be in 1.." + std::to_string(kRouteTraceMaxExperts));
  if (o.top_k == 0 || o.top_k > o.experts)
    throw UsageError("route-trace gen: --top-k " + std::to_string(o.top_k) + ": must be in 1.." +
                     std::to_string(o.experts) + " (the experts)");
  if (o.tokens == 0) throw UsageError("route-trace gen: --tokens must be at least 1");
  const uint64_t pairs = uint64_t{o.tokens} * o.top_k;
  if (pairs > kRouteTraceGenMaxPairs)
    throw UsageError("route-trace gen: --tokens " + std::to_string(o.tokens) + " x --top-k " +
                     std::to_string(o.top_k) + " = " + std::to_string(pairs) +
                     " routed pairs, more than the generator's limit of " +
                     std::to_string(kRouteTraceGenMaxPairs));
  // Each of the pairs is drawn by a walk over the E experts.
  if (pairs > kRouteTraceGenMaxSteps / o.experts)
    throw UsageError("route-trace gen: --tokens " + std::to_string(o.tokens) + " x --top-k " +
                     std::to_string(o.top_k) + " x --experts " + std::to_string(o.experts) +
                     " sampling steps, more than the generator's limit of " +
                     std::to_string(kRouteTraceGenMaxSteps) + " (2^32)");
  if (!std::isfinite(o.zipf_s) || o.zipf_s < 0)
    throw UsageError("route-trace gen: --zipf must be a finite number >= 0");
  std::mt19937_64 rng(o.seed);
  // Popularity: expert perm[r] has weight 1 / (r + 1)^s (Fisher-Yates from the same stream).
  std::vector<uint32_t> perm(o.experts);
  for (uint32_t e = 0; e < o.experts; ++e) perm[e] = e;
  for (uint32_t i = o.experts - 1; i > 0; --i) std::swap(perm[i], perm[rng() % (i + 1)]);
  std::vector<double> pop(o.experts);
  for (uint32_t r = 0; r < o.experts; ++r) pop[perm[r]] = std::pow(r + 1.0, -o.zipf_s);
  RouteTrace t;
  t.experts = o.experts;
  t.top_k = o.top_k;
  char src[160];
  std::snprintf(src, sizeof src,
                "moesim route-trace gen: zipf s=%g over a seeded permutation, weights softmax of "
                "k normal draws, seed %llu",
                o.zipf_s, static_cast<unsigned long long>(o.seed));
  t.source = src;
  for (unsigned n = 0; n < o.tokens; ++n) {
    std::vector<double> p = pop;
    std::vector<bool> taken(o.experts, false);
    RouteToken r;
    for (unsigned j = 0; j < o.top_k; ++j) {
      double total = 0;
      for (double x : p) total += x;
      double u = uniform(rng) * total;
      uint32_t pick = o.experts;
      for (uint32_t e = 0; e < o.experts; ++e) {
        if (p[e] == 0) continue;  // taken, or underflowed
        pick = e;
        if (u < p[e]) break;
        u -= p[e];
      }
      // A large --zipf underflows the popularity of all but the hottest experts to 0: take the
      // most popular expert not yet selected.
      for (uint32_t rank = 0; pick == o.experts; ++rank)
        if (!taken[perm[rank]]) pick = perm[rank];
      taken[pick] = true;
      p[pick] = 0;
      r.ids.push_back(pick);
    }
    std::vector<double> g(o.top_k);
    for (double& x : g) x = normal(rng);
    std::sort(g.begin(), g.end(), std::greater<>());
    double sum = 0;
    for (double x : g) sum += std::exp(x - g[0]);
    for (double x : g) r.weights.push_back(std::exp(x - g[0]) / sum);
    t.tokens.push_back(std::move(r));
  }
  return t;
}

std::vector<uint16_t> recorded_logits_bf16(const RouteToken& t) {
  const size_t k = t.ids.size();
  double smallest = 0;
  for (double w : t.weights)
    if (w > 0 && (smallest == 0 || w < smallest)) smallest = w;
  if (smallest == 0) smallest = 1;  // all zero: equal logits, separated by ulps below
  std::vector<uint16_t> out;
  const double last = std::max(t.weights[k - 1], smallest * 0x1.0p-16);
  for (size_t j = 0; j < k; ++j) {
    const double w = std::max(t.weights[j], smallest * 0x1.0p-16);
    // w / last overflows for weights near the double range's ends: take the logs apart then.
    const double ratio = w / last;
    const double l = std::isfinite(ratio) ? std::log(ratio) : std::log(w) - std::log(last);
    uint16_t b = num::f32_to_bf16(static_cast<float>(l + 1.0));
    // Positive BF16 values order like their bits: one ulp below is bits - 1.
    if (j > 0 && b >= out.back()) b = static_cast<uint16_t>(out.back() - 1);
    out.push_back(b);
  }
  return out;
}

std::vector<uint64_t> expert_load(const RouteTrace& t, unsigned from, unsigned to) {
  std::vector<uint64_t> load(t.experts, 0);
  for (unsigned n = from; n < to && n < t.tokens.size(); ++n)
    for (uint32_t id : t.tokens[n].ids) ++load[id];
  return load;
}

RouteReplay replay_route_trace(const RouteTrace& t, const std::string& path, const ModelPreset& m,
                               unsigned from, std::optional<unsigned> to_opt) {
  if (t.experts != m.experts || t.top_k != m.top_k)
    throw UsageError("--route-trace " + path + ": 'experts' " + std::to_string(t.experts) +
                     ", 'top_k' " + std::to_string(t.top_k) + " but model " + m.name +
                     " has E = " + std::to_string(m.experts) + ", k = " + std::to_string(m.top_k));
  const auto n = static_cast<unsigned>(t.tokens.size());
  const unsigned to = to_opt.value_or(n);
  if (to > n)
    throw UsageError("--tokens-to " + std::to_string(to) + ": the trace has " + std::to_string(n) +
                     " tokens");
  if (from >= to)
    throw UsageError("--tokens-from " + std::to_string(from) + ": must be below --tokens-to " +
                     std::to_string(to));
  RouteReplay r;
  r.model = m;
  ModelPreset& x = r.model;
  x.scoring_func = "softmax";
  x.norm_topk_prob = true;
  x.router_bias = false;
  x.routed_scaling_factor = 1.0;
  x.n_group = x.topk_group = 1;
  x.topk_method.clear();
  x.correction_bias = false;
  x.scores_scale_input = false;
  const std::string range = " tokens [" + std::to_string(from) + ", " + std::to_string(to) + ")";
  x.routing = "recorded: V_TOPK over the recorded logits of " + path + range;
  r.from = from;
  r.to = to;
  for (unsigned i = from; i < to; ++i)
    r.recorded.push_back({t.tokens[i].ids, recorded_logits_bf16(t.tokens[i])});
  r.note = "route trace " + path + ":" + range +
           " replayed; the model's router is replaced by the recorded routing (W_r = 0, recorded "
           "logits before V_TOPK; weights renormalised)";
  return r;
}

}  // namespace moesim::workload
