// SPDX-License-Identifier: Apache-2.0
// What the stack's nodes counted, summed for a run's report: the transport
// figures (TRN-8.10, TRN-9, the engines'), the cards' routers' hops and
// ejections (NET-2.6) and the link layer's totals. Each node's are read
// and then added in node order, so that a run over MPI ranks, whose rank
// 0 gets every rank's nodes in that order, sums them as one process does
// (decision 0050).
#pragma once

#include <cstdint>

#include "systemc/app/run_report.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::app {

struct StackTotals {
  transport::FabricFigures transport;
  uint64_t hops = 0, ejected = 0;  // the cards' routers'
  LinkTotals link;                 // tlm links; zero on ideal ones
};

// Every rank calls it; rank 0 (or the one process) gets the sums over
// every node, the others nothing of use.
StackTotals SumStackFigures(StackAssembly& assembly);

}  // namespace lq::app
