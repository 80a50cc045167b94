// SPDX-License-Identifier: Apache-2.0
// The logical unit's registers as firmware uses them (docs/spec/log.md
// section 7, docs/registers/logical.md) on a 2x2 torus: a fault served
// entirely through the interrupt, FQ_* and FR_* (LOG-6.2 to LOG-6.4); the
// page-table commands (LOG-5.2, LOG-5.3); an invalidation and its
// acknowledgement in the mailbox (LOG-6.8); a FRAME_ALLOC_REQ sent from
// one mailbox to another (LOG-6.10); the copy engine (LOG-6.13,
// systemc/logical/copy_engine.cpp); the
// MCU's window onto global addresses (LOG-3.8); and the refusals.
#include "systemc/logical/logical_registers.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "generated/cpp/logical_regs.h"
#include "systemc/cluster/logical_fabric.h"
#include "systemc/common/bus_amo_extension.h"
#include "systemc/logical/requester.h"
#include "testbench/systemc/common/csr_master.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/logical/fault_test_support.h"
#include "testbench/systemc/logical/owner_firmware.h"

namespace lq::logical {
namespace {

namespace regs = lq::regs::logical;
using ::lq::testing::CsrMaster;
using ::lq::testing::ScThread;
using testing::Answer;
using testing::BindRequesters;
using testing::Requester;
using testing::RunUntilDone;

constexpr unsigned kNodes = 4;
constexpr uint64_t kPage = 64 * 1024;

uint32_t Code(regs::CmdResult result) { return static_cast<uint32_t>(result); }

uint64_t PagedGa(uint16_t owner, uint64_t page) {
  return GlobalAddress(owner, AddressSpace{}.direct_bytes + page * kPage);
}

// Registers and a CSR master on every node.
struct Bench {
  std::unique_ptr<cluster::LogicalFabric> fabric;
  std::vector<std::unique_ptr<Requester>> requesters;
  std::vector<std::unique_ptr<LogicalRegisters>> registers;
  std::vector<std::unique_ptr<CsrMaster>> csr;

