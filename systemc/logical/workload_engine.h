// SPDX-License-Identifier: Apache-2.0
// WorkloadEngine: what stands in for a card's accelerator in the logical
// layer's studies (issue 8): `concurrency` streams of loads, stores and
// atomics to global addresses, issued through the node's logical unit,
// each access timed from issue to completion. Seeded; the mix, size and
// locality are parameters.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <cstdint>
#include <random>
#include <systemc>
#include <vector>

#include "models/logical/global_address.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/stat_list.h"
#include "systemc/logical/logical_extension.h"

namespace lq::logical {

struct WorkloadConfig {
  uint16_t node = 0;         // the engine's own node
  uint32_t endpoints = 1;    // nodes of the fabric
  unsigned concurrency = 1;  // streams, each with one access in flight
  uint64_t accesses = 100;   // per stream
  uint32_t size = 64;        // bytes per load or store
  double loads = 0.5;        // shares of the mix; atomics take the rest
  double stores = 0.4;
  // Share of accesses to the engine's own node; the others go to `homes`,
  // or, if it is empty, to any other node, uniformly.
  double locality = 0;
  std::vector<uint16_t> homes;
  // Accesses fall in [base, base + span) of the home's direct region,
  // aligned to their size.
  uint64_t base = 0;
  uint64_t span = 1 << 20;
  sc_core::sc_time think = sc_core::SC_ZERO_TIME;  // between a stream's
  uint64_t seed = 1;
  // If set, the streams start when this is notified (e.g. another
  // engine's done()), so that engines can take turns.
  const sc_core::sc_event* start_after = nullptr;
};

enum class AccessClass {
  kLocalLoad,
  kRemoteLoad,
  kLocalStore,
  kRemoteStore,
  kLocalAtomic,
  kRemoteAtomic
};
inline constexpr size_t kAccessClasses = 6;
const char* AccessClassName(AccessClass access_class);

class WorkloadEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<WorkloadEngine> socket;  // to its unit

  WorkloadEngine(const sc_core::sc_module_name& name,
                 const WorkloadConfig& config);

  // Latency of every completed access of a class, ns, in completion order.
  const std::vector<double>& latencies_ns(AccessClass access_class) const {
    return latencies_ns_[static_cast<size_t>(access_class)];
  }
  uint64_t errors() const { return errors_; }  // accesses not OK
  bool finished() const { return streams_done_ == config_.concurrency; }
  // Notified when every stream has issued all its accesses.
  const sc_core::sc_event& done() const { return done_; }
  StatList Stats() const;
  static const ComponentDecl& Declaration();

 private:
  void Stream();  // SC_THREAD, one per stream

  WorkloadConfig config_;
  std::mt19937_64 random_;
  std::array<std::vector<double>, kAccessClasses> latencies_ns_;
  uint64_t errors_ = 0;
  unsigned streams_done_ = 0;
  sc_core::sc_event done_;
};

}  // namespace lq::logical
