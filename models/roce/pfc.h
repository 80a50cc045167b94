// SPDX-License-Identifier: Apache-2.0
// The IEEE 802.1Qbb priority flow control frame that lqemu routers exchange
// as a link-level control message (docs/spec/trn.md, TRN-8) [S28].
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/roce/encap.h"

namespace lq::roce {

inline constexpr MacAddress kPfcDestination{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
inline constexpr uint16_t kEtherTypeMacControl = 0x8808;
inline constexpr uint16_t kPfcOpcode = 0x0101;
inline constexpr size_t kPfcFrameSize = 60;  // Minimum frame, without FCS.
inline constexpr size_t kPfcPriorities = 8;
inline constexpr uint64_t kPauseQuantumBits = 512;

struct PfcFrame {
  MacAddress src{};
  // The VC class it pauses (TRN-8.11), in the class-enable vector's high
  // byte, which IEEE reserves: 0 on a fabric of one class.
  uint8_t vc_class = 0;
  uint8_t class_enable = 0;  // Bit i: pause_quanta[i] is valid.
  std::array<uint16_t, kPfcPriorities> pause_quanta{};  // 0 means XON.

  bool operator==(const PfcFrame& other) const;
};

// The 60-byte frame; the destination address is always kPfcDestination.
Bytes EncodePfcFrame(const PfcFrame& frame);

// Rejects a frame of the wrong size, destination, EtherType or opcode.
// Pad bytes are ignored; the receiver checks the VC class.
Result<PfcFrame> ParsePfcFrame(ByteView bytes);

// Duration of `quanta` pause quanta at `line_rate_bps` (which must be
// positive), in picoseconds, rounded down: 640 ps per quantum at 800 Gb/s.
uint64_t PauseDurationPs(uint16_t quanta, uint64_t line_rate_bps);

// What TRN-8.8's headroom depends on: the largest buffered packet, the
// link's payload goodput and its delays, in picoseconds.
struct HeadroomInputs {
  uint64_t max_packet_bytes = 0;  // S_max
  uint64_t goodput_bps = 0;       // G
  uint64_t flit_ps = 0;           // T_flit
  uint64_t tx_ps = 0;             // T_tx
  uint64_t rx_ps = 0;             // T_rx
  uint64_t cable_ps = 0;          // L x t_p
  uint64_t react_ps = 20'000;     // T_react (pfc.react_ns)
};

// H = S_max + (G/8) x (2 T_flit + 2 (T_tx + L t_p + T_rx) + T_react),
// rounded up to whole bytes (TRN-8.8).
uint64_t PfcHeadroomBytes(const HeadroomInputs& inputs);

}  // namespace lq::roce
