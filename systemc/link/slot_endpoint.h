// SPDX-License-Identifier: Apache-2.0
// A testbench network endpoint on a link controller's SlotSocket: sends
// numbered slots round-robin over the VCs as credits allow, and checks what
// arrives from the far side (lost, duplicated, reordered, corrupted) with
// each slot's latency.
#pragma once

#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "systemc/link/slot_socket.h"

namespace lq::testing {

struct SlotEndpointConfig {
  unsigned side = 0;       // Stamped into the slots this endpoint sends.
  unsigned peer_side = 1;  // Expected in the slots it receives.
  uint64_t slots = 0;      // To send, VC k % vcs for the k-th.
  unsigned vcs = 4;
  size_t slot_bytes = 236;
  unsigned room_per_vc = 16;  // Receive room granted to the controller.
  sc_core::sc_time start = sc_core::SC_ZERO_TIME;  // First send.
  // Least time between sends; zero sends as fast as credits allow.
  sc_core::sc_time interval = sc_core::SC_ZERO_TIME;
  // Sends are announced this far ahead of their time, so a controller that
  // runs ahead of the kernel (RtlLinkController) still gets them on time.
  sc_core::sc_time lead = sc_core::sc_time(100, sc_core::SC_NS);
  // Whether each slot's send time, arrival and latency are kept
  // (SlotReport::latency_ns and arrivals); a speed benchmark that needs only
  // the counts turns it off, so that the reports do not grow with the run.
  bool per_slot_records = true;
};

struct SlotReport {
  uint64_t sent = 0;
  uint64_t delivered = 0;  // In order and intact.
  uint64_t lost = 0;
  uint64_t duplicated = 0;
  uint64_t corrupted = 0;
  std::vector<double> latency_ns;  // Per delivered slot, in arrival order.
  std::vector<std::pair<unsigned, uint64_t>> arrivals;  // (VC, number).
  sc_core::sc_time first_arrival, last_arrival;
  // Link control messages received (dll.md §11), with their arrival times.
  std::vector<std::pair<sc_core::sc_time, Bytes>> controls;
};

class SlotEndpoint : public sc_core::sc_module, private link::SlotIf {
 public:
  link::SlotSocket socket;

  SlotEndpoint(sc_core::sc_module_name name, const SlotEndpointConfig& config);

  const SlotReport& report() const { return report_; }
  // Notified when `count` slots have arrived (set with ExpectSlots).
  const sc_core::sc_event& all_arrived() const { return all_arrived_; }
  void ExpectSlots(uint64_t count) { expected_ = count; }
  // From a thread: returns once those slots have arrived.
  void WaitForExpected();
  // Send time of the slot with `number` on `vc` that this endpoint sent.
  sc_core::sc_time SendTime(unsigned vc, uint64_t number) const;
  // Hands a link control message to the controller, `delay` from now.
  void SendControl(Bytes message, const sc_core::sc_time& delay) {
    socket.out->Control(std::move(message), delay);
  }

 private:
  void Put(link::Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  void Control(Bytes message, const sc_core::sc_time& delay) override;
  void start_of_simulation() override;
  void Send();  // SC_THREAD.

  SlotEndpointConfig config_;
  std::vector<unsigned> room_;
  sc_core::sc_event room_event_;
  std::vector<uint64_t> next_expected_;
  std::vector<uint64_t> sent_per_vc_;                      // Next number.
  std::vector<std::vector<sc_core::sc_time>> send_times_;  // [vc][number]
  // The far endpoint, whose send times give each arrival's latency.
  const SlotEndpoint* peer_ = nullptr;
  uint64_t expected_ = 0;
  sc_core::sc_event all_arrived_;
  SlotReport report_;

  friend void Pair(SlotEndpoint& a, SlotEndpoint& b);
};

// Lets each endpoint look up the other's send times to measure latency.
void Pair(SlotEndpoint& a, SlotEndpoint& b);

}  // namespace lq::testing
