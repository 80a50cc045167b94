// SPDX-License-Identifier: Apache-2.0
// The end of a big run: lqemu ends the process once its outputs are
// written, without destroying the model. SystemC takes each port out of
// its registry by a linear search, so tearing down a design of N ports
// costs O(N^2) time (perf: sc_port_registry::remove); the operating system
// frees the memory at once.
#pragma once

#include <string>

namespace lq::app {

// Flushes every C stream, leaves the world of a run over MPI ranks
// (RankWorld::Finish, once every rank has come to it) and ends the
// process with `status`. Call only
// once every output file is closed or flushed; a run writing waveforms
// (--vcd) must return instead, so that the writers close their files.
[[noreturn]] void ExitWithoutTeardown(int status);

}  // namespace lq::app
