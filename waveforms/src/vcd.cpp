// Streaming VCD writer, GTKWave stage translate filter and save file (see vcd.hpp).
#include "moesim/waveforms/vcd.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace moesim::waveforms {
namespace {

// VCD identifier codes: printable ASCII 33..126, shortest first.
std::string vcd_id(size_t n) {
  std::string id;
  do {
    id.push_back(static_cast<char>(33 + n % 94));
    n /= 94;
  } while (n > 0);
  return id;
}

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_vcd_string(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return c > ' ' && c < 127; });
}

void check_names(const std::vector<std::string>& names, const char* what) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (!is_identifier(names[i]))
      throw std::invalid_argument(std::string("VcdWriter: bad ") + what + " name '" + names[i] +
                                  "'");
    for (size_t j = 0; j < i; ++j)
      if (names[j] == names[i])
        throw std::invalid_argument(std::string("VcdWriter: duplicate ") + what + " '" + names[i] +
                                    "'");
  }
}

uint64_t work_value(int32_t v) { return v < 0 ? UINT64_MAX : static_cast<uint64_t>(v); }

}  // namespace

std::string VcdSignal::gtkwave_name() const {
  std::string n = scope.empty() ? name : scope + "." + name;
  if (!text && width > 1) n += "[" + std::to_string(width - 1) + ":0]";
  return n;
}

VcdWriter::VcdWriter(const std::filesystem::path& path, const std::vector<std::string>& scopes,
                     const std::vector<isa::StageSpec>& stages,
                     const std::vector<std::string>& units, unsigned queue_bits)
    : path_(path), queue_bits_(queue_bits) {
  if (queue_bits > 32) throw std::invalid_argument("VcdWriter: dma_queue wider than 32 bits");
  std::string initial_stage;
  unsigned max_code = 0;
  for (const auto& st : stages) {
    if (st.code == 0) initial_stage = st.name;
    max_code = std::max<unsigned>(max_code, st.code);
  }
  if (initial_stage.empty()) throw std::invalid_argument("VcdWriter: no stage with code 0");
  if (!is_vcd_string(initial_stage))
    throw std::invalid_argument("VcdWriter: bad stage name '" + initial_stage + "'");
  while ((max_code >> code_bits_) != 0) ++code_bits_;
  if (scopes.empty()) throw std::invalid_argument("VcdWriter: no scopes");
  check_names(scopes, "scope");
  check_names(units, "unit");

  const std::string* stage0 = intern(initial_stage);
  const std::string* none = intern("none");
  for (const auto& name : scopes) {
    Scope s;
    s.stage = declare(name, "stage", 1, true);
    s.code = declare(name, "stage_code", code_bits_, false);
    s.pc = declare(name, "pc", 32, false);
    s.mnemonic = declare(name, "mnemonic", 1, true);
    s.token = declare(name, "token", 32, false);
    s.slot = declare(name, "slot", 32, false);
    s.expert = declare(name, "expert", 32, false);
    for (const auto& u : units) s.busy.push_back(declare(name, u + "_busy", 1, false));
    s.open.assign(units.size(), 0);
    s.trap = declare(name, "trap", 1, false);
    s.cause = declare(name, "trap_cause", 1, true);
    vars_[s.stage].text = stage0;
    vars_[s.mnemonic].text = none;
    vars_[s.cause].text = none;
    if (queue_bits > 0) {
      s.stall = declare(name, "stall", 1, false);
      s.stall_cause = declare(name, "stall_cause", 1, true);
      s.queue = declare(name, "dma_queue", queue_bits, false);
      s.dma_pc = declare(name, "dma_pc", 32, false);
      s.dma_mnemonic = declare(name, "dma_mnemonic", 1, true);
      vars_[s.stall_cause].text = vars_[s.dma_mnemonic].text = none;
      vars_[s.dma_pc].value = kX;
    }
    vars_[s.token].value = vars_[s.slot].value = vars_[s.expert].value = kX;
    scopes_.push_back(std::move(s));
  }
  mismatch_ = declare("", "mismatch", 1, false);

  out_.open(path, std::ios::out | std::ios::trunc);
  if (!out_) throw std::runtime_error(path.string() + ": cannot open for writing");
  out_ << "$version moesim stage timeline $end\n"
       << "$timescale 1ns $end\n"
       << "$comment one time unit = one machine cycle; stage_code values: see the "
          ".stages.filter file beside this VCD $end\n";
  std::string open_scope;
  for (size_t i = 0; i < signals_.size(); ++i) {
    const VcdSignal& s = signals_[i];
    if (s.scope != open_scope) {
      if (!open_scope.empty()) out_ << "$upscope $end\n";
      if (!s.scope.empty()) out_ << "$scope module " << s.scope << " $end\n";
      open_scope = s.scope;
    }
    out_ << "$var " << (s.text ? "string" : "wire") << ' ' << s.width << ' ' << vars_[i].id << ' '
         << s.name << " $end\n";
  }
  if (!open_scope.empty()) out_ << "$upscope $end\n";
  out_ << "$enddefinitions $end\n";
  if (!out_) throw std::runtime_error(path.string() + ": write error");
}

