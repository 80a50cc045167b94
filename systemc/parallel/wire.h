// SPDX-License-Identifier: Apache-2.0
// What ranks send each other is packed as plain little-endian fields: a
// writer that appends them and a reader that takes them back in order.
// Every rank of a job runs the same binary on the same kind of machine, so
// no versioning or byte-order negotiation is needed.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/common/bytes.h"

namespace lq::parallel {

class WireWriter {
 public:
  explicit WireWriter(Bytes& out) : out_(out) {}
  void U8(uint8_t value) { out_.push_back(value); }
  void U32(uint32_t value) { Little(value, 4); }
  void U64(uint64_t value) { Little(value, 8); }
  void F64(double value);
  // A length, then the bytes.
  void Blob(ByteView bytes) {
    U32(static_cast<uint32_t>(bytes.size()));
    out_.insert(out_.end(), bytes.begin(), bytes.end());
  }
  void Text(const std::string& text) {
    Blob(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  }

 private:
  void Little(uint64_t value, size_t width) {
    const size_t at = out_.size();
    out_.resize(at + width);
    StoreLittleEndian(out_.data() + at, width, value);
  }
  Bytes& out_;
};

// Throws std::runtime_error on reading past the end: a message between
// ranks that does not parse is a bug, not input.
class WireReader {
 public:
  explicit WireReader(ByteView in) : in_(in) {}
  bool done() const { return at_ == in_.size(); }
  uint8_t U8() { return static_cast<uint8_t>(Little(1)); }
  uint32_t U32() { return static_cast<uint32_t>(Little(4)); }
  uint64_t U64() { return Little(8); }
  double F64();
  ByteView Blob() {
    const uint32_t size = U32();
    Need(size);
    const ByteView blob = in_.Sub(at_, size);
    at_ += size;
    return blob;
  }
  std::string Text() {
    const ByteView blob = Blob();
    return std::string(blob.begin(), blob.end());
  }

 private:
  void Need(size_t count) const {
    if (in_.size() - at_ < count) {
      throw std::runtime_error("a message between ranks ends early");
    }
  }
  uint64_t Little(size_t width) {
    Need(width);
    const uint64_t value = LoadLittleEndian(in_.data() + at_, width);
    at_ += width;
    return value;
  }
  ByteView in_;
  size_t at_ = 0;
};

inline void WireWriter::F64(double value) {
  uint64_t bits = 0;
  static_assert(sizeof bits == sizeof value);
  std::memcpy(&bits, &value, sizeof bits);
  U64(bits);
}

inline double WireReader::F64() {
  const uint64_t bits = U64();
  double value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace lq::parallel
