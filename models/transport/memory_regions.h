// SPDX-License-Identifier: Apache-2.0
// A node's registered memory regions (docs/spec/trn.md TRN-6.14): ranges
// of its memory that remote WRITEs, READs and atomics may touch, each
// named by the R_Key the node hands its peers at connection set-up.
#pragma once

#include <cstdint>
#include <map>

namespace lq::transport {

// The remote rights a region grants, as bits.
enum RemoteAccess : uint8_t {
  kRemoteWrite = 1,
  kRemoteRead = 2,
  kRemoteAtomic = 4,
  kRemoteAll = kRemoteWrite | kRemoteRead | kRemoteAtomic,
};

struct MemoryRegion {
  uint64_t base = 0;
  uint64_t length = 0;
  uint8_t access = kRemoteAll;
};

class MemoryRegions {
 public:
  // Registers `region` and returns its R_Key: never 0, never one still
  // registered, counting up from 0x100 in registration order (TRN-6.14).
  uint32_t Register(const MemoryRegion& region);
  // The R_Key of the `k`-th region (from 0) registered with none
  // deregistered, which lets a builder name a region of a node another
  // MPI rank holds (decision 0050).
  static constexpr uint32_t NthKey(uint32_t k) { return kFirstKey + k; }
  // False if no region has `rkey`.
  bool Deregister(uint32_t rkey);
  // TRN-6.14: `rkey` names a region that holds [address, address + length)
  // and grants `access`. Length 0 needs no region.
  bool Allows(uint32_t rkey, uint64_t address, uint64_t length,
              RemoteAccess access) const;

 private:
  static constexpr uint32_t kFirstKey = 0x100;
  std::map<uint32_t, MemoryRegion> regions_;
  uint32_t next_key_ = kFirstKey;
};

}  // namespace lq::transport
