// SPDX-License-Identifier: Apache-2.0
// Behaviour of one port's PHY: serialisation, FEC, errors and lane faults.
#include "systemc/phy/phy_port.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <string>
#include <utility>

#include "models/flit/dlp.h"
#include "models/flit/flit_codec.h"
#include "models/flit/flit_fec.h"

namespace lq::phy {

namespace {

using sc_core::SC_PS;
using sc_core::sc_time;

constexpr uint64_t kPsPerNs = 1000;
constexpr uint8_t kAllBits = 0xFF;
// "-1" in a pipeline key means the profile's own latency (PHY-4.4).
constexpr double kProfilePipeline = -1;

sc_time Ps(uint64_t ps) { return sc_time(static_cast<double>(ps), SC_PS); }

unsigned PopCount(uint32_t bits) { return std::bitset<32>(bits).count(); }

uint64_t NsToPs(double ns) {
  return static_cast<uint64_t>(std::llround(ns * kPsPerNs));
}

}  // namespace

std::vector<ParamSpec> PhyPortConfig::Params() {
  return {
      {"link.profile", "channel profile of every link (PHY-1)", "pcie6", "",
       ParamType::kChoice, 0, 0, LinkProfileNames()},
      {"link.cable_m",
       "cable length of every link (PHY-4.5)",
       "2",
       "m",
       ParamType::kReal,
       0,
       1000,
       {}},
      {"phy.ber",
       "independent bit-error rate on the wire (PHY-5.1)",
       "0",
       "",
       ParamType::kReal,
       0,
       1e-2,
       {}},
      {"phy.burst_rate",
       "chance a burst starts at any wire bit (PHY-5.3)",
       "0",
       "",
       ParamType::kReal,
       0,
       1e-2,
       {}},
      {"phy.burst_bits",
       "bits a burst covers (PHY-5.3)",
       "16",
       "bits",
       ParamType::kInteger,
       1,
       4096,
       {}},
      {"phy.lock_loss_ns",
       "loss of lock reported this long after a lane "
       "fails (PHY-5.4)",
       "100",
       "ns",
       ParamType::kReal,
       0,
       1e6,
       {}},
      {"phy.tx_pipeline_ns",
       "transmit pipeline latency; -1: the profile's "
       "(PHY-4.4)",
       "-1",
       "ns",
       ParamType::kReal,
       kProfilePipeline,
       1e6,
       {}},
      {"phy.rx_pipeline_ns",
       "receive pipeline latency; -1: the profile's "
       "(PHY-4.4)",
       "-1",
       "ns",
       ParamType::kReal,
       kProfilePipeline,
       1e6,
       {}},
  };
}

PhyPortConfig PhyPortConfig::ForProfile(const LinkProfile& profile) {
  PhyPortConfig config;
  config.profile = profile;
  config.tx_pipeline_ps = profile.tx_pipeline_ps;
  config.rx_pipeline_ps = profile.rx_pipeline_ps;
  return config;
}

Result<PhyPortConfig> PhyPortConfig::FromParams(const ParamSet& params,
                                                uint64_t seed) {
  Result<LinkProfile> profile = FindLinkProfile(params.Text("link.profile"));
  if (!profile) {
    return Fail("link.profile: " + profile.error().reason);
  }
  PhyPortConfig config = ForProfile(profile.value());
  config.cable_metres = params.Real("link.cable_m");
  config.errors.ber = params.Real("phy.ber");
  config.errors.burst_rate = params.Real("phy.burst_rate");
  config.errors.burst_bits =
      static_cast<unsigned>(params.Integer("phy.burst_bits"));
  config.lock_loss_ps = NsToPs(params.Real("phy.lock_loss_ns"));
  const double tx_ns = params.Real("phy.tx_pipeline_ns");
  const double rx_ns = params.Real("phy.rx_pipeline_ns");
  if (tx_ns >= 0) {
    config.tx_pipeline_ps = NsToPs(tx_ns);
  }
  if (rx_ns >= 0) {
    config.rx_pipeline_ps = NsToPs(rx_ns);
  }
  config.seed = seed;
  return config;
}

PhyPort::PhyPort(sc_core::sc_module_name name, const PhyPortConfig& config)
    : sc_module(name),
      link("link"),
      cable("cable"),
      config_(config),
      errors_(BitErrorChannel::Create(config.errors, config.seed).value()),
      all_lanes_(config.profile.max_lanes >= 32
                     ? ~0u
                     : (1u << config.profile.max_lanes) - 1),
      wire_bytes_(config.profile.flit_wire_bytes),
      tx_pipeline_(Ps(config.tx_pipeline_ps)),
      rx_pipeline_(Ps(config.rx_pipeline_ps)),
      cable_delay_(Ps(CableDelayPs(config.cable_metres))) {
  link.in(*static_cast<PhyTxIf*>(this));
  cable.in(*static_cast<CableIf*>(this));
  SC_HAS_PROCESS(PhyPort);
  SC_METHOD(OnLaneChangeDue);
  sensitive << lane_change_event_;
  dont_initialize();
}

void PhyPort::start_of_simulation() {
  link.out->UpdateLanes({all_lanes_, 0}, sc_core::SC_ZERO_TIME);
}

sc_time PhyPort::FlitTime(unsigned width) const {
  return Ps(FlitTimePs(config_.profile, width));
}

sc_time PhyPort::Lookahead() const {
  return tx_pipeline_ + FlitTime(config_.profile.max_lanes) + cable_delay_ +
         rx_pipeline_;
}

sc_time PhyPort::Transmit(PhyTxFlit flit, const sc_time& offset) {
  const LinkProfile& profile = config_.profile;
  const sc_time start = sc_core::sc_time_stamp() + offset;
  if (start < tx_free_) {
    SC_REPORT_ERROR(name(), "flit offered while the serialiser is busy");
  }
  if (flit.content.size() != flit::ContentBytes(profile)) {
    SC_REPORT_ERROR(name(),
                    ("flit content of " + std::to_string(flit.content.size()) +
                     " bytes; the profile's is " +
                     std::to_string(flit::ContentBytes(profile)))
                        .c_str());
  }
  ApplyLaneChanges(start);
  const bool training =
      flit::PeekFlitType(flit.content[flit::DlpOffset(profile)]) ==
      flit::FlitType::kTraining;
  sc_time flit_time;
  if (training) {
    // A copy on every lane, each at the lane rate (PHY-4.7).
    flit_time = FlitTime(1);
    ++stats_.tx_training_flits;
    for (unsigned lane = 0; lane < profile.max_lanes; ++lane) {
      const uint32_t noisy = (tx_failed_ >> lane) & 1u;
      WireFlit wire =
          MakeWire(flit.content, flit.corrupt_bytes, 1, noisy, flit.idle_fill);
      wire.training = true;
      wire.lane = lane;
      cable.out->Carry(std::move(wire),
                       offset + tx_pipeline_ + flit_time + cable_delay_);
    }
  } else {
    unsigned width = flit.width;
    if (width == 0) {
      // No width reported yet (Configuration.Idle of a first training):
      // the widest that the working lanes allow (PHY-4.8).
      width = std::max(1u, WidestWidth(profile, PopCount(WorkingLanes())));
    }
    if (!IsAllowedWidth(profile, width)) {
      SC_REPORT_ERROR(name(),
                      ("striped flit at width " + std::to_string(width) +
                       ", which the profile does not allow")
                          .c_str());
    }
    if (width != width_) {
      UseLanes(width);
    }
    // Logical lane l is the l-th lowest physical lane in use (PHY-4.1).
    uint32_t noisy = 0;
    for (unsigned lane = 0, logical = 0; lane < 32; ++lane) {
      if ((lanes_in_use_ >> lane) & 1u) {
        noisy |= ((tx_failed_ >> lane) & 1u) << logical;
        ++logical;
      }
    }
    flit_time = FlitTime(width);
    ++stats_.tx_flits;
    WireFlit wire = MakeWire(std::move(flit.content), flit.corrupt_bytes, width,
                             noisy, flit.idle_fill);
    wire.carries_slot = flit.carries_slot;
    if (flit.carries_slot) {
      Probe(probe_, *this, PathPoint::kWireIn,
            offset + tx_pipeline_ + flit_time);
    }
    cable.out->Carry(std::move(wire),
                     offset + tx_pipeline_ + flit_time + cable_delay_);
  }
  tx_free_ = start + flit_time;
  stats_.tx_busy_ps += static_cast<uint64_t>(flit_time.value());
  return flit_time;
}

WireFlit PhyPort::MakeWire(Bytes content, uint8_t corrupt_bytes, unsigned width,
                           uint32_t noisy_logical_lanes, bool idle_fill) {
  WireFlit wire;
  const bool ber = !idle_fill;
  if (corrupt_bytes == 0 && noisy_logical_lanes == 0 &&
      (!ber || !errors_.Touches(wire_bytes_))) {
    // Nothing touches it, so the FEC would pass it unchanged: skip both.
    if (ber) {
      errors_.Skip(wire_bytes_);
    }
    wire.bytes = std::move(content);
    return wire;
  }
  const flit::FlitFec& fec = flit::FlitFecFor(config_.profile.fec);
  wire.bytes = std::move(content);
  wire.bytes.resize(fec.wire_bytes(), 0);
  fec.Protect(wire.bytes.data());
  wire.encoded = true;
  if (ber) {
    const ErrorTally tally =
        errors_.Apply(wire.bytes.data(), wire.bytes.size());
    stats_.bit_errors += tally.bits_flipped;
    stats_.bursts += tally.bursts;
  }
  // ERR_INJECT.CORRUPT: consecutive wire bytes from byte 0 (DLL-8.8).
  const size_t corrupt = std::min<size_t>(corrupt_bytes, wire.bytes.size());
  for (size_t i = 0; i < corrupt; ++i) {
    wire.bytes[i] ^= kAllBits;
  }
  stats_.corrupt_injected += corrupt > 0 ? 1 : 0;
  for (unsigned lane = 0; lane < width; ++lane) {
    if ((noisy_logical_lanes >> lane) & 1u) {
      stats_.noise_bits +=
          errors_
              .CorruptLane(config_.profile, width, lane, wire.bytes.data(),
                           wire.bytes.size())
              .bits_flipped;
    }
  }
  return wire;
}

void PhyPort::UseLanes(unsigned width) {
  // The link trained on the lowest lanes that work in both directions
  // (PHY-5.5); if too few work, failed ones make up the width.
  width_ = width;
  lanes_in_use_ = 0;
  for (const uint32_t pool : {WorkingLanes(), all_lanes_}) {
    for (unsigned lane = 0; lane < 32 && PopCount(lanes_in_use_) < width;
         ++lane) {
      if ((pool >> lane) & 1u) {
        lanes_in_use_ |= 1u << lane;
      }
    }
  }
}

uint32_t PhyPort::WorkingLanes() const {
  return all_lanes_ & ~(tx_failed_ | rx_failed_);
}

void PhyPort::Carry(WireFlit wire, const sc_time& delay) {
  PhyRxFlit flit;
  flit.lane = wire.lane;
  ++stats_.rx_flits;
  if (wire.encoded) {
    const flit::FlitFec& fec = flit::FlitFecFor(config_.profile.fec);
    const Result<flit::FecReport> report = fec.Correct(wire.bytes.data());
    if (!report) {
      flit.bad = true;
      ++stats_.rx_bad;
    } else if (report.value().symbols_corrected > 0) {
      flit.fec_corrected = true;
      ++stats_.rx_fec_corrected;
      stats_.rx_fec_symbols += report.value().symbols_corrected;
    }
    wire.bytes.resize(flit::ContentBytes(config_.profile));
  }
  flit.content = std::move(wire.bytes);
  if (wire.carries_slot) {
    Probe(probe_, *this, PathPoint::kWireOut, delay);
    Probe(probe_, *this, PathPoint::kPhyToLink, delay + rx_pipeline_);
  }
  link.out->Receive(std::move(flit), delay + rx_pipeline_);
}

void PhyPort::FailedLanes(uint32_t failed, const sc_time& delay) {
  const uint32_t newly_failed = failed & ~rx_failed_heard_;
  rx_failed_heard_ = failed;
  // The lanes the link may use change when the report arrives, not when
  // the far end sends it (which a run over ranks learns only later).
  rx_failed_arriving_.emplace(sc_core::sc_time_stamp() + delay, failed);
  const uint32_t receivers = all_lanes_ & ~failed;
  // The receiver stops seeing the far transmitter at once, and reports
  // loss of lock a little later (PHY-5.4).
  link.out->UpdateLanes({receivers, 0}, delay);
  if (newly_failed != 0) {
    link.out->UpdateLanes({receivers, newly_failed},
                          delay + Ps(config_.lock_loss_ps));
  }
}

void PhyPort::SetBer(double ber) {
  config_.errors.ber = errors_.SetBer(ber).value();
}

void PhyPort::ScheduleLaneFailure(uint32_t lanes, const sc_time& at) {
  ScheduleLaneChange({lanes & all_lanes_, true}, at);
}

void PhyPort::ScheduleLaneRepair(uint32_t lanes, const sc_time& at) {
  ScheduleLaneChange({lanes & all_lanes_, false}, at);
}

void PhyPort::ScheduleLaneChange(const LaneChange& change, const sc_time& at) {
  if (at < sc_core::sc_time_stamp()) {
    SC_REPORT_ERROR(name(), "lane change scheduled in the past");
  }
  lane_changes_.emplace(at, change);
  ArmLaneChangeEvent();
}

void PhyPort::ArmLaneChangeEvent() {
  lane_change_event_.cancel();
  if (!lane_changes_.empty()) {
    lane_change_event_.notify(lane_changes_.begin()->first -
                              sc_core::sc_time_stamp());
  }
}

void PhyPort::OnLaneChangeDue() {
  ApplyLaneChanges(sc_core::sc_time_stamp());
  ArmLaneChangeEvent();
}

void PhyPort::ApplyLaneChanges(const sc_time& time) {
  // A controller running ahead of the kernel may transmit past a change
  // the event has not fired for yet: changes apply by their time, so the
  // flit sees exactly the lanes of its moment.
  while (!rx_failed_arriving_.empty() &&
         rx_failed_arriving_.begin()->first <= time) {
    rx_failed_ = rx_failed_arriving_.begin()->second;
    rx_failed_arriving_.erase(rx_failed_arriving_.begin());
  }
  while (!lane_changes_.empty() && lane_changes_.begin()->first <= time) {
    const sc_time at = lane_changes_.begin()->first;
    const LaneChange change = lane_changes_.begin()->second;
    lane_changes_.erase(lane_changes_.begin());
    if (change.fail) {
      stats_.lanes_failed += PopCount(change.lanes & ~tx_failed_);
      tx_failed_ |= change.lanes;
    } else {
      tx_failed_ &= ~change.lanes;
    }
    cable.out->FailedLanes(tx_failed_,
                           at - sc_core::sc_time_stamp() + cable_delay_);
  }
}

const ComponentDecl& PhyPort::Declaration() {
  static const ComponentDecl decl{
      "phy",
      "a port's physical layer: serialisation, FEC, the wire's errors "
      "(phy.md)",
      {{"link", "PHY target socket", "to this card's link controller"},
       {"cable", "cable socket", "to the PHY at the cable's far end"}},
      {{"tx_flits", "striped flits serialised"},
       {"tx_training_flits", "TRAINING flits, each sent on every lane"},
       {"tx_busy_ps", "time the serialiser was busy"},
       {"bit_errors", "bits flipped by the BER process"},
       {"bursts", "error bursts started"},
       {"noise_bits", "bits flipped by failed lanes"},
       {"corrupt_injected", "flits damaged by ERR_INJECT.CORRUPT"},
       {"rx_flits", "flits (and training copies) received"},
       {"rx_bad", "of those, uncorrectable"},
       {"rx_fec_corrected", "of those, corrected by the FEC"},
       {"rx_fec_symbols", "symbols the FEC corrected (PHY-3.8)"},
       {"lanes_failed", "lane failures applied to this direction"}}};
  return decl;
}

StatList PhyPort::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("tx_flits", stats_.tx_flits)
      .Add("tx_training_flits", stats_.tx_training_flits)
      .Add("tx_busy_ps", stats_.tx_busy_ps)
      .Add("bit_errors", stats_.bit_errors)
      .Add("bursts", stats_.bursts)
      .Add("noise_bits", stats_.noise_bits)
      .Add("corrupt_injected", stats_.corrupt_injected)
      .Add("rx_flits", stats_.rx_flits)
      .Add("rx_bad", stats_.rx_bad)
      .Add("rx_fec_corrected", stats_.rx_fec_corrected)
      .Add("rx_fec_symbols", stats_.rx_fec_symbols)
      .Add("lanes_failed", stats_.lanes_failed);
  return stats.Take();
}

}  // namespace lq::phy
