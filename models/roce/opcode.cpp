// SPDX-License-Identifier: Apache-2.0
// Opcode lookup and header-chain sizes over the opcode table.
#include "models/roce/opcode.h"

#include <cstdio>

#include "models/roce/ib_headers.h"

namespace lq::roce {

const OpcodeInfo* FindOpcode(uint8_t opcode) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (static_cast<uint8_t>(info.opcode) == opcode) {
      return &info;
    }
  }
  return nullptr;
}

std::string DescribeOpcode(uint8_t opcode) {
  if (const OpcodeInfo* info = FindOpcode(opcode)) {
    return info->name;
  }
  char text[sizeof("opcode 0xNN")];
  std::snprintf(text, sizeof(text), "opcode 0x%02X", opcode);
  return text;
}

size_t ExtensionHeadersSize(uint8_t headers) {
  struct HeaderSize {
    HeaderBit bit;
    size_t size;
  };
  static constexpr HeaderSize kSizes[] = {
      {kHeaderReth, Reth::kSize},   {kHeaderAtomicEth, AtomicEth::kSize},
      {kHeaderAeth, Aeth::kSize},   {kHeaderAtomicAckEth, AtomicAckEth::kSize},
      {kHeaderImmDt, ImmDt::kSize}, {kHeaderCnpReserved, kCnpReservedSize},
  };
  size_t total = 0;
  for (const HeaderSize& entry : kSizes) {
    if ((headers & entry.bit) != 0) {
      total += entry.size;
    }
  }
  return total;
}

}  // namespace lq::roce
