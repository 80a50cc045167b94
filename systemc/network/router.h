// Router: one node's input-buffered virtual-channel router (docs/spec/net.md
// section 8): wormhole switching with per-packet VC allocation, credit-based
// flow control in payload slots, a separable input-first round-robin
// allocator, and the RC/VA/SA/ST pipeline in router cycles. Ports 0..P-1
// face the node's link controllers, port P its network interface; all are
// slot sockets. Event-driven: a router with nothing to move schedules
// nothing.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <systemc>
#include <vector>

#include "models/network/route_header.h"
#include "models/network/vc_stream.h"
#include "models/topology/routing.h"
#include "systemc/common/stat_list.h"
#include "systemc/link/slot_socket.h"

namespace lq::net {

struct RouterConfig {
  topo::NodeId node = 0;
  unsigned network_ports = 0;  // P; port P is the local port
  std::shared_ptr<const topo::RoutingFunction> routing;
  uint32_t nodes = 1;             // N, for header checks (NET-2.10)
  unsigned vc_classes = 2;        // net.vc_classes (C)
  unsigned vc_sets = 2;           // net.vc_sets (S); S x C <= 4 (NET-3.1)
  unsigned vc_buffer_slots = 64;  // router.vc_buffer_flits (NET-8.1)
  size_t slot_bytes = 236;        // the links' payload slot (PHY-2.4)
  double clock_ns = 1.0;          // router.clock
  unsigned rc_cycles = 1;         // NET-8.4
  unsigned va_cycles = 1;
  unsigned sa_cycles = 1;
  unsigned st_cycles = 1;
  uint16_t max_payload = 9216;  // net.max_payload
};

// NET-8.9's counters.
struct RouterCounters {
  uint64_t injected = 0;
  uint64_t ejected = 0;
  uint64_t forwarded = 0;
  uint64_t hops = 0;
  uint64_t drops_ttl = 0;
  uint64_t drops_header = 0;
  uint64_t stream_errors = 0;
  uint64_t drops_no_route = 0;
};

class Router : public sc_core::sc_module {
 public:
  Router(const sc_core::sc_module_name& name, const RouterConfig& config);
  ~Router() override;

  // Port p's socket: network ports to link controllers, the last one to
  // the network interface.
  link::SlotSocket& port(unsigned p);
  unsigned port_count() const { return config_.network_ports + 1; }
  unsigned local_port() const { return config_.network_ports; }

  const RouterCounters& counters() const { return counters_; }
  uint64_t flits_in(unsigned p) const;
  uint64_t flits_out(unsigned p) const;
  StatList Stats() const;

 private:
  class PortEnd;

  // A packet in an input VC, from its header's arrival to its last byte's
  // departure.
  struct InputPacket {
    RouteHeader header;
    Bytes bytes;             // header + payload arrived so far
    size_t total = 0;        // header + LEN
    size_t sent = 0;         // bytes moved through the crossbar
    bool routed = false;     // RC done
    bool allocated = false;  // VA done: owns out_port/out_vc
    bool discard = false;    // dropped: absorb its bytes, forward nothing
    unsigned out_port = 0;
    unsigned out_vc = 0;
    sc_core::sc_time ready;  // when the next pipeline stage may act
  };
  struct InputVc {
    std::unique_ptr<SlotParser> parser;
    std::deque<InputPacket> packets;
    uint64_t arrived_bytes = 0;  // slot bytes received (padding included)
    uint64_t credits_returned = 0;
  };
  struct OutputVc {
    bool owned = false;
    unsigned credits = 0;  // the downstream's room, in slots
  };
  struct Arrival {
    unsigned port;
    bool is_credit;
    unsigned vc;
    unsigned count;  // credits
    Bytes slot;
  };

  void OnSlot(unsigned port, link::Slot slot, const sc_core::sc_time& delay);
  void OnCredit(unsigned port, unsigned vc, unsigned count,
                const sc_core::sc_time& delay);
  void Cycle();  // SC_METHOD: one router cycle, then reschedules itself
  void start_of_simulation() override;

  void Deliver(const Arrival& arrival);
  void Route(unsigned port, unsigned vc, InputPacket& packet);
  void AllocateVcs();
  void AllocateSwitch();
  void Send(unsigned in_port, unsigned in_vc);
  void ReturnCredits(unsigned port, unsigned vc);

  InputVc& input(unsigned port, unsigned vc) {
    return inputs_[port * vcs_ + vc];
  }
  OutputVc& output(unsigned port, unsigned vc) {
    return outputs_[port * vcs_ + vc];
  }

  RouterConfig config_;
  unsigned vcs_;
  sc_core::sc_time period_;
  std::vector<std::unique_ptr<PortEnd>> ends_;
  std::vector<InputVc> inputs_;
  std::vector<OutputVc> outputs_;
  std::multimap<sc_core::sc_time, Arrival> arrivals_;
  // Round-robin pointers: per output VC (VA), per input port and per
  // output port (SA).
  std::vector<unsigned> va_next_, sa_input_next_, sa_output_next_;
  std::vector<uint64_t> flits_in_, flits_out_;
  RouterCounters counters_;
  bool progress_ = false;  // this cycle routed, allocated or moved something
  sc_core::sc_event wake_;
};

}  // namespace lq::net
