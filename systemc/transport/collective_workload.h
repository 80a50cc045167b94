// SPDX-License-Identifier: Apache-2.0
// CollectiveWorkload: a collective's message schedule
// (models/network/collective.h: all-to-all, ring or hierarchical
// AllReduce) run through transport engines as RDMA WRITEs with immediate
// data. One RC connection per (source, destination) pair the schedule
// uses, set up when built; every receive the schedule needs posted at time
// 0. A message is posted once every message in its `after` list has been
// delivered at its source; its immediate data is its id, so the receive
// completion at its destination says which message landed. A copy writes
// straight into its place in the destination's buffer; a reduce writes
// into a staging slot, which the destination adds into its buffer (byte by
// byte, modulo 256) when the message lands. Each node's buffer starts with
// a pattern of its own; after the run the buffers are checked against
// what the collective must leave there (the sum of every node's pattern
// for an AllReduce, each source's block for all-to-all). When every WRITE
// has completed, the simulation stops, or the workload calls what OnDone
// gave it instead. Over MPI ranks (decision 0050) each rank runs its own
// nodes' part: a message waits only for messages delivered at its source,
// so its dependencies are its rank's own; rank 0 gathers the others'
// outcomes (PackShare, AbsorbShare).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/common/bytes.h"
#include "models/network/collective.h"
#include "systemc/transport/node_memories.h"
#include "systemc/transport/transport_engine.h"

namespace lq::transport {

struct CollectiveWorkloadConfig {
  uint32_t pmtu = 4096;
  std::string congestion;  // of every QP; empty: the engines' default
};

class CollectiveWorkload : public sc_core::sc_module {
 public:
  // `engines[n]` is node n's, nullptr if another rank holds it; the
  // schedule's nodes must be the engines', which must be new
  // (ConnectPairs). Registers each node's memory (memory_bytes) for remote
  // writes. Throws std::invalid_argument if they differ or a connection
  // cannot be set up.
  CollectiveWorkload(const sc_core::sc_module_name& name,
                     std::vector<TransportEngine*> engines,
                     net::CollectiveSchedule schedule,
                     const CollectiveWorkloadConfig& config,
                     NodeMemories memories);

  // The memory node `n` needs: its buffer, for all-to-all the blocks it
  // sends, and a staging slot per reduce message it receives.
  uint64_t memory_bytes(unsigned /*node*/) const { return memory_bytes_; }
  // Writes every node's starting data; call once the memories exist.
  void Fill();
  // Called when this rank's WRITEs have ended, instead of sc_stop().
  void OnDone(std::function<void()> done) { done_ = std::move(done); }

  const net::CollectiveSchedule& schedule() const { return schedule_; }
  uint64_t connections() const { return connections_.size(); }
  uint64_t posted() const { return posted_; }
  uint64_t delivered() const { return delivered_; }
  bool done() const { return delivered_ == schedule_.messages.size(); }
  // When message `id` was posted and when it landed, in ps; nothing
  // until it has landed.
  std::optional<std::pair<uint64_t, uint64_t>> span_ps(uint32_t id) const;
  // When the last message landed, in ps (valid once done()).
  uint64_t finished_ps() const;
  // The WRITEs this rank's nodes post, and those ended so far.
  uint64_t own_sends() const { return own_sends_; }
  uint64_t sends_ended() const { return sends_ended_; }
  uint64_t failed() const { return failed_; }          // WRITEs in error
  uint64_t duplicated() const { return duplicated_; }  // landed again
  // After the run: the nodes whose buffer is not what the collective must
  // leave there (this rank's; every rank's once the shares are absorbed).
  uint32_t WrongNodes() const;

  // What this rank's nodes did, after the run, for rank 0, which absorbs
  // every other rank's share to hold the whole run's, as one process does.
  Bytes PackShare() const;
  void AbsorbShare(ByteView share);

 private:
  bool alltoall() const { return schedule_.name == "alltoall"; }
  bool here(uint32_t node) const { return engines_[node] != nullptr; }
  uint32_t OwnWrongNodes() const;
  uint8_t Pattern(uint32_t node, uint64_t at) const;
  void Connect();
  void Start();  // SC_METHOD at 0: the receives, then the free messages
  void Post(uint32_t id);
  void OnCompletions(unsigned node);  // per node, on its completion event
  void Landed(unsigned node, uint32_t id);

  std::vector<TransportEngine*> engines_;
  net::CollectiveSchedule schedule_;
  CollectiveWorkloadConfig config_;
  NodeMemories memories_;
  uint64_t memory_bytes_ = 0;
  std::vector<uint32_t> rkeys_;  // per node
  // Per connection: its ends, QPs and messages (ids in schedule order).
  struct Connection {
    uint32_t src = 0, dst = 0;
    uint32_t src_qp = 0, dst_qp = 0;
    std::vector<uint32_t> messages;
  };
  std::vector<Connection> connections_;
  // Per message: its connection, where its bytes come from at the source
  // and land at the destination, the dependencies it still waits for, and
  // the messages waiting for it.
  std::vector<uint32_t> connection_of_;
  std::vector<uint64_t> source_, landing_;
  std::vector<uint32_t> waiting_on_;
  std::vector<std::vector<uint32_t>> dependents_;
  std::vector<bool> landed_;
  std::vector<uint64_t> posted_ps_, landed_ps_;  // per message
  uint64_t own_sends_ = 0;
  uint64_t posted_ = 0, delivered_ = 0, sends_ended_ = 0;
  uint64_t failed_ = 0, duplicated_ = 0;
  uint32_t wrong_elsewhere_ = 0;  // other ranks' wrong nodes, absorbed
  std::function<void()> done_ = [] { sc_core::sc_stop(); };
};

}  // namespace lq::transport
