// SPDX-License-Identifier: Apache-2.0
// The transport conformance bench.
#include "systemc/conformance/transport_bench.h"

namespace lq::conformance {

using transport::QpModify;
using transport::QpState;
using transport::TransportEngine;

transport::TransportEngineConfig BenchEngineConfig(uint16_t node) {
  transport::TransportEngineConfig config;
  config.node = node;
  config.interface.nodes = 2;
  config.interface.in_order = true;
  return config;
}

namespace {

// The wire's interfaces, with room for the slots of a DUT behind a
// latency (set_dut_latency, up to 0.25 us each way): its credits come back
// a round trip after each slot, so the room a VC grants must cover the
// round trip at a slot a cycle, or the DUT would wait on credits where a
// router's annotated latency never makes it wait (NET-8.12 counts a
// credit when it arrives).
net::NetworkInterfaceConfig WireInterface() {
  net::NetworkInterfaceConfig interface =
      BenchEngineConfig(TransportBench::kDutNode).interface;
  interface.vc_buffer_flits = 1024;
  return interface;
}

}  // namespace

TransportBench::TransportBench(const TransportBenchOptions& options,
                               const FrameMutant* mutant)
    : dut_(std::make_unique<TransportEngine>("dut",
                                             BenchEngineConfig(kDutNode))),
      peer_(std::make_unique<TransportEngine>("peer",
                                              BenchEngineConfig(kPeerNode))),
      dut_memory_(
          std::make_unique<transport::TestMemory>("dut_memory", kMemoryBytes)),
      peer_memory_(
          std::make_unique<transport::TestMemory>("peer_memory", kMemoryBytes)),
      wire_(std::make_unique<FrameWire>("wire", kDutNode, kPeerNode,
                                        WireInterface())),
      dut_channel_(std::make_unique<net::SlotChannel>("dut_channel",
                                                      sc_core::SC_ZERO_TIME)) {
  if (options.registers) {
    dut_registers_ =
        std::make_unique<transport::TransportRegisters>("dut_regs", *dut_);
    dut_csr_ = std::make_unique<RegisterMaster>("dut_csr");
    dut_csr_->socket.bind(dut_registers_->socket);
  }
  dut_->memory.bind(dut_memory_->socket);
  peer_->memory.bind(peer_memory_->socket);
  lq::Connect(dut_->network(), dut_channel_->a);
  lq::Connect(dut_channel_->b, wire_->dut_side());
  lq::Connect(peer_->network(), wire_->peer_side());
  dut_rkey_ = dut_->RegisterMemory({0, kMemoryBytes, transport::kRemoteAll});
  peer_rkey_ = peer_->RegisterMemory({0, kMemoryBytes, transport::kRemoteAll});
  if (mutant) {
    wire_->SetMutantEdit(FrameDirection::kFromDut, mutant->from_dut);
    wire_->SetMutantEdit(FrameDirection::kToDut, mutant->to_dut);
  }
}

std::optional<Connection> TransportBench::Connect(
    const ConnectionOptions& options) {
  const Connection c{dut_->CreateQp(), peer_->CreateQp()};
  QpModify init;
  init.to = QpState::kInit;
  QpModify dut_rtr;
  dut_rtr.to = QpState::kRtr;
  dut_rtr.remote_node = kPeerNode;
  dut_rtr.remote_qpn = c.peer_qpn;
  dut_rtr.pmtu = options.pmtu;
  dut_rtr.rq_psn = options.peer_sq_psn;
  dut_rtr.min_rnr_timer = options.dut_min_rnr_timer;
  dut_rtr.congestion_control = options.congestion;
  QpModify peer_rtr = dut_rtr;
  peer_rtr.remote_node = kDutNode;
  peer_rtr.remote_qpn = c.dut_qpn;
  peer_rtr.rq_psn = options.dut_sq_psn;
  peer_rtr.min_rnr_timer.reset();
  QpModify dut_rts;
  dut_rts.to = QpState::kRts;
  dut_rts.sq_psn = options.dut_sq_psn;
  dut_rts.timeout = options.dut_timeout;
  dut_rts.retry_cnt = options.dut_retry_cnt;
  dut_rts.rnr_retry = options.dut_rnr_retry;
  dut_rts.max_rd_atomic = options.dut_max_rd_atomic;
  QpModify peer_rts;
  peer_rts.to = QpState::kRts;
  peer_rts.sq_psn = options.peer_sq_psn;
  const bool ok = dut_->ModifyQp(c.dut_qpn, init).ok() &&
                  peer_->ModifyQp(c.peer_qpn, init).ok() &&
                  dut_->ModifyQp(c.dut_qpn, dut_rtr).ok() &&
                  peer_->ModifyQp(c.peer_qpn, peer_rtr).ok() &&
                  dut_->ModifyQp(c.dut_qpn, dut_rts).ok() &&
                  peer_->ModifyQp(c.peer_qpn, peer_rts).ok();
  if (!ok) {
    return std::nullopt;
  }
  return c;
}

}  // namespace lq::conformance
