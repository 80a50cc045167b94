// SPDX-License-Identifier: Apache-2.0
// Assembly and checking of wire flits; FEC details are in flit_fec.
#include "models/flit/flit_codec.h"

#include <algorithm>
#include <string>

#include "models/crc/crc.h"

namespace lq::flit {

Result<Bytes> EncodeContent(const phy::LinkProfile& profile,
                            const DlpHeader& header, ByteView payload) {
  if (payload.size() > profile.payload_bytes) {
    return Fail("payload of " + std::to_string(payload.size()) +
                " bytes exceeds the " + std::to_string(profile.payload_bytes) +
                "-byte slot of " + profile.name);
  }
  if (!CarriesSlot(header.type) && !payload.empty()) {
    return Fail(std::string(FlitTypeName(header.type)) +
                " flit cannot carry payload");
  }
  const Result<DlpBytes> dlp = EncodeDlp(header);
  if (!dlp) {
    return Fail(dlp.error().reason, DlpOffset(profile) + dlp.error().offset);
  }
  Bytes content(ContentBytes(profile), 0);
  std::copy(payload.begin(), payload.end(), content.begin());
  std::copy(dlp->begin(), dlp->end(), content.begin() + DlpOffset(profile));
  SealContent(profile, content);
  return content;
}

void SealContent(const phy::LinkProfile& profile, Bytes& content) {
  const uint64_t crc =
      crc::Crc64Xz().Compute(ByteView(content.data(), CrcOffset(profile)));
  StoreBigEndian(&content[CrcOffset(profile)], kFlitCrcBytes, crc);
}

Result<DlpHeader> CheckContent(const phy::LinkProfile& profile,
                               ByteView content) {
  if (content.size() != ContentBytes(profile)) {
    return Fail("wrong length " + std::to_string(content.size()) +
                ", expected " + std::to_string(ContentBytes(profile)));
  }
  const uint64_t expected_crc =
      crc::Crc64Xz().Compute(ByteView(content.data(), CrcOffset(profile)));
  if (LoadBigEndian(content.data() + CrcOffset(profile), kFlitCrcBytes) !=
      expected_crc) {
    return Fail("CRC mismatch", CrcOffset(profile));
  }
  const Result<DlpHeader> header =
      ParseDlp(content.Sub(DlpOffset(profile), kDlpBytes));
  if (!header) {
    return Fail(header.error().reason,
                DlpOffset(profile) + header.error().offset);
  }
  return header;
}

Result<Bytes> EncodeFlit(const phy::LinkProfile& profile,
                         const DlpHeader& header, ByteView payload) {
  Result<Bytes> wire = EncodeContent(profile, header, payload);
  if (!wire) {
    return wire;
  }
  wire->resize(profile.flit_wire_bytes, 0);
  FlitFecFor(profile.fec).Protect(wire->data());
  return wire;
}

Result<DecodedFlit> DecodeFlit(const phy::LinkProfile& profile, ByteView wire) {
  if (wire.size() != profile.flit_wire_bytes) {
    return Fail("wrong length " + std::to_string(wire.size()) + ", expected " +
                std::to_string(profile.flit_wire_bytes));
  }
  Bytes corrected(wire.begin(), wire.end());
  Result<FecReport> fec = FlitFecFor(profile.fec).Correct(corrected.data());
  if (!fec) {
    return fec.error();
  }
  const Result<DlpHeader> header =
      CheckContent(profile, ByteView(corrected.data(), ContentBytes(profile)));
  if (!header) {
    return header.error();
  }
  DecodedFlit flit;
  flit.header = *header;
  flit.fec = *fec;
  const auto slot_end = corrected.begin() + profile.payload_bytes;
  if (CarriesSlot(header->type)) {
    flit.payload.assign(corrected.begin(), slot_end);
  } else {
    const auto stray = std::find_if(corrected.begin(), slot_end,
                                    [](uint8_t byte) { return byte != 0; });
    if (stray != slot_end) {
      return Fail(std::string("non-zero payload in ") +
                      FlitTypeName(header->type) + " flit",
                  static_cast<size_t>(stray - corrected.begin()));
    }
  }
  return flit;
}

}  // namespace lq::flit
