// SPDX-License-Identifier: Apache-2.0
// Helpers of the models/link tests: flits built and read the way a link
// controller's partner would see them.
#pragma once

#include <gtest/gtest.h>

#include "models/common/bytes.h"
#include "models/flit/control_slot.h"
#include "models/flit/dlp.h"
#include "models/flit/flit_codec.h"
#include "models/link/link_receiver.h"
#include "models/link/link_transmitter.h"
#include "models/phy/link_profile.h"

namespace lq::link::testing {

inline phy::LinkProfile Pcie6() {
  return phy::FindLinkProfile("pcie6").value();
}

// The DLP of a flit's content.
inline flit::DlpHeader HeaderOf(const Bytes& content) {
  return flit::ParseDlp(
             ByteView(content).Sub(flit::DlpOffset(Pcie6()), flit::kDlpBytes))
      .value();
}

// A slot whose bytes say which it is.
inline Bytes SlotNumbered(uint8_t number) {
  return Bytes(Pcie6().payload_bytes, number);
}

// Sends whatever the transmitter chooses in L0 with `offered` VCs waiting
// (the slot for a new flit is SlotNumbered(next_number)); no command.
inline Bytes SendNext(LinkTransmitter& tx, uint32_t offered,
                      uint8_t next_number = 0) {
  static const VcCredits kNoneFreed{};
  TxLinkFields fields;
  fields.freed = &kNoneFreed;
  const TxChoice choice = tx.Choose(TxMode::kL0, offered);
  return tx.Send(choice, SlotNumbered(next_number), fields, ByteView());
}

// Sends a CONTROL flit carrying `message` (DLL-11) in L0.
inline Bytes SendControl(LinkTransmitter& tx, const Bytes& message) {
  static const VcCredits kNoneFreed{};
  TxLinkFields fields;
  fields.freed = &kNoneFreed;
  const TxChoice choice = tx.Choose(TxMode::kL0, 0, true);
  EXPECT_EQ(choice.kind, TxKind::kControl);
  return tx.Send(
      choice, flit::EncodeControlSlot(message, Pcie6().payload_bytes).value(),
      fields, ByteView());
}

// A NOP from the partner carrying `command` for `ack_seq`, and a credit
// count, as header only (what OnLinkFields reads).
inline flit::DlpHeader LinkFields(flit::ReplayCommand command, uint16_t ack_seq,
                                  uint8_t credit_vc = 0,
                                  uint16_t credit_count = 0) {
  flit::DlpHeader header;
  header.type = flit::FlitType::kNop;
  header.replay = command;
  header.ack_seq = command == flit::ReplayCommand::kNone ? 0 : ack_seq;
  header.credit_vc = credit_vc;
  header.credit_count = credit_count;
  return header;
}

}  // namespace lq::link::testing
