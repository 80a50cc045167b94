// SPDX-License-Identifier: Apache-2.0
// Tests of ParseRv32Elf on images built field by field: a good one, and one
// broken way per check, each rejected with a message that names the problem.
#include "models/elf/elf_image.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace lq::elf {
namespace {

void Put16(Bytes& b, size_t at, uint16_t v) {
  b[at] = static_cast<uint8_t>(v);
  b[at + 1] = static_cast<uint8_t>(v >> 8);
}
void Put32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) {
    b[at + i] = static_cast<uint8_t>(v >> (8 * i));
  }
}

// An executable with a code segment (8 bytes at 0x20000000, with p_vaddr
// different from p_paddr as for .data) and a .bss-like segment.
Bytes GoodImage() {
  Bytes b(52 + 3 * 32 + 8, 0);
  b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F';
  b[4] = 1, b[5] = 1, b[6] = 1;
  Put16(b, 16, 2);           // ET_EXEC
  Put16(b, 18, 243);         // EM_RISCV
  Put32(b, 20, 1);           // version
  Put32(b, 24, 0x20000004);  // entry
  Put32(b, 28, 52);          // phoff
  Put32(b, 36, 0x1);         // e_flags: RVC, soft float
  Put16(b, 40, 52);
  Put16(b, 42, 32);
  Put16(b, 44, 3);
  // PT_LOAD code, R+X.
  Put32(b, 52 + 0, 1);
  Put32(b, 52 + 4, 52 + 96);
  Put32(b, 52 + 8, 0x80000000);  // p_vaddr (ignored)
  Put32(b, 52 + 12, 0x20000000);
  Put32(b, 52 + 16, 8);
  Put32(b, 52 + 20, 8);
  Put32(b, 52 + 24, 5);
  // PT_NOTE: skipped.
  Put32(b, 84 + 0, 4);
  // PT_LOAD bss, R+W, no file bytes.
  Put32(b, 116 + 0, 1);
  Put32(b, 116 + 12, 0x80000000);
  Put32(b, 116 + 20, 0x100);
  Put32(b, 116 + 24, 6);
  for (int i = 0; i < 8; ++i) {
    b[148 + i] = static_cast<uint8_t>(0xa0 + i);
  }
  return b;
}

std::string Rejection(const Bytes& image) {
  const auto result = ParseRv32Elf(image);
  return result.ok() ? "" : result.error().reason;
}

TEST(ElfImageTest, ReadsEntryAndLoadSegmentsAtTheirPhysicalAddress) {
  const auto image = ParseRv32Elf(GoodImage());
  ASSERT_TRUE(image.ok()) << image.error().reason;
  EXPECT_EQ(image->entry, 0x20000004u);
  ASSERT_EQ(image->segments.size(), 2u) << "PT_NOTE is not loaded";
  const LoadSegment& code = image->segments[0];
  EXPECT_EQ(code.address, 0x20000000u)
      << "p_paddr: initialised data lives in flash until startup copies it";
  EXPECT_EQ(code.data, (Bytes{0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7}));
  EXPECT_TRUE(code.executable);
  EXPECT_FALSE(code.writable);
  const LoadSegment& bss = image->segments[1];
  EXPECT_EQ(bss.memory_size, 0x100u);
  EXPECT_TRUE(bss.data.empty()) << "all of .bss is zero fill";
  EXPECT_TRUE(bss.writable);
}

TEST(ElfImageTest, RejectsWhatIsNotAnRv32Executable) {
  struct Case {
    size_t offset;
    uint32_t value;
    int width;
    const char* expected;
  } cases[] = {
      {0, 0x7e, 1, "not an ELF file"},
      {4, 2, 1, "64-bit ELF"},
      {4, 3, 1, "unknown ELF class"},
      {5, 2, 1, "big-endian"},
      {18, 62, 2, "not RISC-V"},
      {16, 1, 2, "not an executable"},
      {36, 0x5, 4, "floating-point ABI"},
      {44, 0, 2, "no program headers"},
      {42, 16, 2, "too short"},
      {28, 0x1000, 4, "past the end of the file"},
      {52 + 4, 0x1000, 4, "segment 0"},
      {52 + 20, 4, 4, "more file bytes than memory bytes"},
      {116 + 12, 0xffffff80, 4, "wraps around"},
  };
  for (const Case& c : cases) {
    Bytes image = GoodImage();
    if (c.width == 1) {
      image[c.offset] = static_cast<uint8_t>(c.value);
    } else if (c.width == 2) {
      Put16(image, c.offset, static_cast<uint16_t>(c.value));
    } else {
      Put32(image, c.offset, c.value);
    }
    EXPECT_NE(Rejection(image).find(c.expected), std::string::npos)
        << "expected '" << c.expected << "', got '" << Rejection(image) << "'";
  }
}

TEST(ElfImageTest, RejectsTruncatedFiles) {
  for (size_t size : {0u, 3u, 15u, 51u, 100u, 150u}) {
    Bytes image = GoodImage();
    image.resize(size);
    EXPECT_FALSE(ParseRv32Elf(image).ok())
        << "a file cut to " << size << " bytes must not load";
  }
}

TEST(ElfImageTest, RejectsAnImageWithNothingToLoad) {
  Bytes image = GoodImage();
  Put32(image, 52, 4);
  Put32(image, 116, 4);
  EXPECT_NE(Rejection(image).find("no loadable"), std::string::npos);
}

}  // namespace
}  // namespace lq::elf
