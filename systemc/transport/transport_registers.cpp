// SPDX-License-Identifier: Apache-2.0
// TransportRegisters: the engine's API behind its register map.
#include "systemc/transport/transport_registers.h"

#include <array>
#include <string>

#include "generated/cpp/transport_regs.h"
#include "systemc/common/register_port.h"

namespace lq::transport {

namespace regs = lq::regs::transport;

namespace {

// The map's codes are the engine's enumerations in order.
constexpr bool SameCode(uint32_t code, int value) {
  return code == static_cast<uint32_t>(value);
}
static_assert(SameCode(static_cast<uint32_t>(regs::State::kError),
                       static_cast<int>(QpState::kError)));
static_assert(SameCode(static_cast<uint32_t>(regs::WrKind::kFetchAdd),
                       static_cast<int>(SendKind::kFetchAdd)));
static_assert(SameCode(static_cast<uint32_t>(regs::WcStatus::kLocProtErr),
                       static_cast<int>(CompletionStatus::kLocProtErr)));

constexpr uint32_t Result(regs::CmdResult result) {
  return static_cast<uint32_t>(result);
}

// QP_PATH.PMTU's IBA code (1 = 256 B ... 5 = 4096 B); 0 for another code.
uint32_t PmtuBytes(uint32_t code) {
  constexpr uint32_t kSmallest = 256;
  constexpr uint32_t kLargestCode = 5;
  return code >= 1 && code <= kLargestCode ? kSmallest << (code - 1) : 0;
}

// QP_PATH.CC's code as a registry name (TRN-5.8); empty for an unknown one.
std::string CongestionName(uint32_t code) {
  switch (static_cast<regs::Congestion>(code)) {
    case regs::Congestion::kNone:
      return "none";
    case regs::Congestion::kDcqcn:
      return "dcqcn";
    case regs::Congestion::kLqcc:
      return "lqcc";
  }
  return "";
}

}  // namespace

TransportRegisters::TransportRegisters(const sc_core::sc_module_name& name,
                                       TransportEngine& engine)
    : sc_module(name),
      socket("socket"),
      irq("irq"),
      engine_(engine),
      regs_(regs::kRegisters) {
  regs_.Store(regs::kNodeIdOffset, engine.node());
  regs_.Hook(regs::kQpStateOffset, RegisterBank::OnRead([this] {
               const uint32_t qpn =
                   regs_.Get(regs::kQpNumOffset, regs::kQpNumQpn);
               return static_cast<uint32_t>(engine_.qp_state(qpn));
             }));
  regs_.Hook(regs::kQpCmdOffset,
             {nullptr,
              [](uint32_t value) {
                return regs::kQpCmdToState.Read(value) <=
                       static_cast<uint32_t>(regs::State::kError);
              },
              [this](uint32_t value) {
                const uint32_t command = regs::kQpCmdCmd.Read(value);
                if (command != static_cast<uint32_t>(regs::QpCmd::kNone)) {
                  regs_.Store(regs::kCmdStatusOffset, RunQpCommand(command));
                }
              }});
  regs_.Hook(regs::kMrCmdOffset,
             {nullptr,
              [](uint32_t value) {
                return regs::kMrCmdCmd.Read(value) <=
                       static_cast<uint32_t>(regs::MrCmd::kDeregister);
              },
              [this](uint32_t value) {
                const uint32_t command = regs::kMrCmdCmd.Read(value);
                if (command != static_cast<uint32_t>(regs::MrCmd::kNone)) {
                  regs_.Store(regs::kCmdStatusOffset, RunMrCommand(command));
                }
              }});
  regs_.Hook(regs::kSqDoorbellOffset,
             {nullptr, nullptr, [this](uint32_t value) {
                regs_.Store(regs::kCmdStatusOffset,
                            PostSend(regs::kSqDoorbellQpn.Read(value)));
              }});
  regs_.Hook(regs::kRqDoorbellOffset,
             {nullptr, nullptr, [this](uint32_t value) {
                regs_.Store(regs::kCmdStatusOffset,
                            PostReceive(regs::kRqDoorbellQpn.Read(value)));
              }});
  regs_.Hook(regs::kCqCountOffset, RegisterBank::OnRead([this] {
               TakeCompletions();
               return static_cast<uint32_t>(completions_.size());
             }));
  regs_.Hook(regs::kCqPopOffset,
             {nullptr, nullptr, [this](uint32_t value) {
                TakeCompletions();
                if ((value & regs::kCqPopPop.Mask()) && !completions_.empty()) {
                  completions_.pop_front();
                }
              }});
  for (const uint32_t offset :
       {regs::kCqeQpOffset, regs::kCqeStatusOffset, regs::kCqeWrIdLoOffset,
        regs::kCqeWrIdHiOffset, regs::kCqeByteLenOffset, regs::kCqeImmOffset}) {
    regs_.Hook(offset, RegisterBank::OnRead(
                           [this, offset] { return Completion(offset); }));
  }
  regs_.Hook(regs::kCqIrqOffset, RegisterBank::OnRead([this] {
               return regs_.value(regs::kCqIrqOffset) |
                      (IrqLevel() ? regs::kCqIrqPending.Mask() : 0);
             }));
  socket.register_b_transport(this, &TransportRegisters::BTransport);
  socket.register_transport_dbg(this, &TransportRegisters::TransportDbg);
  SC_HAS_PROCESS(TransportRegisters);
  SC_METHOD(UpdateIrq);
  sensitive << engine_.completion_event() << access_done_;
  dont_initialize();
}

bool TransportRegisters::IrqLevel() {
  TakeCompletions();
  return regs_.Get(regs::kCqIrqOffset, regs::kCqIrqEnable) != 0 &&
         !completions_.empty();
}

void TransportRegisters::UpdateIrq() { irq.write(IrqLevel()); }

void TransportRegisters::BTransport(tlm::tlm_generic_payload& trans,
                                    sc_core::sc_time& delay) {
  delay += sc_core::sc_time(10, sc_core::SC_NS);
  ServeRegisterBank(trans, regs_);
  access_done_.notify(sc_core::SC_ZERO_TIME);  // a pop or CQ_IRQ write
}

// No read here has a side effect firmware could see (CQ_COUNT only takes
// the engine's new completions in); a debugger writes as firmware does.
unsigned TransportRegisters::TransportDbg(tlm::tlm_generic_payload& trans) {
  const unsigned bytes = ServeDebugBank(trans, regs_);
  access_done_.notify(sc_core::SC_ZERO_TIME);
  return bytes;
}

uint64_t TransportRegisters::Wide(uint32_t lo_offset) const {
  return (uint64_t{regs_.value(lo_offset + kRegisterBytes)} << 32) |
         regs_.value(lo_offset);
}

uint32_t TransportRegisters::RunQpCommand(uint32_t command) {
  const uint32_t qpn = regs_.Get(regs::kQpNumOffset, regs::kQpNumQpn);
  switch (static_cast<regs::QpCmd>(command)) {
    case regs::QpCmd::kCreate:
      regs_.Store(regs::kQpNumOffset, engine_.CreateQp());
      return Result(regs::CmdResult::kOk);
    case regs::QpCmd::kModify:
      return Modify(qpn, regs_.Get(regs::kQpCmdOffset, regs::kQpCmdToState));
    case regs::QpCmd::kDestroy:
      if (!engine_.has_qp(qpn)) {
        return Result(regs::CmdResult::kNoSuch);
      }
      return Result(engine_.DestroyQp(qpn).ok() ? regs::CmdResult::kOk
                                                : regs::CmdResult::kRefused);
    case regs::QpCmd::kNone:
      break;
  }
  return Result(regs::CmdResult::kOk);
}

// TRN-5.5: each step takes the staged attributes it sets, and no others.
uint32_t TransportRegisters::Modify(uint32_t qpn, uint32_t to_state) {
  if (!engine_.has_qp(qpn)) {
    return Result(regs::CmdResult::kNoSuch);
  }
  QpModify modify;
  modify.to = static_cast<QpState>(to_state);
  const uint32_t access = regs_.value(regs::kQpAccessOffset);
  const uint32_t path = regs_.value(regs::kQpPathOffset);
  const uint32_t timers = regs_.value(regs::kQpTimersOffset);
  switch (modify.to) {
    case QpState::kInit:
      modify.remote_write = regs::kQpAccessRemoteWrite.Read(access) != 0;
      modify.remote_read = regs::kQpAccessRemoteRead.Read(access) != 0;
      modify.remote_atomic = regs::kQpAccessRemoteAtomic.Read(access) != 0;
      break;
    case QpState::kRtr:
      modify.remote_node = regs_.value(regs::kQpRemoteNodeOffset);
      modify.remote_qpn = regs_.value(regs::kQpRemoteQpnOffset);
      modify.rq_psn = regs_.value(regs::kQpRqPsnOffset);
      // Out-of-range codes become values TRN-5.3 refuses.
      modify.pmtu = PmtuBytes(regs::kQpPathPmtu.Read(path));
      modify.min_rnr_timer =
          static_cast<uint8_t>(regs::kQpPathMinRnrTimer.Read(path));
      modify.congestion_control = CongestionName(regs::kQpPathCc.Read(path));
      break;
    case QpState::kRts:
      modify.sq_psn = regs_.value(regs::kQpSqPsnOffset);
      modify.timeout =
          static_cast<uint8_t>(regs::kQpTimersTimeout.Read(timers));
      modify.retry_cnt =
          static_cast<uint8_t>(regs::kQpTimersRetryCnt.Read(timers));
      modify.rnr_retry =
          static_cast<uint8_t>(regs::kQpTimersRnrRetry.Read(timers));
      break;
    case QpState::kReset:
    case QpState::kError:
      break;
  }
  return Result(engine_.ModifyQp(qpn, modify).ok() ? regs::CmdResult::kOk
                                                   : regs::CmdResult::kRefused);
}

uint32_t TransportRegisters::RunMrCommand(uint32_t command) {
  switch (static_cast<regs::MrCmd>(command)) {
    case regs::MrCmd::kRegister: {
      const uint32_t rights = regs_.value(regs::kMrAccessOffset);
      MemoryRegion region;
      region.base = Wide(regs::kMrBaseLoOffset);
      region.length = regs_.value(regs::kMrLengthOffset);
      region.access = static_cast<uint8_t>(
          (regs::kMrAccessRemoteWrite.Read(rights) ? kRemoteWrite : 0) |
          (regs::kMrAccessRemoteRead.Read(rights) ? kRemoteRead : 0) |
          (regs::kMrAccessRemoteAtomic.Read(rights) ? kRemoteAtomic : 0));
      regs_.Store(regs::kMrKeyOffset, engine_.RegisterMemory(region));
      return Result(regs::CmdResult::kOk);
    }
    case regs::MrCmd::kDeregister:
      return Result(engine_.DeregisterMemory(regs_.value(regs::kMrKeyOffset))
                        ? regs::CmdResult::kOk
                        : regs::CmdResult::kNoSuch);
    case regs::MrCmd::kNone:
      break;
  }
  return Result(regs::CmdResult::kOk);
}

uint32_t TransportRegisters::PostSend(uint32_t qpn) {
  if (!engine_.has_qp(qpn)) {
    return Result(regs::CmdResult::kNoSuch);
  }
  const uint32_t op = regs_.value(regs::kWrOpOffset);
  const uint32_t kind = regs::kWrOpKind.Read(op);
  if (kind > static_cast<uint32_t>(regs::WrKind::kFetchAdd)) {
    return Result(regs::CmdResult::kRefused);
  }
  SendWr wr;
  wr.wr_id = Wide(regs::kWrIdLoOffset);
  wr.kind = static_cast<SendKind>(kind);
  wr.length = regs_.value(regs::kWrLengthOffset);
  wr.remote_address = Wide(regs::kWrRemoteLoOffset);
  wr.rkey = regs_.value(regs::kWrRkeyOffset);
  if (regs::kWrOpWithImm.Read(op)) {
    wr.immediate = regs_.value(regs::kWrImmOffset);
  }
  wr.compare = Wide(regs::kWrCompareLoOffset);
  wr.swap_add = Wide(regs::kWrSwapAddLoOffset);
  return Result(engine_.PostSend(qpn, wr, Wide(regs::kWrLocalLoOffset)).ok()
                    ? regs::CmdResult::kOk
                    : regs::CmdResult::kRefused);
}

uint32_t TransportRegisters::PostReceive(uint32_t qpn) {
  if (!engine_.has_qp(qpn)) {
    return Result(regs::CmdResult::kNoSuch);
  }
  const RecvWr wr{Wide(regs::kWrIdLoOffset),
                  regs_.value(regs::kWrLengthOffset)};
  return Result(engine_.PostReceive(qpn, wr, Wide(regs::kWrLocalLoOffset)).ok()
                    ? regs::CmdResult::kOk
                    : regs::CmdResult::kRefused);
}

void TransportRegisters::TakeCompletions() {
  for (EngineCompletion& c : engine_.PollCompletions()) {
    completions_.push_back(c);
  }
}

uint32_t TransportRegisters::Completion(uint32_t offset) {
  TakeCompletions();
  if (completions_.empty()) {
    return 0;
  }
  const EngineCompletion& c = completions_.front();
  const transport::Completion& done = c.completion;
  switch (offset) {
    case regs::kCqeQpOffset:
      return regs::kCqeQpQpn.Place(c.qpn) |
             regs::kCqeQpReceive.Place(c.receive ? 1 : 0) |
             regs::kCqeQpValid.Place(1);
    case regs::kCqeStatusOffset:
      return regs::kCqeStatusStatus.Place(static_cast<uint32_t>(done.status)) |
             regs::kCqeStatusWithImm.Place(done.immediate ? 1 : 0);
    case regs::kCqeWrIdLoOffset:
      return static_cast<uint32_t>(done.wr_id);
    case regs::kCqeWrIdHiOffset:
      return static_cast<uint32_t>(done.wr_id >> 32);
    case regs::kCqeByteLenOffset:
      return done.byte_length;
    default:  // kCqeImmOffset
      return done.immediate.value_or(0);
  }
}

}  // namespace lq::transport
