// SPDX-License-Identifier: Apache-2.0
// PFC frame layout (TRN-8.2 table) and pause-time conversion.
#include "models/roce/pfc.h"

#include <algorithm>

namespace lq::roce {
namespace {

constexpr size_t kDstOffset = 0;
constexpr size_t kSrcOffset = 6;
constexpr size_t kEtherTypeOffset = 12;
constexpr size_t kOpcodeOffset = 14;
constexpr size_t kClassEnableOffset = 16;  // The VC class, then the bits.
constexpr size_t kPauseTimeOffset = 18;
constexpr size_t kU16 = sizeof(uint16_t);
constexpr uint64_t kPicosecondsPerSecond = 1'000'000'000'000;

}  // namespace

bool PfcFrame::operator==(const PfcFrame& other) const {
  return src == other.src && vc_class == other.vc_class &&
         class_enable == other.class_enable &&
         pause_quanta == other.pause_quanta;
}

Bytes EncodePfcFrame(const PfcFrame& frame) {
  Bytes bytes(kPfcFrameSize, 0);
  std::copy(kPfcDestination.begin(), kPfcDestination.end(),
            bytes.begin() + kDstOffset);
  std::copy(frame.src.begin(), frame.src.end(), bytes.begin() + kSrcOffset);
  StoreBigEndian(&bytes[kEtherTypeOffset], kU16, kEtherTypeMacControl);
  StoreBigEndian(&bytes[kOpcodeOffset], kU16, kPfcOpcode);
  bytes[kClassEnableOffset] = frame.vc_class;
  bytes[kClassEnableOffset + 1] = frame.class_enable;
  for (size_t i = 0; i < kPfcPriorities; ++i) {
    StoreBigEndian(&bytes[kPauseTimeOffset + kU16 * i], kU16,
                   frame.pause_quanta[i]);
  }
  return bytes;
}

Result<PfcFrame> ParsePfcFrame(ByteView bytes) {
  if (bytes.size() != kPfcFrameSize) {
    return Fail("PFC frame is not 60 bytes",
                std::min(bytes.size(), kPfcFrameSize));
  }
  if (!std::equal(kPfcDestination.begin(), kPfcDestination.end(),
                  bytes.data() + kDstOffset)) {
    return Fail("PFC frame not sent to 01-80-C2-00-00-01", kDstOffset);
  }
  if (LoadBigEndian(bytes.data() + kEtherTypeOffset, kU16) !=
      kEtherTypeMacControl) {
    return Fail("EtherType is not MAC Control", kEtherTypeOffset);
  }
  if (LoadBigEndian(bytes.data() + kOpcodeOffset, kU16) != kPfcOpcode) {
    return Fail("MAC Control opcode is not PFC", kOpcodeOffset);
  }
  PfcFrame frame;
  frame.vc_class = bytes[kClassEnableOffset];
  std::copy_n(bytes.data() + kSrcOffset, frame.src.size(), frame.src.begin());
  frame.class_enable = bytes[kClassEnableOffset + 1];
  for (size_t i = 0; i < kPfcPriorities; ++i) {
    frame.pause_quanta[i] = static_cast<uint16_t>(
        LoadBigEndian(bytes.data() + kPauseTimeOffset + kU16 * i, kU16));
  }
  return frame;
}

uint64_t PauseDurationPs(uint16_t quanta, uint64_t line_rate_bps) {
  // 65535 quanta of 512 bits times 10^12 overflows 64 bits.
  __extension__ using Wide = unsigned __int128;
  const Wide bits = Wide{quanta} * kPauseQuantumBits;
  return static_cast<uint64_t>(bits * kPicosecondsPerSecond / line_rate_bps);
}

uint64_t PfcHeadroomBytes(const HeadroomInputs& in) {
  const uint64_t in_flight_ps =
      2 * in.flit_ps + 2 * (in.tx_ps + in.cable_ps + in.rx_ps) + in.react_ps;
  __extension__ using Wide = unsigned __int128;
  constexpr Wide kBitPicoseconds = Wide{8} * kPicosecondsPerSecond;
  const Wide bits = Wide{in.goodput_bps} * in_flight_ps;
  return in.max_packet_bytes +
         static_cast<uint64_t>((bits + kBitPicoseconds - 1) / kBitPicoseconds);
}

}  // namespace lq::roce
