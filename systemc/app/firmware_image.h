// Firmware images for lqemu's boards: one read from an ELF file, or the
// link bring-up image compiled into lqemu (the default run's probe phase).
#pragma once

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

}  // namespace lq::app
