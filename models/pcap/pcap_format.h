// SPDX-License-Identifier: Apache-2.0
// Constants of the classic libpcap file format (global header and record
// header), shared by lqemu's pcap writer and reader.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lq::pcap {

inline constexpr uint32_t kMagicMicroseconds = 0xA1B2C3D4;
inline constexpr uint32_t kMagicNanoseconds = 0xA1B23C4D;
inline constexpr uint16_t kVersionMajor = 2;
inline constexpr uint16_t kVersionMinor = 4;
inline constexpr uint32_t kLinkTypeEthernet = 1;
inline constexpr uint32_t kDefaultSnapLength = 262144;

inline constexpr size_t kGlobalHeaderSize = 24;
inline constexpr size_t kRecordHeaderSize = 16;

// Global header offsets.
inline constexpr size_t kMagicOffset = 0;
inline constexpr size_t kVersionMajorOffset = 4;
inline constexpr size_t kVersionMinorOffset = 6;
inline constexpr size_t kThisZoneOffset = 8;
inline constexpr size_t kSigFigsOffset = 12;
inline constexpr size_t kSnapLengthOffset = 16;
inline constexpr size_t kLinkTypeOffset = 20;

// Record header offsets.
inline constexpr size_t kSecondsOffset = 0;
inline constexpr size_t kFractionOffset = 4;
inline constexpr size_t kIncludedLengthOffset = 8;
inline constexpr size_t kOriginalLengthOffset = 12;

inline constexpr uint64_t kPicosecondsPerSecond = 1'000'000'000'000;
inline constexpr uint64_t kPicosecondsPerNanosecond = 1'000;
inline constexpr uint64_t kPicosecondsPerMicrosecond = 1'000'000;
inline constexpr uint32_t kNanosecondsPerSecond = 1'000'000'000;
inline constexpr uint32_t kMicrosecondsPerSecond = 1'000'000;

}  // namespace lq::pcap
