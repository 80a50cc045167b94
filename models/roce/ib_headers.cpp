// SPDX-License-Identifier: Apache-2.0
// Byte layouts of the InfiniBand transport headers (TRN-2 tables).
#include "models/roce/ib_headers.h"

#include "models/roce/psn.h"

namespace lq::roce {
namespace {

constexpr size_t kBthOpcodeOffset = 0;
constexpr size_t kBthFlagsOffset = 1;
constexpr size_t kBthPkeyOffset = 2;
constexpr size_t kBthCongestionOffset = 4;
constexpr size_t kBthQpOffset = 5;
constexpr size_t kBthAckReqOffset = 8;
constexpr size_t kBthPsnOffset = 9;
constexpr uint8_t kBthSolicitedEventBit = 0x80;
constexpr uint8_t kBthMigReqBit = 0x40;
constexpr unsigned kBthPadShift = 4;
constexpr uint8_t kBthPadMask = 0x3;
constexpr uint8_t kBthTverMask = 0x0F;
constexpr uint8_t kBthFecnBit = 0x80;
constexpr uint8_t kBthBecnBit = 0x40;
constexpr uint8_t kBthAckReqBit = 0x80;

constexpr size_t kU64 = sizeof(uint64_t);
constexpr size_t kU32 = sizeof(uint32_t);
constexpr size_t kU16 = sizeof(uint16_t);
constexpr size_t kU24 = 3;

constexpr size_t kRethVaOffset = 0;
constexpr size_t kRethRkeyOffset = 8;
constexpr size_t kRethLengthOffset = 12;

constexpr size_t kAtomicVaOffset = 0;
constexpr size_t kAtomicRkeyOffset = 8;
constexpr size_t kAtomicSwapAddOffset = 12;
constexpr size_t kAtomicCompareOffset = 20;

constexpr size_t kAethSyndromeOffset = 0;
constexpr size_t kAethMsnOffset = 1;
constexpr uint8_t kAethReservedBit = 0x80;
constexpr unsigned kAethTypeShift = 5;
constexpr uint8_t kAethTypeMask = 0x3;
constexpr uint8_t kAethValueMask = 0x1F;

bool Bit(uint8_t byte, uint8_t mask) { return (byte & mask) != 0; }

uint8_t Syndrome(AethType type, uint8_t value) {
  return static_cast<uint8_t>((static_cast<uint8_t>(type) << kAethTypeShift) |
                              (value & kAethValueMask));
}

}  // namespace

void Bth::Encode(uint8_t* out) const {
  out[kBthOpcodeOffset] = opcode;
  out[kBthFlagsOffset] = static_cast<uint8_t>(
      (solicited_event ? kBthSolicitedEventBit : 0) |
      (mig_req ? kBthMigReqBit : 0) |
      ((pad_count & kBthPadMask) << kBthPadShift) | (tver & kBthTverMask));
  StoreBigEndian(out + kBthPkeyOffset, kU16, pkey);
  out[kBthCongestionOffset] =
      static_cast<uint8_t>((fecn ? kBthFecnBit : 0) | (becn ? kBthBecnBit : 0));
  StoreBigEndian(out + kBthQpOffset, kU24, dest_qp & kQpnMask);
  out[kBthAckReqOffset] = ack_req ? kBthAckReqBit : 0;
  StoreBigEndian(out + kBthPsnOffset, kU24, psn & kPsnMask);
}

Result<Bth> Bth::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated BTH", bytes.size());
  }
  const uint8_t* p = bytes.data();
  Bth bth;
  bth.opcode = p[kBthOpcodeOffset];
  bth.solicited_event = Bit(p[kBthFlagsOffset], kBthSolicitedEventBit);
  bth.mig_req = Bit(p[kBthFlagsOffset], kBthMigReqBit);
  bth.pad_count =
      static_cast<uint8_t>((p[kBthFlagsOffset] >> kBthPadShift) & kBthPadMask);
  bth.tver = static_cast<uint8_t>(p[kBthFlagsOffset] & kBthTverMask);
  bth.pkey = static_cast<uint16_t>(LoadBigEndian(p + kBthPkeyOffset, kU16));
  bth.fecn = Bit(p[kBthCongestionOffset], kBthFecnBit);
  bth.becn = Bit(p[kBthCongestionOffset], kBthBecnBit);
  bth.dest_qp = static_cast<uint32_t>(LoadBigEndian(p + kBthQpOffset, kU24));
  bth.ack_req = Bit(p[kBthAckReqOffset], kBthAckReqBit);
  bth.psn = static_cast<uint32_t>(LoadBigEndian(p + kBthPsnOffset, kU24));
  return bth;
}

bool Bth::operator==(const Bth& other) const {
  return opcode == other.opcode && solicited_event == other.solicited_event &&
         mig_req == other.mig_req && pad_count == other.pad_count &&
         tver == other.tver && pkey == other.pkey && fecn == other.fecn &&
         becn == other.becn && dest_qp == other.dest_qp &&
         ack_req == other.ack_req && psn == other.psn;
}

