// `moesim cosim --deployment`: see cosim_deploy.hpp and docs/deployments.md, Per-rank programs.
#include "cosim_deploy.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>

#include "cli_output.hpp"
#include "moesim/campaign/process.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/report/provenance.hpp"
#include "moesim/workload/deployment.hpp"
#include "moesim/workload/deployment_build.hpp"
#include "moesim/workload/reference.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

/// The deployment of a --rank run (its reference needs the layer and the shape after the run).
std::optional<workload::DeploymentBuild> g_build;
unsigned g_rank = 0;

std::string deployments_file(const DeployFlags& d) {
  return d.deployments.empty() ? workload::default_deployments_file() : d.deployments;
}

workload::Deployment find_deployment(const DeployFlags& d) {
  const std::string file = deployments_file(d);
  const std::vector<workload::Deployment> all = bad_input_of<std::runtime_error>(
      "--deployments " + file + ": ", [&] { return workload::load_deployments(file); });
  std::string names;
  for (const workload::Deployment& x : all) {
    if (x.name == d.deployment) return x;
    names += (names.empty() ? "" : ", ") + x.name;
  }
  throw UsageError("--deployment " + d.deployment + ": no deployment of that name in " + file +
                   " (known: " + names + ")");
}

workload::DeploymentBuild build(const isa::Spec& spec, const isa::MachinePreset& preset,
                                const ProgramFlags& p, const workload::Deployment& dep) {
  workload::BuildOptions o;
  o.tokens = p.tokens;
  o.hidden = p.hidden != 0 ? p.hidden : dep.model.hidden;
  o.intermediate = p.intermediate != 0 ? p.intermediate : dep.model.intermediate;
  o.topk = p.topk_policy == "register" ? workload::TopkEncoding::register_policy
                                       : workload::TopkEncoding::automatic;
  o.lowering = p.lowering == "expert" ? workload::Lowering::expert : workload::Lowering::pair;
  o.seed = p.seed;
  return workload::build_deployment(spec, preset, dep, o);
}

void check_rank(const DeployFlags& d, const workload::Deployment& dep) {
  if (!d.all_ranks && d.rank_opt->count() == 0)
    throw UsageError("--deployment " + d.deployment + ": give --rank R (0.." +
                     std::to_string(dep.ep - 1) + ") or --all-ranks");
  if (d.rank_opt->count() != 0 && d.rank >= dep.ep)
    throw UsageError("--rank " + std::to_string(d.rank) + ": deployment " + dep.name + " has ep " +
                     std::to_string(dep.ep) + " (ranks 0.." + std::to_string(dep.ep - 1) + ")");
}

/// BF16 value `o` (row-major over T x H) of an MXFP8 output region.
uint16_t output_value(const std::vector<uint8_t>& y, uint64_t scale_offset, uint64_t mxb,
                      uint64_t o) {
  return num::mx_dequant_bf16(y.at(o), y.at(scale_offset + o / mxb));
}

/// The all-to-all combine outside the accelerator: the ranks' outputs (dequantised MXFP8) summed
/// in rank order 0..EP-1, each add in FP32 rounded to BF16 (RNE).
std::vector<uint16_t> combine(const std::vector<std::vector<uint8_t>>& outs,
                              const workload::Layout& L, uint64_t mxb) {
  const uint64_t n = uint64_t{L.tokens} * L.hidden;
  std::vector<uint16_t> sum(n);
  for (uint64_t o = 0; o < n; ++o) {
    float acc = num::bf16_to_f32(output_value(outs[0], L.y.scale_offset, mxb, o));
    for (size_t r = 1; r < outs.size(); ++r)
      acc = num::bf16_to_f32(num::f32_to_bf16(
          acc + num::bf16_to_f32(output_value(outs[r], L.y.scale_offset, mxb, o))));
    sum[o] = num::f32_to_bf16(acc);
  }
  return sum;
}

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string fmt_error_row(const workload::ErrorRow& r) {
  char line[200];
  std::snprintf(line, sizeof line, "%-40s %14.6g %14.6g %18.12f\n", r.what.c_str(), r.max_abs,
                r.max_rel, r.cosine);
  return line;
}

}  // namespace

