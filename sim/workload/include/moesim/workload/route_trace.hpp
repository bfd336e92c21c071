// Recorded routing (docs/route_traces.md): a versioned JSON file holding, per token, the routed
// expert ids in rank order and their weights (optionally the router logits), its validator, a
// generator of synthetic skewed traces, and the recorded logits the builder writes so that the
// hardware router (V_TOPK) selects exactly the recorded experts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::workload {

constexpr const char* kRouteTraceFormat = "moesim-route-trace";
constexpr unsigned kRouteTraceVersion = 1;
/// The most experts a route trace may name (its validator and generator refuse more).
constexpr unsigned kRouteTraceMaxExperts = 1u << 20;
/// The largest route trace file the validator reads (about a million tokens of top-8 with
/// weights written to full precision).
constexpr uint64_t kRouteTraceMaxBytes = uint64_t{128} << 20;
/// The generator's bounds: tokens x top_k (the pairs it writes, a file under
/// kRouteTraceMaxBytes) and tokens x top_k x experts (its sampling steps, seconds of work).
constexpr uint64_t kRouteTraceGenMaxPairs = uint64_t{1} << 22;
constexpr uint64_t kRouteTraceGenMaxSteps = uint64_t{1} << 32;

struct RouteToken {
  std::vector<uint32_t> ids;    ///< k expert ids in rank order (distinct, < experts)
  std::vector<double> weights;  ///< their weights, finite, >= 0, non-increasing
  std::vector<double> logits;   ///< optional: the router's E logits (finite), empty if absent
};

struct RouteTrace {
  unsigned experts = 0;  ///< E
  unsigned top_k = 0;    ///< k
  std::string model;     ///< optional: the model the trace was recorded for
  std::string source;    ///< how the trace was made (recorder, or the generator and its knobs)
  std::vector<RouteToken> tokens;
};

/// Reads and validates a route trace. Every error is a UsageError naming the file, and for a
/// token's field "token N: 'field': ...": wrong format or version, ids >= experts, an id twice
/// in one token, weights that are not finite (or negative, or increasing along the ranks), a
/// token whose ids or weights are not k long, logits that are not E finite numbers.
RouteTrace load_route_trace(const std::string& path);

/// The JSON text of a trace (one token per line).
std::string route_trace_json(const RouteTrace& t);

/// Synthetic skewed routing (docs/route_traces.md, The generator): expert popularity is Zipf
/// with exponent `zipf_s` over a seeded random permutation of the E experts; each token draws k
/// distinct experts by sequential weighted sampling without replacement; its weights are the
/// softmax of k standard normal draws (sorted, largest first). std::mt19937_64 with the
/// uniform and normal draws written out here (identical on every standard library). Refuses,
/// before any work, more than kRouteTraceGenMaxPairs pairs or kRouteTraceGenMaxSteps steps.
struct TraceGenOptions {
  unsigned experts = 128, top_k = 8, tokens = 1024;
  double zipf_s = 1.0;
  uint64_t seed = 1;
};
RouteTrace generate_route_trace(const TraceGenOptions& o);

/// The BF16 logits (bits) that make V_TOPK's softmax over the selected experts replay the
/// recorded weights: l_j = bf16(ln(w_j / w_{k-1}) + 1) (>= 1 > +0, the logit of every other
/// expert), each made at least one BF16 ulp below the previous rank's so V_TOPK returns the
/// recorded rank order. A zero weight counts as the smallest positive weight / 2^16.
std::vector<uint16_t> recorded_logits_bf16(const RouteToken& t);

/// A trace replayed as a layer (docs/route_traces.md, Replaying a trace): the model with its
/// router replaced by the recorded routing (a softmax router over the recorded logits: no bias,
/// no groups, weights renormalised, scaling 1), the trace tokens [from, to) and their recorded
/// routes for BuildOptions::recorded, and the note a built layer carries.
struct RouteReplay {
  ModelPreset model;
  unsigned from = 0, to = 0;
  std::vector<BuildOptions::RecordedRoute> recorded;
  std::string note;
};

/// Replays tokens [from, to) of `t` (read from `path`, which messages name) on model `m`; `to`
/// defaults to the trace's end. Throws UsageError: the trace's experts or top_k differ
/// from the model's ("--route-trace PATH: ..."), `to` past the trace ("--tokens-to N: ..."),
/// `from` not below `to` ("--tokens-from N: ...").
RouteReplay replay_route_trace(const RouteTrace& t, const std::string& path, const ModelPreset& m,
                               unsigned from, std::optional<unsigned> to);

/// Expert load: pairs routed to each expert over tokens [from, to).
std::vector<uint64_t> expert_load(const RouteTrace& t, unsigned from, unsigned to);

}  // namespace moesim::workload
