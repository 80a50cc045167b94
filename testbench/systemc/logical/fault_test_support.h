// SPDX-License-Identifier: Apache-2.0
// What the SystemC tests of the fault protocol and of invalidation share
// (docs/spec/log.md section 6): requesters on every unit of a fabric,
// running until every test thread is done, and the count of NOT_MAPPED
// faults a unit raised.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/logical_fabric.h"
#include "systemc/logical/requester.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::logical::testing {

// `per_node` requesters bound to each unit of `fabric`, node by node.
inline std::vector<std::unique_ptr<Requester>> BindRequesters(
    cluster::LogicalFabric& fabric, unsigned nodes, unsigned per_node) {
  std::vector<std::unique_ptr<Requester>> requesters;
  for (unsigned n = 0; n < nodes; ++n) {
    for (unsigned r = 0; r < per_node; ++r) {
      requesters.push_back(std::make_unique<Requester>(
          ("requester" + std::to_string(n) + "_" + std::to_string(r)).c_str()));
      requesters.back()->socket.bind(fabric.unit(n).socket);
    }
  }
  return requesters;
}

inline uint64_t NotMapped(const LogicalCounters& c) {
  return c.faults_raised[static_cast<size_t>(FaultCause::kNotMapped)];
}

// Runs the simulation for `limit`, then fails unless every thread ended.
inline void RunUntilDone(
    std::initializer_list<const ::lq::testing::ScThread*> threads,
    sc_core::sc_time limit = sc_core::sc_time(20, sc_core::SC_MS)) {
  sc_core::sc_start(limit);
  for (const ::lq::testing::ScThread* thread : threads) {
    ASSERT_TRUE(thread->finished()) << thread->name() << " did not finish";
  }
}

}  // namespace lq::logical::testing
