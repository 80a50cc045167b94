// SPDX-License-Identifier: Apache-2.0
// The shape of a register access on a block's TLM-2.0 CSR socket: one
// aligned 32-bit word, no byte enables (DLL-8.1). Every register block of
// lqemu answers only such accesses, and carries them out alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tlm>

#include "models/common/bytes.h"

namespace lq {

inline constexpr unsigned kRegisterBytes = 4;

inline bool IsRegisterAccess(const tlm::tlm_generic_payload& trans) {
  return trans.get_data_length() == kRegisterBytes &&
         trans.get_streaming_width() >= kRegisterBytes &&
         trans.get_byte_enable_ptr() == nullptr &&
         trans.get_address() % kRegisterBytes == 0;
}

// Carries out a register access (IsRegisterAccess(trans) holds): a write of
// the payload's little-endian word through `write(offset, value)`, or a
// read through `read(offset)` into the payload. Sets the response: OK, or
// an address error when `write` refuses or `read` has no value. Returns
// whether the access was accepted.
template <typename Read, typename Write>
bool AccessRegister(tlm::tlm_generic_payload& trans, Read read, Write write) {
  const auto offset = static_cast<uint32_t>(trans.get_address());
  uint8_t* data = trans.get_data_ptr();
  bool ok;
  if (trans.is_write()) {
    ok = write(offset,
               static_cast<uint32_t>(LoadLittleEndian(data, kRegisterBytes)));
  } else {
    const std::optional<uint32_t> value = read(offset);
    ok = value.has_value();
    if (ok) {
      StoreLittleEndian(data, kRegisterBytes, *value);
    }
  }
  trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE
                               : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return ok;
}

// Serves one bus access to a register block: an access of any other shape
// is a burst error (DLL-8.1), a register access goes to AccessRegister().
template <typename Read, typename Write>
void ServeRegisterAccess(tlm::tlm_generic_payload& trans, Read read,
                         Write write) {
  if (!IsRegisterAccess(trans)) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  AccessRegister(trans, read, write);
}

// Serves a debugger's access to a register block (transport_dbg): a read
// of a register, or of bytes within one, through `peek(offset)`, which
// has no side effects; a write of a whole register through
// `write(offset, value)`, as the bus's would be. Returns the bytes
// transferred: 0 if the access has another shape or is refused.
template <typename Peek, typename Write>
unsigned ServeDebugAccess(tlm::tlm_generic_payload& trans, Peek peek,
                          Write write) {
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  const uint64_t within = address % kRegisterBytes;
  const auto offset = static_cast<uint32_t>(address - within);
  if (trans.get_byte_enable_ptr() != nullptr || length == 0 ||
      within + length > kRegisterBytes) {
    return 0;
  }
  uint8_t* data = trans.get_data_ptr();
  if (trans.is_write()) {
    const bool ok =
        length == kRegisterBytes &&
        write(offset,
              static_cast<uint32_t>(LoadLittleEndian(data, kRegisterBytes)));
    return ok ? kRegisterBytes : 0;
  }
  const std::optional<uint32_t> value = peek(offset);
  if (!value) {
    return 0;
  }
  uint8_t word[kRegisterBytes];
  StoreLittleEndian(word, kRegisterBytes, *value);
  std::copy(word + within, word + within + length, data);
  return length;
}

// ServeDebugAccess on a block's register bank (a RegisterBank).
template <typename Bank>
unsigned ServeDebugBank(tlm::tlm_generic_payload& trans, Bank& bank) {
  return ServeDebugAccess(
      trans, [&bank](uint32_t offset) { return bank.Peek(offset); },
      [&bank](uint32_t offset, uint32_t value) {
        return bank.Write(offset, value);
      });
}

// ServeRegisterAccess on a block's register bank (a RegisterBank).
template <typename Bank>
void ServeRegisterBank(tlm::tlm_generic_payload& trans, Bank& bank) {
  ServeRegisterAccess(
      trans, [&bank](uint32_t offset) { return bank.Read(offset); },
      [&bank](uint32_t offset, uint32_t value) {
        return bank.Write(offset, value);
      });
}

}  // namespace lq
