// SPDX-License-Identifier: Apache-2.0
// Sizes and fixed rules of the data-link layer that both link controllers,
// the RTL and the transaction-level model, are built with (docs/spec/dll.md
// §9). The RTL's lc_pkg holds the same numbers.
#pragma once

#include <array>
#include <cstdint>

#include "models/flit/dlp.h"

namespace lq::link {

// Per-VC initial credits (CREDIT_INIT, DLL-5.2), as a training set carries.
using VcCredits = std::array<uint16_t, flit::kLinkVcs>;

inline constexpr unsigned kAckCoalesceFlits = 8;    // DLL-3.9
inline constexpr unsigned kAckTimeoutFlits = 16;    // DLL-3.9
inline constexpr unsigned kRxBadFlitLimit = 16;     // DLL-3.2
inline constexpr unsigned kTsSentToExit = 16;       // DLL-6.5
inline constexpr unsigned kTsReceivedToExit = 8;    // DLL-6.5
inline constexpr unsigned kMinReplayTimeout = 375;  // DLL-4.5, flit times.
inline constexpr uint16_t kMaxReplayFlits = 511;    // DLL-2.3

// Buffer sizes of one controller (RTL parameters of lc_top).
struct LinkBufferSizes {
  unsigned replay_flits = 128;     // REPLAY_BUFFER_FLITS (DLL-2.3).
  unsigned rx_reorder_flits = 64;  // RX_REORDER_FLITS; 0: no selective NAK.
  unsigned rx_buffer_flits = 256;  // At least the sum of CREDIT_INIT.
};

}  // namespace lq::link
