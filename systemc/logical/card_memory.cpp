// SPDX-License-Identifier: Apache-2.0
// CardMemory's TLM-2.0 target.
#include "systemc/logical/card_memory.h"

namespace lq::logical {

CardMemory::CardMemory(const sc_core::sc_module_name& name,
                       const CardMemoryConfig& config)
    : sc_module(name), socket("socket"), config_(config), bytes_(config.size) {
  socket.register_b_transport(this, &CardMemory::BTransport);
  socket.register_transport_dbg(this, &CardMemory::TransportDbg);
}

Bytes CardMemory::Peek(uint64_t address, uint64_t length) const {
  Bytes out(length);
  bytes_.Read(address, out.data(), length);
  return out;
}

void CardMemory::Poke(uint64_t address, const Bytes& bytes) {
  bytes_.Write(address, bytes.data(), bytes.size());
}

bool CardMemory::Access(tlm::tlm_generic_payload& trans) {
  const uint64_t length = trans.get_data_length();
  if (!bytes_.Contains(trans.get_address(), length) ||
      trans.get_byte_enable_ptr() != nullptr ||
      trans.get_streaming_width() < length) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (trans.is_write()) {
    bytes_.Write(trans.get_address(), trans.get_data_ptr(), length);
  } else if (trans.is_read()) {
    bytes_.Read(trans.get_address(), trans.get_data_ptr(), length);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void CardMemory::BTransport(tlm::tlm_generic_payload& trans,
                            sc_core::sc_time& delay) {
  if (Access(trans)) {
    Probe(probe_, *this, PathPoint::kMemoryStart, delay);
    delay += config_.latency;
    Probe(probe_, *this, PathPoint::kMemoryDone, delay);
  }
}

unsigned CardMemory::TransportDbg(tlm::tlm_generic_payload& trans) {
  return Access(trans) ? trans.get_data_length() : 0;
}

}  // namespace lq::logical
