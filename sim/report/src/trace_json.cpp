// Chrome trace-event JSON timeline sink (trace_json.hpp).
#include "moesim/report/trace_json.hpp"

#include <algorithm>
#include <stdexcept>

#include "moesim/isa/encoding.hpp"

namespace moesim::report {
namespace {

constexpr int kStagesTid = 1;
constexpr int kFirstUnitTid = 2;

int pid_of(size_t engine) { return static_cast<int>(engine) + 1; }

nlohmann::json metadata(const char* name, int pid, int tid, const nlohmann::json& args) {
  return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", args}};
}

}  // namespace

TraceJsonSink::TraceJsonSink(const isa::Spec& spec, const std::filesystem::path& path,
                             const std::vector<std::string>& engines)
    : spec_(spec),
      path_(path),
      out_(path, std::ios::binary | std::ios::trunc),
      engines_(engines.size()) {
  if (engines.empty() || engines.size() > 2)
    throw std::invalid_argument("trace JSON: 1 or 2 engines, got " +
                                std::to_string(engines.size()));
  if (!out_) throw std::runtime_error(path_.string() + ": cannot open for writing");
  const nlohmann::json other = {
      {"generator", "moesim"},
      {"time_unit",
       "1 machine cycle (1 ns, as in the stage VCD and the RTL FST) is written as 1 us: read ts "
       "and dur as cycles"},
      {"engines", engines}};
  out_ << "{\"otherData\":" << other.dump() << ",\n\"traceEvents\":[\n";
  for (size_t e = 0; e < engines.size(); ++e) {
    const int pid = pid_of(e);
    write(metadata("process_name", pid, 0, {{"name", engines[e] + std::string(kTimeMapping)}}));
    write(metadata("process_sort_index", pid, 0, {{"sort_index", e}}));
    write(metadata("process_labels", pid, 0, {{"labels", "1 us = 1 cycle = 1 ns"}}));
    write(metadata("thread_name", pid, kStagesTid, {{"name", "stages"}}));
    write(metadata("thread_sort_index", pid, kStagesTid, {{"sort_index", 0}}));
    for (size_t u = 0; u < spec.units().size(); ++u) {
      const int tid = kFirstUnitTid + static_cast<int>(u);
      write(metadata("thread_name", pid, tid, {{"name", spec.units()[u]}}));
      write(metadata("thread_sort_index", pid, tid, {{"sort_index", u + 1}}));
    }
  }
  out_.flush();  // a file that takes no bytes (/dev/full) fails here, before the run
  if (!out_) throw std::runtime_error(path_.string() + ": write failed");
}

void TraceJsonSink::check_engine(size_t engine) const {
  if (engine >= engines_)
    throw std::out_of_range("trace JSON: engine " + std::to_string(engine) + " of " +
                            std::to_string(engines_));
}

void TraceJsonSink::write(const nlohmann::json& event) {
  out_ << (first_event_ ? "" : ",\n") << event.dump();
  first_event_ = false;
}

void TraceJsonSink::flush(size_t engine) {
  std::optional<OpenSlice>& s = open_[engine];
  if (!s) return;
  write({{"ph", "X"},
         {"name", spec_.stage_name(s->stage)},
         {"cat", "stage"},
         {"pid", pid_of(engine)},
         {"tid", kStagesTid},
         {"ts", s->begin},
         {"dur", s->end - s->begin},
         {"args", {{"instructions", s->instructions}, {"cycles", s->end - s->begin}}}});
  s.reset();
}

void TraceJsonSink::instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem&) {
  check_engine(engine);
  std::optional<OpenSlice>& s = open_[engine];
  if (s && (s->stage != r.stage || s->end != r.start_cycle)) flush(engine);
  if (r.stall_cycles != 0) {
    const std::string cause = isa::stall_cause_name(r.stall_cause);
    write({{"ph", "X"},
           {"name", "stall " + cause},
           {"cat", "stall"},
           {"pid", pid_of(engine)},
           {"tid", kStagesTid},
           {"ts", r.ready_cycle},
           {"dur", r.stall_cycles},
           {"args", {{"pc", r.pc}, {"cause", cause}}}});
  }
  // Every change of the pending count before this start cycle is known: a later issue comes
  // with a later instruction, a transfer not reported yet completes after this record's end.
  flush_queue(engine, r.start_cycle);
  if (!s) s = OpenSlice{r.stage, r.start_cycle, r.start_cycle, 0};
  s->end = r.end_cycle;
  std::deque<Tail>& tail = queue_[engine].tail;
  while (!tail.empty() && tail.front().end <= r.end_cycle) tail.pop_front();
  s->instructions += 1;
  const isa::InstrSpec* ins = isa::decode(spec_, r.word).spec;
  latest_[engine] = Latest{r.start_cycle, r.end_cycle, r.pc, ins ? ins->mnemonic : ""};
  if (r.trap) {
    // The program stops here: close the slice first so the instant follows it in file order.
    flush(engine);
    const isa::TrapSpec* ts = spec_.trap_by_code(r.trap->cause);
    const std::string cause = ts ? ts->name : std::to_string(r.trap->cause);
    write({{"ph", "i"},
           {"s", "t"},
           {"name", "trap " + cause},
           {"cat", "trap"},
           {"pid", pid_of(engine)},
           {"tid", kStagesTid},
           {"ts", r.start_cycle},
           {"args", {{"pc", r.trap->pc}, {"cause", cause}}}});
  }
  if (!out_) throw std::runtime_error(path_.string() + ": write failed");
}

