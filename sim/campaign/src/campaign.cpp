// `moesim campaign`: see campaign.hpp and docs/campaigns.md.
#include "moesim/campaign/campaign.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "moesim/isa/trace.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::campaign {

namespace fs = std::filesystem;

namespace {

std::string command_of(const Run& r, const std::string& moesim) {
  std::string s = shell_quote(moesim);
  for (const std::string& a : r.cosim_args()) s += " " + shell_quote(a);
  return s;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The functional coverage of a campaign's random batches, merged per machine preset: hits of
/// each (group, item) summed over the batches' report.json `items`, with the programs,
/// instructions and cycles they ran. Only batches that finished with a report count.
nlohmann::json merged_random_coverage(const std::vector<Run>& runs, const fs::path& out) {
  struct Merged {
    uint64_t batches = 0, programs = 0, instructions = 0, cycles = 0, mismatches = 0;
    // (group, item) in the order of the first report's items, and their summed hits.
    std::vector<std::pair<std::string, std::string>> items;
    std::map<std::pair<std::string, std::string>, uint64_t> hits;
  };
  std::map<std::string, Merged> by_machine;
  for (const Run& r : runs) {
    if (r.random_count == 0) continue;
    const fs::path rep = out / "runs" / r.id / "report.json";
    if (!fs::exists(rep)) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(slurp(rep));
    } catch (const nlohmann::json::exception&) {
      continue;  // its row says report.json unreadable
    }
    if (!j.contains("items")) continue;
    Merged& m = by_machine[r.machine];
    ++m.batches;
    m.programs += j.value("programs", uint64_t{0});
    m.instructions += j.value("instructions_retired", uint64_t{0});
    m.cycles += j.value("cycles", uint64_t{0});
    m.mismatches += j.value("mismatches", uint64_t{0});
    for (const auto& it : j["items"]) {
      const std::pair<std::string, std::string> key = {it.at("group").get<std::string>(),
                                                       it.at("name").get<std::string>()};
      const auto [at, fresh] = m.hits.emplace(key, 0);
      if (fresh) m.items.push_back(key);
      at->second += it.at("hits").get<uint64_t>();
    }
  }
  nlohmann::json o = nlohmann::json::object();
  for (const auto& [machine, m] : by_machine) {
    std::map<std::string, std::pair<uint64_t, uint64_t>> groups;  // covered, items
    nlohmann::json missing = nlohmann::json::array();
    for (const auto& key : m.items) {
      const uint64_t h = m.hits.at(key);
      auto& g = groups[key.first];
      ++g.second;
      if (h != 0)
        ++g.first;
      else
        missing.push_back(key.first + ": " + key.second);
    }
    nlohmann::json gj = nlohmann::json::object();
    for (const auto& [g, ct] : groups) gj[g] = {{"covered", ct.first}, {"items", ct.second}};
    o[machine] = {{"batches", m.batches},
                  {"programs", m.programs},
                  {"instructions_retired", m.instructions},
                  {"cycles", m.cycles},
                  {"mismatches", m.mismatches},
                  {"groups", gj},
                  {"missing", missing}};
  }
  return o;
}

/// Writes `text` to `p` through a temporary file and a rename.
void write_atomic(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, p);
}

}  // namespace

void write_task(const fs::path& dir, const std::string& what, const std::string& command,
                const std::string& output_args, const std::vector<std::string>& outputs) {
  fs::create_directories(dir);
  std::ostringstream s;
  s << "#!/bin/sh\n"
       "# "
    << what
    << ".\n"
       "# Runs it alone: sh run.sh (the command is in command.txt). Writes log.txt here, then the\n"
       "# command's exit code to exit_code (last, by a rename).\n"
       "cd \"$(dirname \"$0\")\" || exit 125\n"
       "rm -f exit_code exit_code.tmp";
  for (const std::string& o : outputs) s << ' ' << shell_quote(o);
  // A subshell: the command may change folder first (cd DIR && ...); log.txt stays here.
  s << "\n(" << command << (output_args.empty() ? "" : " ") << output_args
    << ") >log.txt 2>&1\n"
       "rc=$?\n"
       "echo \"$rc\" >exit_code.tmp && mv exit_code.tmp exit_code\n"
       "exit \"$rc\"\n";
  write_atomic(dir / "command.txt", command + "\n");
  write_atomic(dir / "run.sh", s.str());
}

