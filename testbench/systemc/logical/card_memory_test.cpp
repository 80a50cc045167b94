// SPDX-License-Identifier: Apache-2.0
// Tests of CardMemory, a card's sparse memory behind the logical unit:
// reads and writes with their access time, zeros where nothing was
// written, and refusals for what lies outside or is malformed.
#include "systemc/logical/card_memory.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>

namespace lq::logical {
namespace {

struct Master : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Master> socket;
  explicit Master(const sc_core::sc_module_name& name)
      : sc_module(name), socket("socket") {}

  tlm::tlm_response_status Access(tlm::tlm_command command, uint64_t address,
                                  uint8_t* data, unsigned length,
                                  sc_core::sc_time& delay,
                                  uint8_t* enables = nullptr) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(length);
    trans.set_streaming_width(length);
    trans.set_byte_enable_ptr(enables);
    trans.set_byte_enable_length(enables != nullptr ? length : 0);
    socket->b_transport(trans, delay);
    return trans.get_response_status();
  }
};

TEST(CardMemory, LOG_2_3_SixteenGibOfZerosUntilWritten) {
  CardMemoryConfig config;
  config.latency = sc_core::sc_time(50, sc_core::SC_NS);
  CardMemory memory("memory", config);
  Master master("master");
  master.socket.bind(memory.socket);

  const uint64_t top = (uint64_t{16} << 30) - 8;
  uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(master.Access(tlm::TLM_WRITE_COMMAND, top, bytes, 8, delay),
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(delay, sc_core::sc_time(50, sc_core::SC_NS)) << "one access time";
  uint8_t back[8] = {};
  EXPECT_EQ(master.Access(tlm::TLM_READ_COMMAND, top, back, 8, delay),
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(Bytes(back, back + 8), Bytes(bytes, bytes + 8));
  EXPECT_EQ(memory.Peek(0x1000, 4), (Bytes{0, 0, 0, 0}))
      << "never written: zero";
  memory.Poke(0x1000, Bytes{9, 9});
  EXPECT_EQ(memory.Peek(0x1000, 4), (Bytes{9, 9, 0, 0}));
  EXPECT_EQ(memory.chunks(), 2u) << "storage only where written";
}

TEST(CardMemory, RefusesWhatLiesOutsideOrIsMalformed_fail) {
  CardMemoryConfig config;
  config.size = 4096;
  CardMemory memory("memory", config);
  Master master("master");
  master.socket.bind(memory.socket);
  uint8_t bytes[8] = {};
  uint8_t enables[8] = {0xFF};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(master.Access(tlm::TLM_READ_COMMAND, 4092, bytes, 8, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE)
      << "runs past the end";
  EXPECT_EQ(master.Access(tlm::TLM_WRITE_COMMAND, 0, bytes, 8, delay, enables),
            tlm::TLM_ADDRESS_ERROR_RESPONSE)
      << "byte enables";
  EXPECT_EQ(delay, sc_core::SC_ZERO_TIME) << "a refusal takes no time";
}

}  // namespace
}  // namespace lq::logical
