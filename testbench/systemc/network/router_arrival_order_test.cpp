// NET-8.12: slots reaching a router at the same instant are taken in port
// order, whichever neighbour sent first (here, seen in the order its
// ingress hook is called in).
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

// Stands where a neighbour would: takes the router's credits and slots,
// and sends it what the test asks.
class Neighbour : public sc_core::sc_module, private link::SlotIf {
 public:
  link::SlotSocket socket;
  explicit Neighbour(const sc_core::sc_module_name& name)
      : sc_module(name), socket("socket") {
    socket.in.bind(static_cast<link::SlotIf&>(*this));
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

// Router 0 of a 4x4 torus; its neighbours on ports `first` then `second`
// each send a packet for node 1, both due at 10 ns. Returns the ports in
// the order the router took the packets in.
std::vector<unsigned> ArrivalOrder(unsigned first, unsigned second) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  RouterConfig config;
  config.network_ports = topology->PortCount(0);
  config.routing =
      topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
  config.nodes = topology->NodeCount();
  config.slot_bytes = kSlotBytes;
  config.vc_buffer_flits = 8;
  Router router("router", config);
  std::vector<std::unique_ptr<Neighbour>> neighbours;
  for (unsigned p = 0; p < config.network_ports; ++p) {
    neighbours.push_back(
        std::make_unique<Neighbour>(("neighbour" + std::to_string(p)).c_str()));
    Connect(router.port(p), neighbours.back()->socket);
  }
  PortCap local("local");
  Connect(router.port(router.local_port()), local.socket);
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

}  // namespace
}  // namespace lq::net
