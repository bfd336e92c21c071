// Campaign spec loader: see spec.hpp and docs/campaigns.md.
#include "moesim/campaign/spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::campaign {

namespace fs = std::filesystem;

namespace {

/// The keys of a `runs` entry: each list key may also be given as one scalar (an explicit run)
/// under its plural or its singular name.
struct ListKey {
  const char* plural;
  const char* singular;
};
constexpr ListKey kListKeys[] = {{"models", "model"},       {"machines", "machine"},
                                 {"lowerings", "lowering"}, {"shared", "shared"},
                                 {"seeds", "seed"},         {"tokens", "token"},
                                 {"hidden", "hidden"},      {"intermediate", "intermediate"}};
constexpr const char* kScalarKeys[] = {"windows", "reference", "flip_bit", "random"};

class Reader : public isa::YamlReader {
 public:
  using isa::YamlReader::YamlReader;

  /// The values of a list key (a sequence, or one scalar). An empty sequence is an empty cross
  /// product.
  std::vector<YAML::Node> values(const YAML::Node& n, const std::string& key) const {
    std::vector<YAML::Node> out;
    if (n.IsSequence()) {
      for (const YAML::Node& v : n) out.push_back(v);
      if (out.empty())
        fail(n.Mark(), "empty cross product: '" + key +
                           "' is an empty list (leave it out for "
                           "the single-run default)");
    } else if (n.IsScalar()) {
      out.push_back(n);
    } else {
      fail(n.Mark(), "'" + key + "': expected a list or one value");
    }
    return out;
  }
};

/// a * b, or UINT64_MAX when it does not fit.
uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

std::string id_part(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '-';
  return out;
}

/// The id word of a model: the preset name, or a config.json's folder (file stem otherwise).
std::string model_word(const std::string& model, bool is_file) {
  if (!is_file) return model;
  const fs::path p(model);
  return id_part(p.stem() == "config" && p.has_parent_path() ? p.parent_path().filename().string()
                                                             : p.stem().string());
}

}  // namespace

