// The output guard: see path_guard.hpp.
#include "path_guard.hpp"

#include <sys/stat.h>

#include <map>
#include <utility>

#include "moesim/isa/usage_error.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

/// The path with every existing part's links resolved (the rest kept as written, normalised).
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(p, ec);
  return ec ? fs::absolute(p, ec).lexically_normal() : r;
}

/// What makes two names one file: the resolved path, and for a file that exists its device and
/// inode (a hard link, or a link the resolution could not see through).
struct Identity {
  std::string path;
  bool exists = false;
  uint64_t dev = 0, ino = 0;
};

Identity identity(const fs::path& p) {
  Identity id;
  id.path = resolved(p).string();
  struct stat st {};
  if (::stat(p.c_str(), &st) == 0) {
    id.exists = true;
    id.dev = static_cast<uint64_t>(st.st_dev);
    id.ino = static_cast<uint64_t>(st.st_ino);
  }
  return id;
}

}  // namespace

bool same_file(const fs::path& a, const fs::path& b) {
  const Identity x = identity(a), y = identity(b);
  return x.path == y.path || (x.exists && y.exists && x.dev == y.dev && x.ino == y.ino);
}

void PathGuard::input(const std::string& flag, const fs::path& path) {
  if (!path.empty()) inputs_.push_back({flag, path, "", false});
}

void PathGuard::input_dir(const std::string& flag, const fs::path& path) {
  if (path.empty()) return;
  inputs_.push_back({flag, path, "", true});
  std::error_code ec;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    input(flag, it->path());
}

void PathGuard::output(const std::string& what, const fs::path& path, const std::string& shared) {
  if (!path.empty()) outputs_.push_back({what, path, shared, false});
}

void PathGuard::output_dir(const std::string& what, const fs::path& path) {
  if (!path.empty()) outputs_.push_back({what, path, "", true});
}

void PathGuard::check() const {
  // One pass over the inputs, then the outputs, each name looked up by its path and its inode
  // (linear in the names: a replay registers thousands of files).
  std::map<std::string, const Entry*> in_path, out_path;
  std::map<std::pair<uint64_t, uint64_t>, const Entry*> in_inode, out_inode;
  std::vector<std::pair<std::string, const Entry*>> in_dirs;
  for (const Entry& i : inputs_) {
    const Identity id = identity(i.path);
    if (i.dir) {
      in_dirs.emplace_back(id.path, &i);
      continue;
    }
    in_path.emplace(id.path, &i);
    if (id.exists) in_inode.emplace(std::make_pair(id.dev, id.ino), &i);
  }
  const auto named = [](const Entry& e) {
    return (e.what.empty() ? "" : e.what + " ") + e.path.string();
  };
  for (const Entry& o : outputs_) {
    const Identity id = identity(o.path);
    for (const auto& [dir, in] : in_dirs) {
      const fs::path rel = fs::path(id.path).lexically_relative(dir);
      if (!rel.empty() && *rel.begin() != "..")
        throw UsageError(o.what + ": lies inside the input " + named(*in));
    }
    const Entry* in = nullptr;
    if (const auto it = in_path.find(id.path); it != in_path.end()) in = it->second;
    if (const auto it = in_inode.find({id.dev, id.ino}); !in && id.exists && it != in_inode.end())
      in = it->second;
    if (in != nullptr)
      throw UsageError(
          o.what +
          (o.dir ? ": would make a directory over the input " : ": would overwrite the input ") +
          named(*in));
    const Entry* other = nullptr;
    if (const auto it = out_path.find(id.path); it != out_path.end()) other = it->second;
    if (const auto it = out_inode.find({id.dev, id.ino});
        !other && id.exists && it != out_inode.end())
      other = it->second;
    if (other != nullptr) {
      if (!o.shared.empty() && o.shared == other->shared) continue;
      if (o.dir && other->dir) continue;  // one directory for two flags' files
      throw UsageError(other->what + " and " + o.what + " name the same file");
    }
    out_path.emplace(id.path, &o);
    if (id.exists) out_inode.emplace(std::make_pair(id.dev, id.ino), &o);
  }
}

}  // namespace moesim::cli
