// SPDX-License-Identifier: Apache-2.0
// TestFinisher's one register.
#include "systemc/board/test_finisher.h"

#include <cstring>
#include <utility>

#include "models/common/bytes.h"
#include "systemc/common/register_port.h"

namespace lq::board {

TestFinisher::TestFinisher(const sc_core::sc_module_name& name,
                           std::function<void(int)> on_exit,
                           std::function<void()> on_trap)
    : sc_module(name),
      socket("socket"),
      on_exit_(std::move(on_exit)),
      on_trap_(std::move(on_trap)) {
  socket.register_b_transport(this, &TestFinisher::BTransport);
}

void TestFinisher::BTransport(tlm::tlm_generic_payload& trans,
                              sc_core::sc_time& delay) {
  if (!IsRegisterAccess(trans) || trans.get_address() != 0) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.is_read()) {
    std::memset(trans.get_data_ptr(), 0, kRegisterBytes);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const auto value = static_cast<uint32_t>(
      LoadLittleEndian(trans.get_data_ptr(), kRegisterBytes));
  const uint32_t command = value & 0xffff;
  if (command == kTrap) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    on_trap_();
    return;
  }
  if (command != kPass && command != kFail) {
    // Reset (0x7777) and anything else: not a way to end the run here.
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  delay += sc_core::sc_time(10, sc_core::SC_NS);
  on_exit_(command == kPass ? 0 : static_cast<int>(value >> 16));
}

}  // namespace lq::board
