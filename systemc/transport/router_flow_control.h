// SPDX-License-Identifier: Apache-2.0
// RouterFlowControl: the transport layer's part of one router — priority
// flow control (docs/spec/trn.md section 8) and ECN marking (TRN-9.2) at
// its input queues, where packets wait in this input-buffered router —
// attached through the router's hooks (NET-8.6, NET-8.7). PFC counts and
// pauses each VC class apart (TRN-8.11).
//
// PFC messages are the 60-byte IEEE 802.1Qbb frames of models/roce. They
// travel to the neighbour as link control messages beside the packets
// (TRN-8.3, dll.md §11): the router hands them to the port's link, they
// pause the neighbour's output towards this router, and they are never
// forwarded. The local port's upstream is the node's network interface,
// which a message pauses the same way, `message_delay` after it is sent.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <systemc>
#include <vector>

#include "models/common/bytes.h"
#include "models/transport/ecn_marking.h"
#include "models/transport/pfc_ingress.h"
#include "models/transport/pfc_pause.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/stat_list.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"

namespace lq::transport {

struct FlowControlConfig {
  bool pfc = true;  // false: no PFC messages at all (ECN only)
  PfcParams pfc_params;
  std::array<EcnProfile, net::Router::kTrafficClasses> ecn{};  // per TC
  uint64_t line_rate_bps = 1'024'000'000'000;  // sets the quantum (TRN-8.6)
  // Added to every message as it is sent: the router's time to emit it.
  // Routers joined port to port (decision 0009) take it as the flit slot a
  // link would carry it in; behind link controllers, which add their own
  // time, it stays the router's.
  sc_core::sc_time message_delay{1, sc_core::SC_NS};
  uint64_t seed = 1;  // of the marking draws (TRN-9.2)
};

// TRN-8.10's and TRN-9's counters.
struct FlowControlCounters {
  uint64_t pfc_frames = 0;  // PFC messages sent, XOFF and XON
  uint64_t xoff_frames = 0;
  uint64_t xon_frames = 0;
  uint64_t bad_frames = 0;  // received and rejected (TRN-8.2)
  uint64_t ecn_marked = 0;
  // The most bytes any (input, PFC priority) held at once: at most XOFF +
  // the headroom if the headroom is enough (TRN-8.9).
  uint64_t peak_held_bytes = 0;
};

class RouterFlowControl : public sc_core::sc_module {
 public:
  RouterFlowControl(const sc_core::sc_module_name& name, net::Router& router,
                    const FlowControlConfig& config);

  // The local port's upstream: the node's network interface.
  void AttachInterface(net::NetworkInterface& interface);

  const FlowControlCounters& counters() const { return counters_; }
  // Time output `port` (the local port: the interface's injection) spent
  // paused for `tc` so far, summed over its VC classes (TRN-8.10).
  uint64_t paused_ps(unsigned port, uint8_t tc) const;
  StatList Stats() const;
  static const ComponentDecl& Declaration();
  // Called whenever output `port` pauses `tc` in a first VC class or
  // resumes it in the last, with the time in ps (for pause timelines; the
  // counters above give the totals).
  using PauseObserver = std::function<void(unsigned port, uint8_t tc,
                                           bool paused, uint64_t at_ps)>;
  void set_pause_observer(PauseObserver observer) {
    pause_observer_ = std::move(observer);
  }

 private:
  struct InFlight {
    uint64_t due_ps;
    unsigned port;  // where it arrives
    Bytes frame;
  };

  void OnIngress(unsigned port, uint8_t tc, unsigned vc_class, uint64_t bytes);
  void Mark(unsigned in_port, uint8_t tc, uint64_t queued, Bytes& packet);
  void Send(unsigned port, const roce::PfcFrame& frame);
  // Index of (port, VC class) in ingress_ and pause_.
  unsigned At(unsigned port, unsigned vc_class) const {
    return port * vc_classes_ + vc_class;
  }
  void Arrive(unsigned port, Bytes frame, uint64_t due_ps);
  // Pauses or resumes the output at `port` for the priorities in `changed`
  // of VC class `vc_class`.
  void Apply(unsigned port, unsigned vc_class, uint8_t changed,
             uint64_t now_ps);
  void Tick();  // SC_METHOD: arrivals, pause expiries and refreshes due
  void Schedule();

  net::Router& router_;
  FlowControlConfig config_;
  unsigned vc_classes_;
  // Per router port and VC class (At()); the local port's pause_ is the
  // interface's injection.
  std::vector<PfcIngress> ingress_;
  std::vector<PfcPause> pause_;
  net::NetworkInterface* interface_ = nullptr;
  std::deque<InFlight> in_flight_;  // messages on their way here, by due
  std::mt19937_64 random_;
  std::uniform_real_distribution<double> draw_{0.0, 1.0};
  FlowControlCounters counters_;
  std::vector<uint64_t> ecn_marked_at_;  // per router input port
  sc_core::sc_event tick_;
  PauseObserver pause_observer_;
};

}  // namespace lq::transport