VcdWriter::~VcdWriter() {
  try {
    finish(latest_time_);
  } catch (...) {
    // Destructors must not throw; an explicit finish() reports write errors.
  }
}

size_t VcdWriter::declare(const std::string& scope, const std::string& name, unsigned width,
                          bool text) {
  signals_.push_back(VcdSignal{scope, name, width, text});
  Var v;
  v.id = vcd_id(vars_.size());
  v.width = width;
  vars_.push_back(std::move(v));
  return vars_.size() - 1;
}

const std::string* VcdWriter::intern(std::string_view s) { return &*texts_.emplace(s).first; }

VcdWriter::Scope& VcdWriter::checked_scope(size_t scope, uint64_t time, const char* what) {
  if (finished_) throw std::logic_error(std::string("VcdWriter: ") + what + "() after finish()");
  if (scope >= scopes_.size()) throw std::invalid_argument("VcdWriter: scope index out of range");
  Scope& s = scopes_[scope];
  if (time < s.floor())
    throw std::invalid_argument("VcdWriter: " + std::string(what) + " at " + std::to_string(time) +
                                " goes back (scope at " + std::to_string(s.floor()) + ")");
  return s;
}

VcdWriter::Scope& VcdWriter::track_scope(size_t scope, uint64_t time, const char* what) {
  if (queue_bits_ == 0)
    throw std::logic_error(std::string("VcdWriter: ") + what + "() without a DMA-queue track");
  return checked_scope(scope, time, what);
}

void VcdWriter::instruction(size_t scope, uint64_t time, const InstructionValues& v) {
  Scope& s = checked_scope(scope, time, "instruction");
  if (time < s.last_time)
    throw std::invalid_argument("VcdWriter: instruction at " + std::to_string(time) +
                                " goes back (scope at " + std::to_string(s.last_time) + ")");
  if ((v.stage_code >> code_bits_) != 0)
    throw std::invalid_argument("VcdWriter: stage code " + std::to_string(v.stage_code) +
                                " does not fit " + std::to_string(code_bits_) + " bits");
  for (std::string_view t : {v.stage, v.mnemonic, v.stall_cause})
    if (!is_vcd_string(t))
      throw std::invalid_argument("VcdWriter: bad string value '" + std::string(t) + "'");
  if (queue_bits_ > 0 && v.stall_cycles > 0) {
    // The wait [ready, time): ready is the previous instruction's end, not before its start.
    const uint64_t ready = time - std::min(time, v.stall_cycles);
    if (ready < s.last_time)
      throw std::invalid_argument("VcdWriter: stall from " + std::to_string(ready) +
                                  " goes back (scope at " + std::to_string(s.last_time) + ")");
    pending_.emplace(ready,
                     Event{Kind::Stall, scope, 0, 0, 0, 0, 0, 0, intern(v.stall_cause), nullptr});
  }
  s.last_time = time;
  latest_time_ = std::max(latest_time_, time);
  pending_.emplace(time, Event{Kind::Instruction, scope, 0, v.stage_code, v.pc, v.token, v.slot,
                               v.expert, intern(v.stage), intern(v.mnemonic)});
  uint64_t watermark = scopes_.front().floor();
  for (const auto& sc : scopes_) watermark = std::min(watermark, sc.floor());
  flush_before(watermark);
}

