// SPDX-License-Identifier: Apache-2.0
// Network-layer conformance cases for the routing functions of the other
// topologies, net.md NET-4.1, NET-4.4 and NET-4.5, observed at the ports of
// a router under test (decision 0023): the switches of a k = 4 fat-tree
// under `updown`, and a node of a 4 x 4 full mesh under `fullmesh`. Each
// packet goes in alone; the case checks the port and VC class it leaves
// by against the clause's formula, worked out here from the topology's
// numbering (NET-6.2, NET-6.3).
#include <string>
#include <utility>
#include <vector>

#include "models/network/route_header.h"
#include "models/roce/encap.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/router_case_helpers.h"

namespace lq::conformance {

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint8_t kTc = 3;

// One packet through the DUT: where it comes in, for whom, and where
// the clause sends it.
struct Route {
  unsigned from;
  uint8_t in_class;
  uint16_t dst;
  unsigned to;
  uint8_t out_class;
  const char* why;
};

// Sends each route's packet alone (200 ns apart) and expects it to leave
// by its port on its class, in the order sent.
void ExpectRoutes(RouterCaseContext& context, const std::vector<Route>& routes,
                  const char* clause) {
  RouterBench& bench = context.bench;
  for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
    OpenOutput(bench, p, sc_core::SC_ZERO_TIME);
  }
  for (size_t i = 0; i < routes.size(); ++i) {
    const Route& route = routes[i];
    const unsigned vc = bench.VcOf(kTc) + route.in_class;
    const Bytes frame =
        WriteFrame(static_cast<uint32_t>(i), 64, roce::Ecn::kNotEct, kTc);
    net::RouteHeader header;
    header.kind = static_cast<uint8_t>(net::PacketKind::kData);
    header.tc = kTc;
    header.dst = route.dst;
    header.src = route.dst == 0 ? 1 : 0;
    header.epoch = bench.dut().epoch();
    header.vc = static_cast<uint8_t>(vc);
    header.ttl = 20;
    header.len = static_cast<uint16_t>(frame.size());
    bench.peer(route.from).Send({RoutedPacket(header, frame)}, vc);
    sc_core::wait(sc_time(200, SC_NS));
  }
  sc_core::wait(sc_time(1, SC_US));
  std::vector<size_t> taken(bench.dut().port_count(), 0);
  for (const Route& route : routes) {
    const std::string which = std::string(route.why) + " (DST " +
                              std::to_string(route.dst) + ", in on port " +
                              std::to_string(route.from) + ")";
    const RouterPeer& out = bench.peer(route.to);
    if (!context.verdict.Expect(
            out.packets().size() > taken[route.to],
            which + ": nothing left by port " + std::to_string(route.to),
            {clause})) {
      continue;
    }
    const net::RouteHeader got =
        net::DecodeRouteHeader(out.packets()[taken[route.to]++].bytes.data());
    // A class is a network link's; the local port's VC is not routing's.
    const bool local = route.to == bench.dut().local_port();
    const unsigned vc = bench.VcOf(kTc) + route.out_class;
    context.verdict.Expect(got.dst == route.dst && (local || got.vc == vc),
                           which + ": port " + std::to_string(route.to) +
                               " sent DST " + std::to_string(got.dst) +
                               " on VC " + std::to_string(got.vc) +
                               ", expected VC " + std::to_string(vc),
                           {clause});
  }
  size_t left = 0;
  for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
    left += bench.peer(p).packets().size();
  }
  context.verdict.Expect(left == routes.size(),
                         std::to_string(left) + " packets left the DUT for " +
                             std::to_string(routes.size()) + " sent",
                         {clause});
}

// The k = 4 fat-tree: 16 hosts (0-15), edge switches 16-23, aggregation
// switches 24-31, core switches 32-35 (NET-6.2).
// The 4 x 4 full mesh under `fullmesh` routing (order xy, NET-6.3).
RouterBenchOptions FullMesh(topo::NodeId node) {
  RouterBenchOptions options;
  options.keys = {{"topology.name", "fullmesh"},
                  {"topology.x", "4"},
                  {"topology.y", "4"},
                  {"routing.name", "fullmesh"}};
  options.node = node;
  return options;
}

RouterBenchOptions FatTree(topo::NodeId node) {
  RouterBenchOptions options;
  options.keys = {{"topology.name", "fattree"},
                  {"topology.endpoints", "16"},
                  {"topology.k", "4"},
                  {"routing.name", "updown"}};
  options.node = node;
  return options;
}

