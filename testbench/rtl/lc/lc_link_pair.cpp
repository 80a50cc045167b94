// SPDX-License-Identifier: Apache-2.0
// Back-to-back testbench of two Verilated link controllers: channel model,
// traffic and scoreboard.
#include "testbench/rtl/lc/lc_link_pair.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "models/flit/dlp.h"
#include "models/flit/flit_fec.h"
#include "systemc/common/wide_bytes.h"
#include "systemc/link/numbered_slot.h"

namespace lq::rtl {

namespace {

constexpr size_t kSlotBytes =
    236;  // The Verilated lc_top is built for profile pcie6.
constexpr size_t kSlotBits = kSlotBytes * kBitsPerByte;
// The per-VC slots of tx_slot_i start on word boundaries, so each packs alone.
static_assert(kSlotBits % kBitsPerWord == 0, "slot not word aligned");
constexpr size_t kSlotWords = kSlotBits / kBitsPerWord;
constexpr size_t kContentBytes =
    kSlotBytes + flit::kDlpBytes + flit::kFlitCrcBytes;
constexpr unsigned kTypeShift = 5;
constexpr unsigned kReplayShift = 6;
constexpr size_t kReplayByte = 2;
constexpr unsigned kLanes = 16;  // pcie6 x16.
constexpr uint32_t kAllLanes = (1u << kLanes) - 1;

flit::FlitType TypeOf(const Bytes& content) {
  return static_cast<flit::FlitType>(content[kSlotBytes] >> kTypeShift);
}

bool CarriesNak(const Bytes& content) {
  const auto command = static_cast<flit::ReplayCommand>(
      content[kSlotBytes + kReplayByte] >> kReplayShift);
  return command == flit::ReplayCommand::kStandardNak ||
         command == flit::ReplayCommand::kSelectiveNak;
}

// The rising edge; inputs change only while the clock is low. The clock
// falls unevaluated: lc_top acts on rising edges only, and Verilator (5.006)
// re-evaluates all the logic its inputs feed at every eval(), so the next
// cycle's eval, after its inputs are driven, takes the falling edge too.
void Tick(Vlc_top& top) {
  top.clk_i = 1;
  top.eval();
  top.clk_i = 0;
}

}  // namespace

LinkPair::LinkPair(uint64_t seed)
    : profile_(phy::FindLinkProfile("pcie6").value()),
      rng_(seed),
      source_slot_(kSlotBytes),
      scored_slot_(kSlotBytes) {
  for (auto& top : tops_) {
    top = std::make_unique<Vlc_top>();
    top->clk_i = 0;
    top->rst_ni = 0;
    top->eval();
    Tick(*top);
    top->rst_ni = 1;
    top->eval();
  }
}

LinkPair::~LinkPair() {
  for (auto& top : tops_) {
    top->final();
  }
}

void LinkPair::DriveSources(unsigned side) {
  Vlc_top& top = *tops_[side];
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    if (!pending_[side][vc] && sending_ &&
        coin(rng_) < traffic_[side].offer_per_cycle) {
      pending_[side][vc] = true;
      testing::FillNumberedSlot(source_slot_.data(), kSlotBytes, side, vc,
                                next_tx_[side][vc]);
      PackBytes(source_slot_, top.tx_slot_i.data() + vc * kSlotWords);
    }
  }
  uint32_t valid = 0;
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    valid |= pending_[side][vc] ? (1u << vc) : 0u;
  }
  top.tx_valid_i = valid;
  top.ctrl_tx_valid_i = !control_out_[side].empty();
  if (!control_out_[side].empty()) {
    PackBytes(control_out_[side].front(), top.ctrl_tx_slot_i.data());
  }
}

