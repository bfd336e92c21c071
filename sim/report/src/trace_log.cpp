// The trace log sink (trace_log.hpp, docs/trace_log.md).
#include "moesim/report/trace_log.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/numerics.hpp"

namespace moesim::report {

namespace fs = std::filesystem;

std::vector<fs::path> trace_log_paths(const fs::path& path,
                                      const std::vector<std::string>& engines) {
  if (engines.size() == 1) return {path};
  std::vector<fs::path> out;
  for (const std::string& e : engines) {
    fs::path p = path;
    p.replace_filename(path.stem().string() + "." + e + path.extension().string());
    out.push_back(p);
  }
  return out;
}

namespace {

constexpr const char* kColumns =
    "  retire      start        end     pc  word        stage                tags          "
    "disassembly ; writes";

std::string tags_text(const cosim::WorkItem& w) {
  if (w.token < 0 && w.slot < 0 && w.expert < 0) return "-";
  const auto f = [](int32_t v) { return v < 0 ? std::string("-") : std::to_string(v); };
  return f(w.token) + "," + f(w.slot) + "," + f(w.expert);
}

}  // namespace

std::string TraceLogSink::line(const isa::Spec& spec, const isa::RetireRecord& r,
                               const cosim::WorkItem& work) {
  char head[160];
  std::snprintf(head, sizeof head, "%8llu %10llu %10llu %6u  0x%08X  %-20s %-13s ",
                static_cast<unsigned long long>(r.index),
                static_cast<unsigned long long>(r.start_cycle),
                static_cast<unsigned long long>(r.end_cycle), r.pc, r.word,
                spec.stage_name(r.stage).c_str(), tags_text(work).c_str());
  std::string s = head;
  s += isa::disassemble(spec, r.word);
  std::string writes;
  const auto add = [&](const std::string& x) { writes += (writes.empty() ? "" : " ") + x; };
  if (r.trap) {
    const isa::TrapSpec* ts = spec.trap_by_code(r.trap->cause);
    add("TRAP " + (ts ? ts->name : "trap" + std::to_string(r.trap->cause)));
  }
  for (const isa::RegWrite& w : r.regs) {
    char v[80];
    switch (w.file) {
      case isa::RegFile::Fp:
        std::snprintf(v, sizeof v, "=0x%04llX(%.9g)", static_cast<unsigned long long>(w.value),
                      static_cast<double>(num::bf16_to_f32(static_cast<uint16_t>(w.value))));
        break;
      case isa::RegFile::Addr:
        std::snprintf(v, sizeof v, "=0x%016llX", static_cast<unsigned long long>(w.value));
        break;
      default:
        std::snprintf(v, sizeof v, "=0x%08llX", static_cast<unsigned long long>(w.value));
        break;
    }
    add(cosim::reg_name(w.file, w.index) + v);
  }
  for (const isa::MemWrite& m : r.mems) {
    char v[96];
    if (m.space == isa::Space::Hbm)
      std::snprintf(v, sizeof v, "hbm[0x%llX,0x%llX)", static_cast<unsigned long long>(m.begin),
                    static_cast<unsigned long long>(m.end));
    else
      std::snprintf(v, sizeof v, "%s[%llu,%llu)", isa::space_name(m.space),
                    static_cast<unsigned long long>(m.begin),
                    static_cast<unsigned long long>(m.end));
    add(v);
  }
  if (!writes.empty()) s += " ; " + writes;
  return s;
}

TraceLogSink::TraceLogSink(const isa::Spec& spec, const std::vector<fs::path>& paths,
                           const std::vector<std::string>& header)
    : spec_(spec) {
  for (const fs::path& p : paths) {
    File f{p, std::fopen(p.c_str(), "w")};
    if (f.f == nullptr) {
      const std::string why = std::strerror(errno);
      for (File& g : files_) std::fclose(g.f);
      files_.clear();
      throw std::runtime_error(p.string() + ": cannot be written (" + why + ")");
    }
    for (const std::string& h : header) std::fprintf(f.f, "# %s\n", h.c_str());
    std::fprintf(f.f, "#%s\n", kColumns + 1);
    files_.push_back(f);
    // A file that takes no bytes (/dev/full) fails here, before the run.
    if (std::fflush(f.f) != 0 || std::ferror(f.f) != 0) {
      const std::string why = std::strerror(errno);
      for (File& g : files_) std::fclose(g.f);
      files_.clear();
      throw std::runtime_error(p.string() + ": write error (" + why + ")");
    }
  }
}

TraceLogSink::~TraceLogSink() {
  for (File& f : files_)
    if (f.f != nullptr) std::fclose(f.f);
}

void TraceLogSink::check(const File& f) const {
  if (std::ferror(f.f) != 0)
    throw std::runtime_error(f.path.string() + ": write error (" + std::strerror(errno) + ")");
}

void TraceLogSink::instruction(size_t engine, const isa::RetireRecord& r,
                               const cosim::WorkItem& work) {
  if (engine >= files_.size()) return;
  const std::string s = line(spec_, r, work);
  std::fputs(s.c_str(), files_[engine].f);
  std::fputc('\n', files_[engine].f);
}

void TraceLogSink::mismatch(uint64_t cycle) {
  for (File& f : files_)
    std::fprintf(f.f, "# first divergence of the co-simulation (cycle %llu): the retire above\n",
                 static_cast<unsigned long long>(cycle));
}

void TraceLogSink::finish(uint64_t end_cycle) {
  for (File& f : files_) {
    std::fprintf(f.f, "# end of run at cycle %llu\n", static_cast<unsigned long long>(end_cycle));
    if (std::fflush(f.f) != 0) check(f);
    check(f);
  }
}

}  // namespace moesim::report
