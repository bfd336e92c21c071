// Stage profile (see profile.hpp).
#include "moesim/report/profile.hpp"

#include <algorithm>
#include <cstdio>

namespace moesim::report {

const char* const kSharedVsRoutedNote =
    "A shared-vs-routed ratio reflects the routed lowering as much as the hardware: the "
    "pair-major lowering runs one (token, expert) pair per BLEN-row slot and fetches the "
    "expert's weights again for every pair, the expert-major lowering fetches them once per "
    "expert; it is not a statement about MoE hardware in general (docs/sources.md, Timing and the "
    "stage profile).";

namespace {

void add_into(ProfileRow& sum, const ProfileRow& r) {
  sum.instructions += r.instructions;
  sum.cycles += r.cycles;
  sum.hbm_read += r.hbm_read;
  sum.hbm_written += r.hbm_written;
}

void set_fractions(ProfileRow& r, const ProfileRow& total) {
  r.time_fraction =
      total.cycles == 0 ? 0.0 : static_cast<double>(r.cycles) / static_cast<double>(total.cycles);
  r.instruction_fraction = total.instructions == 0 ? 0.0
                                                   : static_cast<double>(r.instructions) /
                                                         static_cast<double>(total.instructions);
}

nlohmann::json row_json(const ProfileRow& r) {
  return {{"instructions", r.instructions},   {"cycles", r.cycles},
          {"time_fraction", r.time_fraction}, {"instruction_fraction", r.instruction_fraction},
          {"hbm_bytes_read", r.hbm_read},     {"hbm_bytes_written", r.hbm_written}};
}

}  // namespace

StageProfile make_profile(const isa::Spec& spec, const std::vector<cosim::StageRow>& rows,
                          size_t side, const std::string& engine) {
  StageProfile p;
  p.engine = engine;
  p.total.name = "total";
  auto fill = [&](ProfileRow& out, const cosim::StageRow& in) {
    out.instructions = in.instructions[side];
    out.cycles = in.cycles[side];
    out.hbm_read = in.hbm_read[side];
    out.hbm_written = in.hbm_written[side];
  };
  for (const isa::StageSpec& s : spec.stages()) {
    ProfileRow r;
    r.name = s.name;
    r.group = s.group;
    r.code = s.code;
    for (const cosim::StageRow& in : rows)
      if (in.code == s.code) fill(r, in);
    p.stages.push_back(r);
  }
  for (const cosim::StageRow& in : rows) {
    if (spec.stage_by_code(in.code) != nullptr) continue;
    ProfileRow r;
    r.name = in.name;
    r.group = "unclassified";
    r.code = in.code;
    fill(r, in);
    p.stages.push_back(r);
  }
  for (const ProfileRow& r : p.stages) {
    add_into(p.total, r);
    auto g = std::find_if(p.groups.begin(), p.groups.end(),
                          [&](const ProfileRow& x) { return x.name == r.group; });
    if (g == p.groups.end()) {
      ProfileRow fresh;
      fresh.name = fresh.group = r.group;
      p.groups.push_back(fresh);
      g = p.groups.end() - 1;
    }
    add_into(*g, r);
  }
  for (ProfileRow& r : p.stages) set_fractions(r, p.total);
  for (ProfileRow& g : p.groups) set_fractions(g, p.total);
  set_fractions(p.total, p.total);
  uint64_t shared = 0, routed = 0;
  for (const ProfileRow& g : p.groups) {
    if (g.name == "shared") shared = g.cycles;
    if (g.name == "routed") routed = g.cycles;
  }
  if (shared != 0 && routed != 0)
    p.shared_vs_routed_cycles = static_cast<double>(shared) / static_cast<double>(routed);
  return p;
}

std::vector<std::string> profile_differences(const StageProfile& a, const StageProfile& b) {
  std::vector<std::string> out;
  auto cmp = [&](const ProfileRow& x, const ProfileRow& y) {
    auto field = [&](const char* what, uint64_t u, uint64_t v) {
      if (u != v)
        out.push_back(x.name + ": " + what + " " + a.engine + " " + std::to_string(u) + ", " +
                      b.engine + " " + std::to_string(v));
    };
    field("instructions", x.instructions, y.instructions);
    field("cycles", x.cycles, y.cycles);
    field("hbm_bytes_read", x.hbm_read, y.hbm_read);
    field("hbm_bytes_written", x.hbm_written, y.hbm_written);
  };
  for (const ProfileRow& x : a.stages) {
    auto y = std::find_if(b.stages.begin(), b.stages.end(),
                          [&](const ProfileRow& r) { return r.code == x.code; });
    if (y == b.stages.end()) {
      if (x.instructions != 0) out.push_back(x.name + ": only in " + a.engine + "'s profile");
      continue;
    }
    cmp(x, *y);
  }
  for (const ProfileRow& y : b.stages)
    if (y.instructions != 0 && std::none_of(a.stages.begin(), a.stages.end(),
                                            [&](const ProfileRow& r) { return r.code == y.code; }))
      out.push_back(y.name + ": only in " + b.engine + "'s profile");
  return out;
}

nlohmann::json profile_json(const StageProfile& p) {
  nlohmann::json stages = nlohmann::json::object(), groups = nlohmann::json::object();
  for (const ProfileRow& r : p.stages) {
    nlohmann::json j = row_json(r);
    j["code"] = r.code;
    j["group"] = r.group;
    stages[r.name] = j;
  }
  for (const ProfileRow& g : p.groups) {
    nlohmann::json j = row_json(g);
    std::vector<std::string> members;
    for (const ProfileRow& r : p.stages)
      if (r.group == g.name) members.push_back(r.name);
    j["stages"] = members;
    groups[g.name] = j;
  }
  return {{"engine", p.engine},
          {"total", row_json(p.total)},
          {"stages", stages},
          {"groups", groups},
          {"shared_vs_routed_cycles", p.shared_vs_routed_cycles},
          {"note", kSharedVsRoutedNote}};
}

void print_profile(std::ostream& os, const StageProfile& p) {
  char line[256];
  std::snprintf(line, sizeof line, "%-26s %-9s %12s %12s %7s %14s %14s\n",
                ("stage (" + p.engine + ")").c_str(), "group", "instructions", "cycles", "time",
                "HBM read B", "HBM written B");
  os << line;
  auto print_row = [&](const ProfileRow& r, const std::string& group) {
    std::snprintf(line, sizeof line, "%-26s %-9s %12llu %12llu %6.2f%% %14llu %14llu\n",
                  r.name.c_str(), group.c_str(), static_cast<unsigned long long>(r.instructions),
                  static_cast<unsigned long long>(r.cycles), 100.0 * r.time_fraction,
                  static_cast<unsigned long long>(r.hbm_read),
                  static_cast<unsigned long long>(r.hbm_written));
    os << line;
  };
  for (const ProfileRow& r : p.stages)
    if (r.instructions != 0) print_row(r, r.group);
  for (const ProfileRow& g : p.groups) print_row(g, "(group)");
  print_row(p.total, "");
  if (p.shared_vs_routed_cycles != 0) {
    std::snprintf(line, sizeof line, "shared / routed cycles: %.4f\n", p.shared_vs_routed_cycles);
    os << line;
  }
  os << "note: " << kSharedVsRoutedNote << '\n';
}

}  // namespace moesim::report
