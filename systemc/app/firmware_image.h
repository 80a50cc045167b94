// SPDX-License-Identifier: Apache-2.0
// Firmware images for lqemu's boards: one read from an ELF file, or the
// link bring-up image compiled into lqemu (the default run's probe phase).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "models/common/result.h"
#include "models/elf/elf_image.h"

namespace lq::app {

// The RV32 ELF image at `path`, or why it cannot be used (the reason
// does not repeat the path).
Result<elf::ElfImage> ReadFirmwareImage(const std::string& path);

// The link bring-up firmware (firmware/images/link_bringup_watch), as
// compiled into lqemu; fails if lqemu was built without the firmware.
Result<elf::ElfImage> BringUpImage();

// A board.node_firmware value, "NODE=PATH[,NODE=PATH...]": the image
// path per node, nodes below `nodes`, each named once. Empty for "".
Result<std::map<uint32_t, std::string>> ParseNodeFirmware(
    const std::string& text, uint32_t nodes);

}  // namespace lq::app
