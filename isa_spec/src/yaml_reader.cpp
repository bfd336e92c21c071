// Loading YAML inputs: see yaml_reader.hpp.
#include "moesim/isa/yaml_reader.hpp"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "moesim/isa/input_file.hpp"

namespace moesim::isa {

namespace {

/// The first pass: sees every parser event of the document before any node exists. Counts the
/// nodes a walk of the document visits, an alias counting the nodes of what it names (yaml-cpp
/// shares the anchored node, so every walk goes through it again), and refuses more than
/// kMaxYamlNodes; refuses (on request) a mapping key written twice. Linear in the text.
class Guard : public YAML::EventHandler {
 public:
  Guard(const std::string& name, const YamlLoadOptions& o) : name_(name), options_(o) {}

  void OnDocumentStart(const YAML::Mark& m) override { start_ = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override { leaf(m, anchor, nullptr); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    content_ = true;
    const auto it = sizes_.find(anchor);
    // An alias of a node still open (a recursive structure) counts as the limit: refused.
    add(m, it == sizes_.end() ? kMaxYamlNodes + 1 : it->second, true);
    key_or_value(m, nullptr);
  }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    content_ = true;
    leaf(m, anchor, &value);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    content_ = true;
    open(m, anchor, false);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    content_ = true;
    open(m, anchor, true);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    bool map;
    bool key_next;          ///< in a mapping: the next node is a key
    YAML::anchor_t anchor;  ///< 0: none
    uint64_t size;          ///< nodes a walk visits in this one so far (itself included)
    std::unordered_map<std::string, int> keys;  ///< key -> line of its first place
  };

  [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const {
    throw UsageError(name_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) +
                     ": " + what);
  }

  /// `n` more nodes for a walk (in the innermost open node and in all).
  void add(const YAML::Mark& m, uint64_t n, bool alias) {
    total_ += std::min<uint64_t>(n, kMaxYamlNodes + 1);
    if (total_ > kMaxYamlNodes)
      fail(m, std::string(alias ? "with this alias (*name) the document expands to"
                                : "the document has") +
                  " more than " + std::to_string(kMaxYamlNodes) +
                  " YAML nodes, the limit of an input (a node an alias names counts at each "
                  "alias)");
    if (!frames_.empty()) frames_.back().size += n;
  }

  /// In a mapping, whether this node is a key; a scalar key is checked for a second place.
  void key_or_value(const YAML::Mark& m, const std::string* scalar) {
    if (frames_.empty() || !frames_.back().map) return;
    Frame& f = frames_.back();
    const bool is_key = f.key_next;
    f.key_next = !f.key_next;
    if (!is_key || scalar == nullptr || !options_.refuse_duplicate_keys) return;
    const auto [it, fresh] = f.keys.emplace(*scalar, m.line + 1);
    if (!fresh)
      fail(m, "'" + *scalar + "' written twice (first at line " + std::to_string(it->second) + ")");
  }

  void leaf(const YAML::Mark& m, YAML::anchor_t anchor, const std::string* scalar) {
    add(m, 1, false);
    key_or_value(m, scalar);
    if (anchor != 0) sizes_[anchor] = 1;
  }
  void open(const YAML::Mark& m, YAML::anchor_t anchor, bool map) {
    add(m, 1, false);
    key_or_value(m, nullptr);
    // The node's own count moves into its frame: its parent gets the whole size at close().
    if (!frames_.empty()) frames_.back().size -= 1;
    frames_.push_back({map, true, anchor, 1, {}});
  }
  void close() {
    const Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (!frames_.empty()) frames_.back().size += f.size;
    if (f.anchor != 0) sizes_[f.anchor] = f.size;
  }

 public:
  const YAML::Mark& start() const { return start_; }
  /// The document holds a node other than an empty (null) one.
  bool content() const { return content_; }

 private:
  const std::string& name_;
  const YamlLoadOptions& options_;
  YAML::Mark start_;
  bool content_ = false;
  std::vector<Frame> frames_;
  std::unordered_map<YAML::anchor_t, uint64_t> sizes_;  ///< anchor -> nodes of the node it names
  uint64_t total_ = 0;
};

}  // namespace

YAML::Node load_yaml_text(const std::string& text, const std::string& name,
                          const YamlLoadOptions& options) {
  try {
    {
      std::istringstream in(text);
      YAML::Parser parser(in);
      Guard guard(name, options);
      parser.HandleNextDocument(guard);
      // yaml-cpp's Load reads the first document only: a second one would be dropped unread
      // (an empty one, a `---` with nothing or comments after it, drops nothing).
      // Each document after the first starts with `---`: at most size / 3 of them. yaml-cpp may
      // report empty documents without consuming text (on a stray `,`), so the bound also ends
      // the loop.
      for (size_t docs = 0; docs <= text.size() / 3; ++docs) {
        Guard next(name, options);
        if (!parser.HandleNextDocument(next)) break;
        if (next.content())
          throw UsageError(name + ":" + std::to_string(next.start().line + 1) +
                           ": a second YAML document (after `---`): the file holds one");
      }
    }
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw UsageError(name + ": " + e.msg);
    throw UsageError(name + ":" + std::to_string(e.mark.line + 1) + ":" +
                     std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
}

YAML::Node load_yaml_file(const std::string& path, const YamlLoadOptions& options) {
  return load_yaml_text(read_input_file(path, kMaxYamlInputBytes), path, options);
}

}  // namespace moesim::isa
