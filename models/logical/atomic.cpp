// SPDX-License-Identifier: Apache-2.0
// Atomic semantics and the CmpSwap loop (LOG-3.3, LOG-3.7).
#include "models/logical/atomic.h"

namespace lq::logical {
namespace {

constexpr unsigned kWordBytes = 8;
constexpr unsigned kByteBits = 8;

uint64_t Mask(unsigned size) {
  return size >= kWordBytes ? ~uint64_t{0}
                            : (uint64_t{1} << (size * kByteBits)) - 1;
}

}  // namespace

bool AtomicShapeOk(uint64_t address, unsigned size) {
  return (size == 4 || size == 8) && address % size == 0;
}

uint64_t AtomicResult(const AtomicRequest& request, uint64_t old_value) {
  const uint64_t mask = Mask(request.size);
  old_value &= mask;
  switch (request.op) {
    case AtomicOp::kSwap:
      return request.operand & mask;
    case AtomicOp::kCas:
      return old_value == (request.compare & mask) ? request.operand & mask
                                                   : old_value;
    case AtomicOp::kFadd:
      return (old_value + request.operand) & mask;  // modulo 2^(8 size)
  }
  return old_value;
}

LoopStep AtomicLoopStep(const AtomicRequest& request, unsigned offset,
                        uint64_t word) {
  const unsigned shift = offset * kByteBits;
  const uint64_t mask = Mask(request.size) << shift;
  LoopStep step;
  step.old_value = (word & mask) >> shift;
  const uint64_t result = AtomicResult(request, step.old_value);
  step.swap_word = (word & ~mask) | (result << shift & mask);
  return step;
}

bool DirectRdmaAtomic(const AtomicRequest& request) {
  return request.size == kWordBytes &&
         (request.op == AtomicOp::kCas || request.op == AtomicOp::kFadd);
}

}  // namespace lq::logical
