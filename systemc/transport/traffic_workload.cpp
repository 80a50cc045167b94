// SPDX-License-Identifier: Apache-2.0
// TrafficWorkload: lays out the slots, connects the pairs, posts, checks.
#include "systemc/transport/traffic_workload.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "systemc/parallel/wire.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::transport {
namespace {

constexpr size_t kIndexBytes = 8;  // the message's index, little-endian

uint64_t NowPs() { return sc_core::sc_time_stamp().value(); }

}  // namespace

TrafficWorkload::TrafficWorkload(const sc_core::sc_module_name& name,
                                 std::vector<TransportEngine*> engines,
                                 std::vector<ScheduledMessage> schedule,
                                 const TrafficWorkloadConfig& config,
                                 NodeMemories memories)
    : sc_module(name),
      engines_(std::move(engines)),
      schedule_(std::move(schedule)),
      config_(config),
      memories_(std::move(memories)) {
  PlaceSlots();
  Connect();
  SC_HAS_PROCESS(TrafficWorkload);
  SC_METHOD(Post);
  lq::transport::OnCompletions(engines_,
                               [this](unsigned node) { OnCompletions(node); });
}

void TrafficWorkload::PlaceSlots() {
  const auto nodes = static_cast<uint32_t>(engines_.size());
  std::vector<uint64_t> sent(nodes), received(nodes);
  for (const ScheduledMessage& message : schedule_) {
    if (message.src >= nodes || message.dst >= nodes ||
        message.src == message.dst) {
      throw std::invalid_argument(
          "a message from node " + std::to_string(message.src) + " to node " +
          std::to_string(message.dst) + " in a fabric of " +
          std::to_string(nodes) + " nodes");
    }
    ++sent[message.src];
    own_sends_ += Here(message.src) ? 1 : 0;
  }
  const uint64_t bytes = config_.message_bytes;
  send_address_.resize(schedule_.size());
  receive_address_.resize(schedule_.size());
  landed_.assign(schedule_.size(), false);
  landed_intact_ps_.assign(schedule_.size(), 0);
  send_ended_.assign(schedule_.size(), false);
  node_failed_.assign(nodes, false);
  std::vector<uint64_t> next_sent(nodes), next_received(nodes);
  for (uint64_t i = 0; i < schedule_.size(); ++i) {
    const ScheduledMessage& message = schedule_[i];
    send_address_[i] = next_sent[message.src]++ * bytes;
    receive_address_[i] =
        (sent[message.dst] + next_received[message.dst]++) * bytes;
    connections_[Key(message.src, message.dst)].messages.push_back(i);
  }
  node_slots_.resize(nodes);
  for (uint32_t n = 0; n < nodes; ++n) {
    node_slots_[n] = next_sent[n] + next_received[n];
  }
}

// The connections in a fixed order, so that the QPNs do not depend on the
// hash map's.
void TrafficWorkload::Connect() {
  std::vector<uint64_t> keys;
  keys.reserve(connections_.size());
  for (const auto& [key, unused] : connections_) {
    keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const uint64_t key : keys) {
    pairs.emplace_back(static_cast<uint32_t>(key / engines_.size()),
                       static_cast<uint32_t>(key % engines_.size()));
  }
  const std::vector<QpPair> qps =
      ConnectPairs(engines_, pairs, config_.pmtu, config_.congestion);
  for (size_t i = 0; i < keys.size(); ++i) {
    connections_[keys[i]].src_qp = qps[i].a;
    connections_[keys[i]].dst_qp = qps[i].b;
  }
}

uint64_t TrafficWorkload::memory_bytes(unsigned node) const {
  return node_slots_.at(node) * config_.message_bytes;
}

Bytes TrafficWorkload::MessageBytes(uint64_t index) const {
  Bytes bytes(config_.message_bytes);
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = i < kIndexBytes && bytes.size() >= kIndexBytes
                   ? static_cast<uint8_t>(index >> (8 * i))
                   : static_cast<uint8_t>(index * 131 + i * 7 + (i >> 8));
  }
  return bytes;
}

void TrafficWorkload::Post() {
  if (NowPs() == 0 && next_post_ == 0) {
    PostReceives();
    if (own_sends_ == 0) {
      done_();
    }
  }
  while (next_post_ < schedule_.size() &&
         schedule_[next_post_].at_ps <= NowPs()) {
    if (Here(schedule_[next_post_].src)) {
      PostSend(next_post_);
    }
    ++next_post_;
  }
  if (next_post_ < schedule_.size()) {
    next_trigger(
        sc_core::sc_time::from_value(schedule_[next_post_].at_ps - NowPs()));
  }
}

// Every receive a connection's SENDs will consume, in their order: the
// k-th SEND of a connection lands in the k-th receive posted (TRN-6.8).
void TrafficWorkload::PostReceives() {
  for (const auto& [key, connection] : connections_) {
    TransportEngine* engine = engines_[key % engines_.size()];
    if (engine == nullptr) {
      continue;  // its destination is another rank's
    }
    for (const uint64_t index : connection.messages) {
      engine
          ->PostReceive(connection.dst_qp, RecvWr{index, config_.message_bytes},
                        receive_address_[index])
          .value();  // the QP is in RTS and the wr_id new: cannot fail
    }
  }
}

