// SPDX-License-Identifier: Apache-2.0
// Layout and validation of the training-set record (DLL-6.x).
#include "models/flit/training_set.h"

#include <string>

namespace lq::flit {

namespace {

constexpr size_t kKindOffset = 0;
constexpr size_t kProfileOffset = 1;
constexpr size_t kLaneMaskOffset = 2;
constexpr size_t kLaneMaskBytes = 2;
constexpr size_t kWidthOffset = 4;
constexpr size_t kVcCountOffset = 5;
constexpr size_t kCreditsOffset = 6;
constexpr size_t kCreditBytes = 2;
constexpr size_t kFlagsOffset = 14;
constexpr uint8_t kInRecoveryFlag = 0x01;  // The other flag bits are reserved.

// Checks shared by encoding and parsing; offsets name the offending byte.
Result<bool> Validate(const phy::LinkProfile& profile, const TrainingSet& ts) {
  if (ts.kind != TrainingSetKind::kTs1 && ts.kind != TrainingSetKind::kTs2) {
    return Fail("unknown training set kind " +
                    std::to_string(static_cast<unsigned>(ts.kind)),
                kKindOffset);
  }
  if (ts.rx_lane_mask >> profile.max_lanes != 0) {
    return Fail("rx lane mask names a lane beyond x" +
                    std::to_string(profile.max_lanes),
                kLaneMaskOffset);
  }
  const bool ts1 = ts.kind == TrainingSetKind::kTs1;
  if (ts1 ? ts.proposed_width != 0
          : !phy::IsAllowedWidth(profile, ts.proposed_width)) {
    return Fail("proposed width " + std::to_string(ts.proposed_width) +
                    " not allowed in " + (ts1 ? "TS1" : "TS2") + " on " +
                    profile.name,
                kWidthOffset);
  }
  for (size_t vc = 0; vc < kLinkVcs; ++vc) {
    if (ts.initial_credits[vc] >= kCreditModulus) {
      return Fail(
          "initial credits of VC " + std::to_string(vc) + " exceed 12 bits",
          kCreditsOffset + vc * kCreditBytes);
    }
  }
  return true;
}

}  // namespace

bool TrainingSet::operator==(const TrainingSet& other) const {
  return kind == other.kind && profile_id == other.profile_id &&
         rx_lane_mask == other.rx_lane_mask &&
         proposed_width == other.proposed_width &&
         initial_credits == other.initial_credits &&
         in_recovery == other.in_recovery;
}

Result<Bytes> EncodeTrainingSet(const phy::LinkProfile& profile,
                                const TrainingSet& ts) {
  const Result<bool> valid = Validate(profile, ts);
  if (!valid) {
    return valid.error();
  }
  Bytes slot(profile.payload_bytes, 0);
  slot[kKindOffset] = static_cast<uint8_t>(ts.kind);
  slot[kProfileOffset] = ts.profile_id;
  StoreBigEndian(&slot[kLaneMaskOffset], kLaneMaskBytes, ts.rx_lane_mask);
  slot[kWidthOffset] = ts.proposed_width;
  slot[kVcCountOffset] = kLinkVcs;
  for (size_t vc = 0; vc < kLinkVcs; ++vc) {
    StoreBigEndian(&slot[kCreditsOffset + vc * kCreditBytes], kCreditBytes,
                   ts.initial_credits[vc]);
  }
  slot[kFlagsOffset] = ts.in_recovery ? kInRecoveryFlag : 0;
  return slot;
}

Result<TrainingSet> ParseTrainingSet(const phy::LinkProfile& profile,
                                     ByteView slot) {
  if (slot.size() != profile.payload_bytes) {
    return Fail("training slot is " + std::to_string(slot.size()) +
                " bytes, expected " + std::to_string(profile.payload_bytes));
  }
  if (slot[kVcCountOffset] != kLinkVcs) {
    return Fail("training set announces " +
                    std::to_string(slot[kVcCountOffset]) + " VCs, expected " +
                    std::to_string(kLinkVcs),
                kVcCountOffset);
  }
  if ((slot[kFlagsOffset] & ~kInRecoveryFlag) != 0) {
    return Fail("reserved training set flag set", kFlagsOffset);
  }
  for (size_t i = kTrainingSetBytes; i < slot.size(); ++i) {
    if (slot[i] != 0) {
      return Fail("non-zero byte after the training set", i);
    }
  }
  TrainingSet ts;
  ts.kind = static_cast<TrainingSetKind>(slot[kKindOffset]);
  ts.profile_id = slot[kProfileOffset];
  ts.rx_lane_mask = static_cast<uint16_t>(
      LoadBigEndian(slot.data() + kLaneMaskOffset, kLaneMaskBytes));
  ts.proposed_width = slot[kWidthOffset];
  ts.in_recovery = (slot[kFlagsOffset] & kInRecoveryFlag) != 0;
  for (size_t vc = 0; vc < kLinkVcs; ++vc) {
    ts.initial_credits[vc] = static_cast<uint16_t>(LoadBigEndian(
        slot.data() + kCreditsOffset + vc * kCreditBytes, kCreditBytes));
  }
  const Result<bool> valid = Validate(profile, ts);
  if (!valid) {
    return valid.error();
  }
  return ts;
}

}  // namespace lq::flit
