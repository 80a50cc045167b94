// SPDX-License-Identifier: Apache-2.0
// SlotChannel: an ideal link between two routers' ports for network-layer
// studies: slots, credits and control messages cross it after a fixed
// latency, with no data
// link or physical layer in between (no errors, no training). Each router
// output already sends at most one slot per cycle, which is the channel's
// bandwidth. The full stack puts link controllers and PHYs here instead.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <utility>

#include "systemc/link/slot_socket.h"

namespace lq::net {

class SlotChannel : public sc_core::sc_module {
 public:
  link::SlotSocket a;
  link::SlotSocket b;

  SlotChannel(const sc_core::sc_module_name& name, sc_core::sc_time latency);
  // Changes the latency of everything sent from now on.
  void set_latency(const sc_core::sc_time& latency) { latency_ = latency; }

 private:
  // One direction: what arrives on one side leaves on the other, later.
  class Direction : public link::SlotIf {
   public:
    Direction(link::SlotSocket& out, const sc_core::sc_time& latency)
        : out_(out), latency_(latency) {}
    void Put(link::Slot slot, const sc_core::sc_time& delay) override {
      out_.out->Put(std::move(slot), delay + latency_);
    }
    void Credit(unsigned vc, unsigned count,
                const sc_core::sc_time& delay) override {
      out_.out->Credit(vc, count, delay + latency_);
    }
    void Control(Bytes message, const sc_core::sc_time& delay) override {
      out_.out->Control(std::move(message), delay + latency_);
    }

   private:
    link::SlotSocket& out_;
    const sc_core::sc_time& latency_;
  };

  sc_core::sc_time latency_;
  Direction a_to_b_;
  Direction b_to_a_;
};

// Joins slot sockets `a` and `b`: bound to each other at zero `latency`,
// else through a new channel named `name`, which the caller keeps (nullptr
// when bound directly).
std::unique_ptr<SlotChannel> JoinSlotSockets(link::SlotSocket& a,
                                             link::SlotSocket& b,
                                             const sc_core::sc_time& latency,
                                             const std::string& name);

}  // namespace lq::net
