// SystemC testbench of one LinkChannel under heavy bit errors: every packet
// must arrive once, in order and intact, through NAK-driven and
// timer-driven go-back-N replay: DLL-3.8 (in order, exactly once) through
// DLL-4.3 (go-back replay on NAK) and DLL-4.5 (replay timer), as far as the
// interim fabric implements them.
#include "systemc/fabric/link_channel.h"

#include <systemc>
#include <vector>

#include "gtest/gtest.h"
#include "models/phy/link_profile.h"

namespace lq::fabric {
namespace {

constexpr int kPackets = 3000;
constexpr size_t kPacketBytes = 200;

Bytes PacketNumber(int n) {
  Bytes packet(kPacketBytes);
  for (size_t i = 0; i < packet.size(); ++i) {
    packet[i] = static_cast<uint8_t>(n * 7 + i);
  }
  return packet;
}

// Records what the link delivers.
class Sink : public sc_core::sc_module, public PacketSinkIf {
 public:
  explicit Sink(sc_core::sc_module_name name) : sc_module(name) {}
  void Receive(int port, int vc, Bytes packet) override {
    ports.push_back(port);
    vcs.push_back(vc);
    packet.resize(kPacketBytes);  // The flit slot is zero-padded.
    packets.push_back(std::move(packet));
  }
  std::vector<int> ports, vcs;
  std::vector<Bytes> packets;
};

// Offers packets in bursts with idle gaps, so the transmitter both queues
// and goes idle.
class Source : public sc_core::sc_module {
 public:
  sc_core::sc_port<PacketLinkIf> out;
  explicit Source(sc_core::sc_module_name name) : sc_module(name), out("out") {
    SC_HAS_PROCESS(Source);
    SC_THREAD(Run);
  }

 private:
  void Run() {
    for (int n = 0; n < kPackets; ++n) {
      out->Send(PacketNumber(n), n % 3);
      if (n % 100 == 99) {
        wait(500, sc_core::SC_NS);
      }
    }
  }
};

TEST(LinkChannel, DLL_3_8_ReplayDeliversEveryPacketOnceInOrderUnderBitErrors) {
  LinkChannelConfig config;
  config.profile = phy::FindLinkProfile("pcie6").value();
  config.width = config.profile.max_lanes;
  // Roughly one flit in twenty has two errors in one codeword: many
  // uncorrectable flits, and replays that are themselves hit.
  config.ber = 2e-4;
  config.cable_metres = 2;
  config.replay_timeout_flits = 375;
  config.seed = 42;
  config.receiver_port = 5;

  Source source("source");
  LinkChannel link("link", config);
  Sink sink("sink");
  source.out(link);
  link.to_node(sink);
  sc_core::sc_start();

  ASSERT_EQ(sink.packets.size(), static_cast<size_t>(kPackets))
      << "every packet arrives exactly once";
  for (int n = 0; n < kPackets; ++n) {
    ASSERT_EQ(sink.packets[n], PacketNumber(n))
        << "packet " << n << " out of order or corrupted";
    ASSERT_EQ(sink.vcs[n], n % 3) << "VC carried in the DLP";
    ASSERT_EQ(sink.ports[n], 5) << "delivered on the receiver's port";
  }
  const LinkCounters& counters = link.counters();
  EXPECT_GT(counters.fec_corrected, 0u) << "single errors are corrected";
  EXPECT_GT(counters.crc_errors, 10u) << "the BER should defeat the FEC often";
  EXPECT_GT(counters.replays, 10u) << "each loss is replayed";
  EXPECT_GT(counters.replay_timeouts, 0u)
      << "a corrupted replay is recovered by the replay timer";
  EXPECT_EQ(counters.flits, kPackets + counters.replayed_flits)
      << "every flit sent is a first transmission or a counted replay";
}

}  // namespace
}  // namespace lq::fabric
