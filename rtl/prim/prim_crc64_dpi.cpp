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
  lq::rtl::UnpackBytesInto(data, buffer.data(), count);
  return lq::crc::Crc64Xz().Compute(lq::ByteView(buffer.data(), count));
}
