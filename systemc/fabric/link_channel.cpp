// Behaviour of one link direction: flit packing, serialisation, bit errors,
// FEC/CRC checking and go-back-N replay (DLL-3, DLL-4 in their simplest form).
#include "systemc/fabric/link_channel.h"

#include <utility>

#include "models/flit/flit_codec.h"
#include "models/flit/sequence.h"

namespace lq::fabric {

using sc_core::SC_PS;
using sc_core::sc_time;

LinkCounters& LinkCounters::operator+=(const LinkCounters& other) {
  flits += other.flits;
  replayed_flits += other.replayed_flits;
  replays += other.replays;
  replay_timeouts += other.replay_timeouts;
  fec_corrected += other.fec_corrected;
  crc_errors += other.crc_errors;
  busy_ps += other.busy_ps;
  return *this;
}
using sc_core::SC_ZERO_TIME;

LinkChannel::LinkChannel(sc_core::sc_module_name name,
                         const LinkChannelConfig& config)
    : sc_module(name),
      to_node("to_node"),
      config_(config),
      errors_(phy::BitErrorChannel::Create({config.ber, 0.0, 0}, config.seed)
                  .value()),
      flit_time_(
          static_cast<double>(phy::FlitTimePs(config.profile, config.width)),
          SC_PS),
      wire_latency_(
          static_cast<double>(phy::OneWayLatencyPs(config.profile, config.width,
                                                   config.cable_metres) -
                              phy::FlitTimePs(config.profile, config.width)),
          SC_PS),
      replay_timeout_(flit_time_ *
                      static_cast<double>(config.replay_timeout_flits)) {
  SC_HAS_PROCESS(LinkChannel);
  SC_THREAD(TransmitLoop);
  SC_METHOD(OnArrival);
  sensitive << wire_.event();
  dont_initialize();
  SC_METHOD(OnFeedback);
  sensitive << feedback_.event();
  dont_initialize();
  SC_METHOD(OnReplayTimer);
  sensitive << replay_timer_;
  dont_initialize();
}

void LinkChannel::Send(Bytes packet, int vc) {
  pending_.emplace_back(std::move(packet), vc);
  WakeTransmitter();
}

void LinkChannel::EncodePending() {
  auto [packet, vc] = std::move(pending_.front());
  pending_.pop_front();
  flit::DlpHeader header;
  header.type = flit::FlitType::kPayload;
  header.payload_vc = static_cast<uint8_t>(vc);
  header.flit_seq = next_sequence_;
  // The node only sends packets that fit a payload slot (checked when the
  // scenario is validated), so encoding cannot fail here.
  replay_buffer_.push_back(
      {next_sequence_,
       flit::EncodeFlit(config_.profile, header, packet).value(), false});
  next_sequence_ = flit::SeqAdd(next_sequence_, 1);
}

void LinkChannel::TransmitLoop() {
  while (true) {
    while (replay_cursor_ == replay_buffer_.size()) {
      if (!pending_.empty() && replay_buffer_.size() < kReplayCapacity) {
        EncodePending();
      } else {
        transmitter_waiting_ = true;
        wait(work_event_);
        transmitter_waiting_ = false;
      }
    }
    ReplayEntry& entry = replay_buffer_[replay_cursor_++];
    if (entry.transmitted) {
      ++counters_.replayed_flits;
    }
    entry.transmitted = true;
    Bytes wire = entry.wire;
    if (replay_cursor_ == 1) {
      RestartReplayTimer();  // The oldest unacknowledged flit goes out.
    }
    wait(flit_time_);
    ++counters_.flits;
    counters_.busy_ps += static_cast<uint64_t>(flit_time_ / sc_time(1, SC_PS));
    errors_.Apply(wire.data(), wire.size());
    wire_.Push(std::move(wire), wire_latency_);
  }
}

void LinkChannel::OnArrival() {
  Bytes wire = wire_.Pop();
  auto decoded = flit::DecodeFlit(config_.profile, wire);
  if (!decoded) {
    ++counters_.crc_errors;
    // One NAK per loss: later flits are out of sequence and dropped until
    // the replay arrives, and the replay timer covers a lost replay.
    if (!nak_outstanding_) {
      nak_outstanding_ = true;
      SendFeedback(true, expected_sequence_);
    }
    return;
  }
  counters_.fec_corrected += decoded->fec.symbols_corrected;
  const flit::DlpHeader& header = decoded->header;
  if (header.flit_seq != expected_sequence_) {
    return;  // Go-back-N: everything after a loss waits for the replay.
  }
  expected_sequence_ = flit::SeqAdd(expected_sequence_, 1);
  nak_outstanding_ = false;
  SendFeedback(false, header.flit_seq);
  to_node->Receive(config_.receiver_port, header.payload_vc,
                   std::move(decoded.value().payload));
}

void LinkChannel::SendFeedback(bool nak, uint16_t sequence) {
  feedback_.Push({nak, sequence}, wire_latency_);
}

void LinkChannel::OnFeedback() {
  const Feedback feedback = feedback_.Pop();
  if (!feedback.nak) {
    // Free every flit up to and including the acknowledged one.
    bool progress = false;
    while (
        !replay_buffer_.empty() && replay_buffer_.front().transmitted &&
        !flit::SeqIsAfter(replay_buffer_.front().sequence, feedback.sequence)) {
      replay_buffer_.pop_front();
      --replay_cursor_;
      progress = true;
    }
    if (progress) {
      RestartReplayTimer();
      WakeTransmitter();  // Room in the replay buffer.
    }
    return;
  }
  for (size_t i = 0; i < replay_buffer_.size(); ++i) {
    if (replay_buffer_[i].sequence == feedback.sequence) {
      ++counters_.replays;
      ReplayFrom(i);
      return;
    }
  }
}

void LinkChannel::ReplayFrom(size_t index) {
  replay_cursor_ = index;
  RestartReplayTimer();
  WakeTransmitter();
}

// Only a waiting transmitter needs the event; a busy one looks at its
// queues again when it finishes the flit in hand.
void LinkChannel::WakeTransmitter() {
  if (transmitter_waiting_) {
    work_event_.notify(SC_ZERO_TIME);
  }
}

// The timer is lazy: restarting it only moves the deadline, and the event,
// armed at most once at a time, re-arms itself if it fires early. Cancelling
// and re-notifying on every ACK would leave one dead entry per ACK in the
// kernel's timed-event queue.
void LinkChannel::RestartReplayTimer() {
  replay_deadline_ = sc_core::sc_time_stamp() + replay_timeout_;
  if (!replay_timer_armed_) {
    replay_timer_armed_ = true;
    replay_timer_.notify(replay_timeout_);
  }
}

void LinkChannel::OnReplayTimer() {
  replay_timer_armed_ = false;
  if (replay_buffer_.empty() || !replay_buffer_.front().transmitted) {
    return;  // Nothing unacknowledged: the timer stops.
  }
  const sc_time now = sc_core::sc_time_stamp();
  if (now < replay_deadline_) {
    replay_timer_armed_ = true;
    replay_timer_.notify(replay_deadline_ - now);
    return;
  }
  ++counters_.replays;
  ++counters_.replay_timeouts;
  ReplayFrom(0);
}

}  // namespace lq::fabric
