// SPDX-License-Identifier: Apache-2.0
// Bus decoding and forwarding, including DMI address translation both ways.
#include "systemc/board/bus.h"

#include <stdexcept>

namespace lq::board {

Bus::Bus(const sc_core::sc_module_name& name)
    : sc_module(name), upstream("upstream"), devices("devices") {
  upstream.register_b_transport(this, &Bus::BTransport);
  upstream.register_get_direct_mem_ptr(this, &Bus::GetDirectMemPtr);
  upstream.register_transport_dbg(this, &Bus::TransportDbg);
  devices.register_invalidate_direct_mem_ptr(this,
                                             &Bus::InvalidateDirectMemPtr);
}

void Bus::Map(const std::string& device, uint32_t base, uint32_t size,
              Holds holds) {
  for (const Window& w : windows_) {
    if (base < uint64_t{w.base} + w.size && w.base < uint64_t{base} + size) {
      throw std::logic_error(name() + std::string(": window of ") + device +
                             " overlaps " + w.device);
    }
  }
  windows_.push_back(
      {device, base, size, static_cast<unsigned>(windows_.size()), holds});
}

const Bus::Window* Bus::Decode(int initiator, uint64_t address,
                               unsigned length) const {
  constexpr int kCpu = 0;
  for (const Window& w : windows_) {
    // Without address + length, which a DMA address near 2^64 wraps.
    const bool inside = address >= w.base && length <= w.size &&
                        address - w.base <= w.size - length;
    if (inside && (initiator == kCpu || w.holds == Holds::kMemory)) {
      return &w;
    }
  }
  return nullptr;
}

void Bus::BTransport(int initiator, tlm::tlm_generic_payload& trans,
                     sc_core::sc_time& delay) {
  const uint64_t address = trans.get_address();
  const Window* window = Decode(initiator, address, trans.get_data_length());
  if (window == nullptr) {
    ++decode_errors_;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  trans.set_address(address - window->base);
  devices[window->index]->b_transport(trans, delay);
  trans.set_address(address);
}

bool Bus::GetDirectMemPtr(int initiator, tlm::tlm_generic_payload& trans,
                          tlm::tlm_dmi& dmi) {
  const uint64_t address = trans.get_address();
  const Window* window = Decode(initiator, address, 1);
  if (window == nullptr) {
    return false;
  }
  trans.set_address(address - window->base);
  const bool granted = devices[window->index]->get_direct_mem_ptr(trans, dmi);
  trans.set_address(address);
  if (granted) {
    // Back to global addresses, clipped to the window.
    const uint64_t last = uint64_t{window->size} - 1;
    dmi.set_start_address(window->base + dmi.get_start_address());
    dmi.set_end_address(window->base +
                        std::min<uint64_t>(dmi.get_end_address(), last));
  }
  return granted;
}

unsigned Bus::TransportDbg(int initiator, tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  const Window* window = Decode(initiator, address, trans.get_data_length());
  if (window == nullptr) {
    return 0;
  }
  trans.set_address(address - window->base);
  const unsigned count = devices[window->index]->transport_dbg(trans);
  trans.set_address(address);
  return count;
}

void Bus::InvalidateDirectMemPtr(int index, sc_dt::uint64 start,
                                 sc_dt::uint64 end) {
  for (const Window& w : windows_) {
    if (static_cast<int>(w.index) == index) {
      // Every master may hold a pointer into the window.
      for (unsigned i = 0; i < upstream.size(); ++i) {
        upstream[i]->invalidate_direct_mem_ptr(
            w.base + start, w.base + std::min<sc_dt::uint64>(end, w.size - 1));
      }
      return;
    }
  }
}

}  // namespace lq::board
