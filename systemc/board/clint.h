// SPDX-License-Identifier: Apache-2.0
// Clint: the core-local interruptor of QEMU's virt machine and SiFive's
// parts: msip (software interrupt), mtimecmp and mtime, which counts at a
// fixed rate from simulated time. Event-driven: it schedules one event, at
// the time mtime reaches mtimecmp, and none while the timer is unarmed.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

namespace lq::board {

class Clint : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Clint> socket;
  sc_core::sc_out<bool> timer_irq;     // mip.MTIP
  sc_core::sc_out<bool> software_irq;  // mip.MSIP

  static constexpr uint32_t kMsip = 0x0000;
  static constexpr uint32_t kMtimecmp = 0x4000;
  static constexpr uint32_t kMtime = 0xbff8;
  static constexpr uint32_t kWindowSize = 0x10000;

  // `tick` is one mtime increment (100 ns: 10 MHz, as on QEMU virt).
  Clint(const sc_core::sc_module_name& name, sc_core::sc_time tick);

  // mtime at `when` (simulated time).
  uint64_t MtimeAt(const sc_core::sc_time& when) const;

  // The board was reset: no timer armed, no software interrupt; mtime
  // counts on (it keeps the board's time since power-on).
  void Reset();

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  // Reads or writes one aligned 32- or 64-bit register; false: bus error.
  bool Access(tlm::tlm_generic_payload& trans, const sc_core::sc_time& when);
  void Rearm(const sc_core::sc_time& when);
  void DriveIrqs();  // SC_METHOD: the only writer of both outputs

  sc_core::sc_time tick_;
  uint64_t mtimecmp_ = ~uint64_t{0};  // unarmed until firmware writes it
  int64_t mtime_offset_ = 0;          // from writes to mtime
  bool msip_ = false;
  sc_core::sc_event update_event_;    // a register changed
  sc_core::sc_event crossing_event_;  // mtime reaches mtimecmp
};

}  // namespace lq::board
