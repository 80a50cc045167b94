// SPDX-License-Identifier: Apache-2.0
// A testbench requester on a logical unit's socket: loads, stores, atomics
// and fences from a SystemC thread, each returning the unit's status
// (LOG-1.3) and what it read.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "models/common/bytes.h"
#include "systemc/logical/logical_extension.h"

namespace lq::logical::testing {

struct Answer {
  AccessStatus status = AccessStatus::kOk;
  Bytes data;        // loads
  uint64_t old = 0;  // atomics
  tlm::tlm_response_status response = tlm::TLM_INCOMPLETE_RESPONSE;
};

class Requester : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Requester> socket;

  explicit Requester(const sc_core::sc_module_name& name)
      : sc_module(name), socket("socket") {}

  Answer Load(uint64_t ga, uint32_t length) {
    Answer answer;
    answer.data.resize(length);
    Issue(tlm::TLM_READ_COMMAND, ga, answer.data.data(), length, answer);
    return answer;
  }
  Answer Store(uint64_t ga, Bytes data) {
    Answer answer;
    Issue(tlm::TLM_WRITE_COMMAND, ga, data.data(),
          static_cast<uint32_t>(data.size()), answer);
    return answer;
  }
  Answer Atomic(uint64_t ga, const AtomicRequest& request) {
    Answer answer;
    uint8_t old[8] = {};
    AtomicExtension extension;
    extension.request = request;
    Issue(tlm::TLM_READ_COMMAND, ga, old, request.size, answer, &extension);
    answer.old = LoadLittleEndian(old, request.size);
    return answer;
  }
  Answer Fence() {
    Answer answer;
    FenceExtension extension;
    Issue(tlm::TLM_IGNORE_COMMAND, 0, nullptr, 0, answer, &extension);
    return answer;
  }
  // The generic payload of the next access, for tests that set odd fields.
  tlm::tlm_generic_payload& raw() { return raw_; }
  Answer IssueRaw() {
    Answer answer;
    Transport(raw_, answer);
    return answer;
  }

 private:
  // `extension` (an AtomicExtension or FenceExtension, or nullptr) rides
  // on the access.
  template <typename Extension = AtomicExtension>
  void Issue(tlm::tlm_command command, uint64_t ga, uint8_t* data,
             uint32_t length, Answer& answer, Extension* extension = nullptr) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(ga);
    trans.set_data_ptr(data);
    trans.set_data_length(length);
    trans.set_streaming_width(length);
    if (extension != nullptr) {
      trans.set_extension(extension);
    }
    Transport(trans, answer);
    if (extension != nullptr) {
      trans.clear_extension(extension);
    }
  }
  void Transport(tlm::tlm_generic_payload& trans, Answer& answer) {
    StatusExtension status;
    trans.set_extension(&status);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    sc_core::wait(delay);
    trans.clear_extension(&status);
    answer.response = trans.get_response_status();
    answer.status = status.status;
  }

  tlm::tlm_generic_payload raw_;
};

}  // namespace lq::logical::testing
