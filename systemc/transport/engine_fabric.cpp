// SPDX-License-Identifier: Apache-2.0
// EngineFabric: TRN-5.6's set-up agent and completion methods.
// sc_spawn starts the completion methods (before any SystemC header).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "systemc/transport/engine_fabric.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace lq::transport {

namespace {

// Step 2 for one end: QP `qpn` of `engine` to INIT.
bool InitQp(TransportEngine& engine, uint32_t qpn) {
  QpModify init;
  init.to = QpState::kInit;
  return engine.ModifyQp(qpn, init).ok();
}

}  // namespace

bool InitQps(TransportEngine& a, uint32_t qa, TransportEngine& b, uint32_t qb) {
  return InitQp(a, qa) && InitQp(b, qb);
}

void FabricFigures::Add(const FabricFigures& other) {
  pfc_frames += other.pfc_frames;
  xoff_frames += other.xoff_frames;
  pause_us += other.pause_us;
  ecn_marked += other.ecn_marked;
  router_drops += other.router_drops;
  packets_sent += other.packets_sent;
  retransmits += other.retransmits;
  cnps += other.cnps;
  bad_packets += other.bad_packets;
  duplicates += other.duplicates;
  work_posted += other.work_posted;
  work_completed += other.work_completed;
  work_failed += other.work_failed;
}

namespace {

// Steps 4 and 5 for one end: QP `qpn` of `engine` to RTR with its peer,
// QP `remote_qpn` of node `remote_node`, then to RTS.
bool ReadyQp(TransportEngine& engine, uint32_t qpn, uint32_t remote_node,
             uint32_t remote_qpn, uint32_t pmtu,
             const std::optional<std::string>& congestion, uint8_t timeout) {
  QpModify rtr;
  rtr.to = QpState::kRtr;
  rtr.pmtu = pmtu;
  rtr.congestion_control = congestion;
  rtr.remote_node = remote_node;
  rtr.remote_qpn = remote_qpn;
  QpModify rts;
  rts.to = QpState::kRts;
  rts.timeout = timeout;
  return engine.ModifyQp(qpn, rtr).ok() && engine.ModifyQp(qpn, rts).ok();
}

// TRN-5.6 for the one end of a connection this rank holds: a new QP on
// `engine`, which must be `qpn`, to RTS with its peer.
bool ConnectEnd(TransportEngine& engine, uint32_t qpn, uint32_t remote_node,
                uint32_t remote_qpn, uint32_t pmtu,
                const std::optional<std::string>& congestion) {
  if (engine.CreateQp() != qpn) {
    throw std::logic_error("node " + std::to_string(engine.node()) +
                           "'s engine had QPs before the workload's");
  }
  return InitQp(engine, qpn) &&
         ReadyQp(engine, qpn, remote_node, remote_qpn, pmtu, congestion,
                 QpAttributes{}.timeout);
}

}  // namespace

bool ReadyQps(TransportEngine& a, uint32_t qa, TransportEngine& b, uint32_t qb,
              uint32_t pmtu, std::optional<std::string> congestion,
              uint8_t timeout) {
  return ReadyQp(a, qa, b.node(), qb, pmtu, congestion, timeout) &&
         ReadyQp(b, qb, a.node(), qa, pmtu, congestion, timeout);
}

std::optional<QpPair> ConnectQps(TransportEngine& a, TransportEngine& b,
                                 uint32_t pmtu,
                                 std::optional<std::string> congestion,
                                 uint8_t timeout) {
  const QpPair pair{a.CreateQp(), b.CreateQp()};
  if (!InitQps(a, pair.a, b, pair.b) ||
      !ReadyQps(a, pair.a, b, pair.b, pmtu, std::move(congestion), timeout)) {
    return std::nullopt;
  }
  return pair;
}

void OnCompletions(const std::vector<TransportEngine*>& engines,
                   const std::function<void(unsigned node)>& handler) {
  for (unsigned n = 0; n < engines.size(); ++n) {
    if (engines[n] == nullptr) {
      continue;  // another rank's
    }
    sc_core::sc_spawn_options options;
    options.spawn_method();
    options.dont_initialize();
    options.set_sensitivity(&engines[n]->completion_event());
    sc_core::sc_spawn([handler, n] { handler(n); },
                      sc_core::sc_gen_unique_name("completions"), &options);
  }
}

uint32_t RegisterFirstRegion(TransportEngine* engine,
                             const MemoryRegion& region) {
  const uint32_t first = TransportEngine::NthRkey(0);
  if (engine != nullptr && engine->RegisterMemory(region) != first) {
    throw std::logic_error("node " + std::to_string(engine->node()) +
                           "'s engine had memory regions before the "
                           "workload's");
  }
  return first;
}

std::vector<QpPair> ConnectPairs(
    const std::vector<TransportEngine*>& engines,
    const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint32_t pmtu,
    const std::string& congestion) {
  const std::optional<std::string> control =
      congestion.empty() ? std::nullopt
                         : std::optional<std::string>(congestion);
  std::vector<uint32_t> made(engines.size(), 0);  // QPs per engine so far
  std::vector<QpPair> connected;
  connected.reserve(pairs.size());
  for (const auto& [src, dst] : pairs) {
    const QpPair pair{TransportEngine::NthQpn(made.at(src)++),
                      TransportEngine::NthQpn(made.at(dst)++)};
    TransportEngine* a = engines[src];
    TransportEngine* b = engines[dst];
    bool ok = true;
    if (a != nullptr) {
      ok = ConnectEnd(*a, pair.a, dst, pair.b, pmtu, control);
    }
    if (b != nullptr) {
      ok = ok && ConnectEnd(*b, pair.b, src, pair.a, pmtu, control);
    }
    if (!ok) {
      throw std::invalid_argument("the QPs of " + std::to_string(src) + " -> " +
                                  std::to_string(dst) +
                                  " could not be connected (TRN-5.3)");
    }
    connected.push_back(pair);
  }
  return connected;
}

}  // namespace lq::transport
