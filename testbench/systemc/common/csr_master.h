// SPDX-License-Identifier: Apache-2.0
// A testbench bus master that reads and writes 32-bit registers over TLM-2.0
// as firmware would, from a SystemC thread. A bus error fails the test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "systemc/common/register_master.h"

namespace lq::testing {

// Its Read() and Write() hide RegisterMaster's: here a bus error fails the
// running test.
class CsrMaster : public RegisterMaster {
 public:
  using RegisterMaster::RegisterMaster;

  uint32_t Read(uint32_t address) {
    uint32_t value = 0;
    EXPECT_EQ(Access(tlm::TLM_READ_COMMAND, address, value),
              tlm::TLM_OK_RESPONSE)
        << "read of 0x" << std::hex << address;
    return value;
  }

  // A 64-bit counter: LO latches HI, which sits at the next word.
  uint64_t ReadCounter64(uint32_t lo_address) {
    const uint64_t low = Read(lo_address);
    const uint64_t high = Read(lo_address + sizeof(uint32_t));
    return (high << 32) | low;
  }

  void Write(uint32_t address, uint32_t value) {
    EXPECT_EQ(Access(tlm::TLM_WRITE_COMMAND, address, value),
              tlm::TLM_OK_RESPONSE)
        << "write of 0x" << std::hex << address;
  }
};

}  // namespace lq::testing
