// SPDX-License-Identifier: Apache-2.0
// Tests of board.node_firmware's parser: NODE=PATH entries, each node a
// board of the scenario and named once; anything else is refused with a
// reason.
#include "systemc/app/firmware_image.h"

#include <gtest/gtest.h>

namespace lq::app {
namespace {

TEST(NodeFirmware, ParsesEachNodesImagePath) {
  const auto paths = ParseNodeFirmware("5=a.elf,0=dir/b.elf", 8);
  ASSERT_TRUE(paths.ok()) << paths.error().reason;
  EXPECT_EQ(*paths,
            (std::map<uint32_t, std::string>{{0, "dir/b.elf"}, {5, "a.elf"}}));
  const auto none = ParseNodeFirmware("", 8);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty()) << "every board boots board.firmware";
}

TEST(NodeFirmware, RefusesMalformedEntriesWithAReason_fail) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"5", "is not NODE=PATH"},
      {"5=", "is not NODE=PATH"},
      {"=a.elf", "is not NODE=PATH"},
      {"x=a.elf", "is not NODE=PATH"},
      {"-1=a.elf", "is not NODE=PATH"},
      {"8=a.elf", "node 8 is not one of the 8 boards"},
      {"99999999999=a.elf", "is not one of the 8 boards"},
      {"123456789012345678901234567890=a.elf", "is not one of the 8 boards"},
      {"1=a.elf,1=b.elf", "node 1 is named twice"},
      {"1=a.elf,", "empty entry"},
      {"1=a.elf,,2=b.elf", "is not NODE=PATH"},
  };
  for (const auto& [text, reason] : cases) {
    const auto paths = ParseNodeFirmware(text, 8);
    ASSERT_FALSE(paths.ok()) << text << " was accepted";
    EXPECT_NE(paths.error().reason.find(reason), std::string::npos)
        << text << ": " << paths.error().reason;
  }
}

}  // namespace
}  // namespace lq::app
