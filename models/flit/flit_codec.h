// SPDX-License-Identifier: Apache-2.0
// Builds and checks whole wire flits for a link profile: payload slot, DLP,
// flit CRC and FEC. The one place a flit's layout lives (docs/spec/phy.md §2).
#pragma once

#include <cstddef>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/flit/dlp.h"
#include "models/flit/flit_fec.h"
#include "models/phy/link_profile.h"

namespace lq::flit {

inline constexpr size_t kFlitCrcBytes = 8;

// Byte offsets inside a wire flit of `profile` (PHY-2.1).
inline size_t DlpOffset(const phy::LinkProfile& profile) {
  return profile.payload_bytes;
}
inline size_t CrcOffset(const phy::LinkProfile& profile) {
  return profile.payload_bytes + kDlpBytes;
}
inline size_t ContentBytes(const phy::LinkProfile& profile) {
  return profile.payload_bytes + kDlpBytes + kFlitCrcBytes;
}

struct DecodedFlit {
  DlpHeader header;
  // The whole payload slot for PAYLOAD and TRAINING flits; empty for IDLE
  // and NOP, whose slot is all zeros.
  Bytes payload;
  FecReport fec;
};

// The content of one flit as a link controller hands it to its PHY
// (PHY-2.1): slot, DLP and flit CRC, without the FEC. Rejects what
// EncodeFlit rejects.
Result<Bytes> EncodeContent(const phy::LinkProfile& profile,
                            const DlpHeader& header, ByteView payload);

// Checks a flit's content as a receiver does after the FEC (PHY-2.7):
// length, CRC, DLP; returns its header.
Result<DlpHeader> CheckContent(const phy::LinkProfile& profile,
                               ByteView content);

// Recomputes the flit CRC of `content` after its slot or DLP was edited.
void SealContent(const phy::LinkProfile& profile, Bytes& content);

// The wire image of one flit. `payload` shorter than the slot is
// zero-padded; a longer one, a payload in an IDLE/NOP flit, or an invalid
// header is rejected.
Result<Bytes> EncodeFlit(const phy::LinkProfile& profile,
                         const DlpHeader& header, ByteView payload);

// Checks a received wire flit in the order PHY-2.7 requires: length, FEC
// (correcting), CRC, DLP, payload rules. The error says what failed and at
// which byte.
Result<DecodedFlit> DecodeFlit(const phy::LinkProfile& profile, ByteView wire);

}  // namespace lq::flit
