// Errors about the caller's input. The bindings map InvalidInput to
// smokejumper.InvalidPositionError (a ValueError) with the message intact.
#pragma once
#include <stdexcept>
#include <string>

namespace sj {

struct InvalidInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace sj
