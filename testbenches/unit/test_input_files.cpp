// The bounded readers of isa_spec (docs/fuzzing.md, Limits): read_input_file refuses what is not
// a regular file (without blocking on a FIFO), a file over its limit and a failed read;
// load_yaml_file counts the nodes a walk visits, aliases expanded, and refuses a key twice, in a
// pass over the parser's events before any node is built; write_file replaces a file only when
// the new one is complete. Each check fails when its guard is removed: an alias bomb makes the
// test hang (it is 10^10 nodes to a walk), a FIFO blocks it, /proc/self/mem reads as empty.
#define BOOST_TEST_MODULE input_files
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "moesim/isa/file_output.hpp"
#include "moesim/isa/input_file.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"

using namespace moesim;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("moesim_input_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

bool has(const std::string& s, const std::string& part) {
  BOOST_TEST_INFO("message: " << s);
  return s.find(part) != std::string::npos;
}

/// Ten levels of ten aliases: 10^10 nodes to any walk, in a few hundred bytes.
std::string alias_bomb() {
  std::string t;
  for (int i = 0; i < 10; ++i) {
    t += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j)
      t += (j ? ", " : "") + (i == 0 ? std::string("x") : "*l" + std::to_string(i - 1));
    t += "]\n";
  }
  return t;
}

}  // namespace

BOOST_AUTO_TEST_CASE(read_input_file_takes_regular_files_within_the_limit) {
  TempDir tmp;
  const fs::path f = tmp.path / "f.txt";
  std::ofstream(f) << "12345";
  BOOST_TEST(isa::read_input_file(f.string(), 5) == "12345");
  BOOST_TEST(isa::check_input_file(f.string(), 5) == 5u);
  BOOST_TEST(has(error_of([&] { isa::read_input_file(f.string(), 4); }),
                 "f.txt: 5 bytes, more than the limit of 4 bytes"));
  BOOST_TEST(has(error_of([&] { isa::read_input_file((tmp.path / "no").string(), 9); }),
                 "no: no such file"));
  BOOST_TEST(
      has(error_of([&] { isa::read_input_file(tmp.path.string(), 9); }), ": is a directory"));
  BOOST_TEST(
      has(error_of([] { isa::read_input_file("/dev/zero", 9); }), "/dev/zero: not a regular file"));
  const fs::path fifo = tmp.path / "p";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  BOOST_TEST(has(error_of([&] { isa::read_input_file(fifo.string(), 9); }), "not a regular file"));
  // A regular file whose read fails is an error, not an empty input.
  BOOST_TEST(has(error_of([] { isa::read_input_file("/proc/self/mem", 1 << 20); }),
                 "/proc/self/mem: read error"));
}

BOOST_AUTO_TEST_CASE(yaml_counts_aliases_expanded_and_refuses_keys_twice) {
  // A few aliases, as isa.yaml uses them, load.
  const YAML::Node ok = isa::load_yaml_text("a: &v [1, 2]\nb: *v\nc: {x: *v}\n", "ok.yaml");
  BOOST_TEST(ok["b"].size() == 2u);
  // The bomb is refused at the alias that takes the walk past the limit (line 6, `l5`).
  BOOST_TEST(has(error_of([] { isa::load_yaml_text(alias_bomb(), "bomb.yaml"); }), "bomb.yaml:6:"));
  BOOST_TEST(has(error_of([] { isa::load_yaml_text(alias_bomb(), "bomb.yaml"); }),
                 "more than 1000000 YAML nodes"));
  // A million-node document without aliases is refused too.
  std::string many = "a: [";
  for (uint64_t i = 0; i < isa::kMaxYamlNodes; ++i) many += "0,";
  many += "0]\n";
  BOOST_TEST(has(error_of([&] { isa::load_yaml_text(many, "many.yaml"); }), "many.yaml:1:"));
  // A key twice in one mapping, at its second place; a key in two mappings is fine.
  BOOST_TEST(error_of([] { isa::load_yaml_text("a: {k: 1}\nb: {k: 2}\n", "two.yaml"); }) ==
             "no error");
  BOOST_TEST(error_of([] { isa::load_yaml_text("a: 1\nb:\n  c: 2\n  c: 3\n", "d.yaml"); }) ==
             "d.yaml:4:3: 'c' written twice (first at line 3)");
  isa::YamlLoadOptions keep;
  keep.refuse_duplicate_keys = false;
  BOOST_TEST(error_of([&] { isa::load_yaml_text("c: 2\nc: 3\n", "d.yaml", keep); }) == "no error");
  BOOST_TEST(
      has(error_of([] { isa::load_yaml_text("a: [1, 2\n", "syntax.yaml"); }), "syntax.yaml:"));
}

// yaml-cpp's Load reads the first document only: a second one with content is refused (it would
// be dropped unread); an empty one (a trailing `---`, or `---` and comments) drops nothing.
BOOST_AUTO_TEST_CASE(yaml_refuses_a_second_document_with_content) {
  BOOST_TEST(error_of([] { isa::load_yaml_text("a: 1\n---\nb: 2\n", "two.yaml"); }) ==
             "two.yaml:2: a second YAML document (after `---`): the file holds one");
  BOOST_TEST(error_of([] { isa::load_yaml_text("a: 1\n---\n---\n[3]\n", "third.yaml"); }) ==
             "third.yaml:3: a second YAML document (after `---`): the file holds one");
  for (const char* text : {"a: 1\n---\n", "a: 1\n---\n# a comment\n", "a: 1\n---\n...\n",
                           "---\na: 1\n", "a: 1\n...\n"}) {
    BOOST_TEST(error_of([&] { isa::load_yaml_text(text, "one.yaml"); }) == "no error", text);
    BOOST_TEST(isa::load_yaml_text(text, "one.yaml")["a"].as<int>() == 1, text);
  }
  // A stray comma: yaml-cpp reports empty documents after it without consuming text, which
  // looped without end before the bound on the count of documents.
  BOOST_TEST(error_of([] { isa::load_yaml_text(",", "comma.yaml"); }) == "no error");
}

BOOST_AUTO_TEST_CASE(write_file_replaces_a_file_only_when_complete) {
  TempDir tmp;
  const fs::path f = tmp.path / "out.txt";
  isa::write_file(f, "first");
  isa::write_file(f, "second");
  std::ifstream in(f);
  std::string got;
  in >> got;
  BOOST_TEST(got == "second");
  // Through a symbolic link the file it names is replaced, and the link stays.
  const fs::path link = tmp.path / "link.txt";
  fs::create_symlink(f, link);
  isa::write_file(link, "third");
  BOOST_TEST(fs::is_symlink(link));
  std::ifstream in2(f);
  in2 >> got;
  BOOST_TEST(got == "third");
  // No temporary file is left behind.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(tmp.path))
    files += fs::is_regular_file(e.symlink_status()) ? 1 : 0;
  BOOST_TEST(files == 1u);
  // A device is written in place: /dev/full fails, naming it.
  BOOST_CHECK_EXCEPTION(isa::write_file("/dev/full", "x"), std::runtime_error,
                        [](const std::runtime_error& e) {
                          return std::string(e.what()).find("/dev/full: write failed") == 0;
                        });
}
