// Run provenance (provenance.hpp, docs/reproducibility.md).
#include "moesim/report/provenance.hpp"

#include <openssl/evp.h>

#include <fstream>
#include <memory>
#include <stdexcept>

#ifndef MOESIM_VERSION
#error "MOESIM_VERSION is defined by sim/report/CMakeLists.txt"
#endif
#ifndef MOESIM_GIT_HASH
#error "MOESIM_GIT_HASH is defined by sim/report/CMakeLists.txt"
#endif

namespace moesim::report {

namespace fs = std::filesystem;

const char* moesim_version() { return MOESIM_VERSION; }
const char* moesim_git_hash() { return MOESIM_GIT_HASH; }

namespace {

struct Sha256 {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  Sha256() {
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("SHA-256: cannot initialise OpenSSL's digest");
  }
  void add(const void* data, size_t n) { EVP_DigestUpdate(ctx.get(), data, n); }
  std::string hex() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(ctx.get(), md, &len);
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (unsigned i = 0; i < len; ++i) {
      s += digits[md[i] >> 4];
      s += digits[md[i] & 15];
    }
    return s;
  }
};

}  // namespace

std::string sha256_hex(const void* data, size_t n) {
  Sha256 h;
  h.add(data, n);
  return h.hex();
}

std::string sha256_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot be read");
  Sha256 h;
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h.add(buf.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error(path.string() + ": read error");
  return h.hex();
}

std::string quoted_command_line(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789-_=./:,@+%") == std::string::npos;
    if (plain) {
      s += a;
    } else {
      s += '\'';
      for (char c : a) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
      s += '\'';
    }
  }
  return s;
}

nlohmann::json provenance_json(const isa::Spec& spec, const Provenance& p) {
  nlohmann::json sha = nlohmann::json::object();
  for (const char* f : {"isa.yaml", "machine.yaml", "stages.yaml"}) {
    const fs::path path = spec.dir / f;
    sha[f] = fs::exists(path) ? nlohmann::json(sha256_file(path)) : nlohmann::json(nullptr);
  }
  for (const auto& [what, path] : p.files) sha[what] = sha256_file(path);
  for (const auto& [what, digest] : p.digests) sha[what] = digest;
  return {{"command_line", p.command_line},
          {"moesim_version", moesim_version()},
          {"git_hash", moesim_git_hash()},
          {"seed", p.seed ? nlohmann::json(*p.seed) : nlohmann::json(nullptr)},
          {"machine", p.machine},
          {"sha256", sha}};
}

std::vector<std::string> provenance_lines(const nlohmann::json& j) {
  std::vector<std::string> out;
  out.push_back("command: " +
                quoted_command_line(j.at("command_line").get<std::vector<std::string>>()));
  out.push_back("moesim " + j.at("moesim_version").get<std::string>() + " (git " +
                j.at("git_hash").get<std::string>() + ")");
  out.push_back("machine: " + j.at("machine").get<std::string>() +
                ", seed: " + (j.at("seed").is_null() ? std::string("none") : j.at("seed").dump()));
  for (const auto& [what, digest] : j.at("sha256").items())
    out.push_back("sha256 " + what + ": " +
                  (digest.is_null() ? std::string("none") : digest.get<std::string>()));
  return out;
}

}  // namespace moesim::report