  explicit Bench(const cluster::LogicalFabricConfig& config =
                     cluster::LogicalFabricConfig{})
      : fabric(cluster::BuildTorusFabric("2x2", config)),
        requesters(BindRequesters(*fabric, kNodes, 1)) {
    for (unsigned n = 0; n < kNodes; ++n) {
      const std::string id = std::to_string(n);
      registers.push_back(std::make_unique<LogicalRegisters>(
          ("registers" + id).c_str(), fabric->unit(n)));
      csr.push_back(std::make_unique<CsrMaster>(("csr" + id).c_str()));
      csr.back()->socket.bind(registers.back()->socket);
    }
  }
  void WriteWide(unsigned node, uint32_t lo, uint64_t value) {
    csr[node]->Write(lo, static_cast<uint32_t>(value));
    csr[node]->Write(lo + 4, static_cast<uint32_t>(value >> 32));
  }
  uint64_t Wide(unsigned node, uint32_t lo) {
    return uint64_t{csr[node]->Read(lo + 4)} << 32 | csr[node]->Read(lo);
  }
  uint32_t Status(unsigned node) {
    return csr[node]->Read(regs::kCmdStatusOffset);
  }
  // Stages a copy on `node`'s engine and writes CP_CMD; CMD_STATUS.
  uint32_t Copy(unsigned node, uint64_t src, uint64_t dst, uint32_t bytes,
                regs::CpCmd command = regs::CpCmd::kCopy) {
    WriteWide(node, regs::kCpSrcLoOffset, src);
    WriteWide(node, regs::kCpDstLoOffset, dst);
    csr[node]->Write(regs::kCpBytesOffset, bytes);
    csr[node]->Write(regs::kCpCmdOffset, static_cast<uint32_t>(command));
    return Status(node);
  }
  // In a test thread: until `node`'s CP_STATUS.DONE; CP_STATUS then.
  uint32_t WaitCopy(unsigned node) {
    uint32_t status = 0;
    while (((status = csr[node]->Read(regs::kCpStatusOffset)) &
            regs::kCpStatusDone.Mask()) == 0) {
      sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
    }
    return status;
  }
};

uint32_t CopyCode(regs::CopyResult result) {
  return regs::kCpStatusResult.Place(static_cast<uint32_t>(result));
}

TEST(LogicalRegisters, IdentityAndTheSpaceTheyDescribe) {
  Bench bench;
  ScThread thread("test", [&] {
    CsrMaster& csr = *bench.csr[2];
    EXPECT_EQ(regs::kIdMagic.Read(csr.Read(regs::kIdOffset)), 0x554Cu);
    EXPECT_EQ(csr.Read(regs::kNodeIdOffset), 2u);
    EXPECT_EQ(csr.Read(regs::kLuRkeyOffset), bench.fabric->unit(2).rkey());
    EXPECT_EQ(csr.Read(regs::kSpaceOffset), 4u << 16 | 16u)
        << "4 endpoints, 64 KiB pages";
    EXPECT_EQ(csr.Read(regs::kDirectFramesOffset), 262144u) << "16 GiB";
  });
  RunUntilDone({&thread});
}

// LOG-6.2 to LOG-6.4 through the registers: the interrupt rises with a
// record, the record's words name the fault, the response sent by FR_SEND
// completes the requester's access, and the interrupt falls with the pop.
TEST(LogicalRegisters, LOG_6_4_FirmwareServesAFaultThroughTheRegisters) {
  Bench bench;
  AccessStatus status = AccessStatus::kFaultError;
  std::vector<uint32_t> words;
  bool irq_after_pop = true;
  ScThread requester("requester", [&] {
    Bytes data(32, 0x5A);
    status = bench.requesters[1]->Store(PagedGa(0, 3) + 0x100, data).status;
  });
  ScThread firmware("firmware", [&] {
    CsrMaster& csr = *bench.csr[0];
    csr.Write(regs::kIrqEnableOffset, regs::kIrqEnableFault.Mask());
    while (!bench.registers[0]->irq.read()) {
      sc_core::wait(bench.registers[0]->irq.value_changed_event());
    }
    EXPECT_EQ(csr.Read(regs::kFqCountOffset), 1u);
    EXPECT_EQ(csr.Read(regs::kIrqStatusOffset), regs::kIrqStatusFault.Mask());
    for (unsigned i = 0; i < regs::kFqDataCount; ++i) {
      words.push_back(csr.Read(regs::FqDataOffset(i)));
    }
    csr.Write(regs::kFqPopOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kOk));
    sc_core::wait(sc_core::SC_ZERO_TIME);
    irq_after_pop = bench.registers[0]->irq.read();
    const Pte pte = testing::FullRights(2, 77);
    csr.Write(regs::kFrRequesterOffset, words[2] & 0xFFFF);
    csr.Write(regs::kFrFaultIdOffset, words[2] >> 16);
    csr.Write(regs::kFrStatusOffset,
              static_cast<uint32_t>(regs::FaultStatus::kAllocated));
    csr.Write(regs::kFrReasonOffset, 0);
    bench.WriteWide(0, regs::kFrGaLoOffset, PagedGa(0, 3));
    bench.WriteWide(0, regs::kFrPteLoOffset, pte.Encode());
    csr.Write(regs::kFrSendOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kOk));
  });
  RunUntilDone({&requester, &firmware});
  EXPECT_EQ(status, AccessStatus::kOk);
  ASSERT_EQ(words.size(), 8u);
  EXPECT_EQ(uint64_t{words[1]} << 32 | words[0], PagedGa(0, 3) + 0x100);
  EXPECT_EQ(words[2] & 0xFFFF, 1u) << "REQUESTER";
  EXPECT_EQ(words[3], 32u << 16 | 1u << 8 | 1u) << "32-byte NOT_MAPPED store";
  EXPECT_FALSE(irq_after_pop);
  EXPECT_EQ(bench.fabric->memory(2).Peek(77 * kPage + 0x100, 32),
            Bytes(32, 0x5A));
}

