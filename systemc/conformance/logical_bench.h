// SPDX-License-Identifier: Apache-2.0
// The set-up every logical-layer conformance case runs in (decision 0028):
// the card under test (node 1: its transport engine, its logical unit over
// its card memory, and the unit's registers) and a reference card (node 2,
// the same TL models), joined by a FrameWire where the fabric would be,
// with the node pair's one connection (LOG-3.7). The address space has a
// third endpoint, node 0, with no card, so that every node ID a message
// carries is one a field left at zero would not match. Cases drive the DUT as
// its peers and its own firmware would: accesses on its unit's requester
// socket, its registers, and whatever the reference card sends it, which
// the bench steers as the reference card's requesters and firmware. Every
// frame between the cards is on the wire's record.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "models/common/bytes.h"
#include "models/logical/global_address.h"
#include "systemc/cluster/engine_torus.h"
#include "systemc/common/register_master.h"
#include "systemc/conformance/frame_wire.h"
#include "systemc/conformance/transport_bench.h"
#include "systemc/logical/card_memory.h"
#include "systemc/logical/logical_registers.h"
#include "systemc/logical/logical_unit.h"
#include "systemc/logical/requester.h"
#include "systemc/network/slot_channel.h"
#include "systemc/transport/transport_engine.h"

namespace lq::conformance {

// One card of the bench.
struct BenchCard {
  std::unique_ptr<transport::TransportEngine> engine;
  std::unique_ptr<logical::CardMemory> memory;
  std::unique_ptr<logical::LogicalUnit> unit;
  std::vector<std::unique_ptr<logical::testing::Requester>> requesters;
};

class LogicalBench {
 public:
  static constexpr uint16_t kDutNode = 1;
  static constexpr uint16_t kPeerNode = 2;
  // The bench's address space (log.md section 7's sizes, made small): three
  // endpoints, 1 MiB direct regions, 4 KiB pages.
  static constexpr uint32_t kEndpoints = 3;
  static constexpr uint64_t kDirectBytes = uint64_t{1} << 20;
  static constexpr uint64_t kPageBytes = 4096;
  // log.fault_queue_entries of both units: small, so that a case can fill
  // the DUT's queue (LOG-6.2).
  static constexpr size_t kFaultQueueEntries = 2;
  // Requesters on each card's unit, one socket each.
  static constexpr unsigned kRequesters = 3;
  // The reference card's bus memory, where the bench keeps the SENDs it
  // posts itself (SendFromPeer).
  static constexpr size_t kBufferBytes = 4096;

  // `mutant` (may be null) breaks the DUT at its transport port.
  explicit LogicalBench(const FrameMutant* mutant);
  ~LogicalBench();

  logical::LogicalUnit& dut() { return *dut_.unit; }
  logical::CardMemory& dut_memory() { return *dut_.memory; }
  logical::testing::Requester& requester(unsigned index) {
    return *dut_.requesters.at(index);
  }
  // The DUT's firmware's bus master on its unit's registers
  // (docs/registers/logical.md).
  RegisterMaster& dut_csr() { return *dut_csr_; }
  // The DUT unit's interrupt line.
  const sc_core::sc_signal<bool>& dut_irq() const {
    return dut_registers_->irq;
  }

  logical::LogicalUnit& peer() { return *peer_.unit; }
  logical::CardMemory& peer_memory() { return *peer_.memory; }
  logical::testing::Requester& peer_requester(unsigned index) {
    return *peer_.requesters.at(index);
  }
  FrameWire& wire() { return *wire_; }

  // Posts `message` (any bytes) as a SEND from the reference card on the
  // node pair's connection, past its unit: a LOG message as a broken or
  // hostile peer might send it. False if the engine refused the post.
  bool SendFromPeer(const Bytes& message);

  // The GA of byte `offset` of `node`'s direct region, and of byte
  // `within` of page `page` of `owner`'s paged region.
  static uint64_t DirectGa(uint16_t node, uint64_t offset) {
    return logical::GlobalAddress(node, offset);
  }
  static uint64_t PagedGa(uint16_t owner, uint64_t page, uint64_t within = 0) {
    return logical::GlobalAddress(owner,
                                  kDirectBytes + page * kPageBytes + within);
  }

 private:
  BenchCard dut_, peer_;
  std::unique_ptr<logical::LogicalRegisters> dut_registers_;
  std::unique_ptr<RegisterMaster> dut_csr_;
  std::unique_ptr<transport::TestMemory> peer_buffers_;
  std::unique_ptr<FrameWire> wire_;
  std::unique_ptr<net::SlotChannel> dut_channel_;  // wire <-> DUT
  uint32_t peer_qpn_ = 0;
  uint64_t next_raw_wr_ = 1;
};

}  // namespace lq::conformance
