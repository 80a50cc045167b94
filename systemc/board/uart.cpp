// SPDX-License-Identifier: Apache-2.0
// Uart's registers: THR/DLL, IER/DLM, IIR/FCR, LCR, MCR, LSR, MSR, SCR.
#include "systemc/board/uart.h"

#include <algorithm>
#include <utility>

namespace lq::board {
namespace {

constexpr uint32_t kRegisterCount = 8;
constexpr uint8_t kLcrDlab = 0x80;          // divisor latch access
constexpr uint8_t kLsrTransmitIdle = 0x60;  // THRE | TEMT: always ready
constexpr uint8_t kIirNoInterrupt = 0x01;

}  // namespace

Uart::Uart(const sc_core::sc_module_name& name,
           std::function<void(const std::string&)> on_line)
    : sc_module(name), socket("socket"), on_line_(std::move(on_line)) {
  socket.register_b_transport(this, &Uart::BTransport);
  socket.register_transport_dbg(this, &Uart::TransportDbg);
}

void Uart::Flush() {
  if (!line_.empty()) {
    on_line_(line_);
    line_.clear();
  }
}

void Uart::Reset() {
  Flush();
  ier_ = lcr_ = mcr_ = scr_ = dll_ = dlm_ = 0;
}

void Uart::Transmit(uint8_t byte) {
  ++bytes_sent_;
  if (byte == '\n') {
    on_line_(line_);
    line_.clear();
  } else if (byte != '\r') {
    line_.push_back(static_cast<char>(byte));
  }
}

uint8_t Uart::ReadRegister(uint32_t offset) const {
  const bool dlab = (lcr_ & kLcrDlab) != 0;
  switch (offset) {
    case 0:
      return dlab ? dll_ : 0;  // RBR: nothing is ever received
    case 1:
      return dlab ? dlm_ : ier_;
    case 2:
      return kIirNoInterrupt;
    case 3:
      return lcr_;
    case 4:
      return mcr_;
    case 5:
      return kLsrTransmitIdle;
    case 6:
      return 0;  // MSR
    default:
      return scr_;
  }
}

void Uart::WriteRegister(uint32_t offset, uint8_t value) {
  const bool dlab = (lcr_ & kLcrDlab) != 0;
  switch (offset) {
    case 0:
      if (dlab) {
        dll_ = value;
      } else {
        Transmit(value);
      }
      break;
    case 1:
      (dlab ? dlm_ : ier_) = value;
      break;
    case 2:
      break;  // FCR: the FIFOs need no model
    case 3:
      lcr_ = value;
      break;
    case 4:
      mcr_ = value;
      break;
    case 7:
      scr_ = value;
      break;
    default:
      break;  // LSR and MSR are read-only
  }
}

void Uart::BTransport(tlm::tlm_generic_payload& trans,
                      sc_core::sc_time& delay) {
  const uint64_t offset = trans.get_address();
  // One register per access; a wider access reaches the byte at its address.
  if (offset >= kRegisterCount || trans.get_data_length() == 0 ||
      trans.get_data_length() > 4 || trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint8_t* data = trans.get_data_ptr();
  if (trans.is_write()) {
    WriteRegister(static_cast<uint32_t>(offset), data[0]);
  } else if (trans.is_read()) {
    std::fill(data, data + trans.get_data_length(), 0);
    data[0] = ReadRegister(static_cast<uint32_t>(offset));
  }
  delay += sc_core::sc_time(10, sc_core::SC_NS);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned Uart::TransportDbg(tlm::tlm_generic_payload& trans) {
  // Debug reads see the registers; debug writes never transmit.
  if (!trans.is_read() || trans.get_address() >= kRegisterCount ||
      trans.get_data_length() == 0) {
    return 0;
  }
  trans.get_data_ptr()[0] =
      ReadRegister(static_cast<uint32_t>(trans.get_address()));
  return 1;
}

}  // namespace lq::board
