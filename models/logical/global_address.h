// SPDX-License-Identifier: Apache-2.0
// Global addresses of the supernode's one memory space (docs/spec/log.md
// section 2): SPACE, NODE and OFFSET fields, each endpoint's window with its
// direct and paged regions, and page numbers.
#pragma once

#include <cstdint>
#include <optional>

namespace lq::logical {

inline constexpr unsigned kOffsetBits = 40;  // LOG-2.1: a 1 TiB window
inline constexpr unsigned kNodeBits = 16;
inline constexpr unsigned kSpaceShift = kOffsetBits + kNodeBits;
inline constexpr uint64_t kWindowBytes = uint64_t{1} << kOffsetBits;

// The cluster-wide sizes the decode depends on (log.md section 7).
struct AddressSpace {
  uint32_t endpoints = 1;                      // nodes 0..endpoints-1
  uint64_t direct_bytes = uint64_t{16} << 30;  // log.direct_bytes
  uint64_t page_bytes = 64 * 1024;             // log.page_bytes
};

enum class Region { kDirect, kPaged };

// A GA taken apart.
struct DecodedAddress {
  uint16_t node = 0;
  uint64_t offset = 0;  // in node's window
  Region region = Region::kDirect;
};

// The GA of byte `offset` of `node`'s window.
constexpr uint64_t GlobalAddress(uint16_t node, uint64_t offset) {
  return uint64_t{node} << kOffsetBits | offset;
}

// LOG-2.1 to LOG-2.4: nothing for a reserved SPACE or a NODE that is not an
// endpoint (LOG-2.2).
std::optional<DecodedAddress> Decode(const AddressSpace& space, uint64_t ga);

// LOG-5.1: the global page number of `ga`, the GA of its page's first
// byte, and whether [ga, ga + size) stays in one page (LOG-3.1).
uint64_t PageNumber(const AddressSpace& space, uint64_t ga);
uint64_t PageBase(const AddressSpace& space, uint64_t ga);
bool WithinOnePage(const AddressSpace& space, uint64_t ga, uint64_t size);

// Whether the sizes are ones log.md allows: page size a power of two from
// 4 KiB to 1 GiB, direct region a non-zero multiple of it and within a
// window (LOG-5.1), at least one endpoint and at most 2^16 - 1 (LOG-2.2).
bool Valid(const AddressSpace& space);

}  // namespace lq::logical
