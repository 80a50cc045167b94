// SPDX-License-Identifier: Apache-2.0
// CardMemory: a card's own memory (the HBM of DESIGN.md §2), which is its
// window's direct region in the logical layer (docs/spec/log.md LOG-2.3):
// log.direct_bytes, 16 GiB by default, stored sparsely. A TLM-2.0 target
// with a fixed access time; the node's logical unit is its one initiator.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "models/common/bytes.h"
#include "models/common/sparse_bytes.h"
#include "systemc/common/path_probe.h"

namespace lq::logical {

struct CardMemoryConfig {
  uint64_t size = uint64_t{16} << 30;
  // Time of one access, reported as a delay (loosely timed).
  sc_core::sc_time latency = sc_core::sc_time(50, sc_core::SC_NS);
};

class CardMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CardMemory> socket;

  CardMemory(const sc_core::sc_module_name& name,
             const CardMemoryConfig& config);

  // What a checker or loader reads and writes, outside simulated time.
  // Precondition: inside the memory.
  Bytes Peek(uint64_t address, uint64_t length) const;
  void Poke(uint64_t address, const Bytes& bytes);
  uint64_t size() const { return bytes_.size(); }
  size_t chunks() const { return bytes_.chunks(); }
  // Reports every access's start and end to `probe` (nullptr: none).
  void set_probe(PathProbe* probe) { probe_ = probe; }

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  // Reads or writes `trans`; false if it is out of range or malformed.
  bool Access(tlm::tlm_generic_payload& trans);

  CardMemoryConfig config_;
  SparseBytes bytes_;
  PathProbe* probe_ = nullptr;
};

}  // namespace lq::logical