void VcdWriter::dma_issue(size_t scope, uint64_t time) {
  Scope& s = track_scope(scope, time, "dma_issue");
  latest_time_ = std::max(latest_time_, time);
  s.issued.push_back(time);
  pending_.emplace(time, Event{Kind::QueueUp, scope, 0, 0, 0, 0, 0, 0, nullptr, nullptr});
}

void VcdWriter::dma_transfer(size_t scope, uint64_t start, uint64_t end, uint32_t pc,
                             std::string_view mnemonic) {
  Scope& s = track_scope(scope, start, "dma_transfer");
  if (s.issued.empty()) throw std::invalid_argument("VcdWriter: dma_transfer() of no issue");
  if (start < s.issued.front())
    throw std::invalid_argument("VcdWriter: transfer starts at " + std::to_string(start) +
                                ", before its issue at " + std::to_string(s.issued.front()));
  if (end <= start)
    throw std::invalid_argument("VcdWriter: empty transfer [" + std::to_string(start) + "," +
                                std::to_string(end) + ")");
  if (!is_vcd_string(mnemonic))
    throw std::invalid_argument("VcdWriter: bad string value '" + std::string(mnemonic) + "'");
  s.issued.pop_front();
  latest_time_ = std::max(latest_time_, end);
  pending_.emplace(start,
                   Event{Kind::DmaStart, scope, 0, 0, pc, 0, 0, 0, nullptr, intern(mnemonic)});
  pending_.emplace(end, Event{Kind::DmaEnd, scope, 0, 0, 0, 0, 0, 0, nullptr, nullptr});
}

void VcdWriter::unit_busy(size_t scope, size_t unit, uint64_t begin, uint64_t end) {
  Scope& s = checked_scope(scope, begin, "unit_busy");
  if (unit >= s.busy.size()) throw std::invalid_argument("VcdWriter: unit index out of range");
  if (end <= begin)
    throw std::invalid_argument("VcdWriter: empty busy span [" + std::to_string(begin) + "," +
                                std::to_string(end) + ")");
  latest_time_ = std::max(latest_time_, end);
  pending_.emplace(begin, Event{Kind::Rise, scope, unit, 0, 0, 0, 0, 0, nullptr, nullptr});
  pending_.emplace(end, Event{Kind::Fall, scope, unit, 0, 0, 0, 0, 0, nullptr, nullptr});
}

void VcdWriter::trap(size_t scope, uint64_t time, std::string_view cause) {
  checked_scope(scope, time, "trap");
  if (!is_vcd_string(cause))
    throw std::invalid_argument("VcdWriter: bad trap cause '" + std::string(cause) + "'");
  latest_time_ = std::max(latest_time_, time);
  pending_.emplace(time, Event{Kind::Trap, scope, 0, 0, 0, 0, 0, 0, intern(cause), nullptr});
}

void VcdWriter::mismatch(uint64_t time) {
  if (finished_) throw std::logic_error("VcdWriter: mismatch() after finish()");
  if (time < written_time_)
    throw std::invalid_argument("VcdWriter: mismatch at " + std::to_string(time) +
                                " is before time " + std::to_string(written_time_) +
                                " already written");
  latest_time_ = std::max(latest_time_, time);
  pending_.emplace(time, Event{Kind::Mismatch, 0, 0, 0, 0, 0, 0, 0, nullptr, nullptr});
}

void VcdWriter::finish(uint64_t end_time) {
  if (finished_) return;
  finished_ = true;
  flush_before(UINT64_MAX);
  timestamp(std::max({end_time, latest_time_, written_time_}));
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok) throw std::runtime_error(path_.string() + ": write error");
}

