// SPDX-License-Identifier: Apache-2.0
// The logical layer's atomics (docs/spec/log.md LOG-3.3, LOG-3.4, LOG-3.7):
// SWAP, CAS and FADD on 4- or 8-byte little-endian values, and the step of
// the CmpSwap loop that carries a SWAP, or any 4-byte atomic, on the
// aligned 8-byte word around it.
#pragma once

#include <cstdint>

namespace lq::logical {

enum class AtomicOp : uint8_t { kSwap, kCas, kFadd };

struct AtomicRequest {
  AtomicOp op = AtomicOp::kFadd;
  unsigned size = 8;     // 4 or 8 bytes
  uint64_t operand = 0;  // v: written (SWAP, CAS) or added (FADD)
  uint64_t compare = 0;  // c: CAS only
};

// LOG-3.4: 4 or 8 bytes, naturally aligned.
bool AtomicShapeOk(uint64_t address, unsigned size);

// LOG-3.3: what the atomic leaves in memory that held `old_value` (both
// `size` bytes wide); the access returns `old_value`.
uint64_t AtomicResult(const AtomicRequest& request, uint64_t old_value);

// One step of LOG-3.7's loop for an atomic at byte `offset` (0 or 4 for a
// 4-byte atomic, 0 for an 8-byte SWAP) of an 8-byte word last seen as
// `word`: the word to CmpSwap in, with `word` as the compare value, and
// the old value the atomic returns if that CmpSwap succeeds.
struct LoopStep {
  uint64_t swap_word = 0;
  uint64_t old_value = 0;
};
LoopStep AtomicLoopStep(const AtomicRequest& request, unsigned offset,
                        uint64_t word);

// Whether `op` of `size` bytes maps straight onto a RoCEv2 atomic (8-byte
// CAS and FADD, LOG-3.7); the others take the loop.
bool DirectRdmaAtomic(const AtomicRequest& request);

}  // namespace lq::logical
