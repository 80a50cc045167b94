// SPDX-License-Identifier: Apache-2.0
// Tests of the network interface at the router's local port: one slot per
// cycle (NET-8.8, docs/spec/net.md section 8) even when the router hands
// a credit back in the very delta the slot leaves, and a packet that fails
// the receiver's checks counted, not lost unseen (NET-2.10), and a credit
// that crosses an interface link spent only once it has arrived
// (NET-8.12).
#include "systemc/network/network_interface.h"

#include <gtest/gtest.h>

#include <systemc>
#include <vector>

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// A router's local port as the interface sees it: it grants one credit per
// VC at the start, records when each slot reaches it, and returns the
// credit at once, as Router::Cycle does for the local input it sends from.
class EagerLocalPort : public sc_core::sc_module, public link::SlotIf {
 public:
  link::SlotSocket socket{"socket"};
  std::vector<sc_time> arrivals;

  explicit EagerLocalPort(const sc_core::sc_module_name& name)
      : sc_module(name) {
    socket.in.bind(*this);
  }
  void start_of_simulation() override {
    for (unsigned vc = 0; vc < 2; ++vc) {
      socket.out->Credit(vc, 1, sc_core::SC_ZERO_TIME);
    }
  }
  void Put(link::Slot slot, const sc_time& delay) override {
    arrivals.push_back(sc_core::sc_time_stamp() + delay);
    socket.out->Credit(slot.vc, 1, sc_core::SC_ZERO_TIME);
  }
  void Credit(unsigned, unsigned, const sc_time&) override {}
  void Control(Bytes, const sc_time&) override {}
};

// An interface of node 0 of 2, with one set of `vc_classes` VCs.
NetworkInterfaceConfig TwoNodeConfig(unsigned vc_classes) {
  NetworkInterfaceConfig config;
  config.nodes = 2;
  config.vc_classes = vc_classes;
  config.vc_sets = 1;
  config.tc_map = DefaultTcMap(1);
  return config;
}

TEST(NetworkInterface, NET_8_8_SendsAtMostOneSlotPerCycle) {
  const NetworkInterfaceConfig config = TwoNodeConfig(2);
  NetworkInterface ni("ni", config, [](Delivered) {});
  EagerLocalPort port("port");
  Connect(ni.socket, port.socket);
  constexpr size_t kPackets = 4, kPayload = 1000;
  for (size_t i = 0; i < kPackets; ++i) {
    ni.Send(1, 0, Bytes(kPayload, 0x5a));
  }
  sc_core::sc_start(sc_time(100, SC_NS));
  // Back to back in the VCs' byte streams (NET-2.7), the last slot of
  // each VC padded.
  ASSERT_GE(port.arrivals.size(), (kPackets * (kRouteHeaderBytes + kPayload) +
                                   config.slot_bytes - 1) /
                                      config.slot_bytes);
  for (size_t i = 1; i < port.arrivals.size(); ++i) {
    EXPECT_GE(port.arrivals[i] - port.arrivals[i - 1], sc_time(1, SC_NS))
        << "slots " << i - 1 << " and " << i << " in one cycle";
  }
}

// A local port across an interface link of 10 ns: the credit for each
// slot comes back over the link.
class DistantLocalPort : public EagerLocalPort {
 public:
  using EagerLocalPort::EagerLocalPort;
  static constexpr double kLinkNs = 10;
  void start_of_simulation() override {  // one VC, one slot of room
    socket.out->Credit(0, 1, sc_core::SC_ZERO_TIME);
  }
  void Put(link::Slot slot, const sc_time& delay) override {
    arrivals.push_back(sc_core::sc_time_stamp() + delay);
    socket.out->Credit(slot.vc, 1, delay + sc_time(kLinkNs, SC_NS));
  }
};

TEST(NetworkInterface, NET_8_12_ACreditCountsWhenItArrivesNotWhenSent) {
  const NetworkInterfaceConfig config = TwoNodeConfig(1);
  NetworkInterface ni("ni", config, [](Delivered) {});
  DistantLocalPort port("port");
  Connect(ni.socket, port.socket);
  ni.Send(1, 0, Bytes(3 * config.slot_bytes, 0x5a));  // 4 slots
  sc_core::sc_start(sc_time(100, SC_NS));
  ASSERT_EQ(port.arrivals.size(), 4u);
  for (size_t i = 1; i < port.arrivals.size(); ++i) {
    // The credit the previous slot freed arrives 10 ns after that slot.
    EXPECT_GE(port.arrivals[i] - port.arrivals[i - 1],
              sc_time(DistantLocalPort::kLinkNs, SC_NS))
        << "slot " << i << " left on a credit still on its way";
  }
}

// A slot holding one whole packet to node 1, whose header names `header_vc`.
link::Slot PacketSlot(unsigned slot_vc, unsigned header_vc, size_t slot_bytes) {
  RouteHeader header;
  header.kind = static_cast<uint8_t>(PacketKind::kData);
  header.dst = 1;
  header.vc = static_cast<uint8_t>(header_vc);
  header.ttl = 64;
  header.len = 64;
  link::Slot slot;
  slot.vc = slot_vc;
  slot.bytes.assign(slot_bytes, 0);
  EncodeRouteHeader(header, slot.bytes.data());
  return slot;
}

TEST(NetworkInterface, NET_2_10_APacketFailingTheChecksIsCountedAsRefused) {
  NetworkInterfaceConfig config = TwoNodeConfig(2);
  config.node = 1;
  std::vector<Delivered> delivered;
  NetworkInterface ni("ni", config, [&delivered](Delivered d) {
    delivered.push_back(std::move(d));
  });
  EagerLocalPort port("port");
  Connect(ni.socket, port.socket);
  sc_core::sc_start(sc_time(1, SC_NS));
  port.socket.out->Put(PacketSlot(0, 0, config.slot_bytes), sc_time(1, SC_NS));
  // Check 4: the header names VC 0, the slot came on VC 1.
  port.socket.out->Put(PacketSlot(1, 0, config.slot_bytes), sc_time(2, SC_NS));
  sc_core::sc_start(sc_time(10, SC_NS));
  EXPECT_EQ(delivered.size(), 1u);
  EXPECT_EQ(ni.refused(), 1u);
}

}  // namespace
}  // namespace lq::net