void VcdWriter::set(size_t var, uint64_t value) {
  Var& v = vars_[var];
  v.value = value;
  if (!v.dirty) dirty_.push_back(var);
  v.dirty = true;
}

void VcdWriter::set_text(size_t var, const std::string* text) {
  Var& v = vars_[var];
  v.text = text;
  if (!v.dirty) dirty_.push_back(var);
  v.dirty = true;
}

void VcdWriter::apply(const Event& e) {
  if (e.kind == Kind::Mismatch) {
    set(mismatch_, 1);
    return;
  }
  Scope& s = scopes_[e.scope];
  switch (e.kind) {
    case Kind::Instruction:
      set_text(s.stage, e.stage);
      set(s.code, e.code);
      set(s.pc, e.pc);
      set_text(s.mnemonic, e.mnemonic);
      set(s.token, work_value(e.token));
      set(s.slot, work_value(e.slot));
      set(s.expert, work_value(e.expert));
      if (queue_bits_ > 0) {
        set(s.stall, 0);
        set_text(s.stall_cause, intern("none"));
      }
      break;
    case Kind::Stall:
      set(s.stall, 1);
      set_text(s.stall_cause, e.stage);
      break;
    case Kind::QueueUp:
      set(s.queue, ++s.pending);
      break;
    case Kind::DmaStart:
      set(s.dma_pc, e.pc);
      set_text(s.dma_mnemonic, e.mnemonic);
      break;
    case Kind::DmaEnd:  // a transfer starting in the same cycle is applied after this
      set(s.queue, --s.pending);
      set(s.dma_pc, kX);
      set_text(s.dma_mnemonic, intern("none"));
      break;
    case Kind::Rise:
      set(s.busy[e.unit], ++s.open[e.unit] > 0);
      break;
    case Kind::Fall:
      set(s.busy[e.unit], --s.open[e.unit] > 0);
      break;
    case Kind::Trap:
      set(s.trap, 1);
      set_text(s.cause, e.stage);
      break;
    case Kind::Mismatch:
      break;
  }
}

void VcdWriter::flush_before(uint64_t watermark) {
  auto it = pending_.begin();
  if (!dumped_) {
    if (watermark == 0) return;  // a time-0 value may still change
    for (; it != pending_.end() && it->first == 0; it = pending_.erase(it)) apply(it->second);
    dump_initial();
  }
  while (it != pending_.end() && it->first < watermark) {
    const uint64_t t = it->first;
    for (; it != pending_.end() && it->first == t; it = pending_.erase(it)) apply(it->second);
    timestamp(t);
    write_dirty();
  }
}

void VcdWriter::write_dirty() {
  for (size_t i : dirty_) {
    Var& v = vars_[i];
    v.dirty = false;
    if (v.value == v.written_value && v.text == v.written_text) continue;
    write_value(v);
  }
  dirty_.clear();
}

void VcdWriter::write_value(Var& v) {
  if (v.text) {
    out_ << 's' << *v.text << ' ' << v.id << '\n';
  } else if (v.width == 1) {
    out_ << (v.value == kX ? 'x' : static_cast<char>('0' + v.value)) << v.id << '\n';
  } else if (v.value == kX) {
    out_ << "bz " << v.id << '\n';  // no work item: undriven (GTKWave draws z plainly, x in red)
  } else {
    char bits[65];
    size_t n = 0;
    uint64_t x = v.value;
    do {
      bits[n++] = static_cast<char>('0' + (x & 1));
      x >>= 1;
    } while (x != 0);
    out_ << 'b';
    while (n > 0) out_ << bits[--n];
    out_ << ' ' << v.id << '\n';
  }
  v.written_value = v.value;
  v.written_text = v.text;
}

void VcdWriter::dump_initial() {
  out_ << "#0\n$dumpvars\n";
  for (Var& v : vars_) {
    v.dirty = false;
    write_value(v);
  }
  dirty_.clear();
  out_ << "$end\n";
  dumped_ = true;
}