void add_deploy_flags(CLI::App* sub, DeployFlags& d) {
  CLI::Option* dep = sub->add_option(
      "--deployment", d.deployment,
      "co-simulate the per-rank programs of deployment NAME of the deployments file "
      "(docs/deployments.md); with --rank R or --all-ranks");
  reads(sub->add_option("--deployments", d.deployments,
                        "with --deployment: the deployments file (default: the one shipped with "
                        "moesim)")
            ->needs(dep));
  d.rank_opt = sub->add_option("--rank", d.rank, "with --deployment: co-simulate rank R only")
                   ->check(kNotNegative)
                   ->needs(dep);
  CLI::Option* all =
      sub->add_flag("--all-ranks", d.all_ranks,
                    "with --deployment: co-simulate every rank (one child process each), combine "
                    "their outputs and check the combine against the reference")
          ->needs(dep);
  d.rank_opt->excludes(all);
  // What a deployment fixes (the model, its shared experts) or a rank program does not take.
  for (const char* n :
       {"--model", "--shared", "--shared-intermediate", "--route-trace", "--tokens-from",
        "--tokens-to", "--program", "--random-seed", "--plant-fault", "--windows", "--from-retire",
        "--to-retire", "--from-checkpoint", "--to-checkpoint", "--checkpoint", "--layer",
        "--inputs"})
    if (CLI::Option* o = sub->get_option_no_throw(n)) dep->excludes(o);
  // Outputs of one run; --all-ranks writes --report only (each rank's run has its own outputs).
  for (const char* n : {"--vcd", "--trace-json", "--trace-log", "--html", "--trace-rtl",
                        "--profile", "--dump", "--asm-out", "--flip-bit"})
    if (CLI::Option* o = sub->get_option_no_throw(n)) all->excludes(o);
}

Workload make_deployment_workload(const isa::Spec& spec, const ProgramFlags& p,
                                  const DeployFlags& d) {
  const workload::Deployment dep = find_deployment(d);
  check_rank(d, dep);
  Workload w;
  w.preset = &run_preset(spec, p);
  g_build = build(spec, *w.preset, p, dep);
  g_rank = d.rank;
  w.model = g_build->deployment.model;
  w.built = std::move(g_build->ranks[d.rank]);
  w.program = w.built->program;
  w.name = w.built->name;
  if (!p.asm_out.empty())
    bad_input_of("--asm-out ", [&] { isa::write_file(p.asm_out, w.built->asm_text); });
  report::Provenance pv;
  pv.command_line = command_line();
  pv.machine = w.preset->name;
  pv.seed = p.seed;
  std::vector<uint8_t> bytes;
  for (uint32_t word : w.program.words)
    for (int s = 0; s < 32; s += 8) bytes.push_back(static_cast<uint8_t>(word >> s));
  bytes.insert(bytes.end(), w.program.stages.begin(), w.program.stages.end());
  pv.digests.emplace_back("program (generated: words, then stage codes)",
                          report::sha256_hex(bytes.data(), bytes.size()));
  pv.files.emplace_back("deployments " + deployments_file(d), deployments_file(d));
  w.provenance = bad_input_of("provenance: ", [&] { return report::provenance_json(spec, pv); });
  return w;
}

Json deployment_rank_check(const Workload& w, const std::vector<const isa::Engine*>& ends, bool& ok,
                           std::ostream& os) {
  const workload::DeploymentReference ref = workload::reference_deployment(*w.preset, *g_build);
  const std::vector<uint16_t>& acc = ref.rank_acc.at(g_rank);
  const std::vector<uint8_t>& out = ref.rank_out.at(g_rank);
  Json j = {{"deployment", g_build->deployment.name},
            {"rank", g_rank},
            {"ep", g_build->shape.ep},
            {"local_pairs", ref.rank_pairs.at(g_rank)}};
  for (const isa::Engine* e : ends) {
    const workload::LayerOutput got = workload::read_layer_output(*e, *w.preset, *w.built);
    uint64_t acc_diff = 0, out_diff = 0;
    for (size_t i = 0; i < acc.size(); ++i) acc_diff += got.acc_bf16.at(i) != acc[i];
    for (size_t i = 0; i < out.size(); ++i) out_diff += got.out_mxfp8.at(i) != out[i];
    const bool exact = acc_diff == 0 && out_diff == 0;
    os << "deployment reference (rank " << g_rank << " of " << g_build->shape.ep << ", "
       << ref.rank_pairs[g_rank] << " local pairs) vs " << e->name() << ": "
       << (exact ? "bit-exact" : "DIFFERENT") << " (" << acc.size() - acc_diff << "/" << acc.size()
       << " accumulator elements, " << out.size() - out_diff << "/" << out.size()
       << " MXFP8 output bytes equal)\n";
    j[e->name()] = {
        {"bit_exact", exact}, {"accumulator_differing", acc_diff}, {"output_differing", out_diff}};
    ok = ok && exact;
  }
  os << '\n';
  return j;
}

