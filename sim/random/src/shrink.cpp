// Shrinking of a failing random program and the mix file (random_program.hpp, docs/random.md).
#include <yaml-cpp/yaml.h>

#include <set>

#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"
#include "moesim/random/random_program.hpp"

namespace moesim::rnd {

namespace {

/// Every node of the tree in preorder, as (container, index) pairs.
void collect(std::vector<Node>& v, std::vector<std::pair<std::vector<Node>*, size_t>>& out) {
  for (size_t i = 0; i < v.size(); ++i) {
    out.push_back({&v, i});
    if (v[i].loop) collect(v[i].body, out);
  }
}

size_t count_nodes(const RandomProgram& p) {
  RandomProgram c = p;
  std::vector<std::pair<std::vector<Node>*, size_t>> all;
  collect(c.nodes, all);
  return all.size();
}

}  // namespace

RandomProgram shrink(const RandomProgram& start,
                     const std::function<bool(const RandomProgram&)>& fails, ShrinkStats* stats) {
  RandomProgram best = start;
  ShrinkStats local;
  ShrinkStats& st = stats ? *stats : local;
  // Tries `edit` on a copy of best; keeps it when the failure stays.
  auto attempt = [&](const std::function<bool(RandomProgram&)>& edit) {
    RandomProgram c = best;
    if (!edit(c)) return false;
    if (static_size(c) == 0) return false;
    ++st.candidates;
    if (!fails(c)) return false;
    ++st.accepted;
    best = std::move(c);
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    // 1. Top-level chunks, halves first (ddmin-style), then single nodes anywhere.
    for (size_t chunk = best.nodes.size() / 2; chunk >= 1; chunk /= 2) {
      for (size_t at = 0; at + chunk <= best.nodes.size();) {
        if (attempt([&](RandomProgram& c) {
              c.nodes.erase(c.nodes.begin() + static_cast<long>(at),
                            c.nodes.begin() + static_cast<long>(at + chunk));
              return true;
            }))
          changed = true;
        else
          at += chunk;
      }
    }
    for (size_t n = 0; n < count_nodes(best);) {
      const bool removed = attempt([&](RandomProgram& c) {
        std::vector<std::pair<std::vector<Node>*, size_t>> all;
        collect(c.nodes, all);
        auto [v, i] = all[n];
        v->erase(v->begin() + static_cast<long>(i));
        return true;
      });
      if (removed) {
        changed = true;
        continue;
      }
      // A loop: replace it by its body (one unrolled iteration), else run it once.
      const bool unrolled = attempt([&](RandomProgram& c) {
        std::vector<std::pair<std::vector<Node>*, size_t>> all;
        collect(c.nodes, all);
        auto [v, i] = all[n];
        if (!(*v)[i].loop) return false;
        std::vector<Node> body = std::move((*v)[i].body);
        v->erase(v->begin() + static_cast<long>(i));
        v->insert(v->begin() + static_cast<long>(i), body.begin(), body.end());
        return true;
      });
      if (unrolled) {
        changed = true;
        continue;
      }
      if (attempt([&](RandomProgram& c) {
            std::vector<std::pair<std::vector<Node>*, size_t>> all;
            collect(c.nodes, all);
            auto [v, i] = all[n];
            if (!(*v)[i].loop || (*v)[i].count <= 1) return false;
            (*v)[i].count = 1;
            return true;
          }))
        changed = true;
      ++n;
    }
    // 2. Single lines of snippets, and stage markers.
    for (size_t n = 0; n < count_nodes(best); ++n) {
      for (size_t l = 0;; ++l) {
        bool more = false;
        const bool ok = attempt([&](RandomProgram& c) {
          std::vector<std::pair<std::vector<Node>*, size_t>> all;
          collect(c.nodes, all);
          if (n >= all.size()) return false;
          Node& nd = (*all[n].first)[all[n].second];
          if (nd.loop || l >= nd.lines.size()) return false;
          more = true;
          nd.lines.erase(nd.lines.begin() + static_cast<long>(l));
          if (nd.lines.empty())
            all[n].first->erase(all[n].first->begin() + static_cast<long>(all[n].second));
          return true;
        });
        if (ok) {
          changed = true;
          --l;  // the next line moved here
          continue;
        }
        if (!more) break;
      }
      attempt([&](RandomProgram& c) {
        std::vector<std::pair<std::vector<Node>*, size_t>> all;
        collect(c.nodes, all);
        if (n >= all.size()) return false;
        Node& nd = (*all[n].first)[all[n].second];
        if (nd.stage.empty()) return false;
        nd.stage.clear();
        return true;
      });
    }
    // 3. Memory regions: drop (zero) each, else keep one half of it.
    for (size_t r = 0; r < best.regions.size();) {
      if (attempt([&](RandomProgram& c) {
            c.regions.erase(c.regions.begin() + static_cast<long>(r));
            return true;
          })) {
        changed = true;
        continue;
      }
      ++r;
    }
    // 4. The budget.
    if (best.budget && attempt([](RandomProgram& c) {
          c.budget.reset();
          return true;
        }))
      changed = true;
  }
  // Halving regions: units are rows or words, so halves keep whole units; split until neither
  // half alone keeps the failure.
  for (size_t r = 0; r < best.regions.size(); ++r) {
    for (bool again = true; again;) {
      again = false;
      const size_t n = best.regions[r].bytes.size();
      if (n < 2) break;
      for (int half = 0; half < 2 && !again; ++half)
        again = attempt([&](RandomProgram& c) {
          Region& g = c.regions[r];
          const isa::Space sp = g.space;
          const size_t unit = sp == isa::Space::IntSram ? 4 : sp == isa::Space::Hbm ? 1 : 2;
          // VRAM / MRAM regions (whole rows, whose size depends on the preset) are only dropped.
          if (sp == isa::Space::Vram || sp == isa::Space::Mram) return false;
          const size_t units = g.bytes.size() / unit;
          if (units < 2) return false;
          const size_t keep = units / 2;
          if (half == 0) {
            g.bytes.resize(keep * unit);
          } else {
            g.bytes.erase(g.bytes.begin(), g.bytes.begin() + static_cast<long>(keep * unit));
            g.begin += keep;
          }
          return true;
        });
    }
  }
  return best;
}

Mix load_mix(const isa::Spec& spec, const std::filesystem::path& path) {
  YAML::Node root;
  try {  // a regular file, no alias, bounded (yaml_reader.hpp); keys twice are refused below
    isa::YamlLoadOptions o;
    o.refuse_duplicate_keys = false;
    root = isa::load_yaml_file(path.string(), o);
  } catch (const UsageError& e) {
    throw UsageError("--mix " + std::string(e.what()));
  }
  const std::string f = "--mix " + path.string() + ": ";
  if (!root.IsMap()) throw UsageError(f + "expected a map of mix keys");
  Mix m;
  std::set<std::string> seen;
  auto num = [&](const YAML::Node& n, const std::string& k, double lo, double hi) {
    double v = 0;
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      throw UsageError(f + k + ": expected a number, got '" + (n.IsScalar() ? n.Scalar() : "?") +
                       "'");
    }
    if (!(v >= lo && v <= hi))
      throw UsageError(f + k + ": " + n.Scalar() + " is not in [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]");
    return v;
  };
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    if (!seen.insert(k).second) throw UsageError(f + k + ": written twice");
    const YAML::Node v = kv.second;
    if (k == "trap_share")
      m.trap_share = num(v, k, 0, 1);
    else if (k == "loop_share")
      m.loop_share = num(v, k, 0, 1);
    else if (k == "special_share")
      m.special_share = num(v, k, 0, 0.5);
    else if (k == "min_snippets")
      m.min_snippets = static_cast<unsigned>(num(v, k, 1, 10000));
    else if (k == "max_snippets")
      m.max_snippets = static_cast<unsigned>(num(v, k, 1, 10000));
    else if (k == "max_dynamic")
      m.max_dynamic = static_cast<uint64_t>(num(v, k, 1, 1e7));
    else if (k == "max_cycles")
      m.max_cycles = static_cast<uint64_t>(num(v, k, 1, 1e9));
    else if (k == "weights") {
      if (!v.IsMap()) throw UsageError(f + k + ": expected a map MNEMONIC: weight");
      for (const auto& w : v) {
        const std::string mn = w.first.Scalar();
        if (!spec.by_mnemonic(mn))
          throw UsageError(f + k + "." + mn + ": not an instruction of isa.yaml");
        if (m.weights.count(mn)) throw UsageError(f + k + "." + mn + ": written twice");
        m.weights[mn] = num(w.second, k + "." + mn, 0, 1e6);
      }
    } else if (k == "traps") {
      if (!v.IsSequence()) throw UsageError(f + k + ": expected a list of trap names");
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string t = v[i].Scalar();
        bool known = false;
        for (const auto& ts : spec.traps()) known = known || ts.name == t;
        if (!known)
          throw UsageError(f + k + "[" + std::to_string(i) + "]: unknown trap '" + t +
                           "' (isa.yaml traps)");
        m.traps.push_back(t);
      }
    } else {
      throw UsageError(f + k +
                       ": unknown key (trap_share, loop_share, special_share, min_snippets, "
                       "max_snippets, max_dynamic, max_cycles, weights, traps)");
    }
  }
  if (m.min_snippets > m.max_snippets)
    throw UsageError(f + "min_snippets: larger than max_snippets");
  // Each tested instruction retires at least once and takes at least one cycle.
  for (const auto& [key, bound] : {std::pair<const char*, uint64_t>{"max_dynamic", m.max_dynamic},
                                   {"max_cycles", m.max_cycles}})
    if (m.min_snippets > bound)
      throw UsageError(f + "min_snippets: " + std::to_string(m.min_snippets) +
                       " tested instructions cannot fit in " + key + " " + std::to_string(bound) +
                       " (each retires at least once, in a cycle at least)");
  bool any = false;
  for (const isa::InstrSpec& I : spec.instructions()) {
    const auto it = m.weights.find(I.mnemonic);
    any = any || (drawn(I.mnemonic) == Drawn::always && (it == m.weights.end() || it->second > 0));
  }
  if (!any)
    throw UsageError(f +
                     "weights: every instruction a program is made of has weight 0 (C_BREAK and "
                     "C_SET_TOPK_REG are drawn only in some places)");
  return m;
}

}  // namespace moesim::rnd