void Reth::Encode(uint8_t* out) const {
  StoreBigEndian(out + kRethVaOffset, kU64, virtual_address);
  StoreBigEndian(out + kRethRkeyOffset, kU32, rkey);
  StoreBigEndian(out + kRethLengthOffset, kU32, dma_length);
}

Result<Reth> Reth::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated RETH", bytes.size());
  }
  Reth reth;
  const uint8_t* p = bytes.data();
  reth.virtual_address = LoadBigEndian(p + kRethVaOffset, kU64);
  reth.rkey = static_cast<uint32_t>(LoadBigEndian(p + kRethRkeyOffset, kU32));
  reth.dma_length =
      static_cast<uint32_t>(LoadBigEndian(p + kRethLengthOffset, kU32));
  return reth;
}

bool Reth::operator==(const Reth& other) const {
  return virtual_address == other.virtual_address && rkey == other.rkey &&
         dma_length == other.dma_length;
}

Aeth Aeth::Ack(uint32_t msn, uint8_t credits) {
  return Aeth{Syndrome(AethType::kAck, credits), msn};
}

Aeth Aeth::RnrNak(uint32_t msn, uint8_t rnr_timer_code) {
  return Aeth{Syndrome(AethType::kRnrNak, rnr_timer_code), msn};
}

Aeth Aeth::Nak(uint32_t msn, NakCode code) {
  return Aeth{Syndrome(AethType::kNak, static_cast<uint8_t>(code)), msn};
}

AethType Aeth::type() const {
  return static_cast<AethType>((syndrome >> kAethTypeShift) & kAethTypeMask);
}

uint8_t Aeth::value() const {
  return static_cast<uint8_t>(syndrome & kAethValueMask);
}

bool Aeth::reserved() const {
  const bool nak_code_reserved =
      type() == AethType::kNak &&
      value() > static_cast<uint8_t>(NakCode::kInvalidRdRequest);
  return Bit(syndrome, kAethReservedBit) || type() == AethType::kReserved ||
         nak_code_reserved;
}

void Aeth::Encode(uint8_t* out) const {
  out[kAethSyndromeOffset] = syndrome;
  StoreBigEndian(out + kAethMsnOffset, kU24, msn & kMsnMask);
}

Result<Aeth> Aeth::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated AETH", bytes.size());
  }
  Aeth aeth;
  aeth.syndrome = bytes[kAethSyndromeOffset];
  aeth.msn =
      static_cast<uint32_t>(LoadBigEndian(bytes.data() + kAethMsnOffset, kU24));
  if (aeth.reserved()) {
    return Fail("reserved AETH syndrome", kAethSyndromeOffset);
  }
  return aeth;
}

bool Aeth::operator==(const Aeth& other) const {
  return syndrome == other.syndrome && msn == other.msn;
}

void AtomicEth::Encode(uint8_t* out) const {
  StoreBigEndian(out + kAtomicVaOffset, kU64, virtual_address);
  StoreBigEndian(out + kAtomicRkeyOffset, kU32, rkey);
  StoreBigEndian(out + kAtomicSwapAddOffset, kU64, swap_add);
  StoreBigEndian(out + kAtomicCompareOffset, kU64, compare);
}

Result<AtomicEth> AtomicEth::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated AtomicETH", bytes.size());
  }
  AtomicEth eth;
  const uint8_t* p = bytes.data();
  eth.virtual_address = LoadBigEndian(p + kAtomicVaOffset, kU64);
  eth.rkey = static_cast<uint32_t>(LoadBigEndian(p + kAtomicRkeyOffset, kU32));
  eth.swap_add = LoadBigEndian(p + kAtomicSwapAddOffset, kU64);
  eth.compare = LoadBigEndian(p + kAtomicCompareOffset, kU64);
  return eth;
}

bool AtomicEth::operator==(const AtomicEth& other) const {
  return virtual_address == other.virtual_address && rkey == other.rkey &&
         swap_add == other.swap_add && compare == other.compare;
}

void AtomicAckEth::Encode(uint8_t* out) const {
  StoreBigEndian(out, kU64, original_data);
}

Result<AtomicAckEth> AtomicAckEth::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated AtomicAckETH", bytes.size());
  }
  return AtomicAckEth{LoadBigEndian(bytes.data(), kU64)};
}

bool AtomicAckEth::operator==(const AtomicAckEth& other) const {
  return original_data == other.original_data;
}

void ImmDt::Encode(uint8_t* out) const { StoreBigEndian(out, kU32, immediate); }

Result<ImmDt> ImmDt::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated ImmDt", bytes.size());
  }
  return ImmDt{static_cast<uint32_t>(LoadBigEndian(bytes.data(), kU32))};
}

bool ImmDt::operator==(const ImmDt& other) const {
  return immediate == other.immediate;
}

}  // namespace lq::roce
