// SPDX-License-Identifier: Apache-2.0
// TrafficWorkload: synthetic traffic as RoCEv2 SENDs through transport
// engines. It takes a schedule — each message's source, destination and
// posting time, drawn by the caller from a traffic pattern — connects one
// RC connection per (source, destination) pair the schedule uses (the
// cluster builder's part in TRN-5.7), posts every receive the schedule
// will need at time 0, posts each SEND at its time, and checks each
// message where it lands: the bytes, and that each connection delivers its
// messages in the order they were posted (TRN-7.1). A message's one-way
// latency runs from its posting to its receive completion. When every
// SEND has completed, with success or an error, it stops the simulation,
// or calls what OnDone gave it instead.
// A node that fails (NodeFailed) takes its messages with it: those it had
// not seen complete, and those it would have posted, end as failed, and
// so do messages to it once their SENDs give up (TRN-7.9).
//
// Memory: node n's messages go out from, and land in, slots of its memory
// that memory_bytes(n) sizes: the caller binds a memory of that size to
// each engine and lends the workload access to it (NodeMemories).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/common/bytes.h"
#include "systemc/transport/node_memories.h"
#include "systemc/transport/transport_engine.h"

namespace lq::transport {

// One message: node `src` posts it at `at_ps` for node `dst`.
struct ScheduledMessage {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint64_t at_ps = 0;
};

struct TrafficWorkloadConfig {
  uint32_t message_bytes = 64;
  uint32_t pmtu = 4096;
  std::string congestion;  // of every QP; empty: the engines' default
};

// What became of the messages.
struct TrafficOutcome {
  uint64_t posted = 0;
  uint64_t delivered = 0;   // landed intact, in order, once
  uint64_t corrupted = 0;   // landed with other bytes than were sent
  uint64_t reordered = 0;   // landed intact but out of its connection's order
  uint64_t duplicated = 0;  // a receive completion beyond those posted
  // SENDs that completed with an error, or whose node failed first.
  uint64_t failed = 0;
  uint64_t unposted = 0;  // not posted: their node had failed by then
  // Neither landed nor lost: to or from a node that failed (the count
  // outcome() makes when asked).
  uint64_t endpoint_failed = 0;
  uint64_t payload_bytes = 0;
  uint64_t last_delivery_ps = 0;
  std::vector<double> latencies_ns;  // of the delivered messages
};

class TrafficWorkload : public sc_core::sc_module {
 public:
  // `engines[n]` is node n's; `schedule` is in posting order (by at_ps).
  // In a run over MPI ranks (decision 0050) an engine another rank holds
  // is nullptr: this rank's workload posts the SENDs of its own cards and
  // checks what lands at them, the others' do the rest, and rank 0 takes
  // in their shares (AbsorbShare) to tell the whole run's outcome.
  // Throws std::invalid_argument if a message names a node outside the
  // engines or its own source as destination, or a connection cannot be
  // set up.
  TrafficWorkload(const sc_core::sc_module_name& name,
                  std::vector<TransportEngine*> engines,
                  std::vector<ScheduledMessage> schedule,
                  const TrafficWorkloadConfig& config, NodeMemories memories);

  // The memory node `n` needs: a slot per message it sends or receives.
  uint64_t memory_bytes(unsigned node) const;
  uint64_t messages() const { return schedule_.size(); }
  uint64_t connections() const { return connections_.size(); }
  // SENDs that completed, with success or an error, or failed with
  // their node: of this rank's cards, which send `own_sends()`.
  uint64_t sends_ended() const { return sends_ended_; }
  uint64_t own_sends() const { return own_sends_; }
  // What became of the messages, each latency in schedule order.
  TrafficOutcome outcome() const;

  // What happens when every SEND (this rank's) has ended, instead of
  // sc_stop().
  void OnDone(std::function<void()> done) { done_ = std::move(done); }

  // This rank's share of the outcome, packed for rank 0: the counts its
  // cards made and the landings at them.
  Bytes PackShare() const;
  // Adds another rank's PackShare() to this one's.
  void AbsorbShare(ByteView share);

  // Node `node` has failed, now: it posts nothing more, its completions
  // are no longer read, and the SENDs it had not seen complete end.
  void NodeFailed(uint32_t node);
  bool node_failed(uint32_t node) const { return node_failed_.at(node); }

  const std::vector<ScheduledMessage>& schedule() const { return schedule_; }
  // When message `index` landed intact, in order; nothing if it did not.
  std::optional<uint64_t> landed_ps(uint64_t index) const;

 private:
  struct Connection {
    uint32_t src_qp = 0;
    uint32_t dst_qp = 0;
    std::vector<uint64_t> messages;  // schedule indices, in posting order
  };

  // Lays out every node's slots; connects the pairs the schedule uses.
  void PlaceSlots();
  void Connect();
  void Post();  // SC_METHOD: the receives at 0, then each SEND at its time
  void PostReceives();
  void PostSend(uint64_t index);
  void OnCompletions(unsigned node);  // per node, on its completion event
  void SendEnded(uint64_t index, bool failed);
  void Received(unsigned node, const Completion& completion);
  // What message `index` carries: its index, then a pattern of it.
  Bytes MessageBytes(uint64_t index) const;
  uint64_t Key(uint32_t src, uint32_t dst) const {
    return uint64_t{src} * engines_.size() + dst;
  }
  bool Here(uint32_t node) const { return engines_[node] != nullptr; }

  std::vector<TransportEngine*> engines_;
  std::vector<ScheduledMessage> schedule_;
  TrafficWorkloadConfig config_;
  NodeMemories memories_;
  std::unordered_map<uint64_t, Connection> connections_;  // by Key()
  std::vector<uint64_t> node_slots_;  // per node: messages sent + received
  // Per message: its slot at the source and at the destination, whether
  // it has landed (and when, intact and in order: 0 if not), and whether
  // its SEND has ended.
  std::vector<uint64_t> send_address_, receive_address_;
  std::vector<bool> landed_;
  std::vector<uint64_t> landed_intact_ps_;
  std::vector<bool> send_ended_;
  std::vector<bool> node_failed_;
  size_t next_post_ = 0;
  uint64_t own_sends_ = 0;
  uint64_t sends_ended_ = 0;
  TrafficOutcome outcome_;
  std::function<void()> done_ = [] { sc_core::sc_stop(); };
};

}  // namespace lq::transport
