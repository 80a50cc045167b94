// SPDX-License-Identifier: Apache-2.0
// Reading a built firmware image into a test, and the cluster settings the
// firmware tests share: pcie6 ports with training timeouts at 1/100
// (Detect.Quiet 120 us, Recovery 240 us).
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include "models/elf/elf_image.h"
#include "systemc/cluster/cluster.h"

namespace lq::testing {

// The image at `path`, or why there is none.
inline Result<elf::ElfImage> ReadFirmwareImage(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return Fail("missing image " + path);
  }
  const Bytes bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  return elf::ParseRv32Elf(bytes);
}

inline cluster::LinkPortConfig ScaledPcie6Port() {
  cluster::LinkPortConfig port;
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  port.phy = phy::PhyPortConfig::ForProfile(profile);
  port.controller.profile = profile;
  port.controller.ltssm_time_scale = 1e-2;
  return port;
}

}  // namespace lq::testing
