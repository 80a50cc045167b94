// SPDX-License-Identifier: Apache-2.0
// The logical-layer conformance bench.
#include "systemc/conformance/logical_bench.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "systemc/common/socket_pair.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::conformance {

namespace {

// The raw SENDs' work request IDs: far above those the reference unit
// numbers its own RDMA operations with, and below its messenger's.
constexpr uint64_t kRawWrBase = uint64_t{1} << 62;
// Where they keep their bytes on the reference card's bus: a ring of slots.
constexpr size_t kRawSlotBytes = 256;

// A card's engine: its network interface knows every node of the space.
transport::TransportEngineConfig EngineConfig(uint16_t node) {
  transport::TransportEngineConfig config = BenchEngineConfig(node);
  config.interface.nodes = LogicalBench::kEndpoints;
  return config;
}

logical::LogicalUnitConfig UnitConfig(uint16_t node) {
  logical::LogicalUnitConfig config;
  config.node = node;
  config.space.endpoints = LogicalBench::kEndpoints;
  config.space.direct_bytes = LogicalBench::kDirectBytes;
  config.space.page_bytes = LogicalBench::kPageBytes;
  config.fault_queue_entries = LogicalBench::kFaultQueueEntries;
  return config;
}

// A card's engine, memory and unit, and its requesters, named `prefix`...
BenchCard MakeCard(const std::string& prefix, uint16_t node) {
  BenchCard card;
  card.engine = std::make_unique<transport::TransportEngine>(
      (prefix + "_engine").c_str(), EngineConfig(node));
  logical::CardMemoryConfig memory;
  memory.size = LogicalBench::kDirectBytes;
  card.memory = std::make_unique<logical::CardMemory>(
      (prefix + "_memory").c_str(), memory);
  card.unit = std::make_unique<logical::LogicalUnit>(
      (prefix + "_unit").c_str(), UnitConfig(node), *card.engine);
  card.unit->memory.bind(card.memory->socket);
  card.engine->memory.bind(card.unit->dma);
  for (unsigned r = 0; r < LogicalBench::kRequesters; ++r) {
    card.requesters.push_back(std::make_unique<logical::testing::Requester>(
        (prefix + "_requester" + std::to_string(r)).c_str()));
    card.requesters.back()->socket.bind(card.unit->socket);
  }
  return card;
}

}  // namespace

LogicalBench::LogicalBench(const FrameMutant* mutant)
    : dut_(MakeCard("dut", kDutNode)),
      peer_(MakeCard("peer", kPeerNode)),
      dut_registers_(std::make_unique<logical::LogicalRegisters>(
          "dut_registers", *dut_.unit)),
      dut_csr_(std::make_unique<RegisterMaster>("dut_csr")),
      peer_buffers_(std::make_unique<transport::TestMemory>("peer_buffers",
                                                            kBufferBytes)),
      wire_(std::make_unique<FrameWire>("wire", kDutNode, kPeerNode,
                                        EngineConfig(kDutNode).interface)),
      dut_channel_(std::make_unique<net::SlotChannel>("dut_channel",
                                                      sc_core::SC_ZERO_TIME)) {
  dut_csr_->socket.bind(dut_registers_->socket);
  peer_.unit->bus.bind(peer_buffers_->socket);
  lq::Connect(dut_.engine->network(), dut_channel_->a);
  lq::Connect(dut_channel_->b, wire_->dut_side());
  lq::Connect(peer_.engine->network(), wire_->peer_side());
  if (mutant) {
    wire_->SetMutantEdit(FrameDirection::kFromDut, mutant->from_dut);
    wire_->SetMutantEdit(FrameDirection::kToDut, mutant->to_dut);
  }
  // LOG-3.7's out-of-band set-up: one connection, each unit told the
  // other's QP and R_Key.
  const auto pair = transport::ConnectQps(*dut_.engine, *peer_.engine);
  if (!pair) {
    throw std::runtime_error("the bench cannot connect its two cards");
  }
  peer_qpn_ = pair->b;
  dut_.unit->Connect(kPeerNode, pair->a, peer_.unit->rkey());
  peer_.unit->Connect(kDutNode, pair->b, dut_.unit->rkey());
}

LogicalBench::~LogicalBench() = default;

bool LogicalBench::SendFromPeer(const Bytes& message) {
  if (message.size() > kRawSlotBytes) {
    throw std::invalid_argument("a raw LOG message above " +
                                std::to_string(kRawSlotBytes) + " bytes");
  }
  const uint64_t slot = next_raw_wr_ % (kBufferBytes / kRawSlotBytes);
  const uint64_t address = slot * kRawSlotBytes;
  std::copy(message.begin(), message.end(),
            peer_buffers_->bytes.begin() + static_cast<ptrdiff_t>(address));
  transport::SendWr wr;
  wr.wr_id = kRawWrBase + next_raw_wr_++;
  wr.kind = transport::SendKind::kSend;
  wr.length = static_cast<uint32_t>(message.size());
  return peer_.engine->PostSend(peer_qpn_, wr, address).ok();
}

}  // namespace lq::conformance