void VcdWriter::timestamp(uint64_t t) {
  if (t > written_time_) {
    out_ << '#' << t << '\n';
    written_time_ = t;
  }
}

std::filesystem::path stage_filter_path(const std::filesystem::path& vcd_path) {
  std::filesystem::path p = vcd_path;
  p.replace_extension(".stages.filter");
  return p;
}

void write_stage_filter(const std::filesystem::path& path,
                        const std::vector<isa::StageSpec>& stages) {
  std::vector<const isa::StageSpec*> sorted;
  for (const auto& s : stages) sorted.push_back(&s);
  std::sort(sorted.begin(), sorted.end(),
            [](const isa::StageSpec* a, const isa::StageSpec* b) { return a->code < b->code; });
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
  static const char* kHex = "0123456789ABCDEF";
  for (const auto* s : sorted) {
    std::string hex;
    unsigned v = s->code;
    do {
      hex.insert(hex.begin(), kHex[v % 16]);
      v /= 16;
    } while (v != 0);
    out << hex << ' ' << s->name << '\n';
  }
  out.flush();
  if (!out) throw std::runtime_error(path.string() + ": write error");
}

std::filesystem::path gtkw_path(const std::filesystem::path& vcd_path) {
  std::filesystem::path p = vcd_path;
  p.replace_extension(".gtkw");
  return p;
}

double gtkw_zoom(uint64_t span) {
  // GTKWave shows 2^-zoom time units per frame of 200 pixels (its pixelsperframe).
  const double per_frame = static_cast<double>(std::max<uint64_t>(span, 1)) * 200.0 /
                           static_cast<double>(kGtkwWavePixels);
  return -std::log2(per_frame);
}

std::vector<std::string> write_gtkw(const std::filesystem::path& path,
                                    const std::filesystem::path& vcd_path,
                                    const std::filesystem::path& filter_path,
                                    const std::vector<VcdSignal>& signals, const GtkwView& view) {
  // Trace flags of GTKWave's save format (hex after `@`): 0x20 right-justify, 0x8 binary,
  // 0x4 decimal, 0x2 hex, 0x2000 translate filter file, 0x200 blank line.
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
  std::vector<std::string> traces;
  std::string flags;  // flags of the previous line: a trace line keeps them
  auto set_flags = [&](const char* f) {
    if (flags != f) out << '@' << f << '\n';
    flags = f;
  };
  auto trace = [&](const VcdSignal& s) {
    if (s.name == "stage_code") {
      set_flags("2022");
      out << "^1 " << std::filesystem::absolute(filter_path).string() << '\n';
    } else {
      set_flags(!s.text && s.width > 1 ? "24" : "28");
    }
    traces.push_back(s.gtkwave_name());
    // GTKWave shows only the last level of a name: the alias keeps the scope in sight.
    if (!s.scope.empty()) out << "+{" << s.scope << ' ' << s.name << "} ";
    out << traces.back() << '\n';
  };
  out << "[*] moesim stage timeline: gtkwave <file>.vcd <file>.gtkw (1 ns = 1 machine cycle)\n"
      << "[dumpfile] \"" << std::filesystem::absolute(vcd_path).string() << "\"\n"
      << "[savefile] \"" << std::filesystem::absolute(path).string() << "\"\n"
      << "[timestart] " << view.begin << "\n[size] " << kGtkwWidth << ' ' << kGtkwHeight
      << "\n[pos] -1 -1\n";
  // Zoom so that [begin, end) fills the wave area; the primary marker, then markers A..Z.
  std::array<int64_t, 26> named;
  named.fill(-1);
  for (size_t i = 0; i < view.markers.size() && i < named.size(); ++i)
    named[i] = static_cast<int64_t>(view.markers[i].time);
  char zoom[64];
  std::snprintf(zoom, sizeof zoom, "*%.6f %lld",
                gtkw_zoom(view.end > view.begin ? view.end - view.begin : 0),
                view.marker ? static_cast<long long>(*view.marker) : -1LL);
  out << zoom;
  for (int64_t t : named) out << ' ' << t;
  out << '\n';
  for (size_t i = 0; i < view.markers.size() && i < named.size(); ++i)
    out << "[markername] " << static_cast<char>('A' + i) << view.markers[i].name << '\n';
  // The signal pane is wide enough for "golden mnemonic=H_PREFETCH_V" (the value at the marker).
  out << "[sst_expanded] 0\n[signals_width] 330\n[sst_width] 200\n[sst_vpaned_height] 200\n";
  for (const auto& s : signals)
    if (s.scope.empty()) trace(s);
  // Signals of the same name (golden.stage, rtl.stage, ...) next to each other, in the order
  // the first scope declares them.
  std::vector<std::string> names;
  for (const auto& s : signals)
    if (!s.scope.empty() && std::find(names.begin(), names.end(), s.name) == names.end())
      names.push_back(s.name);
  for (const std::string& name : names)
    for (const auto& s : signals)
      if (!s.scope.empty() && s.name == name) trace(s);
  out.flush();
  if (!out) throw std::runtime_error(path.string() + ": write error");
  return traces;
}

