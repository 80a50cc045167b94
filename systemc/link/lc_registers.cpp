// SPDX-License-Identifier: Apache-2.0
// The link controller's register behaviour (DLL-8) on a RegisterBank.
#include "systemc/link/lc_registers.h"

#include <limits>
#include <utility>

namespace lq::link {

namespace {

namespace regs = lq::regs::lc;

// The 32-bit counter registers, CRC_ERRORS .. LOST_ON_DOWN.
constexpr uint32_t kSmallCounterOffsets[] = {
    regs::kCrcErrorsOffset, regs::kFecCorrectedOffset,
    regs::kNaksSentOffset,  regs::kNaksReceivedOffset,
    regs::kReplaysOffset,   regs::kRetrainsOffset,
    regs::kLinkDownsOffset, regs::kProtocolErrorsOffset,
    regs::kLostOnDownOffset};
constexpr size_t kFirstSmallCounter =
    static_cast<size_t>(LcCounter::kCrcErrors);

bool IsWidthCode(uint32_t width) {
  return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

void CallIf(const std::function<void()>& pulse) {
  if (pulse) {
    pulse();
  }
}

}  // namespace

LcRegisters::LcRegisters(uint8_t profile_id, LcPulses pulses,
                         std::function<LcStatus()> status)
    : bank_(regs::kRegisters), status_(std::move(status)) {
  // CTRL.PROFILE resets to the profile the controller is built for.
  bank_.Store(regs::kCtrlOffset,
              (bank_.value(regs::kCtrlOffset) & ~regs::kCtrlProfile.Mask()) |
                  (uint32_t{profile_id} << regs::kCtrlProfile.lsb));
  bank_.Hook(regs::kCtrlOffset,
             RegisterBank::OnWrite(
                 [this, pulses](uint32_t value) {
                   if (regs::kCtrlCntClear.Read(value) != 0) {
                     counters_ = {};
                     tx_high_ = rx_high_ = 0;
                   }
                   CallIf(pulses.control_written);
                   if (regs::kCtrlRetrain.Read(value) != 0) {
                     CallIf(pulses.retrain);
                   }
                 },
                 [](uint32_t value) {
                   return IsWidthCode(regs::kCtrlTargetWidth.Read(value));
                 }));
  bank_.Hook(regs::kErrInjectOffset,
             RegisterBank::OnWrite([pulses](uint32_t value) {
               if (regs::kErrInjectCrcErr.Read(value) != 0) {
                 CallIf(pulses.inject_crc);
               }
               if (regs::kErrInjectSeqErr.Read(value) != 0) {
                 CallIf(pulses.inject_seq);
               }
               if (regs::kErrInjectDropAck.Read(value) != 0) {
                 CallIf(pulses.inject_drop_ack);
               }
               if (regs::kErrInjectCorrupt.Read(value) != 0) {
                 CallIf(pulses.inject_corrupt);
               }
             }));
  bank_.Hook(regs::kReplayTimeoutOffset,
             RegisterBank::OnWrite(
                 [pulses](uint32_t) { CallIf(pulses.control_written); },
                 [](uint32_t value) { return value >= kMinReplayTimeout; }));
  bank_.Hook(regs::kReplayLimitOffset,
             RegisterBank::OnWrite(
                 [pulses](uint32_t) { CallIf(pulses.control_written); }));
  for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
    bank_.Hook(regs::CreditInitOffset(vc),
               RegisterBank::OnWrite(
                   [pulses](uint32_t) { CallIf(pulses.control_written); }));
  }
  bank_.Hook(regs::kStatusOffset, RegisterBank::OnRead([this] {
               const LcStatus status = status_();
               uint32_t value = status.ltssm << regs::kStatusLtssm.lsb;
               value |= uint32_t{status.link_up} << regs::kStatusLinkUp.lsb;
               value |= uint32_t{status.profile_id} << regs::kStatusProfile.lsb;
               value |= status.width << regs::kStatusWidth.lsb;
               const uint32_t speed =
                   status.link_up ? status.profile_id + 1 : 0;
               value |= speed << regs::kStatusSpeed.lsb;
               return value;
             }));
  for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
    bank_.Hook(regs::CreditAvailOffset(vc), RegisterBank::OnRead([this, vc] {
                 return uint32_t{status_().credit_avail[vc]};
               }));
  }
  HookCounters();
}

