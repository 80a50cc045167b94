// One direction of a card-to-card link in the interim fabric: packs packets
// into real flits, serialises them at the profile's rate, flips bits at the
// configured BER, and at the far end corrects (FEC), checks (CRC) and
// delivers them in order, replaying go-back-N from a replay buffer on error.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <systemc>

#include "models/phy/bit_error_channel.h"
#include "models/phy/link_profile.h"
#include "systemc/common/delay_line.h"
#include "systemc/fabric/fabric_ifs.h"

namespace lq::fabric {

struct LinkChannelConfig {
  phy::LinkProfile profile{};
  unsigned width = 0;  // Lanes in use.
  double ber = 0;      // Independent bit-error rate on the wire.
  double cable_metres = 0;
  uint64_t replay_timeout_flits = 0;  // Replay timer, in flit times.
  uint64_t seed = 1;                  // Seeds this direction's bit errors.
  int receiver_port = 0;              // Port number at the receiving node.
};

// Counters of one link direction; the receiver side counts errors.
struct LinkCounters {
  uint64_t flits = 0;            // Flits serialised, replays included.
  uint64_t replayed_flits = 0;   // Of those, flits sent again after a NAK.
  uint64_t replays = 0;          // NAKs acted on.
  uint64_t fec_corrected = 0;    // Symbols the FEC corrected.
  uint64_t crc_errors = 0;       // Flits rejected (FEC uncorrectable or CRC).
  uint64_t replay_timeouts = 0;  // Replays started by the replay timer.
  uint64_t busy_ps = 0;          // Time spent serialising.

  LinkCounters& operator+=(const LinkCounters& other);
};

class LinkChannel : public sc_core::sc_module, public PacketLinkIf {
 public:
  sc_core::sc_port<PacketSinkIf> to_node;

  LinkChannel(sc_core::sc_module_name name, const LinkChannelConfig& config);

  void Send(Bytes packet, int vc) override;

  const LinkCounters& counters() const { return counters_; }

 private:
  // Flits a transmitter may hold unacknowledged: well inside the half
  // sequence window DLL-2.3 allows.
  static constexpr size_t kReplayCapacity = 256;

  // A flit kept until the far end acknowledges it.
  struct ReplayEntry {
    uint16_t sequence;
    Bytes wire;  // Encoded flit; bit errors are applied to a copy.
    bool transmitted = false;
  };
  // An ACK or NAK on its way back to the transmitter.
  struct Feedback {
    bool nak;
    uint16_t sequence;  // ACK: last flit received. NAK: first to resend.
  };

  void TransmitLoop();   // SC_THREAD: serialises flits one at a time.
  void OnArrival();      // SC_METHOD: receiver side, one flit per arrival.
  void OnFeedback();     // SC_METHOD: transmitter side, ACK/NAK arrival.
  void OnReplayTimer();  // SC_METHOD: replay when acknowledgement stalls.
  void EncodePending();  // Moves one pending packet into the replay buffer.
  void ReplayFrom(size_t index);
  void WakeTransmitter();
  void RestartReplayTimer();
  void SendFeedback(bool nak, uint16_t sequence);

  LinkChannelConfig config_;
  phy::BitErrorChannel errors_;
  sc_core::sc_time flit_time_;
  sc_core::sc_time wire_latency_;  // After serialisation: pipelines + cable.
  sc_core::sc_time replay_timeout_;

  // Transmitter.
  std::deque<std::pair<Bytes, int>> pending_;  // Packets not yet in a flit.
  std::deque<ReplayEntry> replay_buffer_;
  size_t replay_cursor_ = 0;  // Next replay-buffer entry to (re)send.
  uint16_t next_sequence_ = 0;
  sc_core::sc_event work_event_;
  bool transmitter_waiting_ = false;
  sc_core::sc_event replay_timer_;
  sc_core::sc_time replay_deadline_;
  bool replay_timer_armed_ = false;

  // The wire and the return path: fixed delays, so FIFO order.
  DelayLine<Bytes> wire_;
  DelayLine<Feedback> feedback_;

  // Receiver.
  uint16_t expected_sequence_ = 0;
  bool nak_outstanding_ = false;

  LinkCounters counters_;
};

}  // namespace lq::fabric
