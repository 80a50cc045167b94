// SPDX-License-Identifier: Apache-2.0
// PortCap: what a router port with no cable is bound to in the studies
// without link controllers (NET-1.5: a ring of one in a torus, a fat-tree
// edge switch's empty host slot): it takes the router's credits and nothing
// else. No routing function selects a port without a cable (NET-1.5,
// NET-5.5), so a slot arriving here is a bug.
#pragma once

#include <stdexcept>
#include <string>
#include <systemc>

#include "systemc/link/slot_socket.h"

namespace lq::net {

class PortCap : public sc_core::sc_module, private link::SlotIf {
 public:
  link::SlotSocket socket;

  explicit PortCap(const sc_core::sc_module_name& name)
      : sc_module(name), socket("socket") {
    socket.in.bind(static_cast<link::SlotIf&>(*this));
  }

 private:
  void Put(link::Slot, const sc_core::sc_time&) override {
    throw std::logic_error(std::string(name()) +
                           ": a slot was routed to a port with no cable");
  }
  void Credit(unsigned, unsigned, const sc_core::sc_time&) override {}
  void Control(Bytes, const sc_core::sc_time&) override {
    throw std::logic_error(std::string(name()) +
                           ": a control message went to a port with no cable");
  }
};

}  // namespace lq::net
