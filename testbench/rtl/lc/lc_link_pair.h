// SPDX-License-Identifier: Apache-2.0
// Back-to-back testbench: two Verilated link controllers joined by a lossy
// channel model, with traffic sources and a scoreboard.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "Vlc_top.h"
#include "models/common/bytes.h"
#include "models/flit/flit_codec.h"
#include "models/phy/link_profile.h"

namespace lq::rtl {

inline constexpr unsigned kSides = 2;
inline constexpr unsigned kVcs = 4;

// What one direction of the channel does to the flits it carries.
struct ChannelConfig {
  double bit_error_rate =
      0.0;  // Independent wire-bit flips (before FEC correction).
  double burst_per_flit =
      0.0;                   // Chance a flit is hit by a burst of flipped bits.
  unsigned burst_bits = 48;  // Contiguous wire bits a burst flips.
  double drop_per_flit = 0.0;       // Chance a flit vanishes.
  double stall_per_cycle = 0.0;     // Chance the PHY refuses a flit this cycle.
  unsigned latency_cycles = 16;     // One-way delay.
  unsigned lock_loss_cycles = 100;  // PHY-5.4: loss of lock reported this late.
};

// Offered load and consumer speed of each side.
struct TrafficConfig {
  double offer_per_cycle = 1.0;  // Chance a VC source has a new slot ready.
  double drain_per_cycle = 1.0;  // Chance the consumer takes a delivered slot.
};

// What the scoreboard and the channel saw for one receiving side.
struct SideReport {
  uint64_t delivered = 0;   // Payload slots delivered in order, intact.
  uint64_t lost = 0;        // A slot skipped (a later one came first).
  uint64_t duplicated = 0;  // A slot delivered again.
  uint64_t corrupted = 0;   // Right number, wrong bytes.
  uint64_t bad_flits = 0;   // Flits the channel made bad (model's verdict).
  uint64_t dropped = 0;     // Flits the channel dropped.
  uint64_t fec_corrected = 0;
  uint64_t good_payload_flits =
      0;  // Good PAYLOAD flits that reached this side.
  uint64_t naks_destroyed =
      0;  // NAK-carrying flits towards this side bad or dropped.
  uint64_t wire_flits = 0;          // Flits sent towards this side.
  uint64_t wire_payload_flits = 0;  // PAYLOAD flits among them.
  uint64_t model_mismatches =
      0;  // Wire flits that differ from models/flit's encoding.
};

class LinkPair {
 public:
  // Both models share Verilator's default context, in which a failed RTL
  // assertion (`ASSERT) stops the process: the test fails loudly.
  explicit LinkPair(uint64_t seed);
  ~LinkPair();

  void Step();
  bool RunUntilLinkUp(uint64_t max_cycles);
  // Runs until each side delivered `flits` payload slots from the other, or
  // max_cycles.
  bool RunTraffic(uint64_t flits, uint64_t max_cycles);
  void Drain(
      uint64_t cycles);  // Errors off, no new traffic: lets the links settle.

  // Lanes of the direction towards `to_side` start or stop delivering noise
  // (PHY-5.4); the receiver reports loss of lock lock_loss_cycles later.
  void FailLanes(unsigned to_side, uint32_t lanes);
  void RepairLanes(unsigned to_side, uint32_t lanes);

  uint32_t Read(unsigned side, uint32_t offset);
  bool Write(unsigned side, uint32_t offset,
             uint32_t value);  // False on a bus error.
  uint64_t ReadCounter64(unsigned side, uint32_t lo_offset);

  ChannelConfig& channel(unsigned to_side) { return channel_[to_side]; }
  TrafficConfig& traffic(unsigned side) { return traffic_[side]; }
  const SideReport& report(unsigned side) const { return report_[side]; }
  Vlc_top& top(unsigned side) { return *tops_[side]; }
  uint64_t cycles() const { return cycles_; }
  void set_sending(bool on) { sending_ = on; }
  // Whether every wire flit is checked against models/flit's encoding
  // (SideReport::model_mismatches); on unless a benchmark times the RTL.
  void set_check_model(bool on) { check_model_ = on; }
  // Lets a test rewrite flit contents towards `to_side` before the FEC is
  // added; the mutator returns true when it changed the flit.
  using Mutator = std::function<bool(Bytes& content)>;
  void set_mutator(unsigned to_side, Mutator mutator) {
    mutator_[to_side] = std::move(mutator);
  }
  // Offers a control slot (DLL-11) on `side`'s control input until the
  // controller takes it; slots queue behind each other.
  void SendControl(unsigned side, Bytes slot) {
    control_out_[side].push_back(std::move(slot));
  }
  // Control slots `side` received, with the cycle of each.
  const std::vector<std::pair<uint64_t, Bytes>>& controls_received(
      unsigned side) const {
    return control_in_[side];
  }
  // Cycle at which each of `side`'s control slots was taken.
  const std::vector<uint64_t>& controls_taken(unsigned side) const {
    return control_taken_[side];
  }

 private:
  struct WireFlit {
    uint64_t deliver_at;
    Bytes content;
    bool bad;
    bool fec_corrected;
    unsigned lane;  // TRAINING flits: the lane this copy travelled on.
  };
  // Per direction (index: receiving side).
  struct LaneState {
    uint32_t failed = 0;        // Lanes delivering noise.
    uint32_t in_use = 0;        // Lanes the current width stripes over.
    uint32_t lock_lost = 0;     // Loss of lock still to report...
    uint64_t lock_lost_at = 0;  // ...at this cycle.
    unsigned next_training_lane = 0;
    unsigned width = 0;  // Transmitter's width when in_use was set.
  };

  void DriveSources(unsigned side);
  void CheckWireFlit(unsigned to_side, const Bytes& content);
  // Takes the flit as sent; the channel may change it on the way.
  void CarryFlit(unsigned to_side, Bytes content);
  void Scoreboard(unsigned side);
  void Apply(unsigned side);
  unsigned LaneFor(unsigned to_side, bool training);
  bool HitsFailedLane(unsigned to_side, bool training, unsigned lane) const;

  phy::LinkProfile profile_;
  std::array<std::unique_ptr<Vlc_top>, kSides> tops_;
  std::array<ChannelConfig, kSides> channel_{};
  std::array<TrafficConfig, kSides> traffic_{};
  std::array<SideReport, kSides> report_{};
  std::array<std::deque<WireFlit>, kSides> in_flight_;
  std::array<std::array<uint64_t, kVcs>, kSides>
      next_tx_{};  // Next number to offer.
  std::array<std::array<bool, kVcs>, kSides>
      pending_{};  // A slot is on the wires.
  std::array<std::array<uint64_t, kVcs>, kSides> next_expected_{};
  std::array<bool, kSides> phy_ready_{};
  std::array<bool, kSides> drain_ready_{};
  std::array<Mutator, kSides> mutator_{};
  std::array<LaneState, kSides> lanes_{};
  std::array<std::deque<Bytes>, kSides> control_out_;
  std::array<std::vector<std::pair<uint64_t, Bytes>>, kSides> control_in_;
  std::array<std::vector<uint64_t>, kSides> control_taken_;
  std::mt19937_64 rng_;
  uint64_t cycles_ = 0;
  uint64_t error_gap_ = 0;  // Wire bits left before the next random flip.
  std::vector<uint64_t> flipped_bits_;  // CarryFlit's flips of one flit.
  // The slot a source offers, and the scoreboard's slot as received: sized
  // once and kept.
  Bytes source_slot_;
  Bytes scored_slot_;
  bool sending_ = true;
  bool check_model_ = true;
};

}  // namespace lq::rtl
