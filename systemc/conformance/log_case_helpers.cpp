// SPDX-License-Identifier: Apache-2.0
// sc_spawn runs each issued access in a thread of its own (before any
// SystemC header).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "systemc/conformance/log_case_helpers.h"

#include <cstdio>
#include <utility>

#include "generated/cpp/logical_regs.h"
#include "models/roce/opcode.h"

namespace lq::conformance {

namespace regs = lq::regs::logical;
using sc_core::sc_time;

ConformanceCase LogicalCase(const char* name,
                            std::function<void(LogicalCaseContext&)> body,
                            sc_time limit) {
  ConformanceCase c;
  c.name = name;
  c.logical_body = std::move(body);
  c.limit = limit;
  return c;
}

logical::AtomicRequest Atomic(logical::AtomicOp op, unsigned size,
                              uint64_t operand, uint64_t compare) {
  logical::AtomicRequest request;
  request.op = op;
  request.size = size;
  request.operand = operand;
  request.compare = compare;
  return request;
}

std::shared_ptr<Issued> Issue(
    std::function<logical::testing::Answer()> access) {
  auto issued = std::make_shared<Issued>();
  sc_core::sc_spawn([issued, access = std::move(access)] {
    issued->answer = access();
    issued->completed = sc_core::sc_time_stamp();
    issued->done = true;
    issued->done_event.notify(sc_core::SC_ZERO_TIME);
  });
  return issued;
}

bool AwaitDone(Issued& issued, const sc_time& within) {
  const sc_time deadline = sc_core::sc_time_stamp() + within;
  while (!issued.done && sc_core::sc_time_stamp() < deadline) {
    sc_core::wait(deadline - sc_core::sc_time_stamp(), issued.done_event);
  }
  return issued.done;
}

std::optional<logical::LogMessage> LogMessageOf(const PortFrame& frame) {
  if (frame.opcode() != roce::Opcode::kSendOnly) {
    return std::nullopt;
  }
  auto message = logical::ParseLogMessage(frame.packet->payload);
  if (!message) {
    return std::nullopt;
  }
  return *message;
}

bool CarriesLogMessage(const PortFrame& frame, logical::LogMessageType type) {
  return frame.opcode() == roce::Opcode::kSendOnly &&
         !frame.packet->payload.empty() &&
         frame.packet->payload[0] == static_cast<uint8_t>(type);
}

FramePredicate LogSendFromDut(logical::LogMessageType type) {
  return [type](const PortFrame& frame) {
    return frame.from_dut() && CarriesLogMessage(frame, type);
  };
}

FramePredicate Rdma(FrameDirection direction) {
  return [direction](const PortFrame& frame) {
    return frame.direction == direction && frame.is_request() &&
           frame.opcode() != roce::Opcode::kSendOnly;
  };
}

std::optional<logical::FaultRecord> AwaitFaultAtPeer(
    LogicalCaseContext& context, const sc_time& within) {
  logical::LogicalUnit& peer = context.bench.peer();
  const sc_time deadline = sc_core::sc_time_stamp() + within;
  while (peer.fault_head() == nullptr && sc_core::sc_time_stamp() < deadline) {
    sc_core::wait(deadline - sc_core::sc_time_stamp(),
                  peer.fault_queued_event());
  }
  if (peer.fault_head() == nullptr) {
    return std::nullopt;
  }
  const logical::FaultRecord record = *peer.fault_head();
  peer.PopFault();
  return record;
}

void AnswerFromPeer(LogicalCaseContext& context,
                    const logical::FaultRecord& record,
                    logical::FaultStatus status, uint64_t pte,
                    logical::RejectReason reason) {
  logical::FaultResponse response;
  response.status = status;
  response.reason = reason;
  response.fault_id = record.request.fault_id;
  response.page_ga =
      logical::PageBase(context.bench.peer().space(), record.request.ga);
  response.pte = pte;
  context.verdict.Expect(
      context.bench.peer().AnswerFault(record.request.requester, response),
      "the reference card could not answer the DUT's fault");
}

namespace {

std::string Describe(const ExpectedRdma& op) {
  std::string text = roce::DescribeOpcode(static_cast<uint8_t>(op.opcode));
  text += " at offset " + Hex(op.offset);
  if (op.opcode == roce::Opcode::kCompareSwap ||
      op.opcode == roce::Opcode::kFetchAdd) {
    return text + " compare " + Hex(op.compare) + " swap/add " +
           Hex(op.swap_add);
  }
  return text + " of " + std::to_string(op.length) + " B";
}

bool Matches(const PortFrame& frame, const ExpectedRdma& op, uint32_t rkey) {
  if (frame.opcode() != op.opcode) {
    return false;
  }
  const roce::RocePacket& packet = *frame.packet;
  if (packet.atomic_eth) {
    return packet.atomic_eth->virtual_address == kDirectVaBase + op.offset &&
           packet.atomic_eth->rkey == rkey &&
           packet.atomic_eth->compare == op.compare &&
           packet.atomic_eth->swap_add == op.swap_add;
  }
  return packet.reth &&
         packet.reth->virtual_address == kDirectVaBase + op.offset &&
         packet.reth->rkey == rkey && packet.reth->dma_length == op.length;
}

}  // namespace

void ExpectRdma(LogicalCaseContext& context, size_t from,
                const std::vector<ExpectedRdma>& expected, uint32_t rkey,
                const std::string& what,
                std::initializer_list<const char*> clauses,
                FrameDirection direction) {
  const std::vector<const PortFrame*> sent =
      FramesWhere(context.bench.wire(), Rdma(direction), from);
  std::string seen;
  for (const PortFrame* frame : sent) {
    seen += (seen.empty() ? "" : ", ") + Evidence(*frame);
  }
  bool ok = sent.size() == expected.size();
  for (size_t i = 0; ok && i < sent.size(); ++i) {
    ok = Matches(*sent[i], expected[i], rkey);
  }
  std::string wanted;
  for (const ExpectedRdma& op : expected) {
    wanted += (wanted.empty() ? "" : ", ") + Describe(op);
  }
  const char* verb = direction == FrameDirection::kFromDut
                         ? ", the DUT sent "
                         : ", the DUT was sent ";
  context.verdict.Expect(ok,
                         what + ": expected " + wanted + " under R_Key " +
                             Hex(rkey) + verb +
                             (seen.empty() ? "nothing" : seen),
                         clauses);
}

Bytes Pattern(size_t length, uint8_t seed) {
  Bytes bytes(length);
  for (size_t i = 0; i < length; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + 7 * i);
  }
  return bytes;
}

