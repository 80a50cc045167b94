// SPDX-License-Identifier: Apache-2.0
// The transport engine's registers as firmware uses them (TRN-5.7,
// docs/registers/transport.md): two nodes of a ring connect a QP pair
// entirely through QP_CMD and the staged attributes, node 1 registers a
// region (TRN-6.14), node 0 posts a WRITE, a SEND with immediate data, a
// READ and a fetch-and-add by doorbell, and both take their completions
// from the CQE registers; memory is compared. Then the commands' refusals:
// no such QP, a transition or attribute TRN-5 rejects, DESTROY of a live
// QP, a stale R_Key, and a bus error for an undefined target state. And
// the completion interrupt: CQ_IRQ's level follows the queue.
#include "systemc/transport/transport_registers.h"

#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "generated/cpp/transport_regs.h"
#include "systemc/cluster/engine_torus.h"
#include "testbench/systemc/common/csr_master.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::transport {
namespace {

namespace regs = lq::regs::transport;
using sc_core::sc_time;
using sc_core::SC_US;
using testing::CsrMaster;

constexpr uint32_t kOk = static_cast<uint32_t>(regs::CmdResult::kOk);
constexpr uint32_t kNoSuch = static_cast<uint32_t>(regs::CmdResult::kNoSuch);
constexpr uint32_t kRefused = static_cast<uint32_t>(regs::CmdResult::kRefused);

uint32_t Code(regs::State state) { return static_cast<uint32_t>(state); }

// Firmware's view of one node's engine.
struct Firmware {
  CsrMaster& csr;

  uint32_t Status() { return csr.Read(regs::kCmdStatusOffset); }
  uint32_t Create() {
    csr.Write(
        regs::kQpCmdOffset,
        regs::kQpCmdCmd.Place(static_cast<uint32_t>(regs::QpCmd::kCreate)));
    EXPECT_EQ(Status(), kOk);
    return csr.Read(regs::kQpNumOffset);
  }
  uint32_t Modify(uint32_t qpn, regs::State to) {
    csr.Write(regs::kQpNumOffset, qpn);
    csr.Write(
        regs::kQpCmdOffset,
        regs::kQpCmdCmd.Place(static_cast<uint32_t>(regs::QpCmd::kModify)) |
            regs::kQpCmdToState.Place(Code(to)));
    return Status();
  }
  uint32_t Destroy(uint32_t qpn) {
    csr.Write(regs::kQpNumOffset, qpn);
    csr.Write(
        regs::kQpCmdOffset,
        regs::kQpCmdCmd.Place(static_cast<uint32_t>(regs::QpCmd::kDestroy)));
    return Status();
  }
  // TRN-5.6 steps 2 to 5 for our side of a connection.
  void Connect(uint32_t qpn, uint32_t peer_node, uint32_t peer_qpn) {
    ASSERT_EQ(Modify(qpn, regs::State::kInit), kOk);
    csr.Write(regs::kQpRemoteNodeOffset, peer_node);
    csr.Write(regs::kQpRemoteQpnOffset, peer_qpn);
    csr.Write(regs::kQpPathOffset,
              regs::kQpPathPmtu.Place(3) |  // 1024 bytes
                  regs::kQpPathCc.Place(
                      static_cast<uint32_t>(regs::Congestion::kLqcc)));
  }
  void Wide(uint32_t lo_offset, uint64_t value) {
    csr.Write(lo_offset, static_cast<uint32_t>(value));
    csr.Write(lo_offset + 4, static_cast<uint32_t>(value >> 32));
  }
  uint32_t Post(uint32_t qpn, uint64_t wr_id, regs::WrKind kind,
                uint32_t length, uint64_t local, uint64_t remote,
                uint32_t rkey) {
    Wide(regs::kWrIdLoOffset, wr_id);
    csr.Write(regs::kWrOpOffset,
              regs::kWrOpKind.Place(static_cast<uint32_t>(kind)));
    csr.Write(regs::kWrLengthOffset, length);
    Wide(regs::kWrLocalLoOffset, local);
    Wide(regs::kWrRemoteLoOffset, remote);
    csr.Write(regs::kWrRkeyOffset, rkey);
    csr.Write(regs::kSqDoorbellOffset, qpn);
    return Status();
  }
};

struct Cqe {
  uint32_t qp = 0;
  uint32_t status = 0;
  uint64_t wr_id = 0;
  uint32_t byte_len = 0;
  uint32_t imm = 0;
};

// Waits until `count` completions are queued, then pops them in order.
std::vector<Cqe> TakeCompletions(CsrMaster& csr, uint32_t count) {
  for (int t = 0; t < 200 && csr.Read(regs::kCqCountOffset) < count; ++t) {
    sc_core::wait(sc_time(1, SC_US));
  }
  std::vector<Cqe> taken;
  while (csr.Read(regs::kCqCountOffset) > 0) {
    Cqe cqe;
    cqe.qp = csr.Read(regs::kCqeQpOffset);
    cqe.status = csr.Read(regs::kCqeStatusOffset);
    cqe.wr_id = csr.ReadCounter64(regs::kCqeWrIdLoOffset);
    cqe.byte_len = csr.Read(regs::kCqeByteLenOffset);
    cqe.imm = csr.Read(regs::kCqeImmOffset);
    csr.Write(regs::kCqPopOffset, regs::kCqPopPop.Mask());
    taken.push_back(cqe);
  }
  EXPECT_EQ(csr.Read(regs::kCqeQpOffset), 0u) << "empty: VALID reads 0";
  return taken;
}

// The register blocks of nodes 0 and 1, each with a bus master.
struct RegisterBench {
  std::vector<std::unique_ptr<TransportRegisters>> blocks;
  std::vector<std::unique_ptr<CsrMaster>> masters;

