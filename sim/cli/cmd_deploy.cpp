// `moesim deploy list [FILE]`: what a deployments file expands to, per deployment and rank
// (docs/deployments.md).

#include <cstdio>
#include <iostream>
#include <memory>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/workload/deployment.hpp"

namespace moesim::cli {

namespace {

void print_deployment(const workload::Deployment& d) {
  const workload::DeploymentShape s = workload::derive_shape(d);
  std::cout << d.name << "  (" << d.where << ")\n"
            << "  model " << d.model_arg << ": " << s.routed << " routed experts, top-" << s.top_k
            << ", " << d.model.shared_experts << " shared" << (d.fuse_shared ? " (fused)" : "")
            << "; ep " << s.ep << ", " << s.redundant << " redundant -> P = " << s.physical
            << ", S = " << s.shared << "; max " << d.max_tokens_per_rank << " tokens per rank\n";
  if (s.redundant != 0) {
    std::cout << "  replicas (physical <- logical):";
    for (unsigned i = 0; i < s.redundant; ++i)
      std::cout << ' ' << s.routed + i << "<-" << s.physical_to_logical[s.routed + i];
    std::cout << "; dispatch round-robin\n";
  }
  std::printf("  %4s  %-15s  %13s  %15s  %12s\n", "rank", "physical ids", "local experts",
              "routing columns", "mask entries");
  for (const workload::RankShape& r : s.ranks) {
    char ids[32];
    std::snprintf(ids, sizeof ids, "%u..%u", r.first_physical,
                  r.first_physical + r.local_routed - 1);
    std::printf("  %4u  %-15s  %13u  %15u  %12zu\n", r.rank, ids, r.local_experts,
                r.routing_columns, r.mask.size());
  }
}

}  // namespace

Subcommand add_deploy(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("deploy", "Expert-parallel deployments (docs/deployments.md)");
  sub->require_subcommand(1);
  CLI::App* list = sub->add_subcommand(
      "list", "Print what a deployments file expands to per deployment and rank");
  auto file = std::make_shared<std::string>();
  reads(list->add_option("FILE", *file,
                         "deployments.yaml (default: the file shipped with moesim, " +
                             workload::default_deployments_file() + ")"));
  return {sub, [list, file](const isa::Spec&) {
            (void)list;
            const std::string path = file->empty() ? workload::default_deployments_file() : *file;
            const std::vector<workload::Deployment> ds = workload::load_deployments(path);
            std::cout << path << ": " << count_of(ds.size(), "deployment") << '\n';
            for (const workload::Deployment& d : ds) print_deployment(d);
            return kExitEqual;
          }};
}

}  // namespace moesim::cli
