// SPDX-License-Identifier: Apache-2.0
// TestFinisher: how firmware ends a simulation with a status, compatible
// with the SiFive test device of QEMU's virt machine: writing 0x5555 ends
// with status 0; 0x3333 | status << 16 ends with that status. lqemu adds
// 0x4444: the firmware is in a trap it does not handle (the trap CSRs say
// which), so that the run can say so rather than show a status.
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
  static constexpr uint32_t kTrap = 0x4444;

  tlm_utils::simple_target_socket<TestFinisher> socket;

  // `on_exit` runs when firmware writes a finishing command, `on_trap`
  // when it writes kTrap.
  TestFinisher(const sc_core::sc_module_name& name,
               std::function<void(int status)> on_exit,
               std::function<void()> on_trap);

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  std::function<void(int)> on_exit_;
  std::function<void()> on_trap_;
};

}  // namespace lq::board
