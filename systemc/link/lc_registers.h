// SPDX-License-Identifier: Apache-2.0
// The link controller's registers (docs/registers/lc.md) with the behaviour
// of DLL-8, for the TL model: built from the same generated description as
// the RTL's lc_csr, with counters, interrupts and pulses as callbacks.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "models/link/ltssm.h"
#include "systemc/common/register_bank.h"

namespace lq::link {

// The counter registers, in register order (DLL-8.6).
enum class LcCounter {
  kTxFlits,
  kRxFlits,
  kCrcErrors,
  kFecCorrected,
  kNaksSent,
  kNaksReceived,
  kReplays,
  kRetrains,
  kLinkDowns,
  kProtocolErrors,
  kLostOnDown,
};
inline constexpr size_t kLcCounters = 11;

// What STATUS and CREDIT_AVAIL show, read from the datapath when read.
struct LcStatus {
  unsigned ltssm = 0;
  bool link_up = false;
  uint8_t profile_id = 0;
  unsigned width = 0;
  VcCredits credit_avail{};
};

// The pulses of CTRL and ERR_INJECT (W1S fields).
struct LcPulses {
  std::function<void()> retrain;
  std::function<void()> inject_crc, inject_seq, inject_drop_ack, inject_corrupt;
  // A register the datapath reads was written: CTRL, CREDIT_INIT,
  // REPLAY_TIMEOUT or REPLAY_LIMIT (before CTRL's own pulses act).
  std::function<void()> control_written;
};

class LcRegisters {
 public:
  // `profile_id`: the profile this controller is built for, CTRL.PROFILE's
  // reset value.
  LcRegisters(uint8_t profile_id, LcPulses pulses,
              std::function<LcStatus()> status);

  std::optional<uint32_t> Read(uint32_t offset) { return bank_.Read(offset); }
  bool Write(uint32_t offset, uint32_t value) {
    return bank_.Write(offset, value);
  }
  // A debugger's read: no HI half latched.
  std::optional<uint32_t> Peek(uint32_t offset) { return bank_.Peek(offset); }

  // Control as written now.
  LtssmControl Control() const;
  bool selective_nak() const;
  unsigned replay_timeout() const;
  unsigned replay_limit() const;
  uint8_t corrupt_bytes() const;

  // Counting saturates at all-ones and raises COUNTER_OVERFLOW (DLL-8.4).
  void Count(LcCounter counter, uint64_t amount = 1);
  uint64_t counter(LcCounter counter) const {
    return counters_[static_cast<size_t>(counter)];
  }
  // Records interrupt causes (IRQ_STATUS bits), enabled or not (DLL-7.6).
  void Raise(uint32_t causes);
  // The interrupt line: IRQ_STATUS AND IRQ_ENABLE.
  bool Irq() const;

 private:
  void HookCounters();
  uint32_t Counter32(LcCounter counter) const;

  RegisterBank bank_;
  std::function<LcStatus()> status_;
  std::array<uint64_t, kLcCounters> counters_{};
  uint32_t tx_high_ = 0, rx_high_ = 0;  // Latched by a LO read (DLL-8.2).
};

}  // namespace lq::link
