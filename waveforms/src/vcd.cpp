// Streaming VCD writer and GTKWave stage translate filter (see vcd.hpp).
#include "moesim/waveforms/vcd.hpp"

#include <algorithm>
#include <cctype>
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

std::string binary(uint64_t v) {
  if (v == 0) return "b0";
  std::string bits;
  while (v != 0) {
    bits.push_back((v & 1) ? '1' : '0');
    v >>= 1;
  }
  std::reverse(bits.begin(), bits.end());
  return "b" + bits;
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

}  // namespace

VcdWriter::VcdWriter(const std::filesystem::path& path, const std::vector<std::string>& scopes,
                     const std::vector<isa::StageSpec>& stages)
    : path_(path) {
  std::string initial_stage;
  unsigned max_code = 0;
  for (const auto& st : stages) {
    if (st.code == 0) initial_stage = st.name;
    max_code = std::max<unsigned>(max_code, st.code);
  }
  if (initial_stage.empty()) throw std::invalid_argument("VcdWriter: no stage with code 0");
  while ((max_code >> code_bits_) != 0) ++code_bits_;
  if (scopes.empty()) throw std::invalid_argument("VcdWriter: no scopes");
  for (size_t i = 0; i < scopes.size(); ++i) {
    if (!is_identifier(scopes[i]))
      throw std::invalid_argument("VcdWriter: bad scope name '" + scopes[i] + "'");
    for (size_t j = 0; j < i; ++j)
      if (scopes[j] == scopes[i])
        throw std::invalid_argument("VcdWriter: duplicate scope '" + scopes[i] + "'");
  }
  if (!is_vcd_string(initial_stage))
    throw std::invalid_argument("VcdWriter: bad stage name '" + initial_stage + "'");
  out_.open(path, std::ios::out | std::ios::trunc);
  if (!out_) throw std::runtime_error(path.string() + ": cannot open for writing");

  size_t next_id = 0;
  out_ << "$version moesim stage timeline $end\n"
       << "$timescale 1ns $end\n"
       << "$comment one time unit = one machine cycle; stage_code values: see the "
          ".stages.filter file beside this VCD $end\n";
  for (const auto& name : scopes) {
    Signals s;
    s.stage_id = vcd_id(next_id++);
    s.code_id = vcd_id(next_id++);
    s.pc_id = vcd_id(next_id++);
    s.stage = initial_stage;
    out_ << "$scope module " << name << " $end\n"
         << "$var string 1 " << s.stage_id << " stage $end\n"
         << "$var wire " << code_bits_ << ' ' << s.code_id << " stage_code $end\n"
         << "$var wire 32 " << s.pc_id << " pc $end\n"
         << "$upscope $end\n";
    scopes_.push_back(std::move(s));
  }
  mismatch_id_ = vcd_id(next_id++);
  out_ << "$var wire 1 " << mismatch_id_ << " mismatch $end\n"
       << "$enddefinitions $end\n";
  if (!out_) throw std::runtime_error(path.string() + ": write error");
}

VcdWriter::~VcdWriter() {
  try {
    finish(latest_time_);
  } catch (...) {
    // Destructors must not throw; an explicit finish() reports write errors.
  }
}

void VcdWriter::instruction(size_t scope, uint64_t time, uint8_t stage_code, std::string_view stage,
                            uint32_t pc) {
  if (finished_) throw std::logic_error("VcdWriter: instruction() after finish()");
  if (scope >= scopes_.size()) throw std::invalid_argument("VcdWriter: scope index out of range");
  if ((stage_code >> code_bits_) != 0)
    throw std::invalid_argument("VcdWriter: stage code " + std::to_string(stage_code) +
                                " does not fit " + std::to_string(code_bits_) + " bits");
  if (!is_vcd_string(stage))
    throw std::invalid_argument("VcdWriter: bad stage name '" + std::string(stage) + "'");
  Signals& s = scopes_[scope];
  if (time < s.last_time)
    throw std::invalid_argument("VcdWriter: time " + std::to_string(time) +
                                " goes back (scope last at " + std::to_string(s.last_time) + ")");
  s.last_time = time;
  latest_time_ = std::max(latest_time_, time);
  pending_.emplace(time, Event{scope, stage_code, std::string(stage), pc});
  uint64_t watermark = scopes_.front().last_time;
  for (const auto& sc : scopes_) watermark = std::min(watermark, sc.last_time);
  flush_before(watermark);
}

void VcdWriter::mismatch(uint64_t time) {
  if (finished_) throw std::logic_error("VcdWriter: mismatch() after finish()");
  if (time < written_time_)
    throw std::invalid_argument("VcdWriter: mismatch at " + std::to_string(time) +
                                " is before time " + std::to_string(written_time_) +
                                " already written");
  latest_time_ = std::max(latest_time_, time);
  pending_.emplace(time, Event{scopes_.size(), 0, std::string(), 0});
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

void VcdWriter::flush_before(uint64_t watermark) {
  auto it = pending_.begin();
  if (!dumped_) {
    if (watermark == 0) return;  // a time-0 value may still change
    for (; it != pending_.end() && it->first == 0; it = pending_.erase(it))
      write_event(it->second, false);
    dump_initial();
  }
  while (it != pending_.end() && it->first < watermark) {
    timestamp(it->first);
    write_event(it->second, true);
    it = pending_.erase(it);
  }
}

void VcdWriter::dump_initial() {
  out_ << "#0\n$dumpvars\n";
  for (const auto& s : scopes_) {
    out_ << 's' << s.stage << ' ' << s.stage_id << '\n'
         << binary(s.code) << ' ' << s.code_id << '\n'
         << binary(s.pc) << ' ' << s.pc_id << '\n';
  }
  out_ << (mismatch_set_ ? '1' : '0') << mismatch_id_ << "\n$end\n";
  dumped_ = true;
}

void VcdWriter::timestamp(uint64_t t) {
  if (t > written_time_) {
    out_ << '#' << t << '\n';
    written_time_ = t;
  }
}

void VcdWriter::write_event(const Event& e, bool emit) {
  if (e.scope == scopes_.size()) {
    if (!mismatch_set_ && emit) out_ << '1' << mismatch_id_ << '\n';
    mismatch_set_ = true;
    return;
  }
  Signals& s = scopes_[e.scope];
  if (e.stage != s.stage) {
    if (emit) out_ << 's' << e.stage << ' ' << s.stage_id << '\n';
    s.stage = e.stage;
  }
  if (e.code != s.code) {
    if (emit) out_ << binary(e.code) << ' ' << s.code_id << '\n';
    s.code = e.code;
  }
  if (e.pc != s.pc) {
    if (emit) out_ << binary(e.pc) << ' ' << s.pc_id << '\n';
    s.pc = e.pc;
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

}  // namespace moesim::waveforms
