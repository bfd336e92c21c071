// Boost.Test entry of the workload tests (one process: no SystemC elaboration is involved).
#define BOOST_TEST_MODULE moesim_workload
#include <boost/test/unit_test.hpp>