// LOG-5.2, LOG-5.3: PT_CMD writes, reads and removes entries; a PTE
// LOG-5.3 refuses is BAD_PTE and counted.
TEST(LogicalRegisters, LOG_5_2_PageTableCommands_fail) {
  Bench bench;
  const uint32_t write = static_cast<uint32_t>(regs::PtCmd::kWrite);
  const uint32_t read = static_cast<uint32_t>(regs::PtCmd::kRead);
  const uint32_t remove = static_cast<uint32_t>(regs::PtCmd::kRemove);
  ScThread thread("test", [&] {
    CsrMaster& csr = *bench.csr[1];
    Pte pte;
    pte.valid = pte.read = true;
    pte.home = 3;
    pte.frame = 9;
    bench.WriteWide(1, regs::kPtGaLoOffset, PagedGa(0, 5) + 0x40);
    bench.WriteWide(1, regs::kPtPteLoOffset, pte.Encode());
    csr.Write(regs::kPtCmdOffset, write);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kOk));
    bench.WriteWide(1, regs::kPtPteLoOffset, 0);
    csr.Write(regs::kPtCmdOffset, read);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kOk));
    EXPECT_EQ(csr.Read(regs::kPtPteLoOffset),
              static_cast<uint32_t>(pte.Encode()));
    EXPECT_EQ(csr.Read(regs::kPtPteHiOffset), 9u);
    EXPECT_EQ(bench.requesters[1]->Load(PagedGa(0, 5), 8).status,
              AccessStatus::kOk)
        << "the entry translates";
    csr.Write(regs::kPtCmdOffset, remove);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kOk));
    csr.Write(regs::kPtCmdOffset, remove);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kNoEntry));
    csr.Write(regs::kPtCmdOffset, read);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kNoEntry));
    pte.home = 4;  // no such endpoint
    bench.WriteWide(1, regs::kPtPteLoOffset, pte.Encode());
    csr.Write(regs::kPtCmdOffset, write);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kBadPte));
    bench.WriteWide(1, regs::kPtPteLoOffset, 1u << 7);  // a reserved bit
    csr.Write(regs::kPtCmdOffset, write);
    EXPECT_EQ(bench.Status(1), Code(regs::CmdResult::kBadPte));
  });
  RunUntilDone({&thread});
  EXPECT_EQ(bench.fabric->unit(1).counters().bad_ptes, 1u);
}

// LOG-6.5, LOG-6.10: BUSY is the unit's answer, not firmware's (a bus
// error); a REJECT needs a REASON and nothing else may carry one.
TEST(LogicalRegisters, LOG_6_5_MalformedResponsesAreRefused_fail) {
  Bench bench;
  ScThread thread("test", [&] {
    CsrMaster& csr = *bench.csr[0];
    uint32_t busy = static_cast<uint32_t>(FaultStatus::kBusy);
    EXPECT_EQ(csr.Access(tlm::TLM_WRITE_COMMAND, regs::kFrStatusOffset, busy),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    csr.Write(regs::kFrRequesterOffset, 1);
    csr.Write(regs::kFrStatusOffset,
              static_cast<uint32_t>(regs::FaultStatus::kReject));
    csr.Write(regs::kFrSendOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kBadMessage));
    csr.Write(regs::kFrStatusOffset,
              static_cast<uint32_t>(regs::FaultStatus::kMap));
    csr.Write(regs::kFrReasonOffset,
              static_cast<uint32_t>(regs::RejectReason::kRange));
    csr.Write(regs::kFrSendOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kBadMessage));
    csr.Write(regs::kFqPopOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kEmpty));
  });
  RunUntilDone({&thread});
  EXPECT_EQ(bench.fabric->unit(0).counters().faults_served, 0u);
}