std::optional<int> read_exit_code(const fs::path& dir) {
  const std::string t = slurp(dir / "exit_code");
  if (t.size() < 2 || t.size() > 4 || t.back() != '\n' ||
      t.find_first_not_of("0123456789") != t.size() - 1)
    return std::nullopt;
  return std::stoi(t);
}

namespace {

std::string last_error_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, found;
  while (std::getline(in, line))
    if (line.rfind("moesim: error:", 0) == 0 || line.rfind("moesim: failed:", 0) == 0) found = line;
  return found;
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? ' ' : c;
    }
  }
  return o;
}

/// A report.json that is a JSON object with a verdict (moesim cosim writes it before it exits).
bool report_has_verdict(const fs::path& dir) {
  try {
    const nlohmann::json j = nlohmann::json::parse(slurp(dir / "report.json"));
    return j.is_object() && j.contains("verdict") && j["verdict"].is_string() &&
           !j["verdict"].get<std::string>().empty();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

/// A run finished when it ended with a verdict (exit 0 or 1) and its report says which; anything
/// else (killed, lost, a damaged record) is run again by --resume.
bool finished(const fs::path& dir) {
  const std::optional<int> rc = read_exit_code(dir);
  return rc && (*rc == 0 || *rc == 1) && report_has_verdict(dir);
}

nlohmann::json result_json(const RunResult& r) {
  return {{"id", r.id},
          {"where", r.where},
          {"status", r.status},
          {"verdict", r.verdict},
          {"exit_code", r.exit_code},
          {"reason", r.reason},
          {"instructions", r.instructions},
          {"cycles", {{"golden", r.golden_cycles}, {"rtl", r.rtl_cycles}}},
          {"report_digest", r.report_digest},
          {"wall_time_s", r.wall_time_s},
          {"ran_now", r.ran_now},
          {"dir", "runs/" + r.id},
          {"command", r.command}};
}

}  // namespace

RunResult read_result(const Run& run, const fs::path& dir, const std::string& moesim) {
  RunResult r;
  r.id = run.id;
  r.where = run.where;
  r.command = command_of(run, moesim);
  const std::optional<int> rc = read_exit_code(dir);
  if (!rc) {
    r.exit_code = -1;
    r.status = "NOT FINISHED";
    r.reason = fs::exists(dir / "exit_code") ? "its exit_code file is damaged"
                                             : "never ran or did not finish";
    return r;
  }
  r.exit_code = *rc;
  if (fs::exists(dir / "report.json")) {
    try {
      nlohmann::json j = nlohmann::json::parse(slurp(dir / "report.json"));
      r.verdict = j.value("verdict", "");
      r.instructions = j.value("instructions", uint64_t{0});
      if (j.contains("total_cycles") && j["total_cycles"].is_object()) {
        r.golden_cycles = j["total_cycles"].value("golden", uint64_t{0});
        r.rtl_cycles = j["total_cycles"].value("rtl", uint64_t{0});
      }
      r.wall_time_s = j.value("wall_time_s", 0.0);
      // Timing fields differ from run to run; everything else is the run's result.
      j.erase("wall_time_s");
      j.erase("simulation_time_s");
      const std::string text = j.dump();
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx",
                    static_cast<unsigned long long>(
                        isa::fnv1a64(reinterpret_cast<const uint8_t*>(text.data()), text.size())));
      r.report_digest = hex;
    } catch (const nlohmann::json::exception& e) {
      r.reason = "report.json unreadable: " + std::string(e.what());
    }
  }
  const std::string err = last_error_line(dir / "log.txt");
  if (r.exit_code == 0 && r.verdict == "EQUAL") {
    r.status = "EQUAL";
  } else if (r.exit_code == 1 && !r.verdict.empty()) {
    r.status = r.verdict;
    std::ifstream in(dir / "log.txt");
    std::string line, v;
    while (std::getline(in, line))
      if (line.rfind("VERDICT:", 0) == 0) v = line;
    r.reason = !v.empty() ? v : !err.empty() ? err : "verdict " + r.verdict;
  } else if (r.exit_code == 2) {
    r.status = "BAD INPUT";
    r.reason = err.empty() ? "moesim cosim exited 2 (see log.txt)" : err;
  } else if (r.exit_code == 0 || r.exit_code == 1) {
    r.status = "FAILED";
    r.reason = "moesim cosim exited " + std::to_string(r.exit_code) + " but its report.json " +
               (r.reason.empty() ? std::string("has no verdict") : r.reason);
  } else {
    r.status = "FAILED";
    r.reason = "moesim cosim exited " + std::to_string(r.exit_code) +
               (r.exit_code > 128 ? " (killed by signal " + std::to_string(r.exit_code - 128) + ")"
                                  : std::string()) +
               (err.empty() ? std::string() : ": " + err);
  }
  return r;
}

