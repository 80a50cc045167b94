// TestFinisher: how firmware ends a simulation with a status, compatible
// with the SiFive test device of QEMU's virt machine: writing 0x5555 ends
// with status 0; 0x3333 | status << 16 ends with that status.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <systemc>
#include <tlm>

namespace lq::board {

class TestFinisher : public sc_core::sc_module {
 public:
  static constexpr uint32_t kPass = 0x5555;
  static constexpr uint32_t kFail = 0x3333;

  tlm_utils::simple_target_socket<TestFinisher> socket;

  // `on_exit` runs when firmware writes a finishing command.
  TestFinisher(const sc_core::sc_module_name& name,
               std::function<void(int status)> on_exit);

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  std::function<void(int)> on_exit_;
};

}  // namespace lq::board
