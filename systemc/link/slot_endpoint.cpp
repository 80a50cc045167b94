// SPDX-License-Identifier: Apache-2.0
// Traffic and scoreboard of the testbench's network endpoint.
#include "systemc/link/slot_endpoint.h"

#include <algorithm>
#include <utility>

#include "systemc/link/numbered_slot.h"

namespace lq::testing {

using sc_core::sc_time;

SlotEndpoint::SlotEndpoint(sc_core::sc_module_name name,
                           const SlotEndpointConfig& config)
    : sc_module(name),
      socket("socket"),
      config_(config),
      room_(config.vcs, 0),
      next_expected_(config.vcs, 0),
      sent_per_vc_(config.vcs, 0),
      send_times_(config.vcs) {
  socket.in(*static_cast<link::SlotIf*>(this));
  SC_HAS_PROCESS(SlotEndpoint);
  SC_THREAD(Send);
}

void Pair(SlotEndpoint& a, SlotEndpoint& b) {
  a.peer_ = &b;
  b.peer_ = &a;
}

void SlotEndpoint::start_of_simulation() {
  for (unsigned vc = 0; vc < config_.vcs; ++vc) {
    socket.out->Credit(vc, config_.room_per_vc, sc_core::SC_ZERO_TIME);
  }
}

sc_time SlotEndpoint::SendTime(unsigned vc, uint64_t number) const {
  return send_times_.at(vc).at(number);
}

void SlotEndpoint::WaitForExpected() {
  if (report_.delivered + report_.corrupted + report_.duplicated < expected_) {
    sc_core::wait(all_arrived_);
  }
}

void SlotEndpoint::Credit(unsigned vc, unsigned count,
                          const sc_time& /*delay*/) {
  room_.at(vc) += count;
  room_event_.notify(sc_core::SC_ZERO_TIME);
}

void SlotEndpoint::Control(Bytes message, const sc_time& delay) {
  report_.controls.emplace_back(sc_core::sc_time_stamp() + delay,
                                std::move(message));
}

void SlotEndpoint::Send() {
  for (uint64_t k = 0; k < config_.slots; ++k) {
    const unsigned vc = static_cast<unsigned>(k % config_.vcs);
    while (room_[vc] == 0) {
      wait(room_event_);
    }
    const sc_time due = std::max(config_.start + config_.interval * k,
                                 sc_core::sc_time_stamp() + config_.lead);
    // Wake `lead` before the slot is due and announce it with that delay.
    if (due - config_.lead > sc_core::sc_time_stamp()) {
      wait(due - config_.lead - sc_core::sc_time_stamp());
    }
    --room_[vc];
    const uint64_t number = sent_per_vc_[vc]++;
    if (config_.per_slot_records) {
      send_times_[vc].push_back(due);
    }
    ++report_.sent;
    socket.out->Put(
        {vc, NumberedSlot(config_.slot_bytes, config_.side, vc, number)},
        due - sc_core::sc_time_stamp());
  }
}

void SlotEndpoint::Put(link::Slot slot, const sc_time& delay) {
  const sc_time arrival = sc_core::sc_time_stamp() + delay;
  const unsigned vc = slot.vc;
  const uint64_t number = SlotNumber(slot.bytes);
  uint64_t& expected = next_expected_.at(vc);
  socket.out->Credit(vc, 1, delay);  // The slot is consumed at once.
  const std::optional<uint64_t> skipped = AcceptNumber(number, expected);
  if (!skipped) {
    ++report_.duplicated;
    return;
  }
  report_.lost += *skipped;
  slot.bytes.resize(config_.slot_bytes);
  if (!IsNumberedSlot(slot.bytes, config_.peer_side, vc, number)) {
    ++report_.corrupted;
    return;
  }
  if (report_.delivered == 0) {
    report_.first_arrival = arrival;
  }
  report_.last_arrival = arrival;
  ++report_.delivered;
  if (config_.per_slot_records) {
    report_.arrivals.emplace_back(vc, number);
    if (peer_ != nullptr && peer_->config_.per_slot_records) {
      report_.latency_ns.push_back(
          (arrival - peer_->SendTime(vc, number)).to_seconds() * 1e9);
    }
  }
  if (expected_ != 0 &&
      report_.delivered + report_.corrupted + report_.duplicated == expected_) {
    all_arrived_.notify(delay);
  }
}

}  // namespace lq::testing
