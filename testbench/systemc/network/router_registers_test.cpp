// SPDX-License-Identifier: Apache-2.0
// The router's register block (NET-5.6, docs/registers/router.md), driven
// over TLM as firmware would on a 4x4 torus of routers: the bus rules of
// each register, a fixed routing function chosen by ROUTE_MODE and SHAPE,
// then tables computed by escalated up*/down* written entry by entry into
// every router and switched in, carrying uniform traffic over minimal paths
// with nothing dropped; then an empty table (NET-5.5), INJECT_FREEZE and
// TC_MAP at the local port.
#include "systemc/network/router_registers.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <systemc>
#include <vector>

#include "generated/cpp/router_regs.h"
#include "models/topology/programmed_table.h"
#include "models/topology/routing_registry.h"
#include "models/topology/table_routing.h"
#include "models/topology/topology_registry.h"
#include "testbench/systemc/common/csr_master.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/network/router_node.h"

namespace lq::net {
namespace {

namespace regs = lq::regs::router;
using sc_core::SC_NS;
using sc_core::sc_time;
using testing::CsrMaster;
using testing::ScThread;

constexpr unsigned kNodes = 16;  // 4x4
constexpr uint32_t kTableMode = 3, kDorMode = 0;

bool BusError(CsrMaster& csr, tlm::tlm_command command, uint32_t offset,
              uint32_t value = 0) {
  return csr.Access(command, offset, value) == tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

TEST(RouterRegisters, NET_5_6_FirmwareProgramsRoutingThroughRegisters) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> dor =
      topo::CreateRouting("dor", topology, {}).value();
  auto tables = topo::TableRouting::Build(topology, 2, std::nullopt);
  ASSERT_TRUE(tables.ok()) << tables.error().reason;

  std::vector<Delivered> delivered;
  std::vector<RouterNode> nodes;
  std::vector<std::unique_ptr<CsrMaster>> csr;
  for (unsigned n = 0; n < kNodes; ++n) {
    nodes.push_back(
        MakeRouterNode(SmallRouterConfig(*topology, n, dor, 64), delivered));
    nodes.back().router->registers().SetHooks(LocalPortHooks(*nodes.back().ni));
    csr.push_back(
        std::make_unique<CsrMaster>(("csr" + std::to_string(n)).c_str()));
    csr.back()->socket.bind(nodes.back().router->csr());
  }
  CableRouters(*topology, nodes);

  // Sends `per_node` packets from every node to random others and waits
  // until all have arrived; false if some never do.
  std::mt19937 random(5);
  auto uniform_traffic = [&](unsigned per_node) {
    delivered.clear();
    for (unsigned i = 0; i < per_node; ++i) {
      for (uint16_t src = 0; src < kNodes; ++src) {
        uint16_t dst = static_cast<uint16_t>(random() % (kNodes - 1));
        dst = dst >= src ? dst + 1 : dst;
        nodes[src].ni->Send(dst, 0, Bytes(100, static_cast<uint8_t>(i)));
      }
    }
    for (int t = 0; t < 100 && delivered.size() < per_node * kNodes; ++t) {
      sc_core::wait(sc_time(100, SC_NS));
    }
    return delivered.size() == per_node * kNodes;
  };
  auto minimal_hops = [&] {
    for (const Delivered& d : delivered) {
      const auto a = topology->Coordinates(d.header.src);
      const auto b = topology->Coordinates(d.header.dst);
      unsigned hops = 0;
      for (size_t i = 0; i < a.size(); ++i) {
        const unsigned diff = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
        hops += std::min(diff, 4 - diff);
      }
      if (d.header.hops != hops) {
        return false;
      }
    }
    return true;
  };

  ScThread firmware("firmware", [&] {
    CsrMaster& r5 = *csr[5];
    // Identification (NET-5.6).
    EXPECT_EQ(r5.Read(regs::kIdOffset) & 0xFFFF, 0x5452u);
    EXPECT_EQ(r5.Read(regs::kNodeIdOffset), 5u);
    EXPECT_EQ(r5.Read(regs::kEndpointsOffset), kNodes);
    const uint32_t info = r5.Read(regs::kShapeInfoOffset);
    EXPECT_EQ(regs::kShapeInfoPorts.Read(info), 4u);
    EXPECT_EQ(regs::kShapeInfoVcClasses.Read(info), 2u);
    EXPECT_EQ(regs::kShapeInfoVcSets.Read(info), 2u);
    const uint32_t mode = r5.Read(regs::kRouteModeOffset);
    EXPECT_EQ(regs::kRouteModeMode.Read(mode), kDorMode);
    EXPECT_EQ(regs::kRouteModeActive.Read(mode), kDorMode);

    // Bus rules: nothing changes on an error (DLL-8.3).
    EXPECT_TRUE(BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kRouteModeOffset, 5))
        << "no routing function 5";
    EXPECT_TRUE(BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kTableIndexOffset,
                         kNodes * 2 * 2))
        << "entries end at E x C x 2";
    r5.Write(regs::kTableIndexOffset, kNodes * 2 * 2 - 1);
    r5.Write(regs::kTableDataOffset, topo::TableEntry::Make(1, 1).raw);
    EXPECT_EQ(r5.Read(regs::kTableIndexOffset), kNodes * 2 * 2)
        << "TABLE_DATA moves the index on";
    EXPECT_TRUE(BusError(r5, tlm::TLM_READ_COMMAND, regs::kTableDataOffset))
        << "no entry past the end";
    EXPECT_TRUE(BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kTableDataOffset,
                         0x8000 | (1u << 12)))
        << "reserved entry bits";
    EXPECT_TRUE(
        BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kPortUpOffset, 1u << 4))
        << "a 4-port router has no PORT_UP[4]";
    EXPECT_TRUE(BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kTcMapOffset, 2))
        << "TC 0 to VC set 2 of 2";
    EXPECT_EQ(r5.Read(regs::kShapeOffset), 0x0404u)
        << "SHAPE starts as the fabric's ring sizes";
    r5.Write(regs::kShapeOffset, 0);
    EXPECT_TRUE(
        BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kTableSwitchOffset, 1))
        << "dor with SHAPE 0 describes no torus";
    r5.Write(regs::kShapeOffset, 0x0505);
    EXPECT_TRUE(
        BusError(r5, tlm::TLM_WRITE_COMMAND, regs::kTableSwitchOffset, 1))
        << "a 5x5 SHAPE is not this 16-node fabric";
    EXPECT_EQ(r5.Read(regs::kEpochOffset), 0u) << "no switch happened";

    // A fixed function from ROUTE_MODE and SHAPE, in every router.
    for (unsigned n = 0; n < kNodes; ++n) {
      csr[n]->Write(regs::kRouteModeOffset, kDorMode);
      csr[n]->Write(regs::kShapeOffset, 0x0404);
      csr[n]->Write(regs::kTableSwitchOffset, 1);
      EXPECT_EQ(csr[n]->Read(regs::kEpochOffset), 1u);
    }
    EXPECT_TRUE(uniform_traffic(20)) << "traffic on firmware's dor";
    EXPECT_TRUE(minimal_hops());

    // Tables written entry by entry, read back, then switched in.
    for (unsigned n = 0; n < kNodes; ++n) {
      const auto table = topo::ProgrammedTableRouting::TableOf(**tables, n);
      csr[n]->Write(regs::kRouteModeOffset, kTableMode);
      csr[n]->Write(regs::kTableIndexOffset, 0);
      for (const topo::TableEntry entry : table) {
        csr[n]->Write(regs::kTableDataOffset, entry.raw);
      }
      csr[n]->Write(regs::kPortUpOffset,
                    topo::ProgrammedTableRouting::PortUpOf(**tables, n));
      csr[n]->Write(regs::kTableIndexOffset, 0);
      for (size_t i = 0; i < table.size(); ++i) {
        ASSERT_EQ(csr[n]->Read(regs::kTableDataOffset), table[i].raw)
            << "node " << n << " entry " << i;
      }
    }
    for (unsigned n = 0; n < kNodes; ++n) {
      csr[n]->Write(regs::kTableSwitchOffset, 1);
      EXPECT_EQ(nodes[n].router->routing().Name(), "table");
      EXPECT_EQ(
          regs::kRouteModeActive.Read(csr[n]->Read(regs::kRouteModeOffset)),
          kTableMode);
      EXPECT_EQ(regs::kRouteModeMode.Read(csr[n]->Read(regs::kRouteModeOffset)),
                kDorMode)
          << "the old active bank is the shadow now";
      EXPECT_EQ(csr[n]->Read(regs::kShapeOffset), 0x0404u);
    }
    EXPECT_TRUE(uniform_traffic(50)) << "traffic on firmware's tables";
    EXPECT_TRUE(minimal_hops()) << "C = 2 tables are minimal on a torus";
    uint32_t no_route = 0, injected = 0;
    for (unsigned n = 0; n < kNodes; ++n) {
      no_route += csr[n]->Read(regs::kDropsNoRouteOffset);
      injected += csr[n]->Read(regs::kInjectedOffset);
      EXPECT_EQ(csr[n]->Read(regs::kInjectedOffset),
                nodes[n].router->counters().injected);
    }
    EXPECT_EQ(no_route, 0u);
    EXPECT_EQ(injected, (20 + 50) * kNodes);

    // NET-5.5: a router with an empty table drops what it cannot route.
    CsrMaster& r0 = *csr[0];
    r0.Write(regs::kRouteModeOffset, kTableMode);
    r0.Write(regs::kPortUpOffset, 0);
    r0.Write(regs::kTableIndexOffset, 0);
    for (unsigned i = 0; i < kNodes * 2 * 2; ++i) {
      r0.Write(regs::kTableDataOffset, 0);
    }
    r0.Write(regs::kTableSwitchOffset, 1);
    delivered.clear();
    nodes[0].ni->Send(9, 0, Bytes(10, 1));
    sc_core::wait(sc_time(1, sc_core::SC_US));
    EXPECT_TRUE(delivered.empty());
    EXPECT_EQ(r0.Read(regs::kDropsNoRouteOffset), 1u);

    // INJECT_FREEZE holds the local port; TC_MAP picks the VC set.
    CsrMaster& r3 = *csr[3];
    r3.Write(regs::kInjectFreezeOffset, 1);
    r3.Write(regs::kTcMapOffset, 0);        // every TC to set 0
    nodes[3].ni->Send(6, 7, Bytes(10, 2));  // (3,0) to (2,1): not via 0
    sc_core::wait(sc_time(1, sc_core::SC_US));
    EXPECT_TRUE(delivered.empty()) << "frozen";
    r3.Write(regs::kInjectFreezeOffset, 0);
    sc_core::wait(sc_time(1, sc_core::SC_US));
    ASSERT_EQ(delivered.size(), 1u) << "thawed";
    EXPECT_LT(delivered[0].header.vc, 2) << "TC 7 went on set 0";
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  EXPECT_TRUE(firmware.finished());
}

}  // namespace
}  // namespace lq::net
