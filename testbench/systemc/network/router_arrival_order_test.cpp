// SPDX-License-Identifier: Apache-2.0
// NET-8.12: slots reaching a router at the same instant are taken in port
// order, whichever neighbour sent first (here, seen in the order its
// ingress hook is called in), and one due between a busy cycle and the
// next is taken when it is due, whether it came before the busy cycle or
// after.
#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "models/network/route_header.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/port_cap.h"
#include "systemc/network/router.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr size_t kSlotBytes = 64;

// Stands where a neighbour would: grants the router room, takes its
// credits and slots, and sends it what the test asks.
class Neighbour : public sc_core::sc_module, private link::SlotIf {
 public:
  link::SlotSocket socket;
  explicit Neighbour(const sc_core::sc_module_name& name)
      : sc_module(name), socket("socket") {
    socket.in.bind(static_cast<link::SlotIf&>(*this));
  }
  void start_of_simulation() override {
    for (unsigned vc = 0; vc < 4; ++vc) {
      socket.out->Credit(vc, 64, sc_core::SC_ZERO_TIME);
    }
  }
  // A one-slot DATA packet for node `dst`, arriving `delay` from now.
  void Send(uint16_t dst, const sc_time& delay) {
    RouteHeader header;
    header.kind = static_cast<uint8_t>(PacketKind::kData);
    header.dst = dst;
    header.src = 5;
    header.ttl = 64;
    header.len = 8;
    link::Slot slot;
    slot.bytes.assign(kSlotBytes, 0);
    EncodeRouteHeader(header, slot.bytes.data());
    socket.out->Put(std::move(slot), delay);
  }

 private:
  void Put(link::Slot, const sc_time&) override {}
  void Credit(unsigned, unsigned, const sc_time&) override {}
  void Control(Bytes, const sc_time&) override {}
};

// Router 0 of a 4x4 torus (1 GHz), a neighbour at each network port and
// nothing at its local port.
struct Bench {
  Bench() : router("router", Config()), local("local") {
    for (unsigned p = 0; p < router.local_port(); ++p) {
      neighbours.push_back(std::make_unique<Neighbour>(
          ("neighbour" + std::to_string(p)).c_str()));
      Connect(router.port(p), neighbours.back()->socket);
    }
    Connect(router.port(router.local_port()), local.socket);
  }
  static RouterConfig Config() {
    auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
    RouterConfig config;
    config.network_ports = topology->PortCount(0);
    config.routing =
        topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
    config.nodes = topology->NodeCount();
    config.slot_bytes = kSlotBytes;
    config.vc_buffer_flits = 8;
    return config;
  }
  Router router;
  std::vector<std::unique_ptr<Neighbour>> neighbours;
  PortCap local;
};

// Router 0 of a 4x4 torus; its neighbours on ports `first` then `second`
// each send a packet for node 1, both due at 10 ns. Returns the ports in
// the order the router took the packets in.
std::vector<unsigned> ArrivalOrder(unsigned first, unsigned second) {
  Bench bench;
  Router& router = bench.router;
  auto& neighbours = bench.neighbours;
  std::vector<unsigned> taken;
  RouterHooks hooks;
  hooks.inspect_bytes = 8;
  hooks.on_ingress_arrival = [&taken](unsigned in_port, uint8_t, uint64_t,
                                      Bytes&) { taken.push_back(in_port); };
  router.SetHooks(hooks);
  sc_core::sc_start(sc_time(5, SC_NS));
  neighbours[first]->Send(1, sc_time(5, SC_NS));
  neighbours[second]->Send(1, sc_time(5, SC_NS));
  sc_core::sc_start(sc_time(50, SC_NS));
  return taken;
}

TEST(RouterArrivalOrder, NET_8_12_SameInstantArrivalsAreTakenInPortOrder) {
  // The later-numbered neighbour sends first; port 1 is still taken first.
  EXPECT_EQ(ArrivalOrder(3, 1), (std::vector<unsigned>{1, 3}));
}

// Sends neighbour 1's packet when told to: from a process of its own, a
// delta cycle after the router's cycle that told it.
class LateSender : public sc_core::sc_module {
 public:
  LateSender(const sc_core::sc_module_name& name, Neighbour& neighbour)
      : sc_module(name), neighbour_(neighbour) {
    SC_HAS_PROCESS(LateSender);
    SC_METHOD(Send);
    sensitive << go;
    dont_initialize();
  }
  sc_core::sc_event go;

 private:
  void Send() { neighbour_.Send(1, sc_time(500, sc_core::SC_PS)); }
  Neighbour& neighbour_;
};

// Router 0 of a 4x4 torus (1 GHz) is busy with port 3's packet, taken at
// 3 ns, in its cycle at 5 ns, which also takes port 2's packet; port 1's
// packet, due at 5.5 ns, is sent at 5 ns before that cycle runs or,
// `after`, once it has. When the router takes port 1's packet, in ns.
double HalfCycleArrivalTakenAt(bool after) {
  Bench bench;
  Router& router = bench.router;
  auto& neighbours = bench.neighbours;
  LateSender sender("sender", *neighbours[1]);
  double taken_ns = -1;
  RouterHooks hooks;
  hooks.inspect_bytes = 8;
  hooks.on_ingress_arrival = [&](unsigned in_port, uint8_t, uint64_t, Bytes&) {
    if (in_port == 2 && after) {
      sender.go.notify(sc_core::SC_ZERO_TIME);
    }
    if (in_port == 1) {
      taken_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
    }
  };
  router.SetHooks(hooks);
  for (const double ns : {3.0, 4.0, 5.0}) {
    neighbours[3]->Send(1, sc_time(ns, SC_NS));
    neighbours[0]->Send(1, sc_time(ns, SC_NS));
  }
  neighbours[2]->Send(1, sc_time(5, SC_NS));
  sc_core::sc_start(sc_time(5, SC_NS));  // stops before 5 ns's events
  if (!after) {
    neighbours[1]->Send(1, sc_time(500, sc_core::SC_PS));
  }
  sc_core::sc_start(sc_time(50, SC_NS));
  return taken_ns;
}

// The router moves packets on at 5 ns and would run next at 6 ns; the
// packet due at 5.5 ns is taken at 5.5 ns, whichever came first: it or
// the 5 ns cycle.
TEST(RouterArrivalOrder, NET_8_12_ArrivalBeforeABusyCycleIsTakenWhenDue) {
  EXPECT_DOUBLE_EQ(HalfCycleArrivalTakenAt(false), 5.5);
}

TEST(RouterArrivalOrder, NET_8_12_ArrivalAfterABusyCycleIsTakenWhenDue) {
  EXPECT_DOUBLE_EQ(HalfCycleArrivalTakenAt(true), 5.5);
}

}  // namespace
}  // namespace lq::net
