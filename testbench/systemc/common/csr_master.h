// A testbench bus master that reads and writes 32-bit registers over TLM-2.0
// as firmware would, from a SystemC thread. A bus error fails the test.
#pragma once

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "models/common/bytes.h"

namespace lq::testing {

class CsrMaster : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CsrMaster> socket;

  explicit CsrMaster(sc_core::sc_module_name name)
      : sc_module(name), socket("socket") {}

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

  // The raw response, for tests that expect an error.
  tlm::tlm_response_status Access(tlm::tlm_command command, uint32_t address,
                                  uint32_t& value) {
    uint8_t data[4];
    StoreLittleEndian(data, sizeof(data), value);
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(sizeof(data));
    trans.set_streaming_width(sizeof(data));
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    wait(delay);  // No quantum keeper: every access is synchronised.
    value = static_cast<uint32_t>(LoadLittleEndian(data, sizeof(data)));
    return trans.get_response_status();
  }
};

}  // namespace lq::testing
