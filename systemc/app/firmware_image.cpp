// SPDX-License-Identifier: Apache-2.0
// Reading firmware images, from files and from lqemu itself.
#include "systemc/app/firmware_image.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>

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

Result<std::map<uint32_t, std::string>> ParseNodeFirmware(
    const std::string& text, uint32_t nodes) {
  std::map<uint32_t, std::string> paths;
  if (text.empty()) {
    return paths;
  }
  std::istringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    const size_t equals = entry.find('=');
    const std::string node = entry.substr(0, equals);
    if (equals == std::string::npos || node.empty() ||
        node.find_first_not_of("0123456789") != std::string::npos ||
        equals + 1 == entry.size()) {
      return Fail("\"" + entry + "\" is not NODE=PATH");
    }
    // Nine digits hold any board count; more might overflow std::stoul.
    const uint32_t id =
        node.size() > 9 ? nodes : static_cast<uint32_t>(std::stoul(node));
    if (id >= nodes) {
      return Fail("node " + node + " is not one of the " +
                  std::to_string(nodes) + " boards");
    }
    if (!paths.emplace(id, entry.substr(equals + 1)).second) {
      return Fail("node " + node + " is named twice");
    }
  }
  if (text.back() == ',') {
    return Fail("an empty entry after the last comma");
  }
  return paths;
}

}  // namespace lq::app