// LOG-6.8 and LOG-6.10 through the registers: INV_SEND's acknowledgement
// and a FRAME_ALLOC_REQ sent by MB_SEND arrive in the mailboxes, whose
// words give type, sender and bytes; a message the mailbox may not send
// is BAD_MESSAGE.
TEST(LogicalRegisters, LOG_6_10_InvalidationAndFrameMessagesThroughTheMailbox) {
  Bench bench;
  std::vector<uint32_t> ack;
  std::vector<uint32_t> frame;
  ScThread thread("test", [&] {
    CsrMaster& owner = *bench.csr[0];
    owner.Write(regs::kIrqEnableOffset, regs::kIrqEnableMail.Mask());
    owner.Write(regs::kInvNodeOffset, 3);
    bench.WriteWide(0, regs::kInvGaLoOffset, PagedGa(0, 2));
    owner.Write(regs::kInvPagesOffset, 4);
    owner.Write(regs::kInvSendOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kOk));
    const uint32_t id = owner.Read(regs::kInvIdOffset);
    while (!bench.registers[0]->irq.read()) {
      sc_core::wait(bench.registers[0]->irq.value_changed_event());
    }
    EXPECT_EQ(owner.Read(regs::kMbCountOffset), 1u);
    for (unsigned i = 0; i < regs::kMbDataCount; ++i) {
      ack.push_back(owner.Read(regs::MbDataOffset(i)));
    }
    EXPECT_EQ(ack[1], 0x04000000u) << "TYPE, then reserved bytes";
    EXPECT_EQ(ack[2], id << 16) << "INVAL_ID in bytes 4-5";
    owner.Write(regs::kMbPopOffset, 1);
    EXPECT_EQ(owner.Read(regs::kMbCountOffset), 0u);
    // FRAME_ALLOC_REQ (TYPE 5, REQ_ID 0x0102) from node 0 to node 3.
    owner.Write(regs::kMbSendNodeOffset, 3);
    owner.Write(regs::MbSendDataOffset(0), 0x05000000);
    owner.Write(regs::MbSendDataOffset(1), 0x01020000);
    owner.Write(regs::kMbSendOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kOk));
    // A FAULT_REQ is the unit's to send, not the mailbox's.
    owner.Write(regs::MbSendDataOffset(0), 0x01000100);
    owner.Write(regs::kMbSendOffset, 1);
    EXPECT_EQ(bench.Status(0), Code(regs::CmdResult::kBadMessage));
    CsrMaster& member = *bench.csr[3];
    while (member.Read(regs::kMbCountOffset) == 0) {
      sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
    }
    for (unsigned i = 0; i < 3; ++i) {
      frame.push_back(member.Read(regs::MbDataOffset(i)));
    }
  });
  RunUntilDone({&thread});
  ASSERT_EQ(ack.size(), 8u);
  EXPECT_EQ(ack[0], 3u << 16 | 4u) << "from node 3, TYPE 4 INVAL_ACK";
  EXPECT_EQ(ack[0] & (1u << 8), 0u) << "not LOST";
  EXPECT_EQ(uint64_t{ack[3]} << 32 | ack[4], PagedGa(0, 2))
      << "GA in bytes 8-15";
  ASSERT_EQ(frame.size(), 3u);
  EXPECT_EQ(frame[0], 0u << 16 | 5u) << "from node 0, TYPE 5";
  EXPECT_EQ(frame[1], 0x05000000u);
  EXPECT_EQ(frame[2], 0x01020000u);
}

