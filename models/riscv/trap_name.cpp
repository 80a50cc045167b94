// SPDX-License-Identifier: Apache-2.0
// TrapName: mcause's meaning, as the privileged spec's table names it.
#include <iterator>

#include "models/riscv/rv32_isa.h"

namespace lq::riscv {

const char* TrapName(uint32_t mcause) {
  constexpr uint32_t kInterruptBit = 1u << 31;
  if ((mcause & kInterruptBit) != 0) {
    switch (mcause & ~kInterruptBit) {
      case 3:
        return "machine software interrupt";
      case 7:
        return "machine timer interrupt";
      case 11:
        return "machine external interrupt";
      default:
        return "reserved interrupt";
    }
  }
  constexpr const char* kExceptions[] = {"instruction address misaligned",
                                         "instruction access fault",
                                         "illegal instruction",
                                         "breakpoint",
                                         "load address misaligned",
                                         "load access fault",
                                         "store/AMO address misaligned",
                                         "store/AMO access fault",
                                         "environment call from U-mode",
                                         "environment call from S-mode",
                                         "reserved",
                                         "environment call from M-mode",
                                         "instruction page fault",
                                         "load page fault",
                                         "reserved",
                                         "store/AMO page fault"};
  return mcause < std::size(kExceptions) ? kExceptions[mcause] : "reserved";
}

}  // namespace lq::riscv