int run_campaign(const CampaignOptions& o, const std::vector<Run>& runs, Executor& executor,
                 std::ostream& os) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const fs::path out = fs::absolute(o.out).lexically_normal();
  const fs::path state = out / "campaign.json";

  nlohmann::json plan = {{"tool", "moesim campaign"},
                         {"spec", fs::absolute(o.spec_path).lexically_normal().string()},
                         {"runs", nlohmann::json::array()}};
  for (const Run& r : runs)
    plan["runs"].push_back({{"id", r.id}, {"command", command_of(r, o.moesim)}});

  // The campaign folder and every run's folder are made before any run starts; a folder that
  // cannot be made (a file in the way, no permission, a name too long) is bad input naming --out.
  try {
    if (o.resume) {
      if (!fs::exists(state))
        throw UsageError("--resume: " + out.string() + " holds no campaign (no campaign.json)");
      nlohmann::json old;
      try {
        old = nlohmann::json::parse(slurp(state));
      } catch (const nlohmann::json::exception& e) {
        throw UsageError("--resume: " + state.string() + ": " + e.what());
      }
      if (old.value("runs", nlohmann::json()) != plan["runs"])
        throw UsageError("--resume: " + o.spec_path +
                         " does not give the runs of the campaign in " + out.string() +
                         " (its runs or their commands differ; use another --out)");
    } else {
      if (fs::exists(out) && !(fs::is_directory(out) && fs::is_empty(out)))
        throw UsageError("--out " + out.string() +
                         " exists and is not empty (--resume completes the campaign in it)");
      fs::create_directories(out / "runs");
      write_atomic(state, plan.dump(2) + "\n");
    }
    for (const Run& r : runs) {
      const fs::path d = out / "runs" / r.id;
      fs::create_directories(d);
      if (!fs::exists(d / "run.sh") || !fs::exists(d / "command.txt"))
        write_task(d, "moesim campaign run " + r.id + " (" + r.where + ")", command_of(r, o.moesim),
                   "--report report.json", {"report.json"});
    }
  } catch (const UsageError&) {
    throw;
  } catch (const fs::filesystem_error& e) {
    throw UsageError("--out " + out.string() + ": " + e.path1().string() + ": " +
                     e.code().message());
  } catch (const std::runtime_error& e) {
    throw UsageError("--out " + out.string() + ": " + e.what());
  }
  executor.settle();
  std::vector<Task> todo;
  for (const Run& r : runs) {
    const fs::path d = out / "runs" / r.id;
    if (!finished(d)) todo.push_back({r.id, d});
  }
  os << "moesim campaign: " << runs.size() << " runs (" << runs.size() - todo.size()
     << " finished before), " << todo.size() << " to run through the " << executor.name()
     << " executor" << std::endl;

  std::map<std::string, const Run*> by_id;
  for (const Run& r : runs) by_id[r.id] = &r;
  size_t count = 0;
  auto done = [&](const std::string& id) {
    const RunResult r = read_result(*by_id.at(id), out / "runs" / id, o.moesim);
    char line[256];
    std::snprintf(line, sizeof line, "[%zu/%zu] %-12s %s\n", ++count, todo.size(), r.status.c_str(),
                  id.c_str());
    os << line << std::flush;
  };
  const std::map<std::string, std::string> lost = executor.run(todo, done);

  std::vector<RunResult> results;
  std::set<std::string> now;
  for (const Task& t : todo) now.insert(t.id);
  for (const Run& r : runs) {
    RunResult res = read_result(r, out / "runs" / r.id, o.moesim);
    res.ran_now = now.count(r.id) != 0;
    if (res.status == "NOT FINISHED" && lost.count(r.id)) res.reason = lost.at(r.id);
    results.push_back(res);
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();

  std::map<std::string, size_t> counts;
  for (const RunResult& r : results) ++counts[r.status];
  const bool all_equal = counts["EQUAL"] == results.size();
  const int exit_code = all_equal ? 0 : counts["BAD INPUT"] ? 2 : 1;

  // Console table.
  char line[512];
  std::snprintf(line, sizeof line, "\n%-56s %-12s %12s %14s %14s %9s\n", "run", "status",
                "instructions", "golden cycles", "rtl cycles", "wall s");
  os << line;
  for (const RunResult& r : results) {
    std::snprintf(line, sizeof line, "%-56s %-12s %12llu %14llu %14llu %9.1f\n", r.id.c_str(),
                  r.status.c_str(), static_cast<unsigned long long>(r.instructions),
                  static_cast<unsigned long long>(r.golden_cycles),
                  static_cast<unsigned long long>(r.rtl_cycles), r.wall_time_s);
    os << line;
  }
  os << '\n' << results.size() << " runs:";
  for (const auto& [status, n] : counts)
    if (n) os << ' ' << n << ' ' << status << ',';
  std::snprintf(line, sizeof line, " campaign wall time %.1f s (%s executor)\n", wall,
                executor.name().c_str());
  os << line;
  for (const RunResult& r : results)
    if (r.status != "EQUAL") os << "  " << r.status << " " << r.id << ": " << r.reason << '\n';
  const nlohmann::json coverage = merged_random_coverage(runs, out);
  for (const auto& [machine, c] : coverage.items()) {
    os << "random programs on " << machine << ": " << c["programs"].get<uint64_t>()
       << " programs in " << c["batches"].get<uint64_t>() << " batches, "
       << c["instructions_retired"].get<uint64_t>() << " instructions, "
       << c["mismatches"].get<uint64_t>() << " mismatching; coverage (hit / items):";
    for (const auto& [g, ct] : c["groups"].items())
      os << ' ' << g << ' ' << ct["covered"].get<uint64_t>() << '/' << ct["items"].get<uint64_t>();
    os << '\n';
  }
  if (!coverage.empty())
    write_atomic(
        out / "coverage.json",
        nlohmann::json{{"tool", "moesim campaign"}, {"machines", coverage}}.dump(2) + "\n");
  os << "summary: " << (out / "summary.json").string()
     << ", JUnit: " << (out / "junit.xml").string()
     << (coverage.empty() ? "" : ", coverage: " + (out / "coverage.json").string()) << '\n';

  // summary.json
  nlohmann::json summary = {{"tool", "moesim campaign"},      {"spec", plan["spec"]},
                            {"executor", o.executor_words},   {"wall_time_s", wall},
                            {"exit_code", exit_code},         {"counts", counts},
                            {"runs", nlohmann::json::array()}};
  for (const RunResult& r : results) summary["runs"].push_back(result_json(r));
  write_atomic(out / "summary.json", summary.dump(2) + "\n");

  // junit.xml: one testcase per run; a non-EQUAL verdict is a failure, a run that did not
  // finish (or met bad input) an error.
  size_t failures = 0, errors = 0;
  for (const RunResult& r : results) {
    if (r.status == "EQUAL") continue;
    (r.exit_code == 1 && !r.verdict.empty() ? failures : errors)++;
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
    << "  <testsuite name=\"moesim campaign " << xml_escape(fs::path(o.spec_path).stem().string())
    << "\" tests=\"" << results.size() << "\" failures=\"" << failures << "\" errors=\"" << errors
    << "\" time=\"" << wall << "\">\n";
  for (const RunResult& r : results) {
    x << "    <testcase classname=\"campaign\" name=\"" << xml_escape(r.id) << "\" time=\""
      << r.wall_time_s << "\">\n";
    if (r.status != "EQUAL") {
      const char* tag = r.exit_code == 1 && !r.verdict.empty() ? "failure" : "error";
      x << "      <" << tag << " type=\"" << xml_escape(r.status) << "\" message=\""
        << xml_escape(r.reason) << "\"/>\n";
    }
    x << "      <system-out>" << xml_escape(r.command) << "</system-out>\n    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  write_atomic(out / "junit.xml", x.str());
  return exit_code;
}

}  // namespace moesim::campaign
