// SPDX-License-Identifier: Apache-2.0
// MemoryRegions: R_Keys and TRN-6.14's check.
#include "models/transport/memory_regions.h"

namespace lq::transport {

uint32_t MemoryRegions::Register(const MemoryRegion& region) {
  while (next_key_ == 0 || regions_.count(next_key_) != 0) {
    ++next_key_;  // 32 bits wrap only after 4 billion registrations
  }
  const uint32_t key = next_key_++;
  regions_[key] = region;
  return key;
}

bool MemoryRegions::Deregister(uint32_t rkey) {
  return regions_.erase(rkey) != 0;
}

bool MemoryRegions::Allows(uint32_t rkey, uint64_t address, uint64_t length,
                           RemoteAccess access) const {
  if (length == 0) {
    return true;
  }
  const auto it = regions_.find(rkey);
  if (it == regions_.end() || (it->second.access & access) != access) {
    return false;
  }
  const MemoryRegion& region = it->second;
  // Written so that nothing overflows: address >= base, then the span.
  return address >= region.base && length <= region.length &&
         address - region.base <= region.length - length;
}

}  // namespace lq::transport
