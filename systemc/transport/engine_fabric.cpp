// EngineFabric: TRN-5.6's set-up agent and completion methods.
// sc_spawn starts the completion methods (before any SystemC header).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "systemc/transport/engine_fabric.h"

#include <stdexcept>
#include <utility>

namespace lq::transport {

bool InitQps(TransportEngine& a, uint32_t qa, TransportEngine& b, uint32_t qb) {
  QpModify init;
  init.to = QpState::kInit;
  return a.ModifyQp(qa, init).ok() && b.ModifyQp(qb, init).ok();
}

bool ReadyQps(TransportEngine& a, uint32_t qa, TransportEngine& b, uint32_t qb,
              uint32_t pmtu, std::optional<std::string> congestion,
              uint8_t timeout) {
  QpModify rtr;
  rtr.to = QpState::kRtr;
  rtr.pmtu = pmtu;
  rtr.congestion_control = std::move(congestion);
  rtr.remote_node = b.node();
  rtr.remote_qpn = qb;
  if (!a.ModifyQp(qa, rtr).ok()) {
    return false;
  }
  rtr.remote_node = a.node();
  rtr.remote_qpn = qa;
  QpModify rts;
  rts.to = QpState::kRts;
  rts.timeout = timeout;
  return b.ModifyQp(qb, rtr).ok() && a.ModifyQp(qa, rts).ok() &&
         b.ModifyQp(qb, rts).ok();
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
    sc_core::sc_spawn_options options;
    options.spawn_method();
    options.dont_initialize();
    options.set_sensitivity(&engines[n]->completion_event());
    sc_core::sc_spawn([handler, n] { handler(n); },
                      sc_core::sc_gen_unique_name("completions"), &options);
  }
}

std::vector<QpPair> ConnectPairs(
    const std::vector<TransportEngine*>& engines,
    const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint32_t pmtu,
    const std::string& congestion) {
  std::vector<QpPair> connected;
  connected.reserve(pairs.size());
  for (const auto& [src, dst] : pairs) {
    const auto pair =
        ConnectQps(*engines.at(src), *engines.at(dst), pmtu,
                   congestion.empty() ? std::nullopt
                                      : std::optional<std::string>(congestion));
    if (!pair) {
      throw std::invalid_argument("the QPs of " + std::to_string(src) + " -> " +
                                  std::to_string(dst) +
                                  " could not be connected (TRN-5.3)");
    }
    connected.push_back(*pair);
  }
  return connected;
}

}  // namespace lq::transport