std::vector<std::string> write_rtl_gtkw(const std::filesystem::path& path,
                                        const std::filesystem::path& fst_path,
                                        const std::filesystem::path& filter_path,
                                        unsigned stage_bits, unsigned trap_bits, unsigned units,
                                        const GtkwView& view) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
  auto vec = [](const char* name, unsigned width) {
    return std::string("TOP.") + name + (width > 1 ? "[" + std::to_string(width - 1) + ":0]" : "");
  };
  out << "[*] moesim RTL signals: gtkwave <file>.fst <file>.rtl.gtkw (1 ns = 1 machine cycle; "
         "the state of cycle c from c ns)\n"
      << "[dumpfile] \"" << std::filesystem::absolute(fst_path).string() << "\"\n"
      << "[savefile] \"" << std::filesystem::absolute(path).string() << "\"\n"
      << "[timestart] " << kFstPsPerCycle * view.begin << "\n[size] " << kGtkwWidth << ' '
      << kGtkwHeight << "\n[pos] -1 -1\n";
  char zoom[64];
  std::snprintf(zoom, sizeof zoom, "*%.6f %lld",
                gtkw_zoom(kFstPsPerCycle * (view.end > view.begin ? view.end - view.begin : 0)),
                view.marker ? static_cast<long long>(kFstPsPerCycle * *view.marker) : -1LL);
  out << zoom;
  for (size_t i = 0; i < 26; ++i)
    out << ' '
        << (i < view.markers.size() ? static_cast<long long>(kFstPsPerCycle * view.markers[i].time)
                                    : -1LL);
  out << '\n';
  for (size_t i = 0; i < view.markers.size() && i < 26; ++i)
    out << "[markername] " << static_cast<char>('A' + i) << view.markers[i].name << '\n';
  out << "[sst_expanded] 1\n[signals_width] 330\n[sst_width] 220\n";
  std::vector<std::string> traces;
  auto trace = [&](const char* flags, const std::string& name) {
    out << '@' << flags << '\n' << name << '\n';
    traces.push_back(name);
  };
  trace("28", vec("clk_i", 1));
  trace("28", vec("rst_ni", 1));
  trace("28", vec("issue_valid_o", 1));
  trace("24", vec("issue_pc_o", 32));
  trace("28", vec("retire_valid_o", 1));
  trace("24", vec("retire_pc_o", 32));
  trace("22", vec("retire_word_o", 32));
  out << "@2022\n^1 " << std::filesystem::absolute(filter_path).string() << '\n'
      << vec("retire_stage_o", stage_bits) << '\n';
  traces.push_back(vec("retire_stage_o", stage_bits));
  trace("28", vec("trap_valid_o", 1));
  trace("24", vec("trap_cause_o", trap_bits));
  trace("28", vec("halted_o", 1));
  trace("28", vec("unit_busy_o", units));
  out.flush();
  if (!out) throw std::runtime_error(path.string() + ": write error");
  return traces;
}

}  // namespace moesim::waveforms
