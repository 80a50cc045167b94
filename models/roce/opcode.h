// SPDX-License-Identifier: Apache-2.0
// The RC opcode subset lqemu speaks and, per opcode, the extension headers
// that follow the BTH (docs/spec/trn.md, TRN-4): one table used by both the
// packet builder and the parser.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace lq::roce {

enum class Opcode : uint8_t {
  kSendFirst = 0x00,
  kSendMiddle = 0x01,
  kSendLast = 0x02,
  kSendLastWithImmediate = 0x03,
  kSendOnly = 0x04,
  kSendOnlyWithImmediate = 0x05,
  kWriteFirst = 0x06,
  kWriteMiddle = 0x07,
  kWriteLast = 0x08,
  kWriteLastWithImmediate = 0x09,
  kWriteOnly = 0x0A,
  kWriteOnlyWithImmediate = 0x0B,
  kReadRequest = 0x0C,
  kReadResponseFirst = 0x0D,
  kReadResponseMiddle = 0x0E,
  kReadResponseLast = 0x0F,
  kReadResponseOnly = 0x10,
  kAcknowledge = 0x11,
  kAtomicAcknowledge = 0x12,
  kCompareSwap = 0x13,
  kFetchAdd = 0x14,
  kCnp = 0x81,
};

// Extension headers, as bits of OpcodeInfo::headers. On the wire they follow
// the BTH in the order of these bit values (the IBA order, TRN-4.2).
enum HeaderBit : uint8_t {
  kHeaderReth = 1 << 0,
  kHeaderAtomicEth = 1 << 1,
  kHeaderAeth = 1 << 2,
  kHeaderAtomicAckEth = 1 << 3,
  kHeaderImmDt = 1 << 4,
  kHeaderCnpReserved = 1 << 5,  // The CNP's 16 reserved bytes.
};

inline constexpr size_t kCnpReservedSize = 16;

struct OpcodeInfo {
  Opcode opcode;
  const char* name;
  uint8_t headers;     // HeaderBit set.
  bool has_payload;    // May carry payload bytes (and so pad bytes).
  bool ecn_capable;    // Sent as ECT(0) rather than Not-ECT (TRN-1.5).
  bool aeth_must_ack;  // Its AETH must carry an ACK syndrome (TRN-4.4).
};

// clang-format off
inline constexpr std::array<OpcodeInfo, 22> kOpcodeTable{{
  // opcode                         name                              headers                            payload ECT    AETH=ACK
  {Opcode::kSendFirst,              "SEND_FIRST",                     0,                                 true,  true,  false},
  {Opcode::kSendMiddle,             "SEND_MIDDLE",                    0,                                 true,  true,  false},
  {Opcode::kSendLast,               "SEND_LAST",                      0,                                 true,  true,  false},
  {Opcode::kSendLastWithImmediate,  "SEND_LAST_WITH_IMMEDIATE",       kHeaderImmDt,                      true,  true,  false},
  {Opcode::kSendOnly,               "SEND_ONLY",                      0,                                 true,  true,  false},
  {Opcode::kSendOnlyWithImmediate,  "SEND_ONLY_WITH_IMMEDIATE",       kHeaderImmDt,                      true,  true,  false},
  {Opcode::kWriteFirst,             "RDMA_WRITE_FIRST",               kHeaderReth,                       true,  true,  false},
  {Opcode::kWriteMiddle,            "RDMA_WRITE_MIDDLE",              0,                                 true,  true,  false},
  {Opcode::kWriteLast,              "RDMA_WRITE_LAST",                0,                                 true,  true,  false},
  {Opcode::kWriteLastWithImmediate, "RDMA_WRITE_LAST_WITH_IMMEDIATE", kHeaderImmDt,                      true,  true,  false},
  {Opcode::kWriteOnly,              "RDMA_WRITE_ONLY",                kHeaderReth,                       true,  true,  false},
  {Opcode::kWriteOnlyWithImmediate, "RDMA_WRITE_ONLY_WITH_IMMEDIATE", kHeaderReth | kHeaderImmDt,        true,  true,  false},
  {Opcode::kReadRequest,            "RDMA_READ_REQUEST",              kHeaderReth,                       false, true,  false},
  {Opcode::kReadResponseFirst,      "RDMA_READ_RESPONSE_FIRST",       kHeaderAeth,                       true,  true,  true},
  {Opcode::kReadResponseMiddle,     "RDMA_READ_RESPONSE_MIDDLE",      0,                                 true,  true,  false},
  {Opcode::kReadResponseLast,       "RDMA_READ_RESPONSE_LAST",        kHeaderAeth,                       true,  true,  true},
  {Opcode::kReadResponseOnly,       "RDMA_READ_RESPONSE_ONLY",        kHeaderAeth,                       true,  true,  true},
  {Opcode::kAcknowledge,            "ACKNOWLEDGE",                    kHeaderAeth,                       false, false, false},
  {Opcode::kAtomicAcknowledge,      "ATOMIC_ACKNOWLEDGE",             kHeaderAeth | kHeaderAtomicAckEth, false, false, true},
  {Opcode::kCompareSwap,            "COMPARE_SWAP",                   kHeaderAtomicEth,                  false, true,  false},
  {Opcode::kFetchAdd,               "FETCH_ADD",                      kHeaderAtomicEth,                  false, true,  false},
  {Opcode::kCnp,                    "CNP",                            kHeaderCnpReserved,                false, false, false},
}};
// clang-format on

// The table entry for a BTH opcode byte, or nullptr when lqemu does not
// define that opcode.
const OpcodeInfo* FindOpcode(uint8_t opcode);

// The opcode's table name, or "opcode 0xNN" for one lqemu does not define;
// for messages and traces.
std::string DescribeOpcode(uint8_t opcode);

// Bytes taken by the extension headers in a HeaderBit set.
size_t ExtensionHeadersSize(uint8_t headers);

}  // namespace lq::roce
