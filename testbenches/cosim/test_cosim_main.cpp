// Boost.Test entry of the cosim tests. They link the cosim layer (and so the golden model and
// libsystemc.so, which defines main() and calls sc_main), so Boost's main is disabled and
// sc_main runs the test tree. SystemC allows one elaboration per process: ctest runs every test
// case in its own process (--run_test=<case>).
#define BOOST_TEST_MODULE cosim
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

extern "C" int sc_main(int argc, char** argv) {
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
