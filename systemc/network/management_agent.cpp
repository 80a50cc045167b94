// SPDX-License-Identifier: Apache-2.0
// ManagementAgent: a node's side of the in-band management channel.
#include "systemc/network/management_agent.h"

#include "generated/cpp/router_regs.h"

namespace lq::net {

namespace regs = lq::regs::router;

namespace {

bool InShadowBank(uint32_t offset) {
  return offset == regs::kRouteModeOffset || offset == regs::kShapeOffset ||
         offset == regs::kPortUpOffset || offset == regs::kTableIndexOffset ||
         offset == regs::kTableDataOffset;
}

constexpr uint32_t kDropCounters[] = {
    regs::kDropsTtlOffset,      regs::kDropsHeaderOffset,
    regs::kStreamErrorsOffset,  regs::kDropsNoRouteOffset,
    regs::kDropsLinkDownOffset, regs::kDropsStaleEpochOffset,
    regs::kDropsNodeDownOffset,
};

}  // namespace

ManagementAgent::ManagementAgent(
    const sc_core::sc_module_name& name, topo::NodeId node,
    const MgmtTimers& timers,
    std::function<void(const MgmtMessage&)> send_to_manager)
    : sc_module(name),
      node_(node),
      timers_(timers),
      send_to_manager_(std::move(send_to_manager)),
      bus_("bus") {
  SC_HAS_PROCESS(ManagementAgent);
  SC_THREAD(Apply);
  SC_THREAD(Report);
}

void ManagementAgent::ReceivePayload(const Bytes& payload) {
  Result<MgmtMessage> message = DecodeMgmt(payload);
  if (!message) {
    ++malformed_;
    return;
  }
  Receive(*message);
}

void ManagementAgent::Receive(const MgmtMessage& message) {
  if (failed_) {
    return;
  }
  if (message.type == MgmtType::kAck) {
    acked_seq_ = message.seq;  // of the LINK_EVENT in flight
    acked_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  inbox_.push_back(message);
  inbox_event_.notify(sc_core::SC_ZERO_TIME);
}

void ManagementAgent::OnLinkEvent(topo::PortId port, bool up) {
  if (failed_) {
    return;
  }
  events_.emplace_back(port, up);
  event_queued_.notify(sc_core::SC_ZERO_TIME);
}

void ManagementAgent::Fail() {
  failed_ = true;
  inbox_.clear();
  events_.clear();
}

void ManagementAgent::Restore() {
  failed_ = false;
  last_seq_.reset();
  shadow_writes_.clear();
}

void ManagementAgent::Apply() {
  // Boot: with the manager in band, VC set S-1 carries MGMT packets only
  // (NET-3.5), so every traffic class goes to set 0.
  bus_.Write(regs::kTcMapOffset, 0);
  for (;;) {
    while (inbox_.empty() || failed_) {
      wait(inbox_event_);
    }
    const MgmtMessage message = std::move(inbox_.front());
    inbox_.pop_front();
    Carry(message);
  }
}

void ManagementAgent::Carry(const MgmtMessage& message) {
  if (message.node != node_) {
    ++malformed_;  // not for this node: nothing to carry out
    return;
  }
  if (message.type == MgmtType::kCountReq) {
    // Reading changes nothing, so a repeat is answered afresh; COUNT_REP
    // stands for its ACK.
    CountRepBody counts;
    counts.injected = bus_.Read(regs::kInjectedOffset);
    counts.ejected = bus_.Read(regs::kEjectedOffset);
    for (const uint32_t offset : kDropCounters) {
      counts.dropped += bus_.Read(offset);
    }
    last_seq_ = message.seq;
    Reply(message, MgmtType::kCountRep, counts);
    return;
  }
  if (last_seq_ == message.seq) {
    ++repeats_;  // the ACK was lost: acknowledge again, apply nothing
    Reply(message, MgmtType::kAck, {});
    return;
  }
  bool done = true;
  switch (message.type) {
    case MgmtType::kRegWrite: {
      const auto& reg = std::get<RegWriteBody>(message.body);
      done = WriteShadow(uint32_t{reg.reg} * 4, reg.value);
      break;
    }
    case MgmtType::kTableWrite: {
      const auto& table = std::get<TableWriteBody>(message.body);
      done = WriteShadow(regs::kTableIndexOffset, table.first);
      for (size_t i = 0; done && i < table.entries.size(); ++i) {
        done = WriteShadow(regs::kTableDataOffset, table.entries[i]);
      }
      break;
    }
    case MgmtType::kFreeze:
      done = bus_.Write(regs::kInjectFreezeOffset,
                        regs::kInjectFreezeFreeze.Place(1));
      break;
    case MgmtType::kResume:
      done = bus_.Write(regs::kInjectFreezeOffset, 0);
      break;
    case MgmtType::kSwitch:
      done = bus_.Write(regs::kTableSwitchOffset,
                        regs::kTableSwitchApply.Place(1));
      // The old active bank is the shadow now: write it to equal the new,
      // with what was written since the previous switch (NET-7.5).
      for (const auto& [offset, value] : shadow_writes_) {
        done = done && bus_.Write(offset, value);
      }
      shadow_writes_.clear();
      break;
    default:
      ++malformed_;  // LINK_EVENT and COUNT_REP go to the manager only
      return;
  }
  if (!done) {
    // The router refused an access: left unacknowledged, so the manager
    // resends it and in the end gives this node up (NET-7.5).
    ++refused_;
    return;
  }
  last_seq_ = message.seq;
  ++applied_;
  Reply(message, MgmtType::kAck, {});
}

bool ManagementAgent::WriteShadow(uint32_t offset, uint32_t value) {
  if (!bus_.Write(offset, value)) {
    return false;
  }
  if (InShadowBank(offset)) {
    shadow_writes_.emplace_back(offset, value);
  }
  return true;
}

void ManagementAgent::Reply(const MgmtMessage& request, MgmtType type,
                            MgmtBody body) {
  if (failed_) {
    return;
  }
  MgmtMessage reply;
  reply.type = type;
  reply.seq = request.seq;
  reply.node = static_cast<uint16_t>(node_);
  reply.body = std::move(body);
  send_to_manager_(reply);
}

// LINK_EVENTs go one at a time, each resent after msg_timeout until the
// manager acknowledges it or msg_retries resends have gone unanswered.
void ManagementAgent::Report() {
  for (;;) {
    while (events_.empty() || failed_) {
      wait(event_queued_);
    }
    MgmtMessage event;
    event.type = MgmtType::kLinkEvent;
    event.seq = ++event_seq_;
    event.node = static_cast<uint16_t>(node_);
    event.body = LinkEventBody{static_cast<uint8_t>(events_.front().first),
                               events_.front().second};
    events_.pop_front();
    bool acked = false;
    for (unsigned attempt = 0;
         !acked && !failed_ && attempt <= timers_.msg_retries; ++attempt) {
      send_to_manager_(event);
      const sc_core::sc_time deadline =
          sc_core::sc_time_stamp() + timers_.msg_timeout;
      while (!acked && sc_core::sc_time_stamp() < deadline) {
        wait(deadline - sc_core::sc_time_stamp(), acked_);
        acked = acked_seq_ == event.seq;
      }
    }
    events_lost_ += acked ? 0 : 1;
  }
}

}  // namespace lq::net