uint64_t WordAt(const logical::CardMemory& memory, uint64_t offset) {
  const Bytes word = memory.Peek(offset, 8);
  return LoadLittleEndian(word.data(), word.size());
}

void SetWord(logical::CardMemory& memory, uint64_t offset, uint64_t value) {
  Bytes word(8);
  StoreLittleEndian(word.data(), word.size(), value);
  memory.Poke(offset, word);
}

uint64_t GrantingPte(uint16_t home, uint32_t frame) {
  logical::Pte pte;
  pte.valid = pte.read = pte.write = pte.atomic = true;
  pte.home = home;
  pte.frame = frame;
  return pte.Encode();
}

void WriteWide(RegisterMaster& csr, uint32_t lo, uint64_t value) {
  csr.Write(lo, static_cast<uint32_t>(value));
  csr.Write(lo + 4, static_cast<uint32_t>(value >> 32));
}

void AnswerFromDutFirmware(RegisterMaster& csr, uint16_t requester,
                           uint16_t fault_id, logical::FaultStatus status,
                           uint64_t page_ga, uint64_t pte) {
  csr.Write(regs::kFrRequesterOffset, requester);
  csr.Write(regs::kFrFaultIdOffset, fault_id);
  csr.Write(regs::kFrStatusOffset, static_cast<uint32_t>(status));
  csr.Write(regs::kFrReasonOffset, 0);
  WriteWide(csr, regs::kFrGaLoOffset, page_ga);
  WriteWide(csr, regs::kFrPteLoOffset, pte);
  csr.Write(regs::kFrSendOffset, regs::kFrSendSend.Mask());
  csr.Write(regs::kFqPopOffset, regs::kFqPopPop.Mask());
}

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

}  // namespace lq::conformance
