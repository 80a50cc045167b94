// SPDX-License-Identifier: Apache-2.0
// Memory's TLM-2.0 target: b_transport, DMI and debug transport.
#include "systemc/board/memory.h"

#include <cstring>
#include <new>

namespace lq::board {

Memory::Memory(const sc_core::sc_module_name& name, const MemoryConfig& config)
    : sc_module(name),
      socket("socket"),
      config_(config),
      bytes_(static_cast<uint8_t*>(std::calloc(config.size, 1)), &std::free) {
  if (config.size != 0 && bytes_ == nullptr) {
    throw std::bad_alloc();
  }
  socket.register_b_transport(this, &Memory::BTransport);
  socket.register_get_direct_mem_ptr(this, &Memory::GetDirectMemPtr);
  socket.register_transport_dbg(this, &Memory::TransportDbg);
}

void Memory::Program(uint32_t offset, const Bytes& data, uint32_t length) {
  uint8_t* cell = bytes_.get() + offset;
  std::memcpy(cell, data.data(), data.size());
  std::memset(cell + data.size(), 0, length - data.size());
}

void Memory::Clear() { std::memset(bytes_.get(), 0, config_.size); }

bool Memory::InRange(const tlm::tlm_generic_payload& trans) const {
  const uint64_t address = trans.get_address();
  return address <= config_.size &&
         trans.get_data_length() <= config_.size - address;
}

void Memory::BTransport(tlm::tlm_generic_payload& trans,
                        sc_core::sc_time& delay) {
  if (!InRange(trans) || trans.get_byte_enable_ptr() != nullptr ||
      trans.get_streaming_width() < trans.get_data_length()) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint8_t* cell = bytes_.get() + trans.get_address();
  if (trans.is_write()) {
    if (config_.read_only) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    std::memcpy(cell, trans.get_data_ptr(), trans.get_data_length());
  } else if (trans.is_read()) {
    std::memcpy(trans.get_data_ptr(), cell, trans.get_data_length());
  }
  delay += config_.latency;
  trans.set_dmi_allowed(true);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Memory::GetDirectMemPtr(tlm::tlm_generic_payload& trans,
                             tlm::tlm_dmi& dmi) {
  if (trans.get_address() >= config_.size) {
    return false;
  }
  dmi.set_dmi_ptr(bytes_.get());
  dmi.set_start_address(0);
  dmi.set_end_address(config_.size - 1);
  if (config_.read_only) {
    dmi.allow_read();
  } else {
    dmi.allow_read_write();
  }
  dmi.set_read_latency(config_.latency);
  dmi.set_write_latency(config_.latency);
  return true;
}

unsigned Memory::TransportDbg(tlm::tlm_generic_payload& trans) {
  if (!InRange(trans)) {
    return 0;
  }
  uint8_t* cell = bytes_.get() + trans.get_address();
  if (trans.is_write()) {
    std::memcpy(cell, trans.get_data_ptr(), trans.get_data_length());
  } else {
    std::memcpy(trans.get_data_ptr(), cell, trans.get_data_length());
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return trans.get_data_length();
}

}  // namespace lq::board
