// SPDX-License-Identifier: Apache-2.0
// The transmit half of the data-link layer as a plain state machine:
// sequence numbers, the replay buffer and its timer, go-back replay and
// selective resend, per-VC credits, the DLP and CRC of every flit, and the
// ERR_INJECT arms (docs/spec/dll.md §2, §4, §5, §8.8). It decides what the
// RTL's lc_tx decides, flit by flit; when a flit is sent is its caller's
// business (systemc/link/TlLinkController).
#pragma once

#include <array>
#include <cstdint>
#include <deque>

#include "models/common/bytes.h"
#include "models/flit/dlp.h"
#include "models/link/link_params.h"
#include "models/phy/link_profile.h"

namespace lq::link {

// What the link state lets the transmitter send (from the LTSSM).
enum class TxMode { kSilent, kTraining, kIdle, kL0 };

// The next flit, in the order of DLL-4.8.
enum class TxKind {
  kNone,
  kControl,
  kResend,
  kReplay,
  kNew,
  kNop,
  kIdle,
  kTraining
};

struct TxChoice {
  TxKind kind = TxKind::kNone;
  unsigned vc = 0;  // kNew: the VC granted.
};

// What the local receiver wants carried (DLL-3.9, DLL-5.5).
struct TxLinkFields {
  flit::ReplayCommand command = flit::ReplayCommand::kNone;
  uint16_t ack_seq = 0;
  const VcCredits* freed = nullptr;  // FREED(v), modulo 4096.
};

// Effects of the partner's link fields on the transmitter, for counters.
struct TxEvents {
  bool nak_received = false;    // NAKS_RECEIVED
  bool replay_started = false;  // REPLAYS
  bool escalate = false;        // REPLAY_ESCALATION: go to Recovery.
  bool protocol_error = false;  // A stale or invalid ack_seq (DLL-4.2).
};

class LinkTransmitter {
 public:
  LinkTransmitter(const phy::LinkProfile& profile, unsigned replay_flits);

  // Link up or down: sequence and credit state start afresh with the
  // partner's INIT, and the replay buffer empties (DLL-2.2, DLL-4.10).
  // Returns the unacknowledged flits dropped.
  unsigned Reset(const VcCredits& partner_init);
  // L0 re-entered from Recovery: replay what is outstanding (DLL-4.9).
  void ReplayAll();

  // Link fields of a good IDLE, NOP or PAYLOAD flit from the partner;
  // commands count only in L0 (DLL-4.2..4.7, DLL-5.6).
  TxEvents OnLinkFields(const flit::DlpHeader& header, bool l0);
  // The replay timer at the start of a flit time (DLL-4.5).
  TxEvents CheckTimer(bool l0);

  // What goes next, given the VCs with a slot waiting (bit per VC) and
  // whether a control message waits (DLL-11.4).
  TxChoice Choose(TxMode mode, uint32_t offered_vcs,
                  bool control_waiting = false) const;
  // Builds the content (slot, DLP, CRC) of `choice` and advances the state
  // as its transmission does. `new_slot` is the granted VC's slot for kNew,
  // the control slot (DLL-11.3) for kControl; `training_slot` the encoded
  // training set for kTraining.
  Bytes Send(const TxChoice& choice, ByteView new_slot,
             const TxLinkFields& link, ByteView training_slot);

  // The arms of ERR_INJECT (DLL-8.8), each for the next flit it applies to.
  void ArmCrcError() { crc_armed_ = true; }
  void ArmSeqError() { seq_armed_ = true; }
  void ArmDropAck() { drop_ack_armed_ = true; }

  void set_replay_timeout(unsigned flit_times) { replay_timeout_ = flit_times; }
  void set_replay_limit(unsigned replays) { replay_limit_ = replays; }

  // Flits sent and not yet acknowledged.
  uint16_t Outstanding() const;
  // The VC whose FREED count the next IDLE, NOP or PAYLOAD flit carries.
  unsigned NextCreditVc() const { return credit_rr_; }
  // CREDIT_AVAIL: LIMIT(v) - CONSUMED(v) (DLL-5.3).
  uint16_t CreditAvailable(unsigned vc) const { return credit_avail_[vc]; }

 private:
  struct Entry {
    unsigned vc;
    Bytes slot;
  };
  // `trigger` is a NAK or timeout with flits outstanding.
  TxEvents Trigger(bool selective);
  void StopTimerIfDone();
  const Entry& EntryOf(uint16_t seq) const;
  unsigned GrantVc(uint32_t requests) const;

  phy::LinkProfile profile_;
  unsigned replay_flits_;
  unsigned replay_timeout_ = kMinReplayTimeout;
  unsigned replay_limit_ = 4;

  uint16_t next_tx_seq_ = 0;  // NEXT_TX_SEQ
  uint16_t ackd_seq_ = 1023;  // ACKD_SEQ
  std::deque<Entry> replay_;  // ACKD_SEQ + 1 onwards, in order.
  uint16_t replay_ptr_ = 0;   // Next flit a go-back replay resends.
  bool replaying_ = false;
  bool resend_ = false;      // A selective resend of ACKD_SEQ + 1 waits.
  unsigned replay_num_ = 0;  // REPLAY_NUM
  unsigned timer_ = 0;
  bool timer_running_ = false;
  unsigned credit_rr_ = 0;    // credit_vc of the next flit (DLL-5.5).
  VcCredits last_{};          // LAST(v) (DLL-5.6).
  VcCredits credit_avail_{};  // LIMIT(v) - CONSUMED(v), 12 bits.
  uint32_t eligible_ = 0xF;   // Round-robin pointer over the VCs.
  bool crc_armed_ = false, seq_armed_ = false, drop_ack_armed_ = false;
};

}  // namespace lq::link
