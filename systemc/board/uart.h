// SPDX-License-Identifier: Apache-2.0
// Uart: the transmit side of a 16550-compatible UART (byte registers, as on
// QEMU's virt machine), which hands each completed console line to the
// board. The 16550's layout is fixed by its data sheet and its registers
// are bytes, which lqemu's 32-bit register descriptions do not model; so
// the eight registers are decoded here.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>

namespace lq::board {

class Uart : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Uart> socket;

  // `on_line` receives each line the firmware prints, without its newline.
  Uart(const sc_core::sc_module_name& name,
       std::function<void(const std::string&)> on_line);

  // Prints a partial last line, if any (the firmware ended mid-line).
  void Flush();
  // The board was reset: the partial line is printed, the registers
  // return to their reset values.
  void Reset();
  uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  uint8_t ReadRegister(uint32_t offset) const;
  void WriteRegister(uint32_t offset, uint8_t value);
  void Transmit(uint8_t byte);

  std::function<void(const std::string&)> on_line_;
  std::string line_;
  uint64_t bytes_sent_ = 0;
  uint8_t ier_ = 0, lcr_ = 0, mcr_ = 0, scr_ = 0, dll_ = 0, dlm_ = 0;
};

}  // namespace lq::board
