// SPDX-License-Identifier: Apache-2.0
// CollectiveWorkload: lays out the memories, connects the pairs, posts
// each message when its dependencies have landed, reduces, checks.
#include "systemc/transport/collective_workload.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "systemc/common/cycle_clock.h"
#include "systemc/parallel/wire.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::transport {

CollectiveWorkload::CollectiveWorkload(const sc_core::sc_module_name& name,
                                       std::vector<TransportEngine*> engines,
                                       net::CollectiveSchedule schedule,
                                       const CollectiveWorkloadConfig& config,
                                       NodeMemories memories)
    : sc_module(name),
      engines_(std::move(engines)),
      schedule_(std::move(schedule)),
      config_(config),
      memories_(std::move(memories)) {
  if (schedule_.nodes != engines_.size()) {
    throw std::invalid_argument("a collective over " +
                                std::to_string(schedule_.nodes) + " nodes on " +
                                std::to_string(engines_.size()) + " engines");
  }
  const uint64_t buffer = schedule_.buffer_bytes;
  const size_t count = schedule_.messages.size();
  source_.resize(count);
  landing_.resize(count);
  waiting_on_.resize(count);
  dependents_.resize(count);
  landed_.assign(count, false);
  posted_ps_.assign(count, 0);
  landed_ps_.assign(count, 0);
  // Staging slots follow the buffer (and all-to-all's outgoing blocks).
  std::vector<uint64_t> staging(engines_.size(),
                                alltoall() ? 2 * buffer : buffer);
  for (const net::CollectiveMessage& m : schedule_.messages) {
    source_[m.id] = alltoall() ? buffer + uint64_t{m.dst} * m.bytes : m.offset;
    if (m.op == net::CollectiveOp::kReduce) {
      landing_[m.id] = staging[m.dst];
      staging[m.dst] += m.bytes;
    } else {
      landing_[m.id] = m.offset;
    }
    waiting_on_[m.id] = static_cast<uint32_t>(m.after.size());
    for (const uint32_t before : m.after) {
      if (schedule_.messages.at(before).dst != m.src) {
        throw std::invalid_argument(
            "collective message " + std::to_string(m.id) +
            " waits for one delivered elsewhere than at its source");
      }
      dependents_[before].push_back(m.id);
    }
    own_sends_ += here(m.src) ? 1 : 0;
  }
  memory_bytes_ =
      std::max<uint64_t>(1, *std::max_element(staging.begin(), staging.end()));
  for (TransportEngine* engine : engines_) {
    rkeys_.push_back(
        RegisterFirstRegion(engine, {0, memory_bytes_, kRemoteAll}));
  }
  Connect();
  SC_HAS_PROCESS(CollectiveWorkload);
  SC_METHOD(Start);
  lq::transport::OnCompletions(engines_,
                               [this](unsigned node) { OnCompletions(node); });
}

// One connection per pair, in the order the schedule first uses them.
void CollectiveWorkload::Connect() {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> index;
  connection_of_.resize(schedule_.messages.size());
  for (const net::CollectiveMessage& m : schedule_.messages) {
    const auto [it, added] =
        index.emplace(std::make_pair(m.src, m.dst),
                      static_cast<uint32_t>(connections_.size()));
    if (added) {
      connections_.push_back({m.src, m.dst, 0, 0, {}});
    }
    connections_[it->second].messages.push_back(m.id);
    connection_of_[m.id] = it->second;
  }
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const Connection& c : connections_) {
    pairs.emplace_back(c.src, c.dst);
  }
  const std::vector<QpPair> qps =
      ConnectPairs(engines_, pairs, config_.pmtu, config_.congestion);
  for (size_t i = 0; i < qps.size(); ++i) {
    connections_[i].src_qp = qps[i].a;
    connections_[i].dst_qp = qps[i].b;
  }
}

uint8_t CollectiveWorkload::Pattern(uint32_t node, uint64_t at) const {
  return static_cast<uint8_t>(node * 37 + at * 11 + (at >> 8));
}

void CollectiveWorkload::Fill() {
  const uint64_t filled =
      alltoall() ? 2 * schedule_.buffer_bytes : schedule_.buffer_bytes;
  for (unsigned n = 0; n < engines_.size(); ++n) {
    if (!here(n)) {
      continue;
    }
    Bytes bytes(filled);
    for (uint64_t at = 0; at < filled; ++at) {
      bytes[at] = Pattern(n, at);
    }
    memories_.write(n, 0, bytes);
  }
}

void CollectiveWorkload::Start() {
  // A WRITE with immediate data consumes a receive WR (TRN-6.8).
  for (const Connection& c : connections_) {
    for (const uint32_t id : c.messages) {
      if (here(c.dst)) {
        engines_[c.dst]->PostReceive(c.dst_qp, RecvWr{id, 0}, 0).value();
      }
    }
  }
  for (const net::CollectiveMessage& m : schedule_.messages) {
    if (m.after.empty() && here(m.src)) {
      Post(m.id);
    }
  }
  if (own_sends_ == 0) {
    done_();
  }
}

