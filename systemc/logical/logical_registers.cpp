// SPDX-License-Identifier: Apache-2.0
// LogicalRegisters: the logical unit's firmware interface behind its
// register map.
#include "systemc/logical/logical_registers.h"

#include <functional>
#include <utility>
#include <variant>

#include "generated/cpp/logical_regs.h"
#include "models/common/bytes.h"
#include "systemc/common/register_port.h"

namespace lq::logical {

namespace regs = lq::regs::logical;

namespace {

// The map's codes are the protocol's in order.
static_assert(static_cast<uint32_t>(regs::FaultStatus::kReject) ==
              static_cast<uint32_t>(FaultStatus::kReject));
static_assert(static_cast<uint32_t>(regs::RejectReason::kHomeLost) ==
              static_cast<uint32_t>(RejectReason::kHomeLost));

constexpr uint32_t Result(regs::CmdResult result) {
  return static_cast<uint32_t>(result);
}

constexpr unsigned kWordBits = 32;
constexpr unsigned kFromShift = 16;
constexpr unsigned kLostBit = 8;

// MB_DATA's words 1 to 6 and MB_SEND_DATA's words: message bytes, four to
// a word, the first in bits 31:24.
uint32_t MessageWord(const Bytes& bytes, unsigned word) {
  uint8_t four[kRegisterBytes] = {};
  for (unsigned i = 0; i < kRegisterBytes; ++i) {
    const size_t at = size_t{word} * kRegisterBytes + i;
    four[i] = at < bytes.size() ? bytes[at] : 0;
  }
  return static_cast<uint32_t>(LoadBigEndian(four, kRegisterBytes));
}

}  // namespace

LogicalRegisters::LogicalRegisters(const sc_core::sc_module_name& name,
                                   LogicalUnit& unit)
    : sc_module(name),
      socket("socket"),
      irq("irq"),
      unit_(unit),
      regs_(regs::kRegisters) {
  const AddressSpace& space = unit.space();
  unsigned shift = 0;
  while ((uint64_t{1} << shift) < space.page_bytes) {
    ++shift;
  }
  regs_.Store(regs::kNodeIdOffset, unit.node());
  regs_.Store(regs::kLuRkeyOffset, unit.rkey());
  regs_.Store(regs::kSpaceOffset,
              regs::kSpacePageShift.Place(shift) |
                  regs::kSpaceEndpoints.Place(space.endpoints));
  regs_.Store(regs::kDirectFramesOffset,
              static_cast<uint32_t>(space.direct_bytes / space.page_bytes));
  regs_.Hook(regs::kIrqStatusOffset,
             RegisterBank::OnRead([this] { return IrqStatus(); }));
  regs_.Hook(regs::kFqCountOffset, RegisterBank::OnRead([this] {
               return static_cast<uint32_t>(unit_.fault_queue_size());
             }));
  HookCommand(regs::kFqPopOffset, regs::kFqPopPop.Mask(), [this] {
    const bool any = unit_.fault_queue_size() != 0;
    unit_.PopFault();
    return Result(any ? regs::CmdResult::kOk : regs::CmdResult::kEmpty);
  });
  for (unsigned i = 0; i < regs::kFqDataCount; ++i) {
    regs_.Hook(regs::FqDataOffset(i),
               RegisterBank::OnRead([this, i] { return FaultWord(i); }));
  }
  regs_.Hook(regs::kFrStatusOffset,
             RegisterBank::OnWrite(nullptr, [](uint32_t value) {
               return regs::kFrStatusStatus.Read(value) <=
                      static_cast<uint32_t>(regs::FaultStatus::kReject);
             }));
  regs_.Hook(regs::kFrReasonOffset,
             RegisterBank::OnWrite(nullptr, [](uint32_t value) {
               return regs::kFrReasonReason.Read(value) <=
                      static_cast<uint32_t>(regs::RejectReason::kHomeLost);
             }));
  HookCommand(regs::kFrSendOffset, regs::kFrSendSend.Mask(),
              [this] { return SendFaultResponse(); });
  // PT_CMD and CP_CMD act on any code but NONE (0), which reads back.
  HookCommand(regs::kPtCmdOffset, regs::kPtCmdCmd.Mask(), [this] {
    return RunPageTableCommand(regs_.Get(regs::kPtCmdOffset, regs::kPtCmdCmd));
  });
  HookCommand(regs::kInvSendOffset, regs::kInvSendSend.Mask(),
              [this] { return SendInvalidation(); });
  regs_.Hook(regs::kMbCountOffset, RegisterBank::OnRead([this] {
               return static_cast<uint32_t>(unit_.mailbox_size());
             }));
  HookCommand(regs::kMbPopOffset, regs::kMbPopPop.Mask(), [this] {
    const bool any = unit_.mailbox_size() != 0;
    unit_.PopMailbox();
    return Result(any ? regs::CmdResult::kOk : regs::CmdResult::kEmpty);
  });
  for (unsigned i = 0; i < regs::kMbDataCount; ++i) {
    regs_.Hook(regs::MbDataOffset(i),
               RegisterBank::OnRead([this, i] { return MailWord(i); }));
  }
  HookCommand(regs::kMbSendOffset, regs::kMbSendSend.Mask(),
              [this] { return SendMailMessage(); });
  HookCommand(regs::kCpCmdOffset, regs::kCpCmdCmd.Mask(), [this] {
    return StartCopy(regs_.Get(regs::kCpCmdOffset, regs::kCpCmdCmd));
  });
  for (const uint32_t offset : {regs::kGwBaseLoOffset, regs::kGwBaseHiOffset}) {
    regs_.Hook(offset, RegisterBank::OnWrite([this](uint32_t) {
                 unit_.set_window_base(Wide(regs::kGwBaseLoOffset));
               }));
  }
  RegisterBank::Hooks copy_status;
  copy_status.read = [this] { return CopyStatus(); };
  copy_status.written = [this](uint32_t value) {
    if (value & regs::kCpStatusDone.Mask()) {
      unit_.ClearCopyDone();
    }
  };
  regs_.Hook(regs::kCpStatusOffset, std::move(copy_status));
  socket.register_b_transport(this, &LogicalRegisters::BTransport);
  socket.register_transport_dbg(this, &LogicalRegisters::TransportDbg);
  SC_HAS_PROCESS(LogicalRegisters);
  SC_METHOD(UpdateIrq);
  sensitive << unit.fault_queued_event() << unit.mailbox_event()
            << unit.copy_ended_event() << access_done_;
  dont_initialize();
}

void LogicalRegisters::HookCommand(uint32_t offset, uint32_t mask,
                                   std::function<uint32_t()> command) {
  regs_.Hook(offset,
             RegisterBank::OnWrite(
                 [this, mask, command = std::move(command)](uint32_t value) {
                   if (value & mask) {
                     regs_.Store(regs::kCmdStatusOffset, command());
                   }
                 }));
}

uint64_t LogicalRegisters::Wide(uint32_t lo_offset) const {
  return (uint64_t{regs_.value(lo_offset + kRegisterBytes)} << kWordBits) |
         regs_.value(lo_offset);
}

uint32_t LogicalRegisters::FaultWord(unsigned index) const {
  const FaultRecord* head = unit_.fault_head();
  return head == nullptr ? 0 : FaultRecordWords(*head)[index];
}

uint32_t LogicalRegisters::MailWord(unsigned index) const {
  const MailboxEntry* head = unit_.mailbox_head();
  if (head == nullptr) {
    return 0;
  }
  const Bytes bytes =
      head->message ? EncodeLogMessage(*head->message) : Bytes{0};
  if (index == 0) {
    return uint32_t{bytes[0]} | (head->peer_lost ? 1u << kLostBit : 0) |
           uint32_t{head->from} << kFromShift;
  }
  return index <= regs::kMbSendDataCount ? MessageWord(bytes, index - 1) : 0;
}

uint32_t LogicalRegisters::IrqStatus() const {
  return (unit_.fault_queue_size() != 0 ? regs::kIrqStatusFault.Mask() : 0) |
         (unit_.mailbox_size() != 0 ? regs::kIrqStatusMail.Mask() : 0) |
         (unit_.copy_done() ? regs::kIrqStatusCopy.Mask() : 0);
}

uint32_t LogicalRegisters::CopyStatus() const {
  regs::CopyResult result = regs::CopyResult::kOk;
  if (unit_.copy_result() == AccessStatus::kAddressError) {
    result = regs::CopyResult::kAddressError;
  } else if (unit_.copy_result() == AccessStatus::kUnreachable) {
    result = regs::CopyResult::kUnreachable;
  }
  return (unit_.copy_busy() ? regs::kCpStatusBusy.Mask() : 0) |
         (unit_.copy_done() ? regs::kCpStatusDone.Mask() : 0) |
         regs::kCpStatusResult.Place(static_cast<uint32_t>(result));
}

uint32_t LogicalRegisters::StartCopy(uint32_t command) {
  CopyRequest request;
  request.src_ga = Wide(regs::kCpSrcLoOffset);
  request.dst_ga = Wide(regs::kCpDstLoOffset);
  request.bytes = regs_.value(regs::kCpBytesOffset);
  request.migrate = command == static_cast<uint32_t>(regs::CpCmd::kMigrate);
  switch (unit_.StartCopy(request)) {
    case CopyStart::kStarted:
      break;
    case CopyStart::kBusy:
      return Result(regs::CmdResult::kFull);
    case CopyStart::kBadRange:
      return Result(regs::CmdResult::kBadRange);
    case CopyStart::kNoConnection:
      return Result(regs::CmdResult::kNoConnection);
  }
  return Result(regs::CmdResult::kOk);
}

void LogicalRegisters::UpdateIrq() {
  irq.write((IrqStatus() & regs_.value(regs::kIrqEnableOffset)) != 0);
}

uint32_t LogicalRegisters::SendFaultResponse() {
  FaultResponse response;
  response.status = static_cast<FaultStatus>(
      regs_.Get(regs::kFrStatusOffset, regs::kFrStatusStatus));
  response.reason = static_cast<RejectReason>(
      regs_.Get(regs::kFrReasonOffset, regs::kFrReasonReason));
  response.fault_id = static_cast<uint16_t>(
      regs_.Get(regs::kFrFaultIdOffset, regs::kFrFaultIdId));
  response.page_ga = Wide(regs::kFrGaLoOffset);
  response.pte = Wide(regs::kFrPteLoOffset);
  // LOG-6.10: a REASON with REJECT, and only with it.
  if ((response.status == FaultStatus::kReject) !=
      (response.reason != RejectReason::kNone)) {
    return Result(regs::CmdResult::kBadMessage);
  }
  const auto requester = static_cast<uint16_t>(
      regs_.Get(regs::kFrRequesterOffset, regs::kFrRequesterNode));
  return Result(unit_.AnswerFault(requester, response)
                    ? regs::CmdResult::kOk
                    : regs::CmdResult::kNoConnection);
}

uint32_t LogicalRegisters::RunPageTableCommand(uint32_t command) {
  const uint64_t page = PageNumber(unit_.space(), Wide(regs::kPtGaLoOffset));
  switch (static_cast<regs::PtCmd>(command)) {
    case regs::PtCmd::kWrite: {
      const auto pte = Pte::Decode(Wide(regs::kPtPteLoOffset));
      if (!pte) {
        return Result(regs::CmdResult::kBadPte);
      }
      return Result(unit_.InstallPte(page, *pte) ? regs::CmdResult::kOk
                                                 : regs::CmdResult::kBadPte);
    }
    case regs::PtCmd::kRemove:
      return Result(unit_.RemovePte(page) ? regs::CmdResult::kOk
                                          : regs::CmdResult::kNoEntry);
    case regs::PtCmd::kRead: {
      const std::optional<Pte> pte = unit_.FindPte(page);
      const uint64_t word = pte ? pte->Encode() : 0;
      regs_.Store(regs::kPtPteLoOffset, static_cast<uint32_t>(word));
      regs_.Store(regs::kPtPteHiOffset,
                  static_cast<uint32_t>(word >> kWordBits));
      return Result(pte ? regs::CmdResult::kOk : regs::CmdResult::kNoEntry);
    }
    case regs::PtCmd::kNone:
      break;
  }
  return Result(regs::CmdResult::kOk);
}

uint32_t LogicalRegisters::SendInvalidation() {
  const auto sharer = static_cast<uint16_t>(
      regs_.Get(regs::kInvNodeOffset, regs::kInvNodeNode));
  if (sharer != unit_.node() && !unit_.connection_qpn(sharer)) {
    return Result(regs::CmdResult::kNoConnection);
  }
  const std::optional<uint16_t> id = unit_.Invalidate(
      sharer, Wide(regs::kInvGaLoOffset), regs_.value(regs::kInvPagesOffset));
  if (!id) {
    return Result(regs::CmdResult::kFull);
  }
  regs_.Store(regs::kInvIdOffset, *id);
  return Result(regs::CmdResult::kOk);
}

uint32_t LogicalRegisters::SendMailMessage() {
  Bytes bytes;
  for (unsigned i = 0; i < regs::kMbSendDataCount; ++i) {
    uint8_t four[kRegisterBytes];
    StoreBigEndian(four, kRegisterBytes,
                   regs_.value(regs::MbSendDataOffset(i)));
    bytes.insert(bytes.end(), four, four + kRegisterBytes);
  }
  bytes.resize(LogMessageBytes(bytes[0]));
  const auto message = ParseLogMessage(bytes);
  if (!message || !(std::holds_alternative<FrameAllocRequest>(*message) ||
                    std::holds_alternative<FrameAllocResponse>(*message) ||
                    std::holds_alternative<FrameFree>(*message))) {
    return Result(regs::CmdResult::kBadMessage);
  }
  const auto node = static_cast<uint16_t>(
      regs_.Get(regs::kMbSendNodeOffset, regs::kMbSendNodeNode));
  return Result(unit_.SendMessage(node, *message)
                    ? regs::CmdResult::kOk
                    : regs::CmdResult::kNoConnection);
}

void LogicalRegisters::BTransport(tlm::tlm_generic_payload& trans,
                                  sc_core::sc_time& delay) {
  delay += sc_core::sc_time(10, sc_core::SC_NS);
  ServeRegisterBank(trans, regs_);
  access_done_.notify(sc_core::SC_ZERO_TIME);  // a pop or IRQ_ENABLE write
}

// No read here has a side effect; a debugger writes as firmware does.
unsigned LogicalRegisters::TransportDbg(tlm::tlm_generic_payload& trans) {
  const unsigned bytes = ServeDebugBank(trans, regs_);
  access_done_.notify(sc_core::SC_ZERO_TIME);
  return bytes;
}

}  // namespace lq::logical
