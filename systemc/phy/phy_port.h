// SPDX-License-Identifier: Apache-2.0
// The physical layer of one card's port: serialises its link controller's
// flits at the profile's rate, adds the FEC, applies the wire's bit errors,
// bursts and failed lanes to the real bytes, and on the far side corrects,
// reports lanes and hands flits to the far controller (docs/spec/phy.md).
// Two PhyPorts joined by Connect(a.cable, b.cable) make one link.
//
// It schedules no events of its own while flits flow: every flit is carried
// straight to the far port and on to the controller with its delay annotated.
// Only lane faults, scheduled at a simulated time, wake it up.
#pragma once

#include <cstdint>
#include <map>
#include <systemc>
#include <vector>

#include "models/common/result.h"
#include "models/phy/bit_error_channel.h"
#include "models/phy/link_profile.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/param.h"
#include "systemc/common/path_probe.h"
#include "systemc/common/stat_list.h"
#include "systemc/phy/cable.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::phy {

struct PhyPortConfig {
  LinkProfile profile{};
  double cable_metres = kDefaultCableMetres;  // PHY-4.5; both ports agree.
  uint64_t tx_pipeline_ps = 0;                // PHY-4.4.
  uint64_t rx_pipeline_ps = 0;
  BitErrorConfig errors{};  // This port's transmit direction (PHY-5.1..5.3).
  uint64_t lock_loss_ps = 100000;  // PHY-5.4: loss of lock reported this late.
  uint64_t seed = 1;               // Seeds this direction's errors (PHY-5.2).

  // A port of `profile` with the profile's own pipeline latencies and every
  // other field at its default.
  static PhyPortConfig ForProfile(const LinkProfile& profile);
  // Declared scenario keys (phy.*, link.cable_m) with defaults and ranges.
  static std::vector<ParamSpec> Params();
  // A configuration from checked values; pipelines default to the profile's.
  static Result<PhyPortConfig> FromParams(const ParamSet& params,
                                          uint64_t seed);
};

// Counters of one port: its transmit direction and its receive direction.
struct PhyPortStats {
  uint64_t tx_flits = 0;           // Striped flits serialised.
  uint64_t tx_training_flits = 0;  // TRAINING flits (each sent on every lane).
  uint64_t tx_busy_ps = 0;         // Time the serialiser was busy.
  uint64_t bit_errors = 0;         // Bits flipped by the BER process.
  uint64_t bursts = 0;             // Bursts started.
  uint64_t noise_bits = 0;         // Bits flipped by failed lanes.
  uint64_t corrupt_injected = 0;   // Flits damaged by ERR_INJECT.CORRUPT.
  uint64_t rx_flits = 0;           // Flits (and training copies) received.
  uint64_t rx_bad = 0;             // Of those, uncorrectable.
  uint64_t rx_fec_corrected = 0;   // Of those, corrected.
  uint64_t rx_fec_symbols = 0;     // Symbols the FEC corrected in them.
  uint64_t lanes_failed = 0;       // Lane failures applied to this direction.
};

class PhyPort : public sc_core::sc_module, private PhyTxIf, private CableIf {
 public:
  PhyTargetSocket link;  // To this card's link controller.
  CableSocket cable;     // To the PhyPort at the cable's far end.

  PhyPort(sc_core::sc_module_name name, const PhyPortConfig& config);

  // From `at` (absolute simulated time) the lanes in `lanes` of this port's
  // transmit direction deliver noise (PHY-5.4); a repair ends that. A link
  // cut (PHY-5.6) fails every lane of both ports.
  void ScheduleLaneFailure(uint32_t lanes, const sc_core::sc_time& at);
  void ScheduleLaneRepair(uint32_t lanes, const sc_core::sc_time& at);
  uint32_t AllLanes() const { return all_lanes_; }
  // From now on this port's transmit direction flips bits at `ber`
  // (PHY-5.1; a BER burst is a raise and a return). Precondition: ber in
  // [0, 1).
  void SetBer(double ber);
  // Reports payload flits onto and off the wire to `probe` (nullptr: none).
  void set_probe(PathProbe* probe) { probe_ = probe; }

  const PhyPortConfig& config() const { return config_; }
  const PhyPortStats& stats() const { return stats_; }
  // The counters under this module's hierarchical name.
  StatList Stats() const;
  static const ComponentDecl& Declaration();

 private:
  struct LaneChange {
    uint32_t lanes;
    bool fail;
  };

  // PhyTxIf, called by this card's controller.
  sc_core::sc_time Transmit(PhyTxFlit flit,
                            const sc_core::sc_time& offset) override;
  sc_core::sc_time Lookahead() const override;
  // CableIf, called by the far port.
  void Carry(WireFlit flit, const sc_core::sc_time& delay) override;
  void FailedLanes(uint32_t failed, const sc_core::sc_time& delay) override;

  void start_of_simulation() override;
  void OnLaneChangeDue();  // SC_METHOD on lane_change_event_.
  // Applies every scheduled lane change, and every far report of failed
  // lanes, due at or before `time`.
  void ApplyLaneChanges(const sc_core::sc_time& time);
  void ScheduleLaneChange(const LaneChange& change, const sc_core::sc_time& at);
  void ArmLaneChangeEvent();
  // The wire image of `content` after this direction's errors; `lanes`
  // (bits of logical lanes at `width`) carry noise, and the BER process
  // applies unless `idle_fill`.
  WireFlit MakeWire(Bytes content, uint8_t corrupt_bytes, unsigned width,
                    uint32_t noisy_logical_lanes, bool idle_fill);
  void UseLanes(unsigned width);
  uint32_t WorkingLanes() const;  // In both directions.
  sc_core::sc_time FlitTime(unsigned width) const;

  PhyPortConfig config_;
  BitErrorChannel errors_;
  uint32_t all_lanes_;
  size_t wire_bytes_;
  sc_core::sc_time tx_pipeline_, rx_pipeline_, cable_delay_;

  // Transmit direction.
  sc_core::sc_time tx_free_;   // When the serialiser takes the next flit.
  uint32_t tx_failed_ = 0;     // Lanes of this direction delivering noise.
  unsigned width_ = 0;         // Width of the last striped flit.
  uint32_t lanes_in_use_ = 0;  // Physical lanes that width stripes over.
  std::multimap<sc_core::sc_time, LaneChange> lane_changes_;
  sc_core::sc_event lane_change_event_;

  // Receive direction: lanes the far transmitter fails, from when its
  // report arrives (PHY-5.4); the last report heard, which may not have
  // arrived yet; and those on their way, by arrival.
  uint32_t rx_failed_ = 0;
  uint32_t rx_failed_heard_ = 0;
  std::multimap<sc_core::sc_time, uint32_t> rx_failed_arriving_;

  PhyPortStats stats_;
  PathProbe* probe_ = nullptr;
};

}  // namespace lq::phy
