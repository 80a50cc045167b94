// SPDX-License-Identifier: Apache-2.0
// InfiniBand transport headers carried by RoCEv2 (docs/spec/trn.md, TRN-2):
// BTH, RETH, AETH, AtomicETH, AtomicAckETH and ImmDt.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::roce {

inline constexpr uint32_t kQpnMask = 0x00FFFFFF;
inline constexpr uint32_t kMsnMask = 0x00FFFFFF;
inline constexpr uint16_t kDefaultPkey = 0xFFFF;

// Base Transport Header (12 bytes). Reserved bits are not members: they are
// sent as zero and ignored on receipt (TRN-2.2).
struct Bth {
  static constexpr size_t kSize = 12;

  uint8_t opcode = 0;
  bool solicited_event = false;
  bool mig_req = true;
  uint8_t pad_count = 0;  // 0..3
  uint8_t tver = 0;       // 0..15; only 0 is accepted (TRN-2.3)
  uint16_t pkey = kDefaultPkey;
  bool fecn = false;
  bool becn = false;
  uint32_t dest_qp = 0;  // 24 bits
  bool ack_req = false;
  uint32_t psn = 0;  // 24 bits

  void Encode(uint8_t* out) const;
  static Result<Bth> Parse(ByteView bytes);
  bool operator==(const Bth& other) const;
};

// RDMA Extended Transport Header (16 bytes).
struct Reth {
  static constexpr size_t kSize = 16;

  uint64_t virtual_address = 0;
  uint32_t rkey = 0;
  uint32_t dma_length = 0;

  void Encode(uint8_t* out) const;
  static Result<Reth> Parse(ByteView bytes);
  bool operator==(const Reth& other) const;
};

// The AETH syndrome's type, bits 6..5 (TRN-2.6).
enum class AethType : uint8_t {
  kAck = 0,
  kRnrNak = 1,
  kReserved = 2,
  kNak = 3
};

// NAK codes carried in the low five syndrome bits of a NAK.
enum class NakCode : uint8_t {
  kPsnSequenceError = 0,
  kInvalidRequest = 1,
  kRemoteAccessError = 2,
  kRemoteOperationalError = 3,
  kInvalidRdRequest = 4,
};

// ACK Extended Transport Header (4 bytes): syndrome and MSN.
struct Aeth {
  static constexpr size_t kSize = 4;
  static constexpr uint8_t kCreditsUnlimited = 0x1F;

  uint8_t syndrome = 0;
  uint32_t msn = 0;  // 24 bits

  static Aeth Ack(uint32_t msn, uint8_t credits = kCreditsUnlimited);
  static Aeth RnrNak(uint32_t msn, uint8_t rnr_timer_code);
  static Aeth Nak(uint32_t msn, NakCode code);

  AethType type() const;
  // Credit count, RNR timer code or NAK code, by type.
  uint8_t value() const;
  // True for syndromes IBA reserves: bit 7 set, type 2, NAK codes above 4.
  bool reserved() const;

  void Encode(uint8_t* out) const;
  // Rejects reserved syndromes.
  static Result<Aeth> Parse(ByteView bytes);
  bool operator==(const Aeth& other) const;
};

// Atomic Extended Transport Header (28 bytes).
struct AtomicEth {
  static constexpr size_t kSize = 28;

  uint64_t virtual_address = 0;
  uint32_t rkey = 0;
  uint64_t swap_add = 0;
  uint64_t compare = 0;

  void Encode(uint8_t* out) const;
  static Result<AtomicEth> Parse(ByteView bytes);
  bool operator==(const AtomicEth& other) const;
};

// Atomic ACK Extended Transport Header (8 bytes): the value before the
// operation.
struct AtomicAckEth {
  static constexpr size_t kSize = 8;

  uint64_t original_data = 0;

  void Encode(uint8_t* out) const;
  static Result<AtomicAckEth> Parse(ByteView bytes);
  bool operator==(const AtomicAckEth& other) const;
};

// Immediate data (4 bytes), delivered to the responder's completion.
struct ImmDt {
  static constexpr size_t kSize = 4;

  uint32_t immediate = 0;

  void Encode(uint8_t* out) const;
  static Result<ImmDt> Parse(ByteView bytes);
  bool operator==(const ImmDt& other) const;
};

}  // namespace lq::roce
