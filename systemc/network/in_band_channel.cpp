// SPDX-License-Identifier: Apache-2.0
// InBandChannel: the manager's rounds of MGMT messages, with resends.
#include "systemc/network/in_band_channel.h"

#include <algorithm>
#include <utility>

#include "generated/cpp/router_regs.h"
#include "models/topology/programmed_table.h"
#include "systemc/network/fabric_manager.h"
#include "systemc/network/router_registers.h"

namespace lq::net {

namespace regs = lq::regs::router;

namespace {

MgmtMessage RegWrite(uint32_t offset, uint32_t value) {
  MgmtMessage m;
  m.type = MgmtType::kRegWrite;
  m.body = RegWriteBody{static_cast<uint8_t>(offset / 4), value};
  return m;
}

}  // namespace

InBandChannel::InBandChannel(
    topo::NodeId manager, NetworkInterface& local,
    std::vector<ManagementAgent*> agents, const MgmtTimers& timers,
    uint16_t max_payload, std::shared_ptr<const topo::ManagementTree> tree,
    std::function<void(topo::NodeId, topo::PortId, bool)> on_link_event)
    : manager_(manager),
      local_(local),
      agents_(std::move(agents)),
      timers_(timers),
      // A TABLE_WRITE's body: first index and count, then 2 bytes an entry.
      table_entries_per_message_(std::min<size_t>(
          kMaxTableWriteEntries, (max_payload - kMgmtHeaderBytes - 6) / 2)),
      tree_(std::move(tree)),
      on_link_event_(std::move(on_link_event)),
      seq_(agents_.size(), 0),
      event_seq_(agents_.size(), -1) {
  for (topo::NodeId n = 0; n < agents_.size(); ++n) {
    parent_written_.push_back(tree_->ParentPort(n));
  }
}

bool InBandChannel::GivenUp(topo::NodeId node) const {
  return std::find(silent_.begin(), silent_.end(), node) != silent_.end();
}

bool InBandChannel::Send(topo::NodeId node, MgmtMessage message) {
  message.node = static_cast<uint16_t>(node);
  if (node == manager_) {
    agents_[node]->Receive(message);
    return true;
  }
  const auto route = tree_->RouteTo(node);
  if (!route) {
    return false;
  }
  message.route.assign(route->begin(), route->end());
  message.route_ptr = 0;
  local_.SendMgmt(static_cast<uint16_t>(node), EncodeMgmt(message));
  return true;
}

void InBandChannel::Receive(const MgmtMessage& message) {
  const topo::NodeId node = message.node;
  if (node >= agents_.size()) {
    return;
  }
  if (message.type == MgmtType::kLinkEvent) {
    MgmtMessage ack;
    ack.type = MgmtType::kAck;
    ack.seq = message.seq;
    // Again for a resend: the first ACK was lost. A node off the tree (a
    // failed one coming back) cannot be answered until the next tree
    // takes it in; its resends run out by themselves.
    Send(node, ack);
    if (event_seq_[node] != message.seq) {
      event_seq_[node] = message.seq;
      const auto& event = std::get<LinkEventBody>(message.body);
      on_link_event_(node, event.port, event.up);
    }
    return;
  }
  const auto it = pending_.find(node);
  if (it != pending_.end() && it->second.message.seq == message.seq) {
    replies_[node] = message;
    replied_.notify(sc_core::SC_ZERO_TIME);
  }
}

std::map<topo::NodeId, MgmtMessage> InBandChannel::Round(
    RouteUpdate& update, const std::vector<topo::NodeId>& nodes,
    const std::function<MgmtMessage(topo::NodeId)>& make) {
  replies_.clear();
  pending_.clear();
  for (const topo::NodeId n : nodes) {
    if (GivenUp(n)) {
      continue;
    }
    MgmtMessage m = make(n);
    m.seq = ++seq_[n];
    if (!Send(n, m)) {
      silent_.push_back(n);
      continue;
    }
    pending_[n] = {m, 0, sc_core::sc_time_stamp() + timers_.msg_timeout};
    ++update.messages;
  }
  while (!pending_.empty()) {
    sc_core::sc_time first = sc_core::sc_max_time();
    for (const auto& [n, p] : pending_) {
      first = std::min(first, p.deadline);
    }
    sc_core::wait(first - sc_core::sc_time_stamp(), replied_);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (auto it = pending_.begin(); it != pending_.end();) {
      Pending& p = it->second;
      if (replies_.count(it->first) > 0) {
        it = pending_.erase(it);
      } else if (p.deadline > now) {
        ++it;
      } else if (p.resends < timers_.msg_retries) {
        ++p.resends;
        ++update.resends;
        ++update.messages;
        p.deadline = now + timers_.msg_timeout;
        Send(it->first, p.message);
        ++it;
      } else {
        silent_.push_back(it->first);
        it = pending_.erase(it);
      }
    }
  }
  update.messages += replies_.size();
  return std::move(replies_);
}

// Root outward, one node at a time: each node's new parent already
// forwards on the new tree when the node's ACK climbs it (NET-7.7 step 1).
bool InBandChannel::SetTree(RouteUpdate& update,
                            std::shared_ptr<const topo::ManagementTree> tree) {
  tree_ = std::move(tree);
  for (const topo::NodeId n : tree_->order()) {
    const topo::PortId parent = tree_->ParentPort(n);
    if (n == manager_ || parent_written_[n] == parent) {
      continue;
    }
    if (Round(update, {n}, [&](topo::NodeId) {
          return RegWrite(regs::kMgmtParentPortOffset, parent);
        }).empty()) {
      return false;
    }
    parent_written_[n] = parent;
  }
  return true;
}

void InBandChannel::WriteTables(
    RouteUpdate& update, const std::vector<topo::NodeId>& changed,
    const std::vector<topo::NodeId>&,
    const std::shared_ptr<const topo::TableRouting>& next) {
  const uint32_t table_mode =
      regs::kRouteModeMode.Place(RouteModeCode("table").value());
  Round(update, changed, [&](topo::NodeId) {
    return RegWrite(regs::kRouteModeOffset, table_mode);
  });
  Round(update, changed, [&](topo::NodeId n) {
    return RegWrite(regs::kPortUpOffset,
                    topo::ProgrammedTableRouting::PortUpOf(*next, n));
  });
  std::map<topo::NodeId, std::vector<topo::TableEntry>> tables;
  for (const topo::NodeId n : changed) {
    tables[n] = topo::ProgrammedTableRouting::TableOf(*next, n);
  }
  const size_t size = tables.empty() ? 0 : tables.begin()->second.size();
  for (size_t first = 0; first < size; first += table_entries_per_message_) {
    const size_t count = std::min(table_entries_per_message_, size - first);
    Round(update, changed, [&](topo::NodeId n) {
      MgmtMessage m;
      m.type = MgmtType::kTableWrite;
      TableWriteBody body;
      body.first = static_cast<uint32_t>(first);
      for (size_t i = first; i < first + count; ++i) {
        body.entries.push_back(tables[n][i].raw);
      }
      m.body = std::move(body);
      return m;
    });
  }
}

void InBandChannel::Command(RouteUpdate& update,
                            const std::vector<topo::NodeId>& nodes,
                            MgmtType type) {
  Round(update, nodes, [type](topo::NodeId) {
    MgmtMessage m;
    m.type = type;
    return m;
  });
}

CountRepBody InBandChannel::Count(RouteUpdate& update,
                                  const std::vector<topo::NodeId>& nodes) {
  CountRepBody sums;
  for (const auto& [n, reply] : Round(update, nodes, [](topo::NodeId) {
         MgmtMessage m;
         m.type = MgmtType::kCountReq;
         return m;
       })) {
    if (const auto* counts = std::get_if<CountRepBody>(&reply.body)) {
      sums.injected += counts->injected;
      sums.ejected += counts->ejected;
      sums.dropped += counts->dropped;
    }
  }
  return sums;
}

std::vector<topo::NodeId> InBandChannel::TakeSilent() {
  return std::exchange(silent_, {});
}

}  // namespace lq::net
