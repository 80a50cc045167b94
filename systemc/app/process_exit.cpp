// SPDX-License-Identifier: Apache-2.0
// ExitWithoutTeardown: flush, then leave without destructors.
#include "systemc/app/process_exit.h"

#include <cstdio>
#include <cstdlib>

#include "systemc/parallel/rank_world.h"

namespace lq::app {

void ExitWithoutTeardown(int status) {
  std::fflush(nullptr);
  parallel::RankWorld::Get().Finish();  // a run over MPI ranks leaves it
  std::_Exit(status);
}

}  // namespace lq::app
