// SPDX-License-Identifier: Apache-2.0
// RV32C: expands a 16-bit compressed instruction into the 32-bit RV32I
// instruction it stands for, so the hart executes one instruction set.
#pragma once

#include <cstdint>

namespace lq::riscv {

// The 32-bit equivalent of a compressed parcel, or 0 (an illegal 32-bit
// instruction) when the parcel is reserved, illegal on RV32, or belongs to
// an extension the hart lacks (F, D).
uint32_t ExpandCompressed(uint16_t parcel);

}  // namespace lq::riscv
