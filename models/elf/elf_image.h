// SPDX-License-Identifier: Apache-2.0
// A RISC-V RV32 executable read from ELF: its entry point and the segments
// to load. Parsing checks the header (class, byte order, machine, type) and
// every program header's bounds, and names the first problem it finds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::elf {

// One PT_LOAD segment: `data` (the file bytes) goes at `address`, and the
// rest of `memory_size` is zero-filled (.bss).
struct LoadSegment {
  uint32_t address = 0;
  uint32_t memory_size = 0;
  Bytes data;
  bool executable = false;
  bool writable = false;
};

struct ElfImage {
  uint32_t entry = 0;
  std::vector<LoadSegment> segments;
};

// Parses an ELF32 little-endian RISC-V executable. The error's reason is one
// sentence naming the problem and, where there is one, the fix.
Result<ElfImage> ParseRv32Elf(ByteView file);

}  // namespace lq::elf