int run_deployment_ranks(const isa::Spec& spec, const ProgramFlags& p, const DeployFlags& d,
                         const OutputFlags& o, bool quiet) {
  const workload::Deployment dep = find_deployment(d);
  check_rank(d, dep);
  const isa::MachinePreset& preset = run_preset(spec, p);
  check_rtl_preset(spec, preset.name);
  if (!o.report.empty()) check_output_path("--report", o.report);
  // Builds every rank once here: bad input is refused before any child runs.
  const workload::DeploymentBuild b = build(spec, preset, p, dep);
  const workload::DeploymentReference ref = workload::reference_deployment(preset, b);
  const workload::Layout& L = b.ranks.at(0).layout;
  const unsigned ep = b.shape.ep;
  const uint64_t mxb = static_cast<uint64_t>(preset.mx_block());
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const fs::path work = fs::temp_directory_path() / ("moesim-deploy-" + std::to_string(::getpid()));
  fs::create_directories(work);

  std::cout << "moesim cosim: deployment " << dep.name << " (" << dep.where << "): model "
            << dep.model.name << ", E = " << b.shape.routed << " + " << b.shape.redundant
            << " redundant = " << b.shape.physical << " physical experts, EP " << ep << ", "
            << b.shape.shared << " fused shared, T=" << L.tokens << " H=" << L.hidden
            << " I=" << L.intermediate << " seed=" << p.seed << " machine=" << preset.name
            << "; every rank co-simulated golden vs RTL, one `moesim cosim --rank R` child "
               "after the other\n\n"
            << std::flush;
  struct RankRun {
    Json report;
    int status = 0;
    std::vector<uint8_t> out[2];  // golden, rtl
  };
  std::vector<RankRun> runs(ep);
  const char* engines[2] = {"golden", "rtl"};
  for (unsigned r = 0; r < ep; ++r) {
    const fs::path rep = work / ("rank" + std::to_string(r) + ".json");
    const fs::path dump = work / ("rank" + std::to_string(r));
    std::vector<std::string> argv = {exe,
                                     "cosim",
                                     "--deployment",
                                     dep.name,
                                     "--rank",
                                     std::to_string(r),
                                     "--machine",
                                     preset.name,
                                     "--tokens",
                                     std::to_string(p.tokens),
                                     "--hidden",
                                     std::to_string(L.hidden),
                                     "--intermediate",
                                     std::to_string(L.intermediate),
                                     "--seed",
                                     std::to_string(p.seed),
                                     "--topk-policy",
                                     p.topk_policy,
                                     "--max-instructions",
                                     std::to_string(p.max_instructions),
                                     "--progress",
                                     "never",
                                     "--report",
                                     rep.string(),
                                     "--dump",
                                     dump.string()};
    if (!p.dma_queue.empty()) {
      argv.push_back("--dma-queue");
      argv.push_back(p.dma_queue);
    }
    if (!p.hbm_jitter.empty()) {
      argv.push_back("--hbm-jitter");
      argv.push_back(p.hbm_jitter);
    }
    if (!d.deployments.empty()) {
      argv.push_back("--deployments");
      argv.push_back(d.deployments);
    }
    const campaign::Captured c = campaign::run_captured(argv);
    if (c.status == kExitUsage || (c.status != kExitEqual && c.status != kExitMismatch)) {
      std::string line = c.err.substr(0, c.err.find('\n'));
      const std::string prefix = "moesim: error: ";
      if (line.rfind(prefix, 0) == 0) line = line.substr(prefix.size());
      if (c.status == kExitUsage) throw UsageError("rank " + std::to_string(r) + ": " + line);
      throw std::runtime_error("rank " + std::to_string(r) + " child exited " +
                               std::to_string(c.status) + ": " + c.err);
    }
    runs[r].status = c.status;
    if (!quiet) std::cout << "==== rank " << r << " of " << ep << " ====\n" << c.out << '\n';
    std::ifstream in(rep);
    if (!in) throw std::runtime_error("rank " + std::to_string(r) + " wrote no report");
    runs[r].report = Json::parse(in);
    for (int e = 0; e < 2; ++e)
      runs[r].out[e] = read_bytes(dump / engines[e] / "output_hbm_mxfp8.bin");
  }

  // The stage table in total (each rank's is printed by its run above).
  std::map<std::string, std::array<uint64_t, 6>> total;  // instr, g, r cycles, g read, g written
  for (const RankRun& run : runs)
    for (const auto& [name, s] : run.report.at("stages").items()) {
      auto& t = total[name];
      t[0] += s.at("instructions").get<uint64_t>();
      t[1] += s.at("golden_cycles").get<uint64_t>();
      t[2] += s.at("rtl_cycles").get<uint64_t>();
      t[3] += s.at("golden_hbm_bytes_read").get<uint64_t>();
      t[4] += s.at("golden_hbm_bytes_written").get<uint64_t>();
    }
  std::printf("stage table, all %u ranks in total\n%-26s %14s %14s %14s %14s %14s\n", ep, "stage",
              "instructions", "golden cycles", "rtl cycles", "HBM read B", "HBM written B");
  Json stages = Json::object();
  for (const auto& [name, t] : total) {
    std::printf("%-26s %14llu %14llu %14llu %14llu %14llu\n", name.c_str(),
                static_cast<unsigned long long>(t[0]), static_cast<unsigned long long>(t[1]),
                static_cast<unsigned long long>(t[2]), static_cast<unsigned long long>(t[3]),
                static_cast<unsigned long long>(t[4]));
    stages[name] = {{"instructions", t[0]},
                    {"golden_cycles", t[1]},
                    {"rtl_cycles", t[2]},
                    {"golden_hbm_bytes_read", t[3]},
                    {"golden_hbm_bytes_written", t[4]}};
  }

  // Per-rank load.
  std::printf(
      "\nper-rank load (a static program computes every pair: remote pairs go to the zero "
      "sentinel with weight +0)\n%-6s %12s %14s %14s %14s %14s %10s\n",
      "rank", "local pairs", "pairs computed", "weight tiles", "useful tiles", "cycles", "verdict");
  Json load = Json::array();
  uint64_t max_pairs = 0, sum_pairs = 0, max_cycles = 0, sum_cycles = 0;
  bool ranks_equal = true;
  for (unsigned r = 0; r < ep; ++r) {
    const Json& rep = runs[r].report;
    const uint64_t cycles = rep.at("total_cycles").at("golden").get<uint64_t>();
    const uint64_t tiles = rep.at("utilisation").at(0).at("weight_tiles").get<uint64_t>();
    const uint64_t pairs = ref.rank_pairs[r];
    const uint64_t useful = tiles * pairs / L.pairs;
    const std::string verdict = rep.at("verdict").get<std::string>();
    ranks_equal = ranks_equal && runs[r].status == kExitEqual;
    std::printf("%-6u %12llu %14u %14llu %14llu %14llu %10s\n", r,
                static_cast<unsigned long long>(pairs), L.pairs,
                static_cast<unsigned long long>(tiles), static_cast<unsigned long long>(useful),
                static_cast<unsigned long long>(cycles), verdict.c_str());
    load.push_back({{"rank", r},
                    {"local_pairs", pairs},
                    {"pairs_computed", L.pairs},
                    {"weight_tiles", tiles},
                    {"useful_weight_tiles", useful},
                    {"cycles", cycles},
                    {"verdict", verdict}});
    max_pairs = std::max(max_pairs, pairs);
    sum_pairs += pairs;
    max_cycles = std::max(max_cycles, cycles);
    sum_cycles += cycles;
  }
  const double pair_imb = sum_pairs == 0 ? 0.0 : static_cast<double>(max_pairs) * ep / sum_pairs;
  const double cyc_imb = sum_cycles == 0 ? 0.0 : static_cast<double>(max_cycles) * ep / sum_cycles;
  std::printf("imbalance (max / mean): local pairs %.3f, cycles %.3f\n\n", pair_imb, cyc_imb);

  // The combine, per engine, against the reference.
  bool combined_ok = true;
  Json comb = Json::object();
  std::vector<double> got_golden;
  for (int e = 0; e < 2; ++e) {
    std::vector<std::vector<uint8_t>> outs;
    for (const RankRun& run : runs) outs.push_back(run.out[e]);
    const std::vector<uint16_t> c = combine(outs, L, mxb);
    uint64_t diff = 0;
    std::string first;
    for (size_t i = 0; i < c.size(); ++i)
      if (c[i] != ref.combined.at(i)) {
        if (diff++ == 0) {
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        " first: token %zu column %zu got 0x%04X, reference 0x%04X", i / L.hidden,
                        i % L.hidden, c[i], ref.combined[i]);
          first = buf;
        }
      }
    std::cout << "combined output (ranks 0.." << ep - 1
              << " in order, FP32 adds rounded to BF16) of " << engines[e]
              << " vs the deployment reference: " << (diff == 0 ? "bit-exact" : "DIFFERENT") << " ("
              << c.size() - diff << "/" << c.size() << " elements equal)" << first << '\n';
    comb[engines[e]] = {{"bit_exact", diff == 0}, {"differing", diff}};
    combined_ok = combined_ok && diff == 0;
    if (e == 0)
      for (uint16_t v : c) got_golden.push_back(num::bf16_to_f32(v));
  }
  std::vector<double> single;
  {
    const workload::Layout& LL = b.layer.layout;
    for (uint64_t i = 0; i < uint64_t{LL.tokens} * LL.hidden; ++i)
      single.push_back(
          num::bf16_to_f32(output_value(ref.layer.out_mxfp8, LL.y.scale_offset, mxb, i)));
  }
  const workload::ErrorRow rows[2] = {
      workload::error_row("combined output (golden = rtl)", got_golden, ref.layer.exact),
      workload::error_row("single-accelerator layer (reference)", single, ref.layer.exact)};
  char head[200];
  std::snprintf(head, sizeof head, "\n%-40s %14s %14s %18s\n",
                "vs float64 single-accelerator layer", "max |err|", "max rel err",
                "cosine similarity");
  std::cout << head << fmt_error_row(rows[0]) << fmt_error_row(rows[1]);
  const bool ok = ranks_equal && combined_ok;
  std::cout << "\nVERDICT: " << (ok ? "EQUAL" : "MISMATCH") << ": " << ep << " ranks "
            << (ranks_equal ? "each EQUAL" : "NOT all EQUAL") << ", combined output "
            << (combined_ok ? "bit-exact" : "DIFFERENT") << " against the reference" << std::endl;
  if (!o.report.empty()) {
    Json errors = Json::array();
    for (const workload::ErrorRow& r : rows)
      errors.push_back({{"output", r.what},
                        {"max_abs", r.max_abs},
                        {"max_rel", r.max_rel},
                        {"cosine", r.cosine}});
    const Json j = {{"tool", "moesim cosim --all-ranks"},
                    {"deployment", dep.name},
                    {"ep", ep},
                    {"verdict", ok ? "EQUAL" : "MISMATCH"},
                    {"stages", stages},
                    {"load", load},
                    {"imbalance", {{"local_pairs", pair_imb}, {"cycles", cyc_imb}}},
                    {"combined", comb},
                    {"error_vs_float64", errors},
                    {"ranks", [&] {
                       Json a = Json::array();
                       for (const RankRun& run : runs) a.push_back(run.report);
                       return a;
                     }()}};
    bad_input_of<std::exception>("--report " + o.report + ": ",
                                 [&] { isa::write_file(o.report, j.dump(2) + "\n"); });
  }
  fs::remove_all(work);
  return ok ? kExitEqual : kExitMismatch;
}

}  // namespace moesim::cli
