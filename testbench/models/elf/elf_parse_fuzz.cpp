// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes as an ELF file. Whatever parses must describe
// segments that lie inside the file and the 32-bit address space.
#include <cstddef>
#include <cstdint>

#include "models/elf/elf_image.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto image = lq::elf::ParseRv32Elf(lq::ByteView(data, size));
  if (!image.ok()) {
    Require(!image.error().reason.empty());
    return 0;
  }
  Require(!image->segments.empty());
  for (const auto& segment : image->segments) {
    Require(segment.data.size() <= segment.memory_size);
    Require(segment.data.size() <= size);
    Require(uint64_t{segment.address} + segment.memory_size <=
            (uint64_t{1} << 32));
  }
  return 0;
}
