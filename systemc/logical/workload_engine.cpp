// SPDX-License-Identifier: Apache-2.0
// WorkloadEngine: seeded streams of accesses, each timed.
// sc_spawn starts one thread per stream (before any SystemC header).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "systemc/logical/workload_engine.h"

#include <algorithm>
#include <string>

#include "models/common/bytes.h"

namespace lq::logical {
namespace {

constexpr unsigned kAtomicBytes = 8;

}  // namespace

const char* AccessClassName(AccessClass access_class) {
  switch (access_class) {
    case AccessClass::kLocalLoad:
      return "local_load";
    case AccessClass::kRemoteLoad:
      return "remote_load";
    case AccessClass::kLocalStore:
      return "local_store";
    case AccessClass::kRemoteStore:
      return "remote_store";
    case AccessClass::kLocalAtomic:
      return "local_atomic";
    case AccessClass::kRemoteAtomic:
      return "remote_atomic";
  }
  return "?";
}

WorkloadEngine::WorkloadEngine(const sc_core::sc_module_name& name,
                               const WorkloadConfig& config)
    : sc_module(name), socket("socket"), config_(config), random_(config.seed) {
  SC_HAS_PROCESS(WorkloadEngine);
  for (unsigned s = 0; s < config.concurrency; ++s) {
    sc_core::sc_spawn(sc_bind(&WorkloadEngine::Stream, this),
                      ("stream" + std::to_string(s)).c_str());
  }
}

void WorkloadEngine::Stream() {
  if (config_.start_after != nullptr) {
    wait(*config_.start_after);
  }
  std::uniform_real_distribution<double> share(0.0, 1.0);
  Bytes data(std::max<uint32_t>(config_.size, kAtomicBytes));
  for (uint64_t i = 0; i < config_.accesses; ++i) {
    // The home: this node, or another one.
    uint16_t home = config_.node;
    if (config_.endpoints > 1 && share(random_) >= config_.locality) {
      if (!config_.homes.empty()) {
        home = config_.homes[random_() % config_.homes.size()];
      } else {
        home = static_cast<uint16_t>(random_() % (config_.endpoints - 1));
        home += home >= config_.node ? 1 : 0;
      }
    }
    const double kind = share(random_);
    const bool load = kind < config_.loads;
    const bool store = !load && kind < config_.loads + config_.stores;
    const uint32_t size = load || store ? config_.size : kAtomicBytes;
    const uint64_t slots = std::max<uint64_t>(1, config_.span / size);
    const uint64_t ga =
        GlobalAddress(home, config_.base + (random_() % slots) * size);

    tlm::tlm_generic_payload trans;
    trans.set_address(ga);
    trans.set_data_ptr(data.data());
    trans.set_data_length(size);
    trans.set_streaming_width(size);
    trans.set_command(store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    AtomicExtension atomic;
    atomic.request.op = AtomicOp::kFadd;
    atomic.request.size = kAtomicBytes;
    atomic.request.operand = 1;
    if (!load && !store) {
      trans.set_extension(&atomic);
    }
    if (store) {
      StoreLittleEndian(data.data(), kAtomicBytes, i);
    }
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    wait(delay);
    if (!load && !store) {
      trans.clear_extension(&atomic);
    }
    const bool remote = home != config_.node;
    const AccessClass access_class =
        load ? (remote ? AccessClass::kRemoteLoad : AccessClass::kLocalLoad)
        : store
            ? (remote ? AccessClass::kRemoteStore : AccessClass::kLocalStore)
            : (remote ? AccessClass::kRemoteAtomic : AccessClass::kLocalAtomic);
    if (trans.is_response_ok()) {
      latencies_ns_[static_cast<size_t>(access_class)].push_back(
          (sc_core::sc_time_stamp() - start).to_seconds() * 1e9);
    } else {
      ++errors_;
    }
    if (config_.think > sc_core::SC_ZERO_TIME) {
      wait(config_.think);
    }
  }
  if (++streams_done_ == config_.concurrency) {
    done_.notify(sc_core::SC_ZERO_TIME);
  }
}

const ComponentDecl& WorkloadEngine::Declaration() {
  static const ComponentDecl decl{
      "workload",
      "a card's load/store workload generator (log.md)",
      {{"socket", "TLM-2.0 initiator", "to its logical unit"}},
      {{"<class>",
        "accesses of each class completed: local_load, "
        "remote_load, local_store, remote_store, local_atomic, "
        "remote_atomic"},
       {"errors", "accesses that failed"}}};
  return decl;
}

StatList WorkloadEngine::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  for (size_t c = 0; c < kAccessClasses; ++c) {
    stats.Add("<class>", {AccessClassName(static_cast<AccessClass>(c))},
              static_cast<uint64_t>(latencies_ns_[c].size()));
  }
  stats.Add("errors", errors_);
  return stats.Take();
}

}  // namespace lq::logical
