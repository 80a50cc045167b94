// SPDX-License-Identifier: Apache-2.0
// Recording and editing flits at the DUT's port.
#include "systemc/conformance/port_tap.h"

#include <algorithm>
#include <utility>

#include "models/flit/flit_codec.h"

namespace lq::conformance {

PortTap::PortTap(sc_core::sc_module_name name, const phy::LinkProfile& profile,
                 bool record)
    : sc_module(name),
      dut("dut"),
      phy("phy"),
      profile_(profile),
      record_(record) {
  dut.in(*static_cast<phy::PhyTxIf*>(this));
  phy.in(*static_cast<phy::PhyRxIf*>(this));
  SC_HAS_PROCESS(PortTap);
  SC_METHOD(DeliverInjections);
  sensitive << inject_due_;
  dont_initialize();
}

void PortTap::Decode(PortFlit& flit) const {
  flit.header.reset();
  if (flit.bad) {
    return;
  }
  Result<flit::DlpHeader> header =
      flit::CheckContent(profile_, ByteView(flit.content));
  if (header) {
    flit.header = *header;
  }
}

void PortTap::Reseal(PortFlit& flit) const {
  if (flit.content.size() == flit::ContentBytes(profile_)) {
    flit::SealContent(profile_, flit.content);
  }
  Decode(flit);
}

void PortTap::Rewrite(PortFlit& flit, const flit::DlpHeader& header) const {
  const flit::DlpBytes dlp = flit::EncodeDlp(header).value();
  std::copy(dlp.begin(), dlp.end(),
            flit.content.begin() + flit::DlpOffset(profile_));
  Reseal(flit);
}

void PortTap::Record(const PortFlit& flit) {
  if (!record_) {
    return;
  }
  log_.push_back(flit);
  recorded_.notify(sc_core::SC_ZERO_TIME);
}

sc_core::sc_time PortTap::Transmit(phy::PhyTxFlit flit,
                                   const sc_core::sc_time& offset) {
  PortFlit seen;
  seen.at = sc_core::sc_time_stamp() + offset;
  seen.direction = FlitDirection::kFromDut;
  seen.content = std::move(flit.content);
  seen.width = flit.width;
  seen.idle_fill = flit.idle_fill;
  Decode(seen);
  if (from_dut_edit_ && from_dut_edit_(seen) == EditResult::kDrop &&
      !seen.content.empty()) {
    seen.content[0] ^= 0xFF;  // The slot no longer matches the flit CRC.
    Decode(seen);
  }
  flit.content = seen.content;
  Record(seen);
  return phy.out->Transmit(std::move(flit), offset);
}

void PortTap::Receive(phy::PhyRxFlit flit, const sc_core::sc_time& delay) {
  PortFlit seen;
  seen.at = sc_core::sc_time_stamp() + delay;
  seen.direction = FlitDirection::kToDut;
  seen.content = std::move(flit.content);
  seen.bad = flit.bad;
  seen.lane = flit.lane;
  Decode(seen);
  const bool on_failed_lane = seen.Is(flit::FlitType::kTraining) &&
                              (failed_lanes_ >> seen.lane & 1u) != 0;
  if (!on_failed_lane &&
      (!to_dut_edit_ || to_dut_edit_(seen) == EditResult::kPass)) {
    flit.content = seen.content;
    flit.bad = seen.bad;
    Record(seen);
    dut.out->Receive(std::move(flit), delay);
  }
  for (const auto& [lanes, after] : std::exchange(lane_failures_, {})) {
    failed_lanes_ |= lanes;
    phy::LaneStatus status;
    status.receivers = ((1u << profile_.max_lanes) - 1) & ~failed_lanes_;
    status.lock_lost = lanes;
    dut.out->UpdateLanes(status, delay + after);
  }
  // Injections reach the DUT's port when due, in time order behind the
  // flits the PHY delivers meanwhile (a controller may queue its input).
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (auto& [content, after] : std::exchange(injections_, {})) {
    const auto place = std::find_if(
        pending_.begin(), pending_.end(),
        [&](const Pending& item) { return item.call_at > now + after; });
    pending_.insert(place, {now + after, delay, std::move(content)});
    inject_due_.notify(after);
  }
}

void PortTap::DeliverInjections() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!pending_.empty() && pending_.front().call_at <= now) {
    Pending item = std::move(pending_.front());
    pending_.pop_front();
    PortFlit extra;
    extra.at = now + item.delay;
    extra.direction = FlitDirection::kToDut;
    extra.content = item.content;
    Decode(extra);
    Record(extra);
    phy::PhyRxFlit injected;
    injected.content = std::move(item.content);
    dut.out->Receive(std::move(injected), item.delay);
  }
  if (!pending_.empty()) {
    inject_due_.notify(pending_.front().call_at - now);
  }
}

void PortTap::FailLanesToDut(uint32_t lanes, const sc_core::sc_time& after) {
  lane_failures_.emplace_back(lanes, after);
}

void PortTap::InjectToDut(Bytes content, const sc_core::sc_time& after) {
  injections_.emplace_back(std::move(content), after);
}

}  // namespace lq::conformance