void TrafficWorkload::PostSend(uint64_t index) {
  const ScheduledMessage& message = schedule_[index];
  if (node_failed_[message.src]) {
    ++outcome_.unposted;
    SendEnded(index, true);
    return;
  }
  memories_.write(message.src, send_address_[index], MessageBytes(index));
  SendWr wr;
  wr.wr_id = index;
  wr.kind = SendKind::kSend;
  wr.length = config_.message_bytes;
  const Connection& connection = connections_.at(Key(message.src, message.dst));
  engines_[message.src]
      ->PostSend(connection.src_qp, wr, send_address_[index])
      .value();  // the QP is in RTS or ERROR (which flushes): cannot fail
  ++outcome_.posted;
}

void TrafficWorkload::OnCompletions(unsigned node) {
  for (const EngineCompletion& done : engines_[node]->PollCompletions()) {
    if (node_failed_[node]) {
      continue;  // a dead node's engine reports nothing
    }
    if (done.receive) {
      Received(node, done.completion);
    } else {
      SendEnded(done.completion.wr_id,
                done.completion.status != CompletionStatus::kSuccess);
    }
  }
}

void TrafficWorkload::SendEnded(uint64_t index, bool failed) {
  if (send_ended_[index]) {
    return;
  }
  send_ended_[index] = true;
  ++sends_ended_;
  outcome_.failed += failed ? 1 : 0;
  if (sends_ended_ == own_sends_) {
    done_();
  }
}

void TrafficWorkload::NodeFailed(uint32_t node) {
  node_failed_.at(node) = true;
  for (uint64_t i = 0; i < next_post_; ++i) {
    if (schedule_[i].src == node && Here(node)) {
      SendEnded(i, true);
    }
  }
}

TrafficOutcome TrafficWorkload::outcome() const {
  TrafficOutcome outcome = outcome_;
  for (uint64_t i = 0; i < schedule_.size(); ++i) {
    if (!landed_[i] &&
        (node_failed_[schedule_[i].src] || node_failed_[schedule_[i].dst])) {
      ++outcome.endpoint_failed;
    }
    if (const uint64_t landed = landed_intact_ps_[i]; landed != 0) {
      outcome.last_delivery_ps = std::max(outcome.last_delivery_ps, landed);
      outcome.latencies_ns.push_back(
          static_cast<double>(landed - schedule_[i].at_ps) / 1000.0);
    }
  }
  return outcome;
}

namespace {

// The counts a rank's share carries, in one order for packing and
// taking in.
template <typename Outcome, typename Visit>
void ForEachShareCount(Outcome& o, Visit visit) {
  for (auto* count :
       {&o.posted, &o.delivered, &o.corrupted, &o.reordered, &o.duplicated,
        &o.failed, &o.unposted, &o.payload_bytes}) {
    visit(*count);
  }
}

}  // namespace

Bytes TrafficWorkload::PackShare() const {
  Bytes packed;
  parallel::WireWriter out(packed);
  ForEachShareCount(outcome_, [&out](uint64_t count) { out.U64(count); });
  for (uint64_t i = 0; i < schedule_.size(); ++i) {
    if (landed_[i]) {  // at one of this rank's cards
      out.U64(i);
      out.U64(landed_intact_ps_[i]);
    }
  }
  return packed;
}

void TrafficWorkload::AbsorbShare(ByteView share) {
  parallel::WireReader in(share);
  ForEachShareCount(outcome_, [&in](uint64_t& count) { count += in.U64(); });
  while (!in.done()) {
    const uint64_t index = in.U64();
    landed_.at(index) = true;
    landed_intact_ps_.at(index) = in.U64();
  }
}

std::optional<uint64_t> TrafficWorkload::landed_ps(uint64_t index) const {
  if (landed_intact_ps_.at(index) == 0) {
    return std::nullopt;
  }
  return landed_intact_ps_[index];
}

void TrafficWorkload::Received(unsigned node, const Completion& completion) {
  if (completion.status != CompletionStatus::kSuccess) {
    return;  // flushed: its SEND fails and is counted there
  }
  const uint64_t index = completion.wr_id;
  if (landed_[index]) {
    ++outcome_.duplicated;
    return;
  }
  landed_[index] = true;
  const ByteView got =
      memories_.read(node, receive_address_[index], config_.message_bytes);
  const Bytes expected = MessageBytes(index);
  if (completion.byte_length != config_.message_bytes ||
      !std::equal(got.begin(), got.end(), expected.begin())) {
    // Another message of the same connection, intact, is out of order.
    uint64_t carried = 0;
    for (size_t i = 0; i < kIndexBytes && i < got.size(); ++i) {
      carried |= uint64_t{got[i]} << (8 * i);
    }
    const bool intact = got.size() >= kIndexBytes &&
                        carried < schedule_.size() &&
                        schedule_[carried].dst == node &&
                        schedule_[carried].src == schedule_[index].src &&
                        MessageBytes(carried) == Bytes(got.begin(), got.end());
    ++(intact ? outcome_.reordered : outcome_.corrupted);
    return;
  }
  ++outcome_.delivered;
  landed_intact_ps_[index] = NowPs();
  outcome_.payload_bytes += config_.message_bytes;
}

}  // namespace lq::transport
