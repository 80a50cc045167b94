// SPDX-License-Identifier: Apache-2.0
// ManagementAgent: the management role of one endpoint's firmware when the
// fabric manager is in band (docs/spec/net.md NET-7.3 to NET-7.5). It
// reports its links' events to the manager, resending each LINK_EVENT until
// it is acknowledged, and carries out the manager's messages on its
// router's registers, as firmware does over the bus: REG_WRITE, TABLE_WRITE
// through TABLE_INDEX/TABLE_DATA, FREEZE and RESUME through INJECT_FREEZE,
// SWITCH through TABLE_SWITCH, COUNT_REQ by reading the counters. A
// repeated SEQ is acknowledged again but applied once.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <systemc>
#include <utility>
#include <vector>

#include "models/network/mgmt_message.h"
#include "models/topology/topology.h"
#include "systemc/common/register_master.h"
#include "systemc/network/management_channel.h"

namespace lq::net {

class ManagementAgent : public sc_core::sc_module {
 public:
  // `send_to_manager` carries a message to the fabric manager: up the
  // management tree in a MGMT packet, or straight to it at its own node.
  ManagementAgent(const sc_core::sc_module_name& name, topo::NodeId node,
                  const MgmtTimers& timers,
                  std::function<void(const MgmtMessage&)> send_to_manager);

  // The bus master on the router's register block (bind its socket to
  // Router::csr()).
  RegisterMaster& bus() { return bus_; }

  // A message from the fabric manager arrived.
  void Receive(const MgmtMessage& message);
  // A MGMT packet was ejected here: decoded, or counted as malformed.
  void ReceivePayload(const Bytes& payload);
  // The link on `port` went down or came up (NET-7.3): reported to the
  // manager in a LINK_EVENT.
  void OnLinkEvent(topo::PortId port, bool up);
  // The node failed: the agent forgets everything and does nothing more;
  // Restore() restarts it (NET-7.12).
  void Fail();
  void Restore();

  uint64_t applied() const { return applied_; }  // messages carried out
  uint64_t repeats() const { return repeats_; }  // repeated SEQs
  // Payloads it could not decode, and messages not for this node or of a
  // type only the manager receives.
  uint64_t malformed() const { return malformed_; }
  // Messages left unacknowledged because the router refused an access.
  uint64_t refused() const { return refused_; }
  uint64_t events_lost() const { return events_lost_; }  // never acknowledged

 private:
  void Apply();   // SC_THREAD: the manager's messages in arrival order
  void Report();  // SC_THREAD: LINK_EVENTs one at a time, until acknowledged
  void Carry(const MgmtMessage& message);
  // A write to a register of the shadow bank is logged, so that after a
  // TABLE_SWITCH the new shadow can be written to equal the new active
  // bank: a later SWITCH with no TABLE_WRITE before it then changes the
  // epoch and nothing else (NET-7.6's direct notification).
  bool WriteShadow(uint32_t offset, uint32_t value);  // false: refused
  void Reply(const MgmtMessage& request, MgmtType type, MgmtBody body);

  topo::NodeId node_;
  MgmtTimers timers_;
  std::function<void(const MgmtMessage&)> send_to_manager_;
  RegisterMaster bus_;
  std::deque<MgmtMessage> inbox_;
  sc_core::sc_event inbox_event_;
  std::optional<uint8_t> last_seq_;  // the manager's, applied
  std::vector<std::pair<uint32_t, uint32_t>> shadow_writes_;
  std::deque<std::pair<topo::PortId, bool>> events_;
  sc_core::sc_event event_queued_;
  uint8_t event_seq_ = 0;
  std::optional<uint8_t> acked_seq_;  // the manager's ACK of a LINK_EVENT
  sc_core::sc_event acked_;
  bool failed_ = false;
  uint64_t applied_ = 0, repeats_ = 0, malformed_ = 0, refused_ = 0;
  uint64_t events_lost_ = 0;
};

}  // namespace lq::net
