// SPDX-License-Identifier: Apache-2.0
// Tests of the CONTROL flit's slot: the length-first layout and the
// receiver's strict reading of it (DLL-11.3).
#include "models/flit/control_slot.h"

#include <gtest/gtest.h>

namespace lq::flit {
namespace {

TEST(ControlSlot, DLL_11_3_LengthFirstThenMessageThenZeros) {
  const Bytes message = {0x01, 0x01, 0x00, 0x08};
  const Bytes slot = EncodeControlSlot(message, 16).value();
  EXPECT_EQ(slot, (Bytes{0x00, 0x04, 0x01, 0x01, 0x00, 0x08, 0, 0, 0, 0, 0, 0,
                         0, 0, 0, 0}));
  EXPECT_EQ(ParseControlSlot(slot).value(), message);
}

TEST(ControlSlot, DLL_11_3_FillsTheSlotToTheLastByte) {
  Bytes message(234);
  for (size_t i = 0; i < message.size(); ++i) {
    message[i] = static_cast<uint8_t>(i * 7 + 1);
  }
  const Bytes slot = EncodeControlSlot(message, 236).value();
  EXPECT_EQ(slot[0], 0x00);
  EXPECT_EQ(slot[1], 234);
  EXPECT_EQ(ParseControlSlot(slot).value(), message);
  message.push_back(0xAA);
  EXPECT_FALSE(EncodeControlSlot(message, 236).ok())
      << "235 bytes do not fit a 236-byte slot after the length";
}

TEST(ControlSlot, DLL_11_3_RefusesAnEmptyMessage) {
  const auto slot = EncodeControlSlot(Bytes{}, 236);
  ASSERT_FALSE(slot.ok());
  EXPECT_EQ(slot.error().reason,
            "control message of 0 bytes; a 236-byte slot carries 1 to 234");
}

TEST(ControlSlot, DLL_11_3_RejectsALengthOutOfRange) {
  Bytes slot(16, 0);
  auto parsed = ParseControlSlot(slot);
  ASSERT_FALSE(parsed.ok()) << "length 0";
  EXPECT_EQ(parsed.error().reason, "control message length 0 outside 1..14");
  slot[1] = 15;
  parsed = ParseControlSlot(slot);
  ASSERT_FALSE(parsed.ok()) << "length 15 runs past a 16-byte slot";
  EXPECT_EQ(parsed.error().reason, "control message length 15 outside 1..14");
  slot[0] = 0x01;
  slot[1] = 0x00;
  EXPECT_FALSE(ParseControlSlot(slot).ok()) << "length 256";
}

TEST(ControlSlot, DLL_11_3_RejectsANonZeroByteAfterTheMessage) {
  Bytes slot = EncodeControlSlot(Bytes{0x55, 0x66}, 16).value();
  slot[15] = 0x01;
  const auto parsed = ParseControlSlot(slot);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().reason, "non-zero byte after the control message");
  EXPECT_EQ(parsed.error().offset, 15u);
}

}  // namespace
}  // namespace lq::flit
