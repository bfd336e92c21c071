// The one error type for bad input from a user: a flag, a file, a key or a size. Every layer
// throws it; the moesim CLI prints what() as one `moesim: error:` line and exits 2.
#pragma once

#include <stdexcept>

namespace moesim {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace moesim
