// Boost.Test runner of the campaign tests (campaign/: specs, executors, `moesim campaign`).
#define BOOST_TEST_MODULE moesim_campaign
#include <boost/test/unit_test.hpp>