// LOG-6.13: node 0's firmware copies a page from node 1 to node 2, both
// remote, then migrates one of its own to node 3; a second command while a
// copy runs, or before its DONE is cleared, is refused; DONE raises the
// COPY interrupt until it is cleared.
TEST(LogicalRegisters, LOG_6_13_TheCopyEngineMovesPagesBetweenHomes) {
  Bench bench;
  Bytes remote(kPage), local(kPage);
  for (size_t i = 0; i < kPage; ++i) {
    remote[i] = static_cast<uint8_t>(i * 7 + 1);
    local[i] = static_cast<uint8_t>(i * 3 + 2);
  }
  bench.fabric->memory(1).Poke(0x30000, remote);
  bench.fabric->memory(0).Poke(0x50000, local);
  std::vector<uint32_t> statuses;
  uint32_t busy = 0, refused = 0, refused_done = 0, first = 0, second = 0;
  bool irq_done = false, irq_cleared = true;
  ScThread thread("test", [&] {
    CsrMaster& csr = *bench.csr[0];
    csr.Write(regs::kIrqEnableOffset, regs::kIrqEnableCopy.Mask());
    statuses.push_back(bench.Copy(0, GlobalAddress(1, 0x30000),
                                  GlobalAddress(2, 0x70000), kPage));
    busy = csr.Read(regs::kCpStatusOffset);
    refused = bench.Copy(0, GlobalAddress(1, 0), GlobalAddress(2, 0), 64);
    first = bench.WaitCopy(0);
    refused_done = bench.Copy(0, GlobalAddress(1, 0), GlobalAddress(2, 0), 64);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    irq_done = bench.registers[0]->irq.read();
    csr.Write(regs::kCpStatusOffset, regs::kCpStatusDone.Mask());
    sc_core::wait(sc_core::SC_ZERO_TIME);
    irq_cleared = bench.registers[0]->irq.read();
    statuses.push_back(bench.Copy(0, GlobalAddress(0, 0x50000),
                                  GlobalAddress(3, 0x10000), kPage,
                                  regs::CpCmd::kMigrate));
    second = bench.WaitCopy(0);
  });
  RunUntilDone({&thread});
  EXPECT_EQ(statuses, (std::vector<uint32_t>{Code(regs::CmdResult::kOk),
                                             Code(regs::CmdResult::kOk)}));
  EXPECT_EQ(busy, regs::kCpStatusBusy.Mask());
  EXPECT_EQ(refused, Code(regs::CmdResult::kFull)) << "one copy at a time";
  EXPECT_EQ(refused_done, Code(regs::CmdResult::kFull))
      << "nor one while the last one's DONE is set";
  EXPECT_EQ(first,
            regs::kCpStatusDone.Mask() | CopyCode(regs::CopyResult::kOk));
  EXPECT_EQ(second,
            regs::kCpStatusDone.Mask() | CopyCode(regs::CopyResult::kOk));
  EXPECT_TRUE(irq_done);
  EXPECT_FALSE(irq_cleared);
  EXPECT_EQ(bench.fabric->memory(2).Peek(0x70000, kPage), remote);
  EXPECT_EQ(bench.fabric->memory(3).Peek(0x10000, kPage), local);
  EXPECT_EQ(bench.fabric->memory(2).Peek(0x60000, 64), Bytes(64, 0))
      << "nothing but the destination written";
  const LogicalCounters& counters = bench.fabric->unit(0).counters();
  EXPECT_EQ(counters.copies, 1u);
  EXPECT_EQ(counters.migrations, 1u) << "the MIGRATE";
}

