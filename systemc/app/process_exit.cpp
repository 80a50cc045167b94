// ExitWithoutTeardown: flush, then leave without destructors.
#include "systemc/app/process_exit.h"

#include <cstdio>
#include <cstdlib>

namespace lq::app {

void ExitWithoutTeardown(int status) {
  std::fflush(nullptr);
  std::_Exit(status);
}

}  // namespace lq::app
