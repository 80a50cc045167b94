// The shape of a register access on a block's TLM-2.0 CSR socket: one
// aligned 32-bit word, no byte enables (DLL-8.1). Every register block of
// lqemu answers only such accesses, and carries them out alike.
#pragma once

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
