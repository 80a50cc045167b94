// SPDX-License-Identifier: Apache-2.0
// BusAmoExtension: a read-modify-write that a bus master (the board's
// hart, for RV32A's AMOs) asks a device to perform as one operation. It
// rides on a 4-byte READ. A device that can perform it does, returns the
// word it replaced as the read's data and sets `performed`; any other
// device just reads, and the master then writes the new word itself.
#pragma once

#include <cstdint>
#include <tlm>

namespace lq {

struct BusAmoExtension : tlm::tlm_extension<BusAmoExtension> {
  // What the device may need to tell apart; kOther stands for the AMOs
  // that only a read followed by a write performs.
  enum class Op : uint8_t { kSwap, kAdd, kOther };
  Op op = Op::kOther;
  uint32_t operand = 0;
  bool performed = false;

  tlm::tlm_extension_base* clone() const override {
    return new BusAmoExtension(*this);
  }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const BusAmoExtension&>(other);
  }
};

}  // namespace lq
