// The shape of a register access on a block's TLM-2.0 CSR socket: one
// aligned 32-bit word, no byte enables (DLL-8.1). Every register block of
// lqemu answers only such accesses.
#pragma once

#include <tlm>

namespace lq {

inline constexpr unsigned kRegisterBytes = 4;

inline bool IsRegisterAccess(const tlm::tlm_generic_payload& trans) {
  return trans.get_data_length() == kRegisterBytes &&
         trans.get_streaming_width() >= kRegisterBytes &&
         trans.get_byte_enable_ptr() == nullptr &&
         trans.get_address() % kRegisterBytes == 0;
}

}  // namespace lq
