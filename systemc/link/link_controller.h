// SPDX-License-Identifier: Apache-2.0
// LinkController: what a card holds of a link controller, at either
// fidelity (DESIGN §2): the Verilated RTL behind RtlLinkController or the
// TL model TlLinkController. Both have the same sockets, registers and
// interrupt; a port binds them through this face and need not know which
// one it holds.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <systemc>
#include <tlm>

#include "models/link/ltssm.h"
#include "systemc/common/csr_socket.h"
#include "systemc/common/path_probe.h"
#include "systemc/common/stat_list.h"
#include "systemc/link/link_counters.h"
#include "systemc/link/slot_socket.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::link {

class LinkController {
 public:
  // Called with the new state and the time, in ps, whenever the LTSSM
  // changes state (for traces; the registers report it to firmware).
  using StateObserver = std::function<void(LtssmState state, uint64_t at_ps)>;

  virtual ~LinkController() = default;

  // Optional: a card without a board leaves it unbound.
  virtual CsrTargetSocket& csr_socket() = 0;
  virtual phy::PhyInitiatorSocket& phy_socket() = 0;
  virtual SlotSocket& network_socket() = 0;
  virtual sc_core::sc_out<bool>& irq_port() = 0;

  // The LTSSM's state now (at the kernel's time or, for a controller that
  // runs ahead of the kernel, at the last cycle it ran).
  virtual LtssmState ltssm_state() const = 0;
  virtual void set_state_observer(StateObserver observer) = 0;
  // NET-7.1: the router above took its port down when this link went down
  // and brings it up now that the link is back in L0. The slots it had
  // queued here belong to packets it cut, and are dropped; the room it had
  // granted is void (it grants it again as its port comes up); and it is
  // granted the whole transmit room afresh. The card's port agent calls it
  // (NET-7.3).
  virtual void ResetNetworkSide() = 0;
  // Reports slots in and out and payload flits to the PHY to `probe`.
  virtual void set_probe(PathProbe* probe) = 0;
  virtual StatList Stats() const = 0;
  // The counters a report reads. An RTL controller has them only where
  // its model makes the registers public (lqemu's does; a user's may not).
  virtual std::optional<LinkCounters> Counters() const = 0;
};

}  // namespace lq::link
