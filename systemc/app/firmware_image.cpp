// Reading firmware images, from files and from lqemu itself.
#include "systemc/app/firmware_image.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>

namespace lq::app {

// Generated from the built image by cmake/EmbedBinary.cmake.
extern const uint8_t kBringUpImage[];
extern const size_t kBringUpImageBytes;

Result<elf::ElfImage> ReadFirmwareImage(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return Fail("cannot open the image");
  }
  const Bytes bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  return elf::ParseRv32Elf(bytes);
}

Result<elf::ElfImage> BringUpImage() {
  if (kBringUpImageBytes == 0) {
    return Fail(
        "lqemu was built without the RISC-V firmware, so it has no bring-up "
        "image (install the cross compiler with scripts/setup-deps and "
        "rebuild, or set board.firmware)");
  }
  return elf::ParseRv32Elf(
      Bytes(kBringUpImage, kBringUpImage + kBringUpImageBytes));
}

}  // namespace lq::app