// LOG-6.13's refusals change nothing; a copy whose destination's node has
// died ends UNREACHABLE once the transport gives up, with nothing counted.
TEST(LogicalRegisters, LOG_6_13_RefusedAndFailedCopies_fail) {
  cluster::LogicalFabricConfig config;
  config.timeout = 1;  // 8.2 us per attempt
  Bench bench(config);
  const uint64_t direct = AddressSpace{}.direct_bytes;
  std::vector<uint32_t> refusals;
  uint32_t unreachable = 0;
  ScThread thread("test", [&] {
    const uint64_t src = GlobalAddress(1, 0);
    const uint64_t dst = GlobalAddress(2, 0);
    refusals.push_back(bench.Copy(0, src, dst, 0));
    refusals.push_back(bench.Copy(0, src, dst, kPage + 1));
    refusals.push_back(bench.Copy(0, PagedGa(1, 0), dst, 64));
    refusals.push_back(bench.Copy(0, src, GlobalAddress(2, direct - 32), 64));
    refusals.push_back(bench.Copy(0, src, GlobalAddress(9, 0), 64));
    EXPECT_EQ(bench.csr[0]->Read(regs::kCpStatusOffset), 0u)
        << "nothing started";
    bench.fabric->node(2).engine->interface().Fail();
    EXPECT_EQ(bench.Copy(0, src, dst, 64), Code(regs::CmdResult::kOk));
    unreachable = bench.WaitCopy(0);
  });
  RunUntilDone({&thread});
  EXPECT_EQ(refusals,
            std::vector<uint32_t>(5, Code(regs::CmdResult::kBadRange)));
  EXPECT_EQ(unreachable, regs::kCpStatusDone.Mask() |
                             CopyCode(regs::CopyResult::kUnreachable));
  EXPECT_EQ(bench.fabric->unit(0).counters().copies, 0u);
}

// LOG-3.8 through the window socket, as the board's bus presents the
// MCU's accesses: window offsets reach GW_BASE + offset; AMOSWAP and
// AMOADD are performed by the unit; any other AMO is COMMAND_ERROR and
// changes nothing.
TEST(LogicalRegisters, LOG_3_8_TheWindowReachesGlobalAddresses_fail) {
  Bench bench;
  Requester mcu("mcu");
  mcu.socket.bind(bench.fabric->unit(0).window);
  bench.fabric->memory(2).Poke(0x5010, Bytes{7, 0, 0, 0, 40, 0, 0, 0});
  Answer stored, swapped, added, refused;
  uint64_t base = 0;
  ScThread thread("test", [&] {
    bench.WriteWide(0, regs::kGwBaseLoOffset, GlobalAddress(2, 0x5000));
    base = bench.Wide(0, regs::kGwBaseLoOffset);
    stored = mcu.Store(0x20, Bytes{1, 2, 3, 4});
    const auto amo = [&](BusAmoExtension::Op op, uint64_t offset) {
      BusAmoExtension extension;
      extension.op = op;
      extension.operand = 5;
      uint8_t word[4] = {};
      tlm::tlm_generic_payload& trans = mcu.raw();
      trans.set_command(tlm::TLM_READ_COMMAND);
      trans.set_address(offset);
      trans.set_data_ptr(word);
      trans.set_data_length(4);
      trans.set_streaming_width(4);
      trans.set_extension(&extension);
      Answer answer = mcu.IssueRaw();
      trans.clear_extension(&extension);
      answer.old = LoadLittleEndian(word, 4);
      EXPECT_TRUE(extension.performed);
      return answer;
    };
    swapped = amo(BusAmoExtension::Op::kSwap, 0x10);
    added = amo(BusAmoExtension::Op::kAdd, 0x14);
    refused = amo(BusAmoExtension::Op::kOther, 0x10);
  });
  RunUntilDone({&thread});
  EXPECT_EQ(base, GlobalAddress(2, 0x5000));
  EXPECT_EQ(stored.status, AccessStatus::kOk);
  EXPECT_EQ(bench.fabric->memory(2).Peek(0x5020, 4), (Bytes{1, 2, 3, 4}));
  EXPECT_EQ(swapped.old, 7u);
  EXPECT_EQ(added.old, 40u);
  EXPECT_EQ(refused.response, tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(bench.fabric->memory(2).Peek(0x5010, 8),
            (Bytes{5, 0, 0, 0, 45, 0, 0, 0}))
      << "SWAP wrote 5, ADD made 45, the refused AMO nothing";
}

}  // namespace
}  // namespace lq::logical
