// SPDX-License-Identifier: Apache-2.0
// The 6-byte link header ("DLP") every flit carries, with strict encoding and
// parsing (docs/spec/dll.md §1).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::flit {

inline constexpr size_t kDlpBytes = 6;
inline constexpr unsigned kSeqBits = 10;
inline constexpr uint16_t kSeqModulus = uint16_t{1} << kSeqBits;
// Virtual channels of a link in this version; the DLP's VC fields have room
// for 8, and values 4..7 are rejected until a later version defines them.
inline constexpr unsigned kLinkVcs = 4;
inline constexpr unsigned kCreditBits = 12;
inline constexpr uint16_t kCreditModulus = uint16_t{1} << kCreditBits;

enum class FlitType : uint8_t {
  kIdle = 0,      // Link-entry handshake (Configuration/Recovery idle).
  kNop = 1,       // L0 filler: carries ACK/NAK, credits, the tx watermark.
  kPayload = 2,   // Carries one VC's payload slot and a sequence number.
  kTraining = 3,  // Carries a training set (DLL-6); all other fields zero.
  kControl = 4,   // A NOP that carries a link control message (DLL-11).
};

enum class ReplayCommand : uint8_t {
  kNone = 0,
  kAck = 1,           // Every flit up to ack_seq arrived.
  kStandardNak = 2,   // Up to ack_seq arrived; resend everything after it.
  kSelectiveNak = 3,  // Up to ack_seq arrived; resend only ack_seq + 1.
};

const char* FlitTypeName(FlitType type);
// Whether flits of `type` carry a payload slot; the others' slots are
// reserved and zero (PHY-2.6).
bool CarriesSlot(FlitType type);
const char* ReplayCommandName(ReplayCommand command);

struct DlpHeader {
  FlitType type = FlitType::kIdle;
  uint8_t payload_vc = 0;  // PAYLOAD only.
  uint16_t flit_seq = 0;   // PAYLOAD: its number; NOP, CONTROL: watermark.
  ReplayCommand replay = ReplayCommand::kNone;
  uint16_t ack_seq = 0;       // Zero when replay is kNone.
  uint8_t credit_vc = 0;      // VC whose freed-credit count follows.
  uint16_t credit_count = 0;  // Credits freed on credit_vc, modulo 4096.

  bool operator==(const DlpHeader& other) const;
  bool operator!=(const DlpHeader& other) const { return !(*this == other); }
};

using DlpBytes = std::array<uint8_t, kDlpBytes>;

// Encodes `header`; fails (with the same reasons ParseDlp gives) if a field
// is out of range or a field that does not apply to the flit type is set.
Result<DlpBytes> EncodeDlp(const DlpHeader& header);

// The flit type in the first DLP byte, without checking the rest: how the
// PHY tells TRAINING flits, which it sends on every lane (PHY-4.7), from
// striped ones. Codes 5..7 are not types; they read as kPayload here and
// ParseDlp rejects them.
FlitType PeekFlitType(uint8_t first_dlp_byte);

// Parses exactly kDlpBytes bytes. Rejects reserved bits, undefined codes,
// out-of-range VCs and non-zero fields that do not apply to the flit type.
// Error offsets count from the first DLP byte.
Result<DlpHeader> ParseDlp(ByteView bytes);

}  // namespace lq::flit
