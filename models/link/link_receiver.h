// SPDX-License-Identifier: Apache-2.0
// The receive half of the data-link layer as a plain state machine: the
// checks of PHY-2.7, the sequence check with its reorder window, in-order
// delivery through one receive buffer, ACK/NAK scheduling, freed-credit
// counting and control messages (docs/spec/dll.md §3, §5, §11). It decides what
// the RTL's lc_rx decides, flit by flit.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "models/common/bytes.h"
#include "models/flit/dlp.h"
#include "models/flit/training_set.h"
#include "models/link/link_params.h"
#include "models/phy/link_profile.h"

namespace lq::link {

// One accepted payload slot, waiting for the layer above.
struct RxSlot {
  unsigned vc = 0;
  Bytes bytes;
};

// What one received flit did, for the transmitter, the LTSSM and counters.
struct RxOutcome {
  bool good = false;         // Passed every check (PHY-2.7).
  bool counted_bad = false;  // CRC_ERRORS: bad in L0 or an Idle substate.
  bool bad_limit = false;    // RX_BAD_FLIT_LIMIT consecutive bad in L0.
  bool payload = false;      // RX_FLITS: a good PAYLOAD flit, duplicates too.
  bool overflow = false;     // Discarded for a full VC buffer (DLL-5.8).
  bool link_fields = false;  // `header`'s link fields go to the transmitter.
  flit::DlpHeader header;    // When good.
  // A good CONTROL flit in L0 or an Idle substate: its message for the
  // layer above, or `control_rejected` when its slot is malformed
  // (DLL-11.3).
  std::optional<Bytes> control;
  bool control_rejected = false;
  std::optional<flit::TrainingSet> training_set;  // Good TRAINING flits.
};

// Where the link is, as the receiver needs to know it.
struct RxState {
  bool l0 = false;
  bool idle = false;                    // Configuration.Idle or Recovery.Idle.
  bool selective_nak = true;            // CTRL.SEL_NAK_EN
  const VcCredits* own_init = nullptr;  // INIT(v) advertised (DLL-5.8).
};

class LinkReceiver {
 public:
  LinkReceiver(const phy::LinkProfile& profile, const LinkBufferSizes& sizes);

  // Link up or down: NEXT_RCV_SEQ = 0, FREED = 0 (DLL-2.2, DLL-5.9). Slots
  // still buffered are delivered later but return no credit.
  void Reset();

  // Checks and takes one flit; `phy_bad` when the FEC gave up (PHY-3.6).
  RxOutcome Receive(ByteView content, bool phy_bad, const RxState& state);
  // Moves held flits into the receive buffer as room allows (DLL-3.3):
  // Receive() does, and the caller after Deliver(). Returns how many moved.
  unsigned Drain(const RxState& state);

  // The replay command the next NOP or PAYLOAD flit carries (DLL-3.9).
  flit::ReplayCommand Command() const;
  uint16_t AckSeq() const;
  // A NOP or PAYLOAD flit left carrying Command(): that clears it, or, if
  // it was kNone, counts a flit time. Returns true for a NAK (NAKS_SENT).
  bool CommandSent();
  // Any other flit left: one flit time towards ACK_TIMEOUT.
  void OnFlitTime();
  // Flits accepted, or a command, waiting for an ACK or NAK to carry.
  bool AckWork() const;

  bool HasSlot() const { return !buffer_.empty(); }
  const RxSlot& NextSlot() const { return buffer_.front(); }
  // The layer above took NextSlot(): FREED grows (DLL-5.5).
  RxSlot Deliver();
  const VcCredits& Freed() const { return freed_; }

 private:
  struct Held {
    bool valid = false;
    RxSlot slot;
  };
  bool Check(ByteView content, bool phy_bad, RxOutcome& out) const;
  void Sequence(ByteView slot, const RxState& state, RxOutcome& out);
  bool HasRoom(unsigned vc, const RxState& state) const;
  void Accept(RxSlot slot);
  void ScheduleSelectiveNak();
  void GoBack();  // Flits were lost: a standard NAK, unless one is due.
  bool Holding() const { return held_count_ != 0; }
  Held& WindowAt(uint16_t seq);
  void ClearWindow();

  phy::LinkProfile profile_;
  LinkBufferSizes sizes_;

  uint16_t next_rcv_ = 0;       // NEXT_RCV_SEQ
  bool nak_scheduled_ = false;  // NakScheduled (DLL-3.7).
  bool nak_pending_ = false;    // A standard NAK waits for a flit.
  bool sel_pending_ = false;    // A selective NAK waits for a flit...
  bool sel_done_ = false;       // ...and was scheduled for sel_for_.
  uint16_t sel_for_ = 0;
  bool dup_ = false;       // A duplicate asks for a re-ACK.
  unsigned accepted_ = 0;  // Since the last command sent.
  unsigned ack_timer_ = 0;
  unsigned bad_run_ = 0;
  std::vector<Held> window_;  // Indexed by seq modulo its size.
  unsigned held_count_ = 0;
  uint16_t newest_ = 0;        // The newest held number.
  std::deque<RxSlot> buffer_;  // Accepted, in sequence order.
  VcCredits freed_{};
  VcCredits occupancy_{};
  VcCredits stale_{};  // Buffered from before the last reset.
};

}  // namespace lq::link