// Edge switch (pod 0, j = 0), node 16: hosts 0 and 1 below on ports 0 and
// 1; aggregation switches 24 and 25 above on ports 2 and 3.
void EdgeSwitchRoutesUpAndDown(RouterCaseContext& context) {
  ExpectRoutes(context,
               {{2, 0, 0, 0, 0, "down to a host below, port DST mod 2"},
                {3, 0, 1, 1, 0, "down to the other host below"},
                {0, 0, 1, 1, 0, "between the two hosts below"},
                {0, 0, 5, 3, 0, "up for another pod, port 2 + DST mod 2"},
                {1, 0, 6, 2, 0, "up for another pod, port 2 + DST mod 2"},
                {0, 0, 2, 2, 0, "up for the pod's other edge switch"}},
               "NET-4.4");
}

// Aggregation switch (pod 0, a = 0), node 24: edge switches 16 and 17
// below on ports 0 and 1; core switches 32 and 33 above on ports 2 and 3.
void AggregationSwitchRoutesUpAndDown(RouterCaseContext& context) {
  ExpectRoutes(
      context,
      {{2, 0, 0, 0, 0, "down to DST's edge switch, port edge index mod 2"},
       {3, 0, 3, 1, 0, "down to DST's edge switch, port edge index mod 2"},
       {0, 0, 3, 1, 0, "across the pod"},
       {0, 0, 9, 2, 0, "up, port 2 + floor(DST / 2) mod 2"},
       {1, 0, 11, 3, 0, "up, port 2 + floor(DST / 2) mod 2"}},
      "NET-4.4");
}

// Core switch (a = 0, i = 0), node 32: port p down to pod p.
void CoreSwitchRoutesDown(RouterCaseContext& context) {
  ExpectRoutes(context,
               {{0, 0, 9, 2, 0, "down to pod(DST) = 2"},
                {2, 0, 15, 3, 0, "down to pod(DST) = 3"},
                {3, 0, 1, 0, 0, "down to pod(DST) = 0"}},
               "NET-4.4");
}

// Node 5 of a 4 x 4 full mesh (column 1, row 1), `order=xy`: ports 0-2
// lead to columns 0, 2, 3 of row 1 (nodes 4, 6, 7), ports 3-5 to rows 0,
// 2, 3 of column 1 (nodes 1, 9, 13), port 6 is local (NET-6.3). A hop's
// class is the hops taken before it.
void FullMeshRoutesXThenY(RouterCaseContext& context) {
  const unsigned local = context.bench.dut().local_port();
  ExpectRoutes(context,
               {{local, 0, 15, 2, 0, "injected, X first: to column 3"},
                {local, 0, 4, 0, 0, "injected, X only: to column 0"},
                {local, 0, 9, 4, 0, "injected, same column: Y to row 2"},
                {0, 0, 13, 5, 1, "after an X hop: Y to row 3 on class 1"},
                {2, 0, 1, 3, 1, "after an X hop: Y to row 0 on class 1"},
                {3, 1, 5, local, 0, "after both hops: delivered"},
                {1, 0, 5, local, 0, "after an X hop: delivered"}},
               "NET-4.5");
}

// NET-4.1 on the torus DUT of the other cases (node 0 of 4x8x8): a packet
// for the node itself leaves by the local port, whichever port and class
// it came in on, and no other packet does.
void DeliversExactlyAtItsDestination(RouterCaseContext& context) {
  const unsigned local = context.bench.dut().local_port();
  ExpectRoutes(context,
               {{0, 0, 0, local, 0, "for node 0 from +X"},
                {1, 1, 0, local, 0, "for node 0 from -X, class 1"},
                {2, 0, 0, local, 0, "for node 0 from +Y"},
                {5, 1, 0, local, 0, "for node 0 from -Z, class 1"},
                {1, 1, 1, 0, 1, "for node 1 from -X, on after the wrap"},
                {local, 0, 4, 2, 0, "injected for node 4"}},
               "NET-4.1");
}

}  // namespace

std::vector<ConformanceCase> NetRoutingCases() {
  return {
      RouterCase("NET_4_4_EdgeSwitchRoutesUpAndDown", EdgeSwitchRoutesUpAndDown,
                 FatTree(16)),
      RouterCase("NET_4_4_AggregationSwitchRoutesUpAndDown",
                 AggregationSwitchRoutesUpAndDown, FatTree(24)),
      RouterCase("NET_4_4_CoreSwitchRoutesDown", CoreSwitchRoutesDown,
                 FatTree(32)),
      RouterCase("NET_4_5_FullMeshRoutesXThenY", FullMeshRoutesXThenY,
                 FullMesh(5)),
      RouterCase("NET_4_1_DeliversExactlyAtItsDestination",
                 DeliversExactlyAtItsDestination),
  };
}

}  // namespace lq::conformance