void LinkPair::Apply(unsigned side) {
  Vlc_top& top = *tops_[side];
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  DriveSources(side);
  const ChannelConfig& out = channel_[1 - side];
  phy_ready_[side] = coin(rng_) >= out.stall_per_cycle;
  top.phy_tx_ready_i = phy_ready_[side];
  drain_ready_[side] = coin(rng_) < traffic_[side].drain_per_cycle;
  top.rx_ready_i = drain_ready_[side];
  LaneState& lanes = lanes_[side];
  top.phy_receiver_i = kAllLanes & ~lanes.failed;
  top.phy_lock_lost_i = 0;
  if (lanes.lock_lost != 0 && lanes.lock_lost_at <= cycles_) {
    top.phy_lock_lost_i = lanes.lock_lost;
    lanes.lock_lost = 0;
  }
  std::deque<WireFlit>& queue = in_flight_[side];
  top.phy_rx_valid_i = 0;
  if (!queue.empty() && queue.front().deliver_at <= cycles_) {
    const WireFlit& flit = queue.front();
    top.phy_rx_valid_i = 1;
    top.phy_rx_bad_i = flit.bad;
    top.phy_rx_fec_corrected_i = flit.fec_corrected;
    top.phy_rx_lane_i = flit.lane;
    PackBytes(flit.content, top.phy_rx_flit_i.data());
    queue.pop_front();
  }
}

// TRAINING flits go to each lane in turn, as if the PHY sent one copy per
// lane (PHY-4.7); striped flits use every lane in use.
unsigned LinkPair::LaneFor(unsigned to_side, bool training) {
  LaneState& lanes = lanes_[to_side];
  const unsigned width = tops_[1 - to_side]->width_o;
  if (width != lanes.width) {
    // The width just changed: the link trained on the lowest lanes that
    // work in both directions (PHY-5.5).
    lanes.width = width;
    lanes.in_use = 0;
    const uint32_t working = kAllLanes & ~(lanes_[0].failed | lanes_[1].failed);
    for (unsigned lane = 0, taken = 0; lane < kLanes && taken < width; ++lane) {
      if ((working >> lane) & 1u) {
        lanes.in_use |= 1u << lane;
        ++taken;
      }
    }
  }
  if (!training) {
    return 0;
  }
  const unsigned lane = lanes.next_training_lane;
  lanes.next_training_lane = (lane + 1) % kLanes;
  return lane;
}

bool LinkPair::HitsFailedLane(unsigned to_side, bool training,
                              unsigned lane) const {
  const LaneState& lanes = lanes_[to_side];
  return training ? ((lanes.failed >> lane) & 1u) != 0
                  : (lanes.failed & lanes.in_use) != 0;
}

void LinkPair::FailLanes(unsigned to_side, uint32_t lanes) {
  LaneState& state = lanes_[to_side];
  state.failed |= lanes;
  state.lock_lost |= lanes;
  state.lock_lost_at = cycles_ + channel_[to_side].lock_loss_cycles;
}

void LinkPair::RepairLanes(unsigned to_side, uint32_t lanes) {
  lanes_[to_side].failed &= ~lanes;
}

void LinkPair::CheckWireFlit(unsigned to_side, const Bytes& content) {
  // The RTL's content plus the model's FEC must decode, and re-encoding the
  // decoded header and slot with models/flit must give the same bits.
  const flit::FlitFec& fec = flit::FlitFecFor(profile_.fec);
  Bytes wire(fec.wire_bytes());
  std::copy(content.begin(), content.end(), wire.begin());
  fec.Protect(wire.data());
  const Result<flit::DecodedFlit> decoded = flit::DecodeFlit(profile_, wire);
  if (!decoded) {
    ++report_[to_side].model_mismatches;
    return;
  }
  const Result<Bytes> encoded = flit::EncodeFlit(
      profile_, decoded.value().header, decoded.value().payload);
  if (!encoded || encoded.value() != wire) {
    ++report_[to_side].model_mismatches;
  }
}

