// SPDX-License-Identifier: Apache-2.0
// Bus: decodes the board's address map (docs/board.md) and forwards each
// transaction to the device that owns the address, with the address made
// relative to the device's window. A miss answers TLM_ADDRESS_ERROR_RESPONSE;
// the CPU turns that into an access fault. Several initiators may master it:
// the first bound (the CPU) reaches every window; the others (DMA masters
// such as the transport engine) only memory windows, never a device's
// registers, which answer them TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace lq::board {

class Bus : public sc_core::sc_module {
 public:
  // From the CPU and any other bus master.
  tlm_utils::multi_passthrough_target_socket<Bus> upstream;
  tlm_utils::multi_passthrough_initiator_socket<Bus> devices;

  explicit Bus(const sc_core::sc_module_name& name);

  // What a window holds: memory every master may reach, or a device's
  // registers, the CPU's alone.
  enum class Holds { kDevice, kMemory };

  // Maps [base, base + size) to the device bound next to `devices` (call it
  // in binding order: the first Map is the first bound device). Windows may
  // not overlap; a clash is a programming error reported at once.
  void Map(const std::string& device, uint32_t base, uint32_t size,
           Holds holds = Holds::kDevice);

  // Decode misses seen (bus errors), for statistics.
  uint64_t decode_errors() const { return decode_errors_; }

 private:
  struct Window {
    std::string device;
    uint32_t base;
    uint32_t size;
    unsigned index;
    Holds holds;
  };

  // The window holding all of [address, address + length) that
  // `initiator` may reach; nullptr if none.
  const Window* Decode(int initiator, uint64_t address, unsigned length) const;
  void BTransport(int initiator, tlm::tlm_generic_payload& trans,
                  sc_core::sc_time& delay);
  bool GetDirectMemPtr(int initiator, tlm::tlm_generic_payload& trans,
                       tlm::tlm_dmi& dmi);
  unsigned TransportDbg(int initiator, tlm::tlm_generic_payload& trans);
  void InvalidateDirectMemPtr(int index, sc_dt::uint64 start,
                              sc_dt::uint64 end);

  std::vector<Window> windows_;
  uint64_t decode_errors_ = 0;
};

}  // namespace lq::board