void LcRegisters::HookCounters() {
  // A LO half's read latches its HI half (DLL-8.6); a debugger's does not.
  const auto wide = [this](uint32_t lo, uint32_t hi, LcCounter counter,
                           uint32_t& high) {
    RegisterBank::Hooks low = RegisterBank::OnRead([this, counter, &high] {
      const uint64_t value = this->counter(counter);
      high = static_cast<uint32_t>(value >> 32);
      return static_cast<uint32_t>(value);
    });
    low.peek = [this, counter] {
      return static_cast<uint32_t>(this->counter(counter));
    };
    bank_.Hook(lo, std::move(low));
    bank_.Hook(hi, RegisterBank::OnRead([&high] { return high; }));
  };
  wide(regs::kTxFlitsLoOffset, regs::kTxFlitsHiOffset, LcCounter::kTxFlits,
       tx_high_);
  wide(regs::kRxFlitsLoOffset, regs::kRxFlitsHiOffset, LcCounter::kRxFlits,
       rx_high_);
  for (size_t i = 0; i < std::size(kSmallCounterOffsets); ++i) {
    const auto counter = static_cast<LcCounter>(kFirstSmallCounter + i);
    bank_.Hook(kSmallCounterOffsets[i], RegisterBank::OnRead([this, counter] {
                 return Counter32(counter);
               }));
  }
}

uint32_t LcRegisters::Counter32(LcCounter counter) const {
  return static_cast<uint32_t>(this->counter(counter));
}

LtssmControl LcRegisters::Control() const {
  const uint32_t ctrl = bank_.value(regs::kCtrlOffset);
  LtssmControl control;
  control.enable = regs::kCtrlEnable.Read(ctrl) != 0;
  control.loopback = regs::kCtrlLoopback.Read(ctrl) != 0;
  control.profile_id = static_cast<uint8_t>(regs::kCtrlProfile.Read(ctrl));
  control.target_width = regs::kCtrlTargetWidth.Read(ctrl);
  for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
    control.credit_init[vc] = static_cast<uint16_t>(
        bank_.Get(regs::CreditInitOffset(vc), regs::kCreditInitCredits));
  }
  return control;
}

bool LcRegisters::selective_nak() const {
  return bank_.Get(regs::kCtrlOffset, regs::kCtrlSelNakEn) != 0;
}

unsigned LcRegisters::replay_timeout() const {
  return bank_.Get(regs::kReplayTimeoutOffset, regs::kReplayTimeoutFlitTimes);
}

unsigned LcRegisters::replay_limit() const {
  return bank_.Get(regs::kReplayLimitOffset, regs::kReplayLimitLimit);
}

uint8_t LcRegisters::corrupt_bytes() const {
  return static_cast<uint8_t>(
      bank_.Get(regs::kErrInjectOffset, regs::kErrInjectCorruptBytes));
}

void LcRegisters::Count(LcCounter counter, uint64_t amount) {
  uint64_t& value = counters_[static_cast<size_t>(counter)];
  const bool wide =
      counter == LcCounter::kTxFlits || counter == LcCounter::kRxFlits;
  const uint64_t max = wide ? std::numeric_limits<uint64_t>::max()
                            : std::numeric_limits<uint32_t>::max();
  if (amount == 0 || value == max) {
    return;
  }
  value = amount >= max - value ? max : value + amount;
  if (value == max) {
    Raise(regs::kIrqStatusCounterOverflow.Mask());
  }
}

void LcRegisters::Raise(uint32_t causes) {
  bank_.Set(regs::kIrqStatusOffset, causes);
}

bool LcRegisters::Irq() const {
  return (bank_.value(regs::kIrqStatusOffset) &
          bank_.value(regs::kIrqEnableOffset)) != 0;
}

}  // namespace lq::link