std::string shell_quote(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./:=+,@") == std::string::npos)
    return w;
  std::string out = "'";
  for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<std::string> Run::cosim_args() const {
  if (random_count != 0) {
    std::vector<std::string> a = {"random",    "--cosim",
                                  "--machine", machine,
                                  "--seed",    std::to_string(seed),
                                  "--count",   std::to_string(random_count)};
    if (!mix.empty()) a.insert(a.end(), {"--mix", mix});
    // A failing program is written, and the first one shrunk, into the run's folder.
    a.insert(a.end(), {"-o", "failing", "--shrink", "--quiet"});
    return a;
  }
  std::vector<std::string> a = {"cosim",    "--machine",           machine, "--model", model,
                                "--tokens", std::to_string(tokens)};
  if (hidden) a.insert(a.end(), {"--hidden", std::to_string(*hidden)});
  if (intermediate) a.insert(a.end(), {"--intermediate", std::to_string(*intermediate)});
  if (shared) a.push_back("--shared");
  a.insert(a.end(), {"--lowering", lowering, "--seed", std::to_string(seed)});
  if (reference) a.push_back("--reference");
  if (windows > 1) a.insert(a.end(), {"--windows", std::to_string(windows)});
  if (!flip_bit.empty()) a.insert(a.end(), {"--flip-bit", flip_bit});
  a.push_back("--quiet");
  return a;
}

std::vector<Run> load_spec(const std::string& path, const isa::Spec& spec,
                           const SpecOptions& options) {
  const Reader r(path);
  const YAML::Node root = r.load("campaign spec");
  if (!root.IsMap()) r.fail(root.Mark(), "expected a mapping with the key 'runs'");
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    if (k != "runs" && k != "name")
      r.fail(kv.first.Mark(), "unknown key '" + k + "' (known: name, runs)");
  }
  const YAML::Node runs = root["runs"];
  if (!runs) r.fail(root.Mark(), "no 'runs' list");
  if (!runs.IsSequence()) r.fail(runs.Mark(), "'runs': expected a list of entries");
  if (runs.size() == 0) r.fail(runs.Mark(), "empty cross product: 'runs' is an empty list");

  const fs::path base = fs::absolute(fs::path(path)).parent_path();
  // The id word of each config.json file: two files whose words would be the same (every
  // Hugging Face model names its file config.json) get -2, -3, ... in the order of the spec.
  std::map<std::string, std::string> file_of_word;
  auto file_word = [&](const std::string& file) {
    const std::string word = model_word(file, true);
    const std::string canonical = fs::weakly_canonical(file).string();
    for (unsigned n = 1;; ++n) {
      const std::string w = n == 1 ? word : word + "-" + std::to_string(n);
      const auto [it, fresh] = file_of_word.emplace(w, canonical);
      if (fresh || it->second == canonical) return w;
    }
  };
  std::vector<Run> out;
  std::map<std::string, std::string> seen;  // id -> where
  // Refuses, before they are made, runs that would take the campaign past kMaxCampaignRuns.
  auto check_runs = [&](const YAML::Node& at, uint64_t more, const std::string& how) {
    if (more > kMaxCampaignRuns - std::min<uint64_t>(out.size(), kMaxCampaignRuns))
      r.fail(at.Mark(),
             "this entry gives " +
                 (more == UINT64_MAX ? std::string("more than 2^64") : std::to_string(more)) +
                 " runs (" + how + ")" +
                 (out.empty()
                      ? std::string()
                      : " after the " + std::to_string(out.size()) + " runs of the entries above") +
                 ", more than a campaign's limit of " + std::to_string(kMaxCampaignRuns));
  };
  // A run's folder is named by its id.
  auto check_id = [&](const YAML::Node& at, const Run& run) {
    if (run.id.size() > kMaxRunIdBytes)
      r.fail(at.Mark(),
             "run id " + run.id.substr(0, 60) + "... is " + std::to_string(run.id.size()) +
                 " bytes, more than a folder name holds (" + std::to_string(kMaxRunIdBytes) +
                 "); shorten the config.json name or the flip_bit");
  };
  // Seed ranges of random batches per machine: first -> (last, where), to refuse overlaps.
  std::map<std::string, std::map<uint64_t, std::pair<uint64_t, std::string>>> random_seeds;
  for (const YAML::Node& entry : runs) {
    if (!entry.IsMap()) r.fail(entry.Mark(), "a 'runs' entry must be a mapping of keys");
    std::map<std::string, YAML::Node> lists;  // plural -> node
    Run proto;
    proto.where = r.where(entry);
    YAML::Node random;  // the `random` mapping
    YAML::Node flip_node;
    bool has_random = false;
    uint64_t random_first = 1, random_count = 0, random_batch = 100;
    for (const auto& kv : entry) {
      const std::string k = kv.first.Scalar();
      const ListKey* lk = nullptr;
      for (const ListKey& l : kListKeys)
        if (k == l.plural || k == l.singular) lk = &l;
      if (lk) {
        if (lists.count(lk->plural))
          r.fail(kv.first.Mark(), std::string("'") + k + "' given twice (as '" + lk->plural +
                                      "' and '" + lk->singular + "')");
        lists[lk->plural] = kv.second;
        continue;
      }
      if (k == "windows") {
        proto.windows = r.count(kv.second, k, 1, options.max_windows);
        if (proto.windows > 1 && !options.windows_supported)
          r.fail(kv.second.Mark(), "'windows: " + std::to_string(proto.windows) +
                                       "': this moesim's cosim has no --windows (windowed "
                                       "co-simulation is not built in); use windows: 1");
      } else if (k == "reference") {
        proto.reference = r.scalar<bool>(kv.second, k, "true or false");
      } else if (k == "flip_bit") {
        proto.flip_bit = r.scalar<std::string>(kv.second, k, "ENGINE:SPACE:BYTE:BIT");
        flip_node = kv.second;
      } else if (k == "random") {
        random = kv.second;
        has_random = true;
        if (!random.IsMap())
          r.fail(random.Mark(), "'random': expected a mapping with count (and seed, batch, mix)");
        for (const auto& rk : random) {
          const std::string n = rk.first.Scalar();
          if (n == "seed") {
            random_first = r.count(rk.second, "random: seed", 0, UINT64_MAX);
          } else if (n == "count") {
            random_count = r.count(rk.second, "random: count", 1, UINT32_MAX);
          } else if (n == "batch") {
            random_batch = r.count(rk.second, "random: batch", 1, UINT32_MAX);
          } else if (n == "mix") {
            const std::string m = r.scalar<std::string>(rk.second, "random: mix", "a mix file");
            proto.mix = (fs::path(m).is_relative() ? base / m : fs::path(m)).lexically_normal();
            if (!fs::is_regular_file(proto.mix))
              r.fail(rk.second.Mark(), "'random: mix': " + m + " is not a readable file");
          } else {
            r.fail(rk.first.Mark(),
                   "unknown key '" + n + "' in 'random' (known: seed, count, batch, mix)");
          }
        }
        if (random_count == 0) r.fail(random.Mark(), "'random': give count (the programs)");
        if (random_first > UINT64_MAX - (random_count - 1))
          r.fail(random.Mark(), "'random': the seeds run past 2^64 - 1");
      } else {
        std::string known;
        for (const ListKey& l : kListKeys)
          known += std::string(known.empty() ? "" : ", ") + l.plural;
        for (const char* s : kScalarKeys) known += std::string(", ") + s;
        r.fail(kv.first.Mark(), "unknown key '" + k + "' (known: " + known + ")");
      }
    }
    if (has_random) {
      // A random entry: batches of `moesim random --cosim` on each machine; the MoE layer's keys
      // do not apply.
      for (const auto& kv : entry) {
        const std::string k = kv.first.Scalar();
        if (k != "random" && k != "machines" && k != "machine")
          r.fail(kv.first.Mark(), "'" + k +
                                      "' does not apply to a 'random' entry (its runs are "
                                      "moesim random --cosim batches; keys: random, machines)");
      }
      std::vector<YAML::Node> ms = lists.count("machines") ? r.values(lists["machines"], "machines")
                                                           : std::vector<YAML::Node>{};
      std::vector<std::string> machines;
      for (const YAML::Node& n : ms) {
        const std::string m = r.scalar<std::string>(n, "machines", "a machine preset name");
        if (!spec.presets().count(m))
          r.fail(n.Mark(), "'machines': unknown machine preset '" + m + "'");
        machines.push_back(m);
      }
      if (machines.empty()) machines.push_back("default");
      const uint64_t batches = random_count / random_batch + (random_count % random_batch != 0);
      check_runs(random, saturating_mul(batches, machines.size()),
                 std::to_string(batches) + " batches of at most " + std::to_string(random_batch) +
                     " programs on " + std::to_string(machines.size()) + " machines");
      const uint64_t last = random_first + (random_count - 1);
      for (const std::string& mach : machines) {
        auto& ranges = random_seeds[mach];
        auto next = ranges.lower_bound(random_first);
        const auto clash = [&](auto it) {
          r.fail(random.Mark(), "'random': seeds " + std::to_string(random_first) + ".." +
                                    std::to_string(last) + " on " + mach + " overlap the seeds " +
                                    std::to_string(it->first) + ".." +
                                    std::to_string(it->second.first) + " of the entry at " +
                                    it->second.second + " (a campaign runs each program once)");
        };
        if (next != ranges.end() && next->first <= last) clash(next);
        if (next != ranges.begin() && std::prev(next)->second.first >= random_first)
          clash(std::prev(next));
        ranges.emplace(random_first, std::make_pair(last, proto.where));
        for (uint64_t done = 0; done < random_count; done += random_batch) {
          Run run = proto;
          run.machine = mach;
          run.seed = random_first + done;
          run.random_count = std::min(random_batch, random_count - done);
          run.id = mach + ".random.s" + std::to_string(run.seed) + "-" +
                   std::to_string(run.seed + run.random_count - 1);
          check_id(entry, run);
          seen.emplace(run.id, run.where);
          out.push_back(std::move(run));
        }
      }
      continue;
    }
    // Values of each list key, checked; a key left out has the single-run default.
    auto vals = [&](const char* key) {
      return lists.count(key) ? r.values(lists[key], key)
                              : std::vector<YAML::Node>{YAML::Node(YAML::NodeType::Undefined)};
    };
    struct Model {
      std::string arg, word;
      bool has_shared;
    };
    std::vector<Model> models;
    for (const YAML::Node& n : vals("models")) {
      if (!n.IsDefined() || n.IsNull()) {
        models.push_back({"gpt-oss-20b", "gpt-oss-20b", false});
        continue;
      }
      std::string m = r.scalar<std::string>(n, "models", "a model preset or a config.json path");
      const bool is_file =
          m.size() > 5 && m.compare(m.size() - 5, 5, ".json") == 0;  // as resolve_model
      if (is_file && fs::path(m).is_relative()) m = (base / m).lexically_normal().string();
      workload::ModelPreset mp;
      try {
        mp = workload::resolve_model(m);
      } catch (const std::exception& e) {
        r.fail(n.Mark(), std::string("'models': ") + e.what());
      }
      models.push_back(
          {m, is_file ? file_word(m) : model_word(mp.name, false), mp.shared_experts != 0});
    }
    std::vector<std::string> machines, lowerings;
    for (const YAML::Node& n : vals("machines")) {
      if (!n.IsDefined()) {
        machines.push_back("default");
        continue;
      }
      const std::string m = r.scalar<std::string>(n, "machines", "a machine preset name");
      if (!spec.presets().count(m)) {
        std::string known;
        for (const auto& [name, p] : spec.presets()) known += (known.empty() ? "" : ", ") + name;
        r.fail(n.Mark(), "'machines': unknown machine preset '" + m + "' (known: " + known + ")");
      }
      machines.push_back(m);
    }
    for (const YAML::Node& n : vals("lowerings")) {
      if (!n.IsDefined()) {
        lowerings.push_back("pair");
        continue;
      }
      const std::string l = r.scalar<std::string>(n, "lowerings", "pair or expert");
      if (l != "pair" && l != "expert")
        r.fail(n.Mark(), "'lowerings': unknown lowering '" + l + "' (known: pair, expert)");
      lowerings.push_back(l);
    }
    std::vector<std::pair<bool, YAML::Node>> shareds;
    for (const YAML::Node& n : vals("shared"))
      shareds.emplace_back(n.IsDefined() && r.scalar<bool>(n, "shared", "true or false"), n);
    // A key left out: std::nullopt (the single-run default).
    auto numbers = [&](const char* key, uint64_t min, uint64_t max) {
      std::vector<std::optional<uint64_t>> v;
      for (const YAML::Node& n : vals(key))
        v.push_back(n.IsDefined() ? std::optional<uint64_t>(r.count(n, key, min, max))
                                  : std::nullopt);
      return v;
    };
    const auto seeds = numbers("seeds", 0, UINT64_MAX);
    const auto tokens = numbers("tokens", 1, UINT32_MAX);
    const auto hidden = numbers("hidden", 1, UINT32_MAX);
    const auto inter = numbers("intermediate", 1, UINT32_MAX);
    {
      const std::vector<std::pair<const char*, uint64_t>> sizes = {
          {"models", models.size()},       {"machines", machines.size()},
          {"lowerings", lowerings.size()}, {"shared", shareds.size()},
          {"seeds", seeds.size()},         {"tokens", tokens.size()},
          {"hidden", hidden.size()},       {"intermediate", inter.size()}};
      uint64_t product = 1;
      std::string how;
      for (const auto& [key, n] : sizes) {
        product = saturating_mul(product, n);
        if (n > 1) how += (how.empty() ? "" : " x ") + std::to_string(n) + " " + key;
      }
      check_runs(entry, product, how);
    }
    // A flip_bit `moesim cosim` would refuse on a machine of the entry, refused here.
    if (!proto.flip_bit.empty() && options.check_flip_bit)
      for (const std::string& mach : machines)
        if (const std::string why = options.check_flip_bit(proto.flip_bit, mach); !why.empty())
          r.fail(flip_node.Mark(), "'flip_bit': " + why + " (machine " + mach + ")");

    for (const Model& m : models)
      for (const std::string& mach : machines)
        for (const std::string& low : lowerings)
          for (const auto& [sh, shn] : shareds) {
            if (sh && !m.has_shared)
              r.fail(shn.Mark(), "'shared: true': model " + m.word + " has no shared expert");
            for (const auto& seed : seeds)
              for (const auto& tok : tokens)
                for (const auto& h : hidden)
                  for (const auto& i : inter) {
                    Run run = proto;
                    run.model = m.arg;
                    run.machine = mach;
                    run.lowering = low;
                    run.shared = sh;
                    if (seed) run.seed = *seed;
                    if (tok) run.tokens = *tok;
                    run.hidden = h;
                    run.intermediate = i;
                    run.id = mach + "." + m.word + "." + (sh ? "shared" : "routed") + "." + low +
                             ".s" + std::to_string(run.seed) + ".t" + std::to_string(run.tokens);
                    if (h) run.id += ".h" + std::to_string(*h);
                    if (i) run.id += ".i" + std::to_string(*i);
                    if (run.windows > 1) run.id += ".w" + std::to_string(run.windows);
                    if (run.reference) run.id += ".ref";
                    if (!run.flip_bit.empty()) run.id += ".flip-" + id_part(run.flip_bit);
                    check_id(entry, run);
                    const auto [it, fresh] = seen.emplace(run.id, run.where);
                    if (!fresh)
                      r.fail(entry.Mark(), "run " + run.id + " is also given by the entry at " +
                                               it->second + " (a campaign runs each run once)");
                    out.push_back(std::move(run));
                  }
          }
  }
  return out;
}

}  // namespace moesim::campaign