void CollectiveWorkload::Post(uint32_t id) {
  const net::CollectiveMessage& m = schedule_.messages[id];
  SendWr wr;
  wr.wr_id = id;
  wr.kind = SendKind::kWrite;
  wr.length = static_cast<uint32_t>(m.bytes);
  wr.remote_address = landing_[id];
  wr.rkey = rkeys_[m.dst];
  wr.immediate = id;
  engines_[m.src]
      ->PostSend(connections_[connection_of_[id]].src_qp, wr, source_[id])
      .value();  // the QP is in RTS or ERROR (which flushes): cannot fail
  ++posted_;
  posted_ps_[id] = CycleClock::NowPs();
}

std::optional<std::pair<uint64_t, uint64_t>> CollectiveWorkload::span_ps(
    uint32_t id) const {
  if (id >= landed_.size() || !landed_[id]) {
    return std::nullopt;
  }
  return std::make_pair(posted_ps_[id], landed_ps_[id]);
}

void CollectiveWorkload::OnCompletions(unsigned node) {
  for (const EngineCompletion& done : engines_[node]->PollCompletions()) {
    if (!done.receive) {
      ++sends_ended_;
      if (done.completion.status != CompletionStatus::kSuccess) {
        ++failed_;
      }
    } else if (done.completion.status == CompletionStatus::kSuccess &&
               done.completion.immediate) {
      Landed(node, *done.completion.immediate);
    }
  }
  if (sends_ended_ == own_sends_) {
    done_();
  }
}

void CollectiveWorkload::Landed(unsigned node, uint32_t id) {
  if (id >= landed_.size() || landed_[id]) {
    ++duplicated_;
    return;
  }
  landed_[id] = true;
  landed_ps_[id] = CycleClock::NowPs();
  const net::CollectiveMessage& m = schedule_.messages[id];
  if (m.op == net::CollectiveOp::kReduce) {
    const auto length = static_cast<uint32_t>(m.bytes);
    const ByteView staged = memories_.read(node, landing_[id], length);
    const ByteView mine = memories_.read(node, m.offset, length);
    Bytes sum(length);
    for (uint32_t i = 0; i < length; ++i) {
      sum[i] = static_cast<uint8_t>(mine[i] + staged[i]);
    }
    memories_.write(node, m.offset, sum);
  }
  ++delivered_;
  // Each waits for messages delivered at its source: here.
  for (const uint32_t next : dependents_[id]) {
    if (--waiting_on_[next] == 0) {
      Post(next);
    }
  }
}

uint64_t CollectiveWorkload::finished_ps() const {
  return landed_ps_.empty()
             ? 0
             : *std::max_element(landed_ps_.begin(), landed_ps_.end());
}

uint32_t CollectiveWorkload::WrongNodes() const {
  return OwnWrongNodes() + wrong_elsewhere_;
}

namespace {

// Tags of a share's entries.
constexpr uint8_t kPostedHere = 1;
constexpr uint8_t kLandedHere = 2;

}  // namespace

Bytes CollectiveWorkload::PackShare() const {
  Bytes packed;
  parallel::WireWriter out(packed);
  for (const uint64_t count :
       {posted_, delivered_, sends_ended_, failed_, duplicated_}) {
    out.U64(count);
  }
  out.U32(OwnWrongNodes());
  for (const net::CollectiveMessage& m : schedule_.messages) {
    if (here(m.src)) {
      out.U8(kPostedHere);
      out.U32(m.id);
      out.U64(posted_ps_[m.id]);
    }
    if (landed_[m.id]) {
      out.U8(kLandedHere);
      out.U32(m.id);
      out.U64(landed_ps_[m.id]);
    }
  }
  return packed;
}

void CollectiveWorkload::AbsorbShare(ByteView share) {
  parallel::WireReader in(share);
  for (uint64_t* count :
       {&posted_, &delivered_, &sends_ended_, &failed_, &duplicated_}) {
    *count += in.U64();
  }
  wrong_elsewhere_ += in.U32();
  while (!in.done()) {
    const uint8_t tag = in.U8();
    const uint32_t id = in.U32();
    const uint64_t at_ps = in.U64();
    if (tag == kPostedHere) {
      posted_ps_.at(id) = at_ps;
    } else {
      landed_.at(id) = true;
      landed_ps_.at(id) = at_ps;
    }
  }
}

uint32_t CollectiveWorkload::OwnWrongNodes() const {
  const uint64_t buffer = schedule_.buffer_bytes;
  const auto nodes = static_cast<uint32_t>(engines_.size());
  Bytes reduced(buffer);
  if (!alltoall()) {
    for (uint64_t at = 0; at < buffer; ++at) {
      uint8_t sum = 0;
      for (uint32_t n = 0; n < nodes; ++n) {
        sum = static_cast<uint8_t>(sum + Pattern(n, at));
      }
      reduced[at] = sum;
    }
  }
  const uint64_t block = nodes == 0 ? 0 : buffer / nodes;
  uint32_t wrong = 0;
  for (uint32_t r = 0; r < nodes; ++r) {
    if (!here(r)) {
      continue;
    }
    const ByteView got = memories_.read(r, 0, static_cast<uint32_t>(buffer));
    bool right = true;
    for (uint64_t at = 0; right && at < buffer; ++at) {
      if (!alltoall()) {
        right = got[at] == reduced[at];
        continue;
      }
      const auto s = static_cast<uint32_t>(at / block);
      right = s == r || got[at] == Pattern(s, buffer + r * block + at % block);
    }
    wrong += right ? 0 : 1;
  }
  return wrong;
}

}  // namespace lq::transport
