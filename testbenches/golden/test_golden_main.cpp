// Boost.Test entry of the golden-model tests. libsystemc.so defines main() and calls sc_main(),
// so Boost's own main is disabled and sc_main runs the test tree. SystemC allows one elaboration
// per process: ctest runs every test case in its own process (--run_test=<case>).
// <systemc> declares sc_main extern "C"; without it the definition below would be C++-mangled
// and libsystemc.so's main() would not find it.
#define BOOST_TEST_MODULE golden
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>
#include <systemc>

int sc_main(int argc, char** argv) {
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
