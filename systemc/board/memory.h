// SPDX-License-Identifier: Apache-2.0
// Memory: RAM or flash on the board's bus, with DMI so the CPU reads and
// writes it directly. Flash refuses bus writes (the CPU gets a store access
// fault) but takes debug writes, which is how images are loaded.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <systemc>
#include <tlm>

#include "models/common/bytes.h"

namespace lq::board {

struct MemoryConfig {
  uint32_t size = 0;
  bool read_only = false;
  // Access time the bus reports for a non-DMI access.
  sc_core::sc_time latency = sc_core::sc_time(10, sc_core::SC_NS);
};

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> socket;

  Memory(const sc_core::sc_module_name& name, const MemoryConfig& config);

  uint32_t size() const { return config_.size; }
  // Writes `data` (zero-padded to `length`) at `offset`, as a programmer
  // would, read-only or not. Precondition: inside the memory.
  void Program(uint32_t offset, const Bytes& data, uint32_t length);
  // Every byte 0, as at power-on.
  void Clear();
  // The `length` bytes at `offset`, as a checker reads them. Precondition:
  // inside the memory.
  ByteView View(uint32_t offset, uint32_t length) const {
    return ByteView(bytes_.get() + offset, length);
  }

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool GetDirectMemPtr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  // True if [address, address + length) is inside the memory.
  bool InRange(const tlm::tlm_generic_payload& trans) const;

  MemoryConfig config_;
  // calloc: the OS maps zero pages lazily, so a cluster of idle boards
  // costs only the pages firmware touches.
  std::unique_ptr<uint8_t, decltype(&std::free)> bytes_;
};

}  // namespace lq::board
