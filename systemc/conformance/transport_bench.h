// SPDX-License-Identifier: Apache-2.0
// The set-up every transport conformance case runs in: the transport engine
// under test (node 0) and a reference partner engine (node 1, the TL
// engine), each with a memory it may DMA into, joined by a FrameWire where
// a fabric would be. Cases drive the DUT only as a peer and an owner
// would: frames at its transport port (through the wire), and its
// verbs-like API for connecting queue pairs and posting work requests, the
// host side of a transport engine as the slot socket is the network side
// of a link controller (decision 0022).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/engine_torus.h"
#include "systemc/common/register_master.h"
#include "systemc/conformance/frame_wire.h"
#include "systemc/network/slot_channel.h"
#include "systemc/transport/transport_engine.h"
#include "systemc/transport/transport_registers.h"

namespace lq::conformance {

// A broken transport engine variant (frame_mutants.h): the edits of the
// frames it sends and of those it is given that break it.
struct FrameMutant {
  FrameWire::Edit from_dut;
  FrameWire::Edit to_dut;
};

// What TransportBench::Connect sets up (TRN-5.5's attributes). The DUT's
// attributes left empty are not named in its modifies: it uses its own
// defaults for them.
struct ConnectionOptions {
  uint32_t pmtu = 1024;
  uint32_t dut_sq_psn = 0;             // The first PSN the DUT sends...
  uint32_t peer_sq_psn = 0;            // ...and the partner.
  std::optional<uint8_t> dut_timeout;  // The DUT's local ACK timeout code.
  std::optional<uint8_t> dut_retry_cnt;
  std::optional<uint8_t> dut_rnr_retry;
  std::optional<uint8_t> dut_min_rnr_timer;
  std::optional<uint8_t> dut_max_rd_atomic;
  std::string congestion = "none";
};

// A connected pair of QPs.
struct Connection {
  uint32_t dut_qpn = 0;
  uint32_t peer_qpn = 0;
};

// How a case's bench is built.
struct TransportBenchOptions {
  // Firmware owns the DUT: a register block on it, which takes the DUT's
  // completions into its queue, so PollCompletions() sees none.
  bool registers = false;
};

// The engine configuration of node `node` in a two-node bench: its network
// interface knows two nodes and delivers in order.
transport::TransportEngineConfig BenchEngineConfig(uint16_t node);

class TransportBench {
 public:
  static constexpr uint16_t kDutNode = 0;
  static constexpr uint16_t kPeerNode = 1;
  static constexpr size_t kMemoryBytes = 1 << 20;

  // `mutant` (may be null) breaks the DUT.
  TransportBench(const TransportBenchOptions& options,
                 const FrameMutant* mutant);

  transport::TransportEngine& dut() { return *dut_; }
  transport::TransportEngine& peer() { return *peer_; }
  transport::TestMemory& dut_memory() { return *dut_memory_; }
  transport::TestMemory& peer_memory() { return *peer_memory_; }
  // R_Keys of each node's whole memory, every remote right.
  uint32_t dut_rkey() const { return dut_rkey_; }
  uint32_t peer_rkey() const { return peer_rkey_; }
  FrameWire& wire() { return *wire_; }
  // A bus master on the DUT's register block (docs/registers/transport.md):
  // firmware's way to set up QPs and post work (TRN-5.7). Only with
  // TransportBenchOptions::registers.
  RegisterMaster& dut_csr() { return *dut_csr_; }
  // The time slots take between the wire and the DUT, each way, as a
  // router's annotation would add it (0 unless a case sets it).
  void set_dut_latency(const sc_core::sc_time& latency) {
    dut_channel_->set_latency(latency);
  }

  // TRN-5.6 between a new QP on the DUT and one on the partner; nothing if
  // a modify failed.
  std::optional<Connection> Connect(const ConnectionOptions& options);

 private:
  std::unique_ptr<transport::TransportEngine> dut_, peer_;
  std::unique_ptr<transport::TestMemory> dut_memory_, peer_memory_;
  std::unique_ptr<FrameWire> wire_;
  std::unique_ptr<net::SlotChannel> dut_channel_;  // wire <-> DUT
  std::unique_ptr<transport::TransportRegisters> dut_registers_;
  std::unique_ptr<RegisterMaster> dut_csr_;
  uint32_t dut_rkey_ = 0, peer_rkey_ = 0;
};

}  // namespace lq::conformance
