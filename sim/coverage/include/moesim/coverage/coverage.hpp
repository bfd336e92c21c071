// RTL code coverage: reads, merges and judges the coverage files the coverage build's RTL model
// writes (Verilator's coverage format), for `moesim coverage` (docs/coverage.md). No Verilator,
// no SystemC: the format is read here.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace moesim::coverage {

/// Bad input (a coverage file, a waivers file, a flag value): the message names the file and
/// line where it has one.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The kinds of point Verilator counts: line (a block of statements ran), branch (an if or
/// else arm, a case item), toggle (a bit went 0 to 1 and back), cover (a cover property held).
enum class Kind { Line, Branch, Toggle, Cover };
inline constexpr std::array<Kind, 4> kKinds = {Kind::Line, Kind::Branch, Kind::Toggle, Kind::Cover};
const char* kind_name(Kind k);

/// One coverage point: its key in the coverage file (its identity) and its fields.
struct Point {
  Kind kind = Kind::Line;
  std::string key;   ///< the whole key as written in the file
  std::string file;  ///< source file, from the rtl_model/ folder on (else its base name)
  int line = 0;
  std::string hier;  ///< instance, without Verilator's TOP. prefix: moe_top.u_fetch
  std::string
      comment;  ///< line: "block"; branch: "if", "else", "case"; toggle: the bit; cover: the label
  uint64_t count = 0;
  /// The name the report lists and waivers match: a cover property is hier.label
  /// (moe_top.u_cov.g_occ[2].StallRaw_C), a toggle hier.bit (moe_top.u_fetch.pc_q[31]), a line
  /// or branch file:line comment @hier (rtl_model/rtl/moe_top.sv:212 if @moe_top).
  std::string name() const;
};

/// Merged coverage: points by key, counts summed over the files read.
class Data {
 public:
  /// Adds the points of one coverage file (Verilator's format: a `# SystemC::Coverage-3` header,
  /// then `C '<key>' <count>` lines). Throws InputError naming path:line.
  void read_file(const std::string& path);
  /// Adds the text of a coverage file (`source` names it in errors).
  void read_text(const std::string& text, const std::string& source);
  /// Reads every `*.dat` file of a folder (not its subfolders), or one file; returns how many
  /// files were read. Throws InputError when `path` is neither or a folder holds none.
  size_t read_path(const std::string& path);
  /// Writes the merged points as one coverage file (verilator_coverage reads it).
  std::string to_text() const;
  const std::map<std::string, Point>& points() const { return points_; }
  size_t files() const { return files_; }

 private:
  std::map<std::string, Point> points_;
  size_t files_ = 0;
};

/// A point, or a pattern (`*` matches any run of characters) over point names, that may stay
/// uncovered, and why. `line` is its place in the waivers file.
struct Waiver {
  std::string point;
  std::string reason;
  std::string source;  ///< file:line
};

/// Reads a waivers file: a YAML list of {point: NAME-OR-PATTERN, reason: TEXT} (an empty list is
/// `[]`). Throws InputError naming file:line for a malformed entry, an empty reason or a point
/// given twice.
std::vector<Waiver> load_waivers(const std::string& path);

/// Minimum percentage of points hit per kind (waived points are left out of the count); a kind
/// with no point passes.
struct Thresholds {
  std::array<double, 4> min = {100.0, 100.0, 98.0, 100.0};  ///< indexed by Kind
};

struct KindSummary {
  size_t points = 0;       ///< every point of the kind
  size_t hit = 0;          ///< count > 0
  size_t waived = 0;       ///< not hit, matched by a waiver
  double percent() const;  ///< hit of (points - waived); 100 with none
};

/// The judgement of merged coverage against waivers and thresholds.
struct Report {
  std::array<KindSummary, 4> kinds{};
  /// Not hit and not waived, by kind, then file, line and name: points of the evaluated Data,
  /// which must outlive the report.
  std::vector<const Point*> uncovered;
  std::vector<std::pair<const Point*, Waiver>> waived;  ///< with the waiver that matched
  std::vector<Waiver> stale;    ///< matches no uncovered point: covered now, or gone
  std::array<bool, 4> below{};  ///< the kind is under its threshold
  Thresholds thresholds;
  size_t files = 0;
  /// Passes when no kind is below its threshold and no waiver is stale.
  bool pass() const;
};

Report evaluate(const Data& data, const std::vector<Waiver>& waivers, const Thresholds& t);

/// The summary per kind, the stale waivers and every uncovered point (one a line), as the
/// command prints it.
std::string to_text(const Report& r);
/// The same as JSON: {"files", "pass", "kinds": {kind: {points, hit, waived, percent, min,
/// below}}, "uncovered": [{kind, name, file, line}], "waived": [{name, reason, waiver}],
/// "stale": [{point, reason, source}]}.
std::string to_json(const Report& r);
/// A self-contained HTML page: the summary table, then the uncovered points per kind.
std::string to_html(const Report& r);

/// True when `name` matches `pattern`, where `*` matches any run of characters.
bool glob_match(const std::string& pattern, const std::string& name);

}  // namespace moesim::coverage
