// Progress line and dynamic instruction count (progress.hpp, docs/progress.md).
#include "progress.hpp"

#include <sys/ioctl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "moesim/isa/encoding.hpp"

namespace moesim::cli {

std::optional<InstructionCount> count_dynamic_instructions(const isa::Spec& spec,
                                                           const isa::Program& p) {
  InstructionCount c;
  std::vector<uint64_t> trips;  // open loops, innermost last
  uint64_t mult = 1;            // iterations of the innermost open loop body
  constexpr uint64_t kMax = UINT64_MAX / 4;
  for (uint32_t w : p.words) {
    const isa::Decoded d = isa::decode(spec, w);
    const std::string m = d.spec ? d.spec->mnemonic : "";
    if (c.total > kMax - mult) return std::nullopt;
    c.total += mult;
    if (m == "C_LOOP_START") {
      const uint64_t n = d.imm22;
      if (n == 0) return std::nullopt;  // traps: the count is not what runs
      if (mult > kMax / n) return std::nullopt;
      trips.push_back(n);
      mult *= n;
    } else if (m == "C_LOOP_END") {
      if (trips.empty()) return std::nullopt;
      mult /= trips.back();
      trips.pop_back();
    } else if (m == "C_BREAK") {
      c.exact = false;
      if (trips.empty()) break;  // outside a loop the program halts here
    }
  }
  if (!trips.empty()) return std::nullopt;
  return c;
}

Progress::Progress(const isa::Spec& spec, const ProgressFlags& f,
                   std::optional<InstructionCount> total)
    : spec_(spec),
      tty_(isatty(STDERR_FILENO) != 0),
      enabled_(f.mode != "never"),
      always_(f.mode == "always"),
      after_s_(f.mode == "always" ? 0.0 : f.after_s),
      every_s_(f.every_s),
      total_(total) {
  last_ = start_ - std::chrono::hours(1);  // the first line is not held back
}

namespace {

std::string duration_text(double s) {
  if (!(s >= 0) || s > 1e8) return "?";
  const auto t = static_cast<unsigned long long>(s + 0.5);
  char b[32];
  if (t >= 3600)
    std::snprintf(b, sizeof b, "%llu:%02llu:%02llu", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(b, sizeof b, "%llu:%02llu", t / 60, t % 60);
  return b;
}

std::string rate_text(double r) {
  char b[32];
  if (r >= 1e6)
    std::snprintf(b, sizeof b, "%.2fM", r / 1e6);
  else if (r >= 1e3)
    std::snprintf(b, sizeof b, "%.1fk", r / 1e3);
  else
    std::snprintf(b, sizeof b, "%.0f", r);
  return b;
}

/// Columns of the terminal on stderr (TIOCGWINSZ, else $COLUMNS, else 80).
size_t terminal_columns() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    const long n = std::strtol(c, nullptr, 10);
    if (n > 0 && n < 10000) return static_cast<size_t>(n);
  }
  return 80;
}

}  // namespace

std::string Progress::text(double t) const {
  // Most telling first (percent, ETA, elapsed, stage), so that a line cut to a narrow terminal
  // keeps them: "[moesim]  42% ETA 0:07, 0:05 elapsed, stage routed_up_gate | 2520/5986 instr,
  // 44731 cycles | 12.3k instr/s, 218.4k cycles/s".
  const double ips = t > 0 ? static_cast<double>(retired_) / t : 0;
  const double cps = t > 0 ? static_cast<double>(cycles_) / t : 0;
  std::string s = "[moesim] ";
  char b[160];
  std::string count;
  if (total_ && total_->total > 0) {
    const uint64_t tot = total_->total;
    if (retired_ <= tot) {
      std::snprintf(b, sizeof b, "%3.0f%% ",
                    100.0 * static_cast<double>(retired_) / static_cast<double>(tot));
      s += b;
      if (retired_ > 0 && ips > 0)
        s += "ETA " + duration_text(static_cast<double>(tot - retired_) / ips) + ", ";
      std::snprintf(b, sizeof b, "%llu/%s%llu instr", static_cast<unsigned long long>(retired_),
                    total_->exact ? "" : "<=", static_cast<unsigned long long>(tot));
    } else {
      s += ">100% ";
      std::snprintf(b, sizeof b, "%llu instr, past the %llu the loops count",
                    static_cast<unsigned long long>(retired_),
                    static_cast<unsigned long long>(tot));
    }
  } else {
    std::snprintf(b, sizeof b, "%llu instr", static_cast<unsigned long long>(retired_));
  }
  count = b;
  s += duration_text(t) + " elapsed";
  if (stage_ >= 0) s += ", stage " + spec_.stage_name(static_cast<uint8_t>(stage_));
  std::snprintf(b, sizeof b, ", %llu cycles", static_cast<unsigned long long>(cycles_));
  s += " | " + count + b + " | " + rate_text(ips) + " instr/s, " + rate_text(cps) + " cycles/s";
  return s;
}

void Progress::tick() {
  if (!enabled_) return;
  const auto now = Clock::now();
  const double t = std::chrono::duration<double>(now - start_).count();
  if (tty_) {
    // At most every 250 ms, or every --progress-every seconds if that is shorter.
    const double redraw_s = std::min(0.25, every_s_);
    if (t < after_s_ || std::chrono::duration<double>(now - last_).count() < redraw_s) return;
    last_ = now;
    // One screen line, never wrapped: a wrapped line would not be redrawn in place by \r.
    std::string line = text(t);
    const size_t cols = terminal_columns();
    if (line.size() >= cols) line.resize(cols > 1 ? cols - 1 : 0);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    printed_ = true;
  } else {
    const bool first_always = always_ && !any_line_;
    if (!first_always &&
        (t < every_s_ || std::chrono::duration<double>(now - last_).count() < every_s_))
      return;
    last_ = now;
    std::fprintf(stderr, "%s\n", text(t).c_str());
    std::fflush(stderr);
  }
  any_line_ = true;
}

void Progress::update(uint64_t retired, uint64_t cycles) {
  retired_ = retired;
  cycles_ = cycles;
  tick();
}

void Progress::instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem&) {
  if (engine != 0) return;
  retired_ = r.index + 1;
  cycles_ = r.end_cycle;
  stage_ = r.stage;
  if (++calls_ % 16 == 0) tick();  // the clock is read every 16 retires
}

void Progress::done() {
  if (!enabled_) return;
  if (printed_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  } else if (!tty_ && always_) {
    const double t = std::chrono::duration<double>(Clock::now() - start_).count();
    std::fprintf(stderr, "%s (done)\n", text(t).c_str());
  }
  printed_ = false;
}

}  // namespace moesim::cli
