// SPDX-License-Identifier: Apache-2.0
// The training set carried in the payload slot of TRAINING flits during link
// training (docs/spec/dll.md §6, table "Training set").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/flit/dlp.h"
#include "models/phy/link_profile.h"

namespace lq::flit {

inline constexpr size_t kTrainingSetBytes = 15;

enum class TrainingSetKind : uint8_t {
  kTs1 = 1,  // "I am here": lane discovery and lock.
  kTs2 = 2,  // "I propose this width and these credits".
};

struct TrainingSet {
  TrainingSetKind kind = TrainingSetKind::kTs1;
  uint8_t profile_id = 0;      // LinkProfile::wire_id of the sender.
  uint16_t rx_lane_mask = 0;   // Bit i: the sender receives lane i intact.
  uint8_t proposed_width = 0;  // 0 in TS1; an allowed width in TS2.
  std::array<uint16_t, kLinkVcs> initial_credits{};  // Per VC, < 4096.
  bool in_recovery =
      false;  // Sent in Recovery: the sender kept its link state.

  bool operator==(const TrainingSet& other) const;
};

// The payload slot of a TRAINING flit for `profile` (slot-sized, zero-padded),
// or why `ts` cannot be sent on that profile.
Result<Bytes> EncodeTrainingSet(const phy::LinkProfile& profile,
                                const TrainingSet& ts);

// Parses a TRAINING flit's payload slot. Rejects unknown kinds, lanes or
// widths the profile does not have, credits above 12 bits, a VC count other
// than kLinkVcs, reserved flag bits, and any non-zero byte after the record.
Result<TrainingSet> ParseTrainingSet(const phy::LinkProfile& profile,
                                     ByteView slot);

}  // namespace lq::flit