  explicit RegisterBench(std::vector<EngineNode>& nodes) {
    for (unsigned n : {0u, 1u}) {
      const std::string id = std::to_string(n);
      blocks.push_back(std::make_unique<TransportRegisters>(
          ("transport_regs" + id).c_str(), *nodes[n].engine));
      masters.push_back(std::make_unique<CsrMaster>(("csr" + id).c_str()));
      masters[n]->socket.bind(blocks[n]->socket);
    }
  }
};

TEST(TransportRegisters, TRN_5_7_and_TRN_6_14_FirmwareConnectsAndMovesBytes) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  for (unsigned n : {0u, 1u}) {
    nodes[n].memory->bytes =
        Pattern(nodes[n].memory->bytes.size(), static_cast<uint8_t>(n + 3));
  }
  const Bytes before0 = nodes[0].memory->bytes;
  const Bytes before1 = nodes[1].memory->bytes;
  RegisterBench bench(nodes);
  auto& masters = bench.masters;
  std::vector<Cqe> at0, at1;
  uint32_t rkey = 0;
  testing::ScThread firmware("firmware", [&] {
    Firmware f0{*masters[0]}, f1{*masters[1]};
    EXPECT_EQ(regs::kIdMagic.Read(masters[0]->Read(regs::kIdOffset)), 0x5054u);
    EXPECT_EQ(masters[1]->Read(regs::kNodeIdOffset), 1u);
    const uint32_t q0 = f0.Create();
    const uint32_t q1 = f1.Create();
    EXPECT_EQ(masters[0]->Read(regs::kQpStateOffset),
              Code(regs::State::kReset));

    // Node 1's region: 64 KiB at 0x10000, every right.
    f1.Wide(regs::kMrBaseLoOffset, 0x10000);
    masters[1]->Write(regs::kMrLengthOffset, 0x10000);
    masters[1]->Write(regs::kMrAccessOffset, 0x7);
    masters[1]->Write(regs::kMrCmdOffset,
                      static_cast<uint32_t>(regs::MrCmd::kRegister));
    ASSERT_EQ(f1.Status(), kOk);
    rkey = masters[1]->Read(regs::kMrKeyOffset);

    f0.Connect(q0, 1, q1);
    f1.Connect(q1, 0, q0);
    for (Firmware* f : {&f0, &f1}) {
      const uint32_t qpn = f == &f0 ? q0 : q1;
      ASSERT_EQ(f->Modify(qpn, regs::State::kRtr), kOk);
    }
    ASSERT_EQ(f0.Modify(q0, regs::State::kRts), kOk);
    ASSERT_EQ(f1.Modify(q1, regs::State::kRts), kOk);
    EXPECT_EQ(masters[0]->Read(regs::kQpStateOffset), Code(regs::State::kRts));

    // A receive for the SEND, then four operations by doorbell.
    f1.Wide(regs::kWrIdLoOffset, 77);
    masters[1]->Write(regs::kWrLengthOffset, 4096);
    f1.Wide(regs::kWrLocalLoOffset, 0x30000);
    masters[1]->Write(regs::kRqDoorbellOffset, q1);
    ASSERT_EQ(f1.Status(), kOk);
    EXPECT_EQ(f0.Post(q0, 1, regs::WrKind::kWrite, 5000, 0x1000, 0x10000, rkey),
              kOk);
    masters[0]->Write(regs::kWrImmOffset, 0xABCD);
    f0.Wide(regs::kWrIdLoOffset, 2);
    masters[0]->Write(regs::kWrOpOffset,
                      regs::kWrOpKind.Place(0) | regs::kWrOpWithImm.Place(1));
    masters[0]->Write(regs::kWrLengthOffset, 100);
    f0.Wide(regs::kWrLocalLoOffset, 0x3000);
    masters[0]->Write(regs::kSqDoorbellOffset, q0);
    EXPECT_EQ(f0.Status(), kOk);
    EXPECT_EQ(f0.Post(q0, 3, regs::WrKind::kRead, 2000, 0x8000, 0x12000, rkey),
              kOk);
    f0.Wide(regs::kWrSwapAddLoOffset, 5);
    EXPECT_EQ(f0.Post(q0, uint64_t{1} << 40, regs::WrKind::kFetchAdd, 8, 0x9000,
                      0x14000, rkey),
              kOk);
    at0 = TakeCompletions(*masters[0], 4);
    at1 = TakeCompletions(*masters[1], 1);

    // Refusals, each leaving its reason in CMD_STATUS.
    EXPECT_EQ(f0.Post(q0 + 100, 9, regs::WrKind::kWrite, 8, 0, 0, rkey),
              kNoSuch);
    const uint32_t fresh = f0.Create();
    EXPECT_EQ(f0.Modify(fresh, regs::State::kRts), kRefused)
        << "RESET -> RTS is no transition (TRN-5.1)";
    ASSERT_EQ(f0.Modify(fresh, regs::State::kInit), kOk);
    masters[0]->Write(regs::kQpPathOffset, regs::kQpPathPmtu.Place(7));
    EXPECT_EQ(f0.Modify(fresh, regs::State::kRtr), kRefused)
        << "no PMTU code 7 (TRN-5.3)";
    EXPECT_EQ(f0.Destroy(q0), kRefused) << "a live QP stays";
    EXPECT_EQ(f0.Modify(fresh, regs::State::kError), kOk);
    EXPECT_EQ(f0.Destroy(fresh), kOk);
    EXPECT_EQ(f0.Destroy(fresh), kNoSuch);
    masters[1]->Write(regs::kMrCmdOffset,
                      static_cast<uint32_t>(regs::MrCmd::kDeregister));
    EXPECT_EQ(f1.Status(), kOk);
    masters[1]->Write(regs::kMrCmdOffset,
                      static_cast<uint32_t>(regs::MrCmd::kDeregister));
    EXPECT_EQ(f1.Status(), kNoSuch) << "already deregistered";
    uint32_t bad = regs::kQpCmdCmd.Place(2) | regs::kQpCmdToState.Place(6);
    EXPECT_EQ(
        masters[0]->Access(tlm::TLM_WRITE_COMMAND, regs::kQpCmdOffset, bad),
        tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "no state 6: a bus error";
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  ASSERT_EQ(at0.size(), 4u);
  const uint64_t ids[] = {1, 2, 3, uint64_t{1} << 40};
  for (size_t i = 0; i < at0.size(); ++i) {
    EXPECT_EQ(at0[i].wr_id, ids[i]) << "in posting order";
    EXPECT_EQ(regs::kCqeStatusStatus.Read(at0[i].status), 0u) << "SUCCESS";
    EXPECT_EQ(regs::kCqeQpValid.Read(at0[i].qp), 1u);
    EXPECT_EQ(regs::kCqeQpReceive.Read(at0[i].qp), 0u);
  }
  ASSERT_EQ(at1.size(), 1u);
  EXPECT_EQ(at1[0].wr_id, 77u);
  EXPECT_EQ(regs::kCqeQpReceive.Read(at1[0].qp), 1u);
  EXPECT_EQ(regs::kCqeStatusWithImm.Read(at1[0].status), 1u);
  EXPECT_EQ(at1[0].imm, 0xABCDu);
  EXPECT_EQ(at1[0].byte_len, 100u);

  const Bytes& m0 = nodes[0].memory->bytes;
  const Bytes& m1 = nodes[1].memory->bytes;
  auto same = [](const Bytes& a, uint64_t at_a, const Bytes& b, uint64_t at_b,
                 size_t n) {
    return std::equal(a.begin() + at_a, a.begin() + at_a + n, b.begin() + at_b);
  };
  EXPECT_TRUE(same(m1, 0x10000, before0, 0x1000, 5000)) << "WRITE";
  EXPECT_TRUE(same(m1, 0x30000, before0, 0x3000, 100)) << "SEND";
  EXPECT_TRUE(same(m0, 0x8000, before1, 0x12000, 2000)) << "READ";
  EXPECT_EQ(LoadLittleEndian(m1.data() + 0x14000, 8),
            LoadLittleEndian(before1.data() + 0x14000, 8) + 5)
      << "fetch-and-add";
  EXPECT_EQ(LoadLittleEndian(m0.data() + 0x9000, 8),
            LoadLittleEndian(before1.data() + 0x14000, 8))
      << "the original value came back";
}

TEST(TransportRegisters, TRN_5_7_CompletionInterruptIsRaisedWhileOneWaits) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  RegisterBench bench(nodes);
  auto& masters = bench.masters;
  const sc_core::sc_signal<bool>& irq = bench.blocks[1]->irq;
  std::vector<double> raised_us;
  testing::ScThread watch("watch", [&] {
    while (true) {
      sc_core::wait(irq.posedge_event());
      raised_us.push_back(sc_core::sc_time_stamp().to_seconds() * 1e6);
    }
  });
  testing::ScThread firmware("firmware", [&] {
    Firmware f0{*masters[0]}, f1{*masters[1]};
    CsrMaster& csr1 = *masters[1];
    const uint32_t q0 = f0.Create();
    const uint32_t q1 = f1.Create();
    f0.Connect(q0, 1, q1);
    f1.Connect(q1, 0, q0);
    for (Firmware* f : {&f0, &f1}) {
      ASSERT_EQ(f->Modify(f == &f0 ? q0 : q1, regs::State::kRtr), kOk);
    }
    ASSERT_EQ(f0.Modify(q0, regs::State::kRts), kOk);
    for (uint64_t wr_id : {7, 8}) {  // receives for two SENDs
      f1.Wide(regs::kWrIdLoOffset, wr_id);
      csr1.Write(regs::kWrLengthOffset, 64);
      f1.Wide(regs::kWrLocalLoOffset, 0x100 * wr_id);
      csr1.Write(regs::kRqDoorbellOffset, q1);
    }
    csr1.Write(regs::kCqIrqOffset, regs::kCqIrqEnable.Mask());
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_FALSE(irq.read()) << "enabled, but nothing waits";
    EXPECT_EQ(csr1.Read(regs::kCqIrqOffset), regs::kCqIrqEnable.Mask());

    ASSERT_EQ(f0.Post(q0, 1, regs::WrKind::kSend, 64, 0, 0, 0), kOk);
    sc_core::wait(sc_time(10, SC_US));
    EXPECT_TRUE(irq.read()) << "a receive completion waits";
    EXPECT_EQ(csr1.Read(regs::kCqIrqOffset),
              regs::kCqIrqEnable.Mask() | regs::kCqIrqPending.Mask());
    csr1.Write(regs::kCqPopOffset, regs::kCqPopPop.Mask());
    sc_core::wait(sc_time(1, sc_core::SC_NS));
    EXPECT_FALSE(irq.read()) << "popped: the line drops";

    csr1.Write(regs::kCqIrqOffset, 0);
    ASSERT_EQ(f0.Post(q0, 2, regs::WrKind::kSend, 64, 0, 0, 0), kOk);
    sc_core::wait(sc_time(10, SC_US));
    EXPECT_EQ(csr1.Read(regs::kCqCountOffset), 1u);
    EXPECT_FALSE(irq.read()) << "disabled: a waiting completion raises nothing";
    EXPECT_EQ(csr1.Read(regs::kCqIrqOffset), 0u);
    csr1.Write(regs::kCqIrqOffset, regs::kCqIrqEnable.Mask());
    sc_core::wait(sc_time(1, sc_core::SC_NS));
    EXPECT_TRUE(irq.read()) << "enabling with one waiting raises it at once";
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  EXPECT_EQ(raised_us.size(), 2u) << "raised once per episode";
}

}  // namespace
}  // namespace lq::transport
