// SPDX-License-Identifier: Apache-2.0
// A bus master that reads and writes 32-bit registers over TLM-2.0 as
// firmware does, from a SystemC thread, each access waited for: the models
// of firmware roles use it, and so do testbenches. Bus errors are the
// caller's to judge (CsrMaster fails a GoogleTest on them; the conformance
// suite reports them as evidence).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "models/common/bytes.h"

namespace lq {

class RegisterMaster : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<RegisterMaster> socket;

  explicit RegisterMaster(sc_core::sc_module_name name)
      : sc_module(name), socket("socket") {}

  // The response status of one access; `value` is written, or read into.
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

  // A read that failed reads as all ones, as it would to firmware.
  uint32_t Read(uint32_t address) {
    uint32_t value = 0;
    return Access(tlm::TLM_READ_COMMAND, address, value) == tlm::TLM_OK_RESPONSE
               ? value
               : 0xFFFFFFFFu;
  }
  // Whether the write was accepted.
  bool Write(uint32_t address, uint32_t value) {
    return Access(tlm::TLM_WRITE_COMMAND, address, value) ==
           tlm::TLM_OK_RESPONSE;
  }
};

}  // namespace lq