void LinkPair::CarryFlit(unsigned to_side, Bytes content) {
  SideReport& report = report_[to_side];
  const flit::FlitType sent_type = TypeOf(content);
  const bool sent_nak = CarriesNak(content);
  const bool mutated = mutator_[to_side] && mutator_[to_side](content);
  const ChannelConfig& config = channel_[to_side];
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  const bool payload = TypeOf(content) == flit::FlitType::kPayload;
  const bool training = sent_type == flit::FlitType::kTraining;
  const unsigned lane = LaneFor(to_side, training);
  ++report.wire_flits;
  report.wire_payload_flits += payload ? 1 : 0;
  if (coin(rng_) < config.drop_per_flit) {
    ++report.dropped;
    report.naks_destroyed += CarriesNak(content) ? 1 : 0;
    return;
  }
  // The bits the channel flips, drawn first: only a flit they hit (or the
  // mutator changed) needs its FEC added and checked, since a clean
  // codeword always decodes to itself.
  const flit::FlitFec& fec = flit::FlitFecFor(profile_.fec);
  const uint64_t wire_bits = fec.wire_bytes() * kBitsPerByte;
  flipped_bits_.clear();
  if (config.bit_error_rate > 0.0) {
    std::geometric_distribution<uint64_t> gap(config.bit_error_rate);
    while (error_gap_ < wire_bits) {
      flipped_bits_.push_back(error_gap_);
      error_gap_ += 1 + gap(rng_);
    }
    error_gap_ -= wire_bits;
  }
  if (coin(rng_) < config.burst_per_flit) {
    std::uniform_int_distribution<uint64_t> start(
        0, wire_bits - config.burst_bits);
    const uint64_t first = start(rng_);
    for (uint64_t bit = first; bit < first + config.burst_bits; ++bit) {
      flipped_bits_.push_back(bit);
    }
  }
  const bool hit = mutated || !flipped_bits_.empty();
  Bytes wire;
  if (hit) {
    wire.assign(fec.wire_bytes(), 0);
    std::copy(content.begin(), content.end(), wire.begin());
    fec.Protect(wire.data());
    for (const uint64_t bit : flipped_bits_) {
      wire[bit / 8] ^= static_cast<uint8_t>(0x80u >> (bit % 8));
    }
  }
  WireFlit flit{cycles_ + config.latency_cycles, std::move(content), false,
                false, lane};
  if (HitsFailedLane(to_side, training, lane)) {
    // A failed lane delivers noise: far beyond what the FEC corrects.
    flit.bad = true;
    ++report.bad_flits;
    report.naks_destroyed += sent_nak ? 1 : 0;
  } else if (hit) {
    Bytes corrected = wire;
    const Result<flit::FecReport> fixed = fec.Correct(corrected.data());
    const bool good = static_cast<bool>(flit::DecodeFlit(profile_, wire));
    if (!fixed) {
      flit.bad = true;
    } else {
      flit.content.assign(corrected.begin(), corrected.begin() + kContentBytes);
      flit.fec_corrected = good && fixed.value().symbols_corrected > 0;
    }
    if (!good) {
      ++report.bad_flits;
      report.naks_destroyed += sent_nak ? 1 : 0;
    }
    report.fec_corrected += flit.fec_corrected ? 1 : 0;
    report.good_payload_flits += (good && payload) ? 1 : 0;
  } else {
    report.good_payload_flits += payload ? 1 : 0;
  }
  in_flight_[to_side].push_back(std::move(flit));
}

void LinkPair::Scoreboard(unsigned side) {
  Vlc_top& top = *tops_[side];
  SideReport& report = report_[side];
  const unsigned vc = top.rx_vc_o;
  Bytes& slot = scored_slot_;
  UnpackBytesInto(top.rx_slot_o.data(), slot.data(), kSlotBytes);
  const uint64_t number = testing::SlotNumber(slot);
  const std::optional<uint64_t> skipped =
      testing::AcceptNumber(number, next_expected_[side][vc]);
  if (!skipped) {
    ++report.duplicated;
    return;
  }
  report.lost += *skipped;
  if (testing::IsNumberedSlot(slot, 1 - side, vc, number)) {
    ++report.delivered;
  } else {
    ++report.corrupted;
  }
}