void TraceJsonSink::unit_busy(size_t engine, const isa::UnitSpan& span) {
  check_engine(engine);
  if (span.unit >= spec_.units().size())
    throw std::out_of_range("trace JSON: unit " + std::to_string(span.unit) + ", isa.yaml has " +
                            std::to_string(spec_.units().size()));
  const std::string& unit = spec_.units()[span.unit];
  const std::optional<Latest>& l = latest_[engine];
  const bool named = l && !l->mnemonic.empty() && span.begin >= l->start && span.end <= l->end;
  nlohmann::json event = {{"ph", "X"},
                          {"name", named ? l->mnemonic : unit},
                          {"cat", "unit"},
                          {"pid", pid_of(engine)},
                          {"tid", kFirstUnitTid + span.unit},
                          {"ts", span.begin},
                          {"dur", span.end - span.begin}};
  if (named) event["args"] = {{"unit", unit}, {"pc", l->pc}};
  write(event);
  if (!out_) throw std::runtime_error(path_.string() + ": write failed");
}

void TraceJsonSink::dma_issue(size_t engine, const isa::RetireRecord& r) {
  check_engine(engine);
  Queue& q = queue_[engine];
  if (!q.declared) {
    const int tid = kFirstUnitTid + static_cast<int>(spec_.units().size());
    write(metadata("thread_name", pid_of(engine), tid, {{"name", "dma queue"}}));
    write(metadata("thread_sort_index", pid_of(engine), tid, {{"sort_index", tid - 1}}));
    q.declared = true;
  }
  q.issued.push_back(r.start_cycle);
  q.changes[r.start_cycle] += 1;
}

void TraceJsonSink::transfer(size_t engine, const isa::RetireRecord& t) {
  check_engine(engine);
  Queue& q = queue_[engine];
  if (q.issued.empty())
    throw std::logic_error("trace JSON: a transfer record at cycle " + std::to_string(t.end_cycle) +
                           " with no transfer issued");
  const uint64_t issue = q.issued.front();
  q.issued.pop_front();
  q.changes[t.end_cycle] -= 1;
  if (!latest_[engine] || t.end_cycle > latest_[engine]->end)
    q.tail.push_back(Tail{t.start_cycle, t.end_cycle, t.pc, t.stage});
  const isa::InstrSpec* ins = isa::decode(spec_, t.word).spec;
  write(
      {{"ph", "X"},
       {"name", ins ? ins->mnemonic : "transfer"},
       {"cat", "transfer"},
       {"pid", pid_of(engine)},
       {"tid", kFirstUnitTid + static_cast<int>(spec_.units().size())},
       {"ts", t.start_cycle},
       {"dur", t.end_cycle - t.start_cycle},
       {"args", {{"pc", t.pc}, {"issue_cycle", issue}, {"queued_cycles", t.start_cycle - issue}}}});
  if (!out_) throw std::runtime_error(path_.string() + ": write failed");
}

void TraceJsonSink::flush_queue(size_t engine, uint64_t before) {
  Queue& q = queue_[engine];
  auto it = q.changes.begin();
  for (; it != q.changes.end() && it->first < before; it = q.changes.erase(it)) {
    if (it->second == 0) continue;  // a completion and an issue in one cycle
    q.pending += it->second;
    write({{"ph", "C"},
           {"name", "dma queue"},
           {"pid", pid_of(engine)},
           {"ts", it->first},
           {"args", {{"pending", q.pending}}}});
  }
}

void TraceJsonSink::mismatch(uint64_t cycle) {
  // The run stops here: close the open slices first so every track stays in time order.
  for (size_t e = 0; e < engines_; ++e) flush(e);
  write({{"ph", "i"},
         {"s", "g"},
         {"name", "mismatch"},
         {"cat", "mismatch"},
         {"pid", pid_of(0)},
         {"tid", kStagesTid},
         {"ts", cycle}});
  if (!out_) throw std::runtime_error(path_.string() + ": write failed");
}

void TraceJsonSink::finish(uint64_t) {
  for (size_t e = 0; e < engines_; ++e) {
    flush(e);
    // The drain: the cycles after the last instruction's end, each billed to the transfer in
    // progress (transfers run one at a time, so their parts of the drain do not overlap).
    const uint64_t last = latest_[e] ? latest_[e]->end : 0;
    for (const Tail& t : queue_[e].tail) {
      if (t.end <= last) continue;
      const uint64_t begin = std::max(t.start, last);
      write({{"ph", "X"},
             {"name", spec_.stage_name(t.stage)},
             {"cat", "drain"},
             {"pid", pid_of(e)},
             {"tid", kStagesTid},
             {"ts", begin},
             {"dur", t.end - begin},
             {"args", {{"pc", t.pc}, {"cycles", t.end - begin}}}});
    }
    flush_queue(e, UINT64_MAX);
  }
  out_ << "\n]}\n";
  out_.close();
  if (!out_) throw std::runtime_error(path_.string() + ": write failed");
}

}  // namespace moesim::report
