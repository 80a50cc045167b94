// SPDX-License-Identifier: Apache-2.0
// ParseRv32Elf: the ELF header and program headers, field by field, as the
// System V ABI and the RISC-V ELF psABI define them.
#include "models/elf/elf_image.h"

#include "models/common/hex.h"

namespace lq::elf {
namespace {

constexpr size_t kElfHeaderSize = 52;
constexpr size_t kProgramHeaderSize = 32;
constexpr uint8_t kClass32 = 1;
constexpr uint8_t kClass64 = 2;
constexpr uint8_t kLittleEndian = 1;
constexpr uint16_t kTypeExecutable = 2;
constexpr uint16_t kMachineRiscV = 243;
constexpr uint32_t kSegmentLoad = 1;
constexpr uint32_t kFlagExecute = 1;
constexpr uint32_t kFlagWrite = 2;
// The psABI's e_flags float ABI bits; an ilp32 image has none set.
constexpr uint32_t kFloatAbiMask = 0x6;

uint16_t Load16(ByteView bytes, size_t offset) {
  return static_cast<uint16_t>(bytes[offset] | (bytes[offset + 1] << 8));
}
uint32_t Load32(ByteView bytes, size_t offset) {
  return bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) |
         (static_cast<uint32_t>(bytes[offset + 3]) << 24);
}

Error Fail(std::string reason, size_t offset) {
  return Error{std::move(reason), offset};
}

}  // namespace

Result<ElfImage> ParseRv32Elf(ByteView file) {
  if (file.size() < 16 || file[0] != 0x7f || file[1] != 'E' || file[2] != 'L' ||
      file[3] != 'F') {
    return Fail("not an ELF file (no \\x7fELF magic)", 0);
  }
  if (file[4] == kClass64) {
    return Fail(
        "a 64-bit ELF: the board's MCU is RV32; build with -march=rv32imac "
        "-mabi=ilp32",
        4);
  }
  if (file[4] != kClass32) {
    return Fail("unknown ELF class " + std::to_string(file[4]), 4);
  }
  if (file[5] != kLittleEndian) {
    return Fail("a big-endian ELF: RISC-V images are little-endian", 5);
  }
  if (file.size() < kElfHeaderSize) {
    return Fail("truncated ELF header (" + std::to_string(file.size()) +
                    " of 52 bytes)",
                file.size());
  }
  const uint16_t type = Load16(file, 16);
  const uint16_t machine = Load16(file, 18);
  if (machine != kMachineRiscV) {
    return Fail("built for ELF machine " + std::to_string(machine) +
                    ", not RISC-V (243): use riscv64-unknown-elf-gcc",
                18);
  }
  if (type != kTypeExecutable) {
    return Fail("ELF type " + std::to_string(type) +
                    " is not an executable (2): link the image, do not pass "
                    "an object file or shared library",
                16);
  }
  if ((Load32(file, 36) & kFloatAbiMask) != 0) {
    return Fail(
        "built for a hardware floating-point ABI: the board's MCU has no FPU; "
        "build with -mabi=ilp32",
        36);
  }
  ElfImage image;
  image.entry = Load32(file, 24);
  const uint32_t table = Load32(file, 28);
  const uint16_t entry_size = Load16(file, 42);
  const uint16_t count = Load16(file, 44);
  if (count == 0) {
    return Fail("no program headers: nothing to load", 44);
  }
  if (entry_size < kProgramHeaderSize) {
    return Fail("program header entries of " + std::to_string(entry_size) +
                    " bytes are too short (32)",
                42);
  }
  if (static_cast<uint64_t>(table) + uint64_t{count} * entry_size >
      file.size()) {
    return Fail("program header table at " + HexText(table) +
                    " runs past the end of the file",
                28);
  }
  for (uint16_t i = 0; i < count; ++i) {
    const size_t header = table + size_t{i} * entry_size;
    if (Load32(file, header) != kSegmentLoad) {
      continue;
    }
    const uint32_t offset = Load32(file, header + 4);
    const uint32_t address = Load32(file, header + 12);  // p_paddr
    const uint32_t file_size = Load32(file, header + 16);
    const uint32_t memory_size = Load32(file, header + 20);
    const uint32_t flags = Load32(file, header + 24);
    const std::string name = "segment " + std::to_string(i);
    if (static_cast<uint64_t>(offset) + file_size > file.size()) {
      return Fail(name + " (" + HexText(file_size) + " bytes at file offset " +
                      HexText(offset) + ") runs past the end of the file",
                  header + 4);
    }
    if (file_size > memory_size) {
      return Fail(name + " has more file bytes than memory bytes", header + 16);
    }
    if (static_cast<uint64_t>(address) + memory_size > (uint64_t{1} << 32)) {
      return Fail(name + " at " + HexText(address) +
                      " wraps around the 32-bit address space",
                  header + 12);
    }
    if (memory_size == 0) {
      continue;
    }
    LoadSegment segment;
    segment.address = address;
    segment.memory_size = memory_size;
    segment.data.assign(file.begin() + offset,
                        file.begin() + offset + file_size);
    segment.executable = (flags & kFlagExecute) != 0;
    segment.writable = (flags & kFlagWrite) != 0;
    image.segments.push_back(std::move(segment));
  }
  if (image.segments.empty()) {
    return Fail("no loadable (PT_LOAD) segment", table);
  }
  return image;
}

}  // namespace lq::elf
