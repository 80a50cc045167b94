// SPDX-License-Identifier: Apache-2.0
// Decoding global addresses (LOG-2).
#include "models/logical/global_address.h"

namespace lq::logical {
namespace {

constexpr uint64_t kOffsetMask = kWindowBytes - 1;
constexpr uint64_t kNodeMask = (uint64_t{1} << kNodeBits) - 1;
constexpr uint64_t kMinPage = 4 * 1024;
constexpr uint64_t kMaxPage = uint64_t{1} << 30;
constexpr uint32_t kMaxEndpoints = 0xFFFF;  // 0xFFFF is not a node (NET-2)

bool PowerOfTwo(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

}  // namespace

std::optional<DecodedAddress> Decode(const AddressSpace& space, uint64_t ga) {
  if ((ga >> kSpaceShift) != 0) {
    return std::nullopt;  // LOG-2.1: reserved SPACE
  }
  const auto node = static_cast<uint16_t>((ga >> kOffsetBits) & kNodeMask);
  if (node >= space.endpoints) {
    return std::nullopt;  // LOG-2.2
  }
  DecodedAddress out;
  out.node = node;
  out.offset = ga & kOffsetMask;
  out.region =
      out.offset < space.direct_bytes ? Region::kDirect : Region::kPaged;
  return out;
}

uint64_t PageNumber(const AddressSpace& space, uint64_t ga) {
  return ga / space.page_bytes;
}

uint64_t PageBase(const AddressSpace& space, uint64_t ga) {
  return ga - ga % space.page_bytes;
}

bool WithinOnePage(const AddressSpace& space, uint64_t ga, uint64_t size) {
  return size != 0 &&
         ga / space.page_bytes == (ga + size - 1) / space.page_bytes;
}

bool Valid(const AddressSpace& space) {
  return space.endpoints >= 1 && space.endpoints <= kMaxEndpoints &&
         PowerOfTwo(space.page_bytes) && space.page_bytes >= kMinPage &&
         space.page_bytes <= kMaxPage && space.direct_bytes != 0 &&
         space.direct_bytes % space.page_bytes == 0 &&
         space.direct_bytes <= kWindowBytes;
}

}  // namespace lq::logical
