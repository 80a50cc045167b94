// SPDX-License-Identifier: Apache-2.0
// How the RV32 hart reaches memory and devices: directly through host
// pointers for RAM/ROM (DMI), and through a bus interface for the rest.
#pragma once

#include <cstdint>

namespace lq::riscv {

// A range of guest addresses backed by host memory the hart may touch
// directly (TLM DMI). Reads are always allowed; writes and fetches as marked.
struct DirectRegion {
  uint32_t base = 0;
  uint32_t size = 0;
  uint8_t* host = nullptr;
  bool writable = false;
  bool executable = false;

  bool Contains(uint32_t address, uint32_t bytes) const {
    return address - base < size && size - (address - base) >= bytes;
  }
};

// The outcome of a bus access: whether it succeeded (false = the bus
// answered with an error, which the hart turns into an access fault) and how
// many core cycles it stalled the hart.
struct BusReply {
  bool ok = true;
  uint32_t stall_cycles = 0;
};

// The read-modify-writes of RV32A's AMOs.
enum class AmoOp : uint8_t {
  kSwap,
  kAdd,
  kXor,
  kAnd,
  kOr,
  kMin,
  kMax,
  kMinU,
  kMaxU
};

// The word an AMO stores, from the word it read and its operand.
uint32_t AmoResult(AmoOp op, uint32_t old_value, uint32_t operand);

// Accesses outside every direct region. Implementations may add or drop
// direct regions (Rv32Core::AddDirectRegion) from inside these calls.
class HartBus {
 public:
  virtual ~HartBus() = default;
  // An AMO on the aligned word at `address`: *old gets the word read, and
  // AmoResult(op, *old, operand) is stored. This default reads, then
  // writes; a bus whose device can do it as one operation overrides it.
  virtual BusReply Amo(uint32_t address, AmoOp op, uint32_t operand,
                       uint32_t* old);
  virtual BusReply Read(uint32_t address, uint8_t* data, uint32_t size) = 0;
  virtual BusReply Write(uint32_t address, const uint8_t* data,
                         uint32_t size) = 0;
  virtual BusReply Fetch(uint32_t address, uint8_t* data, uint32_t size) = 0;
  // The platform's real-time counter (mtime), for the time/timeh CSRs.
  virtual uint64_t Time() = 0;

 protected:
  // An AMO's second half, once the word at `address` was read as `old`
  // with reply `read`: writes AmoResult(op, old, operand) and returns the
  // write's outcome with both accesses' stalls.
  BusReply WriteAmoResult(uint32_t address, AmoOp op, uint32_t operand,
                          uint32_t old, const BusReply& read);
};

}  // namespace lq::riscv