void LinkPair::Step() {
  for (unsigned side = 0; side < kSides; ++side) {
    Apply(side);
    tops_[side]->eval();
  }
  for (unsigned side = 0; side < kSides; ++side) {
    Vlc_top& top = *tops_[side];
    for (unsigned vc = 0; vc < kVcs; ++vc) {
      if (((top.tx_valid_i & top.tx_ready_o) >> vc) & 1u) {
        pending_[side][vc] = false;
        ++next_tx_[side][vc];
      }
    }
    if (top.phy_tx_valid_o && phy_ready_[side]) {
      Bytes content = UnpackBytes(top.phy_tx_flit_o.data(), kContentBytes);
      if (check_model_) {
        CheckWireFlit(1 - side, content);
      }
      CarryFlit(1 - side, std::move(content));
    }
    if (top.rx_valid_o && drain_ready_[side]) {
      Scoreboard(side);
    }
    if (top.ctrl_tx_valid_i && top.ctrl_tx_ready_o) {
      control_out_[side].pop_front();
      control_taken_[side].push_back(cycles_);
    }
    if (top.ctrl_rx_valid_o) {
      control_in_[side].emplace_back(
          cycles_, UnpackBytes(top.ctrl_rx_slot_o.data(), kSlotBytes));
    }
  }
  for (auto& top : tops_) {
    Tick(*top);
  }
  ++cycles_;
}

bool LinkPair::RunUntilLinkUp(uint64_t max_cycles) {
  const uint64_t end = cycles_ + max_cycles;
  while (cycles_ < end) {
    Step();
    if (top(0).link_up_o && top(1).link_up_o) {
      return true;
    }
  }
  return false;
}

bool LinkPair::RunTraffic(uint64_t flits, uint64_t max_cycles) {
  const uint64_t end = cycles_ + max_cycles;
  while (cycles_ < end) {
    Step();
    if (report_[0].delivered >= flits && report_[1].delivered >= flits) {
      return true;
    }
  }
  return false;
}

void LinkPair::Drain(uint64_t cycles) {
  sending_ = false;
  for (ChannelConfig& config : channel_) {
    config.bit_error_rate = 0.0;
    config.burst_per_flit = 0.0;
    config.drop_per_flit = 0.0;
    config.stall_per_cycle = 0.0;
  }
  for (TrafficConfig& config : traffic_) {
    config.drain_per_cycle = 1.0;
  }
  for (uint64_t i = 0; i < cycles; ++i) {
    Step();
  }
}

uint32_t LinkPair::Read(unsigned side, uint32_t offset) {
  Vlc_top& top = *tops_[side];
  top.reg_req_i = 1;
  top.reg_we_i = 0;
  top.reg_addr_i = offset;
  tops_[side]->eval();
  const uint32_t value = top.reg_rdata_o;
  Step();
  top.reg_req_i = 0;
  return value;
}

bool LinkPair::Write(unsigned side, uint32_t offset, uint32_t value) {
  Vlc_top& top = *tops_[side];
  top.reg_req_i = 1;
  top.reg_we_i = 1;
  top.reg_addr_i = offset;
  top.reg_wdata_i = value;
  tops_[side]->eval();
  const bool ok = !top.reg_error_o;
  Step();
  top.reg_req_i = 0;
  top.reg_we_i = 0;
  return ok;
}

uint64_t LinkPair::ReadCounter64(unsigned side, uint32_t lo_offset) {
  const uint64_t low = Read(side, lo_offset);
  const uint64_t high = Read(side, lo_offset + sizeof(uint32_t));
  return (high << 32) | low;
}

}  // namespace lq::rtl
