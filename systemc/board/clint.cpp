// SPDX-License-Identifier: Apache-2.0
// Clint's registers and its single timer event.
#include "systemc/board/clint.h"

#include "models/common/bytes.h"

namespace lq::board {

Clint::Clint(const sc_core::sc_module_name& name, sc_core::sc_time tick)
    : sc_module(name),
      socket("socket"),
      timer_irq("timer_irq"),
      software_irq("software_irq"),
      tick_(tick) {
  socket.register_b_transport(this, &Clint::BTransport);
  socket.register_transport_dbg(this, &Clint::TransportDbg);
  SC_HAS_PROCESS(Clint);
  SC_METHOD(DriveIrqs);
  sensitive << update_event_ << crossing_event_;
  dont_initialize();
}

uint64_t Clint::MtimeAt(const sc_core::sc_time& when) const {
  const auto ticks = static_cast<uint64_t>(when / tick_);
  return ticks + static_cast<uint64_t>(mtime_offset_);
}

void Clint::DriveIrqs() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  timer_irq.write(MtimeAt(now) >= mtimecmp_);
  software_irq.write(msip_);
}

// The lines follow the registers from the time of the write; the timer line
// must also rise when mtime reaches mtimecmp, which is the one timed event.
void Clint::Reset() {
  mtimecmp_ = ~uint64_t{0};
  msip_ = false;
  Rearm(sc_core::sc_time_stamp());
}

void Clint::Rearm(const sc_core::sc_time& when) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  update_event_.notify(when - now);
  crossing_event_.cancel();
  if (mtimecmp_ == ~uint64_t{0} || MtimeAt(when) >= mtimecmp_) {
    return;
  }
  const uint64_t ticks = mtimecmp_ - static_cast<uint64_t>(mtime_offset_);
  crossing_event_.notify(tick_ * static_cast<double>(ticks) - now);
}

bool Clint::Access(tlm::tlm_generic_payload& trans,
                   const sc_core::sc_time& when) {
  const uint64_t offset = trans.get_address();
  const unsigned length = trans.get_data_length();
  if ((length != 4 && length != 8) || offset % length != 0 ||
      trans.get_byte_enable_ptr() != nullptr) {
    return false;
  }
  uint64_t* reg = nullptr;
  uint64_t value = 0;
  uint32_t base = 0;
  uint64_t mtime = MtimeAt(when);
  if (offset == kMsip && length == 4) {
    value = msip_ ? 1 : 0;
    base = kMsip;
  } else if (offset >= kMtimecmp && offset + length <= kMtimecmp + 8) {
    reg = &mtimecmp_;
    value = mtimecmp_;
    base = kMtimecmp;
  } else if (offset >= kMtime && offset + length <= kMtime + 8) {
    reg = &mtime;
    value = mtime;
    base = kMtime;
  } else {
    return false;
  }
  const unsigned shift = 8 * static_cast<unsigned>(offset - base);
  uint8_t* data = trans.get_data_ptr();
  if (trans.is_read()) {
    StoreLittleEndian(data, length, value >> shift);
    return true;
  }
  const uint64_t written = LoadLittleEndian(data, length);
  const uint64_t mask = length == 8 ? ~uint64_t{0} : 0xffffffffull << shift;
  if (reg == nullptr) {  // msip: bit 0 only
    msip_ = (written & 1) != 0;
  } else {
    *reg = (*reg & ~mask) | ((written << shift) & mask);
    if (reg == &mtime) {
      mtime_offset_ += static_cast<int64_t>(mtime - MtimeAt(when));
    }
  }
  Rearm(when);
  return true;
}

void Clint::BTransport(tlm::tlm_generic_payload& trans,
                       sc_core::sc_time& delay) {
  const bool ok = Access(trans, sc_core::sc_time_stamp() + delay);
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE
                               : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  delay += sc_core::sc_time(10, sc_core::SC_NS);
}

unsigned Clint::TransportDbg(tlm::tlm_generic_payload& trans) {
  // Debug reads only: a debugger must not arm the timer.
  if (!trans.is_read()) {
    return 0;
  }
  return Access(trans, sc_core::sc_time_stamp()) ? trans.get_data_length() : 0;
}

}  // namespace lq::board
