// The output guard of every moesim command (internal to the moesim executable): a command
// collects the files it will write, derived ones included (the .gtkw and .stages.filter of
// --vcd, the .rtl.gtkw of --trace-rtl, the per-engine trace logs, the files --dump writes, the
// .stages of a .hex), the directories it writes files into, and the files and directories it
// reads, then check() refuses, before anything is written, an output that is one of the inputs
// or another output, and an output inside a directory the command reads. Two names are one
// file when they resolve to the same path (symbolic links followed) or, for files that exist,
// to the same inode (hard links). Every flag of the "Input files" and "Output files" groups
// (command.hpp) is registered here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace moesim::cli {

class PathGuard {
 public:
  /// A file the command reads. `flag` names it in messages ("--model"; empty for a positional
  /// argument). An empty path is no input.
  void input(const std::string& flag, const std::filesystem::path& path);

  /// A file the command writes; `what` names it in messages ("--report r.json", "the .gtkw of
  /// --vcd t.vcd"). Outputs with the same non-empty `shared` key may name one file: they write
  /// the same bytes (the stage translate filter of --vcd and --trace-rtl of one stem). An empty
  /// path is no output.
  void output(const std::string& what, const std::filesystem::path& path,
              const std::string& shared = "");

  /// A directory the command writes files into (--dump DIR, --rtl-coverage DIR, --out DIR):
  /// it may not be an input or an output file (--report d.json --dump d.json). Two directories
  /// may be one: the files the command knows it writes there are registered with output().
  void output_dir(const std::string& what, const std::filesystem::path& path);

  /// A directory the command reads (a conformance suite, a checkpoint): no output may lie inside
  /// it, nor over one of its entries, which may be a link to a file elsewhere (a Hugging Face
  /// cache snapshot links each shard to a blob outside the directory).
  void input_dir(const std::string& flag, const std::filesystem::path& path);

  /// Throws UsageError "WHAT: would overwrite the input FLAG PATH" for an output that is an
  /// input ("would make a directory over the input" for an output directory), "WHAT: lies
  /// inside the input FLAG DIR" for an output inside an input directory, or "WHAT and WHAT name
  /// the same file" for two outputs that are one file.
  void check() const;

 private:
  struct Entry {
    std::string what;
    std::filesystem::path path;
    std::string shared;
    bool dir = false;
  };
  std::vector<Entry> inputs_, outputs_;
};

/// True when `a` and `b` name the same file (see the top of this file).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace moesim::cli
