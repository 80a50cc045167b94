// SPDX-License-Identifier: Apache-2.0
// The simulation form of prim_crc64 (rtl/prim/prim_crc64.sv): the DPI-C
// function its Verilated models call, which computes the flit CRC with
// lqemu's C++ engine (models/crc, folded by carry-less multiplication where
// the processor has it) instead of evaluating the XOR matrix in generated C++.
#include <cstddef>
#include <cstdint>

#include "models/crc/crc.h"
#include "svdpi.h"
#include "systemc/common/wide_bytes.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

constexpr size_t kBlockBytes = 16;

#if defined(__x86_64__)
// The vector's bytes in flit order: on a little-endian host, byte i of the
// flit is byte count - 1 - i of the word array. Reversed 16 bytes at a time,
// so that each 16-byte load of the CRC's fold reads one earlier store whole:
// a load that spans several smaller stores waits for them to retire, which
// cost as much as the CRC itself.
__attribute__((target("ssse3"))) void UnpackReversing(const uint8_t* vector,
                                                      size_t count,
                                                      uint8_t* bytes) {
  const __m128i reverse =
      _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  size_t i = 0;
  for (; i + kBlockBytes <= count; i += kBlockBytes) {
    const __m128i block = _mm_loadu_si128(
        reinterpret_cast<const __m128i*>(vector + count - i - kBlockBytes));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes + i),
                     _mm_shuffle_epi8(block, reverse));
  }
  for (; i < count; ++i) {
    bytes[i] = vector[count - 1 - i];
  }
}

bool ProcessorHasSsse3() { return __builtin_cpu_supports("ssse3"); }
#endif

void Unpack(const svBitVecVal* words, size_t count, uint8_t* bytes) {
#if defined(__x86_64__)
  static const bool ssse3 = ProcessorHasSsse3();
  if (ssse3) {
    UnpackReversing(reinterpret_cast<const uint8_t*>(words), count, bytes);
    return;
  }
#endif
  lq::rtl::UnpackBytesInto(words, bytes, count);
}

}  // namespace

// CRC-64/XZ over the `bytes` bytes of `data` (byte 0 most significant, word 0
// holding bits 31..0), as prim_crc64's crc_o. The types are those of the
// prototype Verilator writes for the import.
extern "C" unsigned long long lq_prim_crc64(unsigned int bytes,
                                            const svBitVecVal* data) {
  // One buffer per thread, grown to the widest vector seen: every call takes
  // the same path, whatever the width.
  thread_local lq::Bytes buffer;
  const size_t count = bytes;
  buffer.resize(count);
  Unpack(data, count, buffer.data());
  return lq::crc::Crc64Xz().Compute(lq::ByteView(buffer.data(), count));
}
