// SPDX-License-Identifier: Apache-2.0
// SparseBytes: a byte array of any size up to 2^64 whose storage is
// allocated in chunks on first write; bytes never written read as zero.
// A card's 16 GiB memory costs only the chunks a run touches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace lq {

class SparseBytes {
 public:
  static constexpr uint64_t kChunkBytes = 64 * 1024;

  explicit SparseBytes(uint64_t size) : size_(size) {}

  uint64_t size() const { return size_; }
  // Whether [address, address + length) lies inside.
  bool Contains(uint64_t address, uint64_t length) const {
    return address <= size_ && length <= size_ - address;
  }
  // Precondition for both: Contains(address, length).
  void Read(uint64_t address, uint8_t* out, uint64_t length) const {
    ForEachPiece(
        address, length,
        [&](uint64_t chunk, uint64_t at, uint64_t done, uint64_t piece) {
          const auto found = chunks_.find(chunk);
          if (found == chunks_.end()) {
            std::memset(out + done, 0, piece);
          } else {
            std::memcpy(out + done, found->second.get() + at, piece);
          }
        });
  }
  void Write(uint64_t address, const uint8_t* in, uint64_t length) {
    ForEachPiece(
        address, length,
        [&](uint64_t chunk, uint64_t at, uint64_t done, uint64_t piece) {
          std::unique_ptr<uint8_t[]>& bytes = chunks_[chunk];
          if (!bytes) {
            bytes = std::make_unique<uint8_t[]>(kChunkBytes);  // zeroed
          }
          std::memcpy(bytes.get() + at, in + done, piece);
        });
  }
  // Chunks holding storage: what the memory costs.
  size_t chunks() const { return chunks_.size(); }

 private:
  // Calls `f(chunk, offset in chunk, bytes done, piece length)` for each
  // chunk the range touches.
  template <typename F>
  static void ForEachPiece(uint64_t address, uint64_t length, F f) {
    uint64_t done = 0;
    while (done < length) {
      const uint64_t at = (address + done) % kChunkBytes;
      const uint64_t piece = std::min(length - done, kChunkBytes - at);
      f((address + done) / kChunkBytes, at, done, piece);
      done += piece;
    }
  }

  uint64_t size_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> chunks_;
};

}  // namespace lq
