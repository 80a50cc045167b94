// SPDX-License-Identifier: Apache-2.0
// PacketPool: the bytes of the packets crossing one fabric of routers
// joined by ideal links (decision 0053), each held once from the edge where
// it entered to the edge where it leaves. Every holder takes a reference (a
// router's input VC, a chunk on its way between two routers); the last to
// let go frees the entry, whose buffer the next packet reuses.
#pragma once

#include <cstdint>
#include <limits>

#include "models/common/bytes.h"
#include "models/common/reuse_pool.h"

namespace lq::net {

class PacketPool {
 public:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  // A new entry with no bytes, held once by the caller.
  uint32_t New() {
    const auto id = static_cast<uint32_t>(entries_.Take());
    entries_[id].refs = 1;
    ++live_;
    return id;
  }
  Bytes& bytes(uint32_t id) { return entries_[id].bytes; }
  void Hold(uint32_t id) { ++entries_[id].refs; }
  void Release(uint32_t id) {
    Entry& entry = entries_[id];
    if (--entry.refs == 0) {
      entry.bytes.clear();  // keeps the buffer
      entries_.Free(id);
      --live_;
    }
  }
  // Entries some holder still holds.
  size_t live() const { return live_; }

 private:
  struct Entry {
    Bytes bytes;
    uint32_t refs = 0;
  };
  ReusePool<Entry> entries_;
  size_t live_ = 0;
};

}  // namespace lq::net
