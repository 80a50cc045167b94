// SPDX-License-Identifier: Apache-2.0
// Tests of the collective schedules: well-formed DAGs, message and byte
// counts, dependencies checked against every read-after-write pair, and a
// symbolic execution showing that each AllReduce leaves every node holding
// every node's contribution in every byte, in any order the DAG allows.
#include "models/network/collective.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <optional>
#include <random>
#include <set>
#include <utility>

#include "models/topology/torus.h"

namespace lq::net {
namespace {

CollectiveSchedule Make(const std::string& name, uint32_t nodes,
                        const std::vector<uint32_t>& sizes = {},
                        const topo::ParamMap& params = {}) {
  Result<CollectiveSchedule> schedule =
      CreateCollective(name, nodes, sizes, params);
  EXPECT_TRUE(schedule.ok())
      << name << ": " << (schedule.ok() ? "" : schedule.error().reason);
  return schedule.ok() ? std::move(schedule).value() : CollectiveSchedule{};
}

uint32_t Product(const std::vector<uint32_t>& sizes) {
  uint32_t product = 1;
  for (uint32_t size : sizes) {
    product *= size;
  }
  return product;
}

std::string Shape(const std::vector<uint32_t>& sizes) {
  std::string text;
  for (uint32_t size : sizes) {
    text += (text.empty() ? "" : "x") + std::to_string(size);
  }
  return text;
}

CollectiveSchedule Hierarchical(const std::vector<uint32_t>& sizes,
                                uint64_t bytes) {
  return Make("hierarchical_allreduce", Product(sizes), sizes,
              {{"bytes", std::to_string(bytes)}});
}

CollectiveSchedule Ring(uint32_t nodes, uint64_t bytes) {
  return Make("ring_allreduce", nodes, {}, {{"bytes", std::to_string(bytes)}});
}

bool Adjacent(const topo::Torus& torus, uint32_t a, uint32_t b) {
  for (topo::PortId port = 0; port < torus.PortCount(a); ++port) {
    const auto far = torus.Neighbour(a, port);
    if (far && far->node == b) {
      return true;
    }
  }
  return false;
}

// The one dimension along which a message between neighbours moves.
size_t DimensionOf(const topo::Torus& torus, const CollectiveMessage& m) {
  for (size_t dim = 0; dim < torus.Dimensions(); ++dim) {
    if (torus.Coordinate(m.src, dim) != torus.Coordinate(m.dst, dim)) {
      return dim;
    }
  }
  return torus.Dimensions();
}

// The properties every schedule has, whatever the collective.
void ExpectWellFormed(const CollectiveSchedule& schedule) {
  std::set<std::pair<uint32_t, uint32_t>> step_senders;
  for (uint32_t i = 0; i < schedule.messages.size(); ++i) {
    const CollectiveMessage& m = schedule.messages[i];
    ASSERT_EQ(m.id, i) << "an id is the message's index";
    ASSERT_LT(m.src, schedule.nodes);
    ASSERT_LT(m.dst, schedule.nodes);
    ASSERT_NE(m.src, m.dst) << "message " << i << ": no node sends to itself";
    ASSERT_GT(m.bytes, 0u) << "message " << i << " carries nothing";
    ASSERT_LE(m.offset + m.bytes, schedule.buffer_bytes)
        << "message " << i << " reaches past the buffer";
    ASSERT_LT(m.step, schedule.steps);
    if (i > 0) {
      ASSERT_GE(m.step, schedule.messages[i - 1].step)
          << "messages come in step order, for reports";
    }
    ASSERT_TRUE(step_senders.insert({m.step, m.src}).second)
        << "node " << m.src << " sends twice in step " << m.step;
    ASSERT_TRUE(std::adjacent_find(m.after.begin(), m.after.end(),
                                   std::greater_equal<uint32_t>()) ==
                m.after.end())
        << "message " << i << ": dependencies ascend without repeats";
    for (uint32_t before : m.after) {
      ASSERT_LT(before, m.id) << "a dependency on a later message could "
                                 "close a cycle";
      ASSERT_EQ(schedule.messages[before].dst, m.src)
          << "message " << i << " waits for message " << before
          << ", which is not delivered at its sender";
    }
  }
}

// ---------------------------------------------------------------------------
// Symbolic execution.

// Which nodes' contributions a piece of a buffer holds.
constexpr uint32_t kMaxSymbolicNodes = 256;
using Contributions = std::bitset<kMaxSymbolicNodes>;

enum class Order {
  kById,        // Each message sent and at once delivered, in id order.
  kRandom,      // Sends and deliveries interleaved at random.
  kEagerSends,  // Sent the moment the DAG allows, delivered in random order
                // only when nothing can be sent: stale payloads show.
};

// Runs an AllReduce schedule on symbolic buffers. Each node's buffer starts
// holding its own contribution only; a reduce adds the payload's
// contributions into the receiver's range and a copy replaces it. The
// payload is read when a message is sent, as a NIC would read it, and a
// message is sent only once every message in its `after` list has been
// delivered. A message can be withheld: delivered only when nothing else can
// happen, which exposes anything that should have waited for it.
class SymbolicRun {
 public:
  explicit SymbolicRun(const CollectiveSchedule& schedule)
      : schedule_(schedule), dependents_(schedule.messages.size()) {
    bounds_ = {0, schedule.buffer_bytes};
    for (const CollectiveMessage& m : schedule.messages) {
      bounds_.push_back(m.offset);
      bounds_.push_back(m.offset + m.bytes);
      for (uint32_t before : m.after) {
        dependents_[before].push_back(m.id);
      }
    }
    std::sort(bounds_.begin(), bounds_.end());
    bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
  }

  // Why the result is wrong, or "" if every node ends up holding every
  // node's contribution in every byte.
  std::string Execute(Order order, uint64_t seed,
                      std::optional<uint32_t> withheld = std::nullopt) {
    if (schedule_.nodes > kMaxSymbolicNodes) {
      return "too many nodes for the symbolic run";
    }
    Reset();
    std::mt19937_64 random(seed);
    size_t delivered = 0;
    while (delivered < schedule_.messages.size()) {
      const bool send = ChooseSend(order, random, withheld);
      if (send) {
        SendOne(order, random);
      }
      if (!send || order == Order::kById) {
        if (in_flight_.empty()) {
          return "deadlock: messages wait for ones never sent";
        }
        const std::string failure = DeliverOne(random, withheld);
        if (!failure.empty()) {
          return failure;
        }
        ++delivered;
      }
    }
    return MissingContributions();
  }

 private:
  struct InFlight {
    uint32_t id;
    std::vector<Contributions> payload;
  };

  void Reset() {
    const size_t segments = bounds_.size() - 1;
    buffers_.assign(schedule_.nodes, {});
    for (uint32_t node = 0; node < schedule_.nodes; ++node) {
      buffers_[node].assign(segments, Contributions().set(node));
    }
    waiting_for_.clear();
    ready_.clear();
    in_flight_.clear();
    for (const CollectiveMessage& m : schedule_.messages) {
      waiting_for_.push_back(m.after.size());
      if (m.after.empty()) {
        ready_.push_back(m.id);
      }
    }
  }

  bool Deliverable(std::optional<uint32_t> withheld) const {
    return std::any_of(in_flight_.begin(), in_flight_.end(),
                       [&](const InFlight& f) { return f.id != withheld; });
  }

  bool ChooseSend(Order order, std::mt19937_64& random,
                  std::optional<uint32_t> withheld) const {
    if (ready_.empty()) {
      return false;
    }
    if (order != Order::kRandom || !Deliverable(withheld)) {
      return true;
    }
    return random() % (ready_.size() + in_flight_.size()) < ready_.size();
  }

  void SendOne(Order order, std::mt19937_64& random) {
    auto pick = order == Order::kById
                    ? std::min_element(ready_.begin(), ready_.end())
                    : ready_.begin() + random() % ready_.size();
    const CollectiveMessage& m = schedule_.messages[*pick];
    ready_.erase(pick);
    const auto [first, last] = Segments(m);
    in_flight_.push_back(
        {m.id,
         {buffers_[m.src].begin() + first, buffers_[m.src].begin() + last}});
  }

  std::string DeliverOne(std::mt19937_64& random,
                         std::optional<uint32_t> withheld) {
    std::vector<size_t> choices;
    for (size_t i = 0; i < in_flight_.size(); ++i) {
      if (in_flight_[i].id != withheld) {
        choices.push_back(i);
      }
    }
    const size_t pick =
        choices.empty() ? 0 : choices[random() % choices.size()];
    const InFlight flight = std::move(in_flight_[pick]);
    in_flight_.erase(in_flight_.begin() + static_cast<ptrdiff_t>(pick));
    const std::string failure = Apply(flight);
    for (uint32_t next : dependents_[flight.id]) {
      if (--waiting_for_[next] == 0) {
        ready_.push_back(next);
      }
    }
    return failure;
  }

  std::string Apply(const InFlight& flight) {
    const CollectiveMessage& m = schedule_.messages[flight.id];
    const auto [first, last] = Segments(m);
    for (size_t s = first; s < last; ++s) {
      Contributions& held = buffers_[m.dst][s];
      const Contributions& carried = flight.payload[s - first];
      if (m.op == CollectiveOp::kCopy) {
        held = carried;
      } else if ((held & carried).any()) {
        return "message " + std::to_string(m.id) + " adds a contribution " +
               "node " + std::to_string(m.dst) + " already holds";
      } else {
        held |= carried;
      }
    }
    return "";
  }

  std::string MissingContributions() const {
    Contributions all;
    for (uint32_t node = 0; node < schedule_.nodes; ++node) {
      all.set(node);
    }
    for (uint32_t node = 0; node < schedule_.nodes; ++node) {
      for (size_t s = 0; s + 1 < bounds_.size(); ++s) {
        if (buffers_[node][s] != all) {
          return "node " + std::to_string(node) + " bytes [" +
                 std::to_string(bounds_[s]) + ", " +
                 std::to_string(bounds_[s + 1]) + ") hold " +
                 std::to_string(buffers_[node][s].count()) + " of " +
                 std::to_string(schedule_.nodes) + " contributions";
        }
      }
    }
    return "";
  }

  std::pair<size_t, size_t> Segments(const CollectiveMessage& m) const {
    const auto first =
        std::lower_bound(bounds_.begin(), bounds_.end(), m.offset);
    const auto last =
        std::lower_bound(bounds_.begin(), bounds_.end(), m.offset + m.bytes);
    return {static_cast<size_t>(first - bounds_.begin()),
            static_cast<size_t>(last - bounds_.begin())};
  }

  const CollectiveSchedule& schedule_;
  std::vector<uint64_t> bounds_;  // Where any message's range starts or ends.
  std::vector<std::vector<uint32_t>> dependents_;
  std::vector<std::vector<Contributions>> buffers_;  // Node, segment.
  std::vector<size_t> waiting_for_;  // Undelivered dependencies per message.
  std::vector<uint32_t> ready_;
  std::vector<InFlight> in_flight_;
};

// Passes in id order, in random interleavings and with eager sends.
void ExpectAllReduces(const CollectiveSchedule& schedule,
                      const std::string& what) {
  SymbolicRun run(schedule);
  EXPECT_EQ(run.Execute(Order::kById, 0), "") << what << ", in id order";
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    EXPECT_EQ(run.Execute(Order::kRandom, seed), "")
        << what << ", random order " << seed;
    EXPECT_EQ(run.Execute(Order::kEagerSends, seed), "")
        << what << ", eager sends " << seed;
  }
}

// The schedule without message `id`, renumbered, with the dependencies on
// it dropped: still well formed, so only the semantic check can notice.
CollectiveSchedule WithoutMessage(CollectiveSchedule schedule, uint32_t id) {
  schedule.messages.erase(schedule.messages.begin() + id);
  for (CollectiveMessage& m : schedule.messages) {
    m.id -= m.id > id ? 1 : 0;
    m.after.erase(std::remove(m.after.begin(), m.after.end(), id),
                  m.after.end());
    for (uint32_t& before : m.after) {
      before -= before > id ? 1 : 0;
    }
  }
  return schedule;
}

TEST(CollectiveTest, RingAllReduceLeavesTheFullSumEverywhere) {
  for (uint32_t nodes : {2u, 3u, 5u, 8u}) {
    // An odd byte count makes parts of unequal size.
    const CollectiveSchedule ring = Ring(nodes, 1000 * nodes + 7);
    ExpectWellFormed(ring);
    ExpectAllReduces(ring, "ring of " + std::to_string(nodes));
  }
}

TEST(CollectiveTest, HierarchicalAllReduceLeavesTheFullSumEverywhere) {
  const std::vector<std::vector<uint32_t>> shapes = {
      {4}, {2, 2}, {4, 4}, {2, 3, 4}, {4, 8, 8}, {3, 1, 5}, {1, 2, 1}};
  for (const auto& sizes : shapes) {
    const CollectiveSchedule schedule = Hierarchical(sizes, 4099);
    ExpectWellFormed(schedule);
    ExpectAllReduces(schedule, "torus " + Shape(sizes));
  }
}

TEST(CollectiveTest, SnakeRingAllReduceLeavesTheFullSumEverywhere) {
  const CollectiveSchedule snake =
      Make("ring_allreduce", 15, {3, 5}, {{"order", "snake"}, {"bytes", "97"}});
  ExpectWellFormed(snake);
  ExpectAllReduces(snake, "snake ring over 3x5");
}

TEST(CollectiveTest, SemanticCheckRejectsAScheduleMissingAnyMessage) {
  for (const CollectiveSchedule& schedule :
       {Ring(5, 1000), Hierarchical({2, 3}, 600)}) {
    for (uint32_t id = 0; id < schedule.messages.size(); ++id) {
      const CollectiveSchedule broken = WithoutMessage(schedule, id);
      ExpectWellFormed(broken);
      EXPECT_NE(SymbolicRun(broken).Execute(Order::kById, 0), "")
          << schedule.name << " without message " << id
          << " still passes: the check could not fail";
    }
  }
}

TEST(CollectiveTest, SemanticCheckRejectsAReduceTurnedIntoACopyAndBack) {
  CollectiveSchedule schedule = Ring(4, 400);
  schedule.messages[1].op = CollectiveOp::kCopy;
  EXPECT_NE(SymbolicRun(schedule).Execute(Order::kById, 0), "")
      << "a copy in the reduce-scatter loses contributions";
  schedule = Ring(4, 400);
  schedule.messages.back().op = CollectiveOp::kReduce;
  EXPECT_NE(SymbolicRun(schedule).Execute(Order::kById, 0).find("already"),
            std::string::npos)
      << "a reduce in the all-gather counts contributions twice";
}

// Dropping any one dependency and withholding the message it named lets
// the dependent go with stale data: every listed dependency is needed.
TEST(CollectiveTest, EveryDependencyIsNeeded) {
  for (const CollectiveSchedule& schedule :
       {Ring(5, 1000), Hierarchical({3, 2, 2}, 1200),
        Hierarchical({2, 3, 4}, 2400)}) {
    for (const CollectiveMessage& m : schedule.messages) {
      for (uint32_t before : m.after) {
        CollectiveSchedule broken = schedule;
        auto& after = broken.messages[m.id].after;
        after.erase(std::find(after.begin(), after.end(), before));
        EXPECT_NE(SymbolicRun(broken).Execute(Order::kRandom, 1, before), "")
            << schedule.name << ": message " << m.id
            << " goes safely without waiting for message " << before;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Dependencies against the read-after-write pairs.

// A set of message ids.
class IdSet {
 public:
  explicit IdSet(size_t size) : words_((size + 63) / 64) {}
  void Add(uint32_t id) { words_[id / 64] |= uint64_t{1} << (id % 64); }
  bool Has(uint32_t id) const { return (words_[id / 64] >> (id % 64)) & 1; }
  void AddAll(const IdSet& other) {
    for (size_t i = 0; i < words_.size(); ++i) {
      words_[i] |= other.words_[i];
    }
  }

 private:
  std::vector<uint64_t> words_;
};

// Every message's ancestors: its dependencies and theirs.
std::vector<IdSet> Ancestors(const CollectiveSchedule& schedule) {
  std::vector<IdSet> ancestors;
  for (const CollectiveMessage& m : schedule.messages) {
    IdSet mine(schedule.messages.size());
    for (uint32_t before : m.after) {
      mine.Add(before);
      mine.AddAll(ancestors[before]);
    }
    ancestors.push_back(std::move(mine));
  }
  return ancestors;
}

// Earlier messages delivered at `m.src` into bytes `m` carries.
std::vector<uint32_t> ReadAfterWrite(const CollectiveSchedule& schedule,
                                     const CollectiveMessage& m) {
  std::vector<uint32_t> writers;
  for (uint32_t id = 0; id < m.id; ++id) {
    const CollectiveMessage& w = schedule.messages[id];
    if (w.dst == m.src && w.offset < m.offset + m.bytes &&
        m.offset < w.offset + w.bytes) {
      writers.push_back(id);
    }
  }
  return writers;
}

// `after` is the transitive reduction of the read-after-write pairs: each
// is read-after-write, every such pair follows from them, none from another.
void ExpectExactDependencies(const CollectiveSchedule& schedule) {
  const std::vector<IdSet> ancestors = Ancestors(schedule);
  for (const CollectiveMessage& m : schedule.messages) {
    const std::vector<uint32_t> writers = ReadAfterWrite(schedule, m);
    for (uint32_t before : m.after) {
      ASSERT_TRUE(std::binary_search(writers.begin(), writers.end(), before))
          << schedule.name << ": message " << m.id << " waits for message "
          << before << ", which wrote none of its bytes";
      for (uint32_t other : m.after) {
        ASSERT_FALSE(ancestors[other].Has(before))
            << schedule.name << ": message " << m.id << " lists " << before
            << ", already implied by " << other;
      }
    }
    for (uint32_t writer : writers) {
      ASSERT_TRUE(ancestors[m.id].Has(writer))
          << schedule.name << ": message " << m.id << " may leave before "
          << "message " << writer << " has written bytes it carries";
    }
  }
}

TEST(CollectiveTest, DependenciesAreExactlyTheReadAfterWritePairs) {
  for (uint32_t nodes : {2u, 3u, 5u, 8u}) {
    ExpectExactDependencies(Ring(nodes, 999));
  }
  ExpectExactDependencies(
      Make("ring_allreduce", 24, {2, 3, 4}, {{"order", "snake"}}));
  const std::vector<std::vector<uint32_t>> shapes = {
      {4}, {2, 2}, {4, 4}, {2, 3, 4}, {3, 3, 3}, {4, 8, 8}, {2, 1, 3}};
  for (const auto& sizes : shapes) {
    SCOPED_TRACE("torus " + Shape(sizes));
    ExpectExactDependencies(Hierarchical(sizes, 5003));
  }
}

// ---------------------------------------------------------------------------
// Counts and shapes.

TEST(CollectiveTest, RingSendsEveryStepToTheSuccessorAfterThePreviousStep) {
  const uint32_t nodes = 6;
  const CollectiveSchedule ring = Ring(nodes, 6000);
  ASSERT_EQ(ring.steps, 2 * (nodes - 1)) << "N-1 reduce-scatter, N-1 gather";
  ASSERT_EQ(ring.messages.size(), nodes * ring.steps);
  // [step][node]: the message the node received in that step.
  std::vector<std::vector<uint32_t>> received(ring.steps,
                                              std::vector<uint32_t>(nodes));
  for (const CollectiveMessage& m : ring.messages) {
    received[m.step][m.dst] = m.id;
  }
  for (const CollectiveMessage& m : ring.messages) {
    EXPECT_EQ(m.dst, (m.src + 1) % nodes) << "order=ids: ring 0..N-1";
    EXPECT_EQ(m.op,
              m.step < nodes - 1 ? CollectiveOp::kReduce : CollectiveOp::kCopy);
    if (m.step == 0) {
      EXPECT_TRUE(m.after.empty()) << "step 0 sends the node's own data";
    } else {
      EXPECT_EQ(m.after, std::vector<uint32_t>{received[m.step - 1][m.src]})
          << "message " << m.id << " forwards what arrived in the last step";
    }
  }
}

TEST(CollectiveTest, RingStepsTileTheBufferAndBytesSumExactly) {
  for (uint32_t nodes : {2u, 3u, 5u, 8u, 16u}) {
    for (uint64_t bytes : {uint64_t{nodes} * 1024, uint64_t{1000003}}) {
      const CollectiveSchedule ring = Ring(nodes, bytes);
      std::vector<std::vector<std::pair<uint64_t, uint64_t>>> by_step(
          ring.steps);
      std::vector<uint64_t> sent(nodes), messages(nodes);
      for (const CollectiveMessage& m : ring.messages) {
        by_step[m.step].push_back({m.offset, m.bytes});
        sent[m.src] += m.bytes;
        ++messages[m.src];
      }
      for (auto& parts : by_step) {
        std::sort(parts.begin(), parts.end());
        uint64_t end = 0;
        for (const auto& [offset, size] : parts) {
          EXPECT_EQ(offset, end) << "a step's parts tile the buffer";
          end = offset + size;
        }
        EXPECT_EQ(end, bytes) << "a step's parts sum to the buffer";
      }
      const uint64_t floor = bytes / nodes;
      const uint64_t ceil = (bytes + nodes - 1) / nodes;
      uint64_t total = 0;
      for (uint32_t node = 0; node < nodes; ++node) {
        EXPECT_EQ(messages[node], 2 * (nodes - 1));
        if (bytes % nodes == 0) {
          EXPECT_EQ(sent[node], 2 * (nodes - 1) * bytes / nodes)
              << "2(N-1)/N of the buffer from each node";
        }
        EXPECT_GE(sent[node], 2 * (nodes - 1) * floor);
        EXPECT_LE(sent[node], 2 * (nodes - 1) * ceil);
        total += sent[node];
      }
      EXPECT_EQ(total, 2 * (nodes - 1) * bytes) << "each part crosses N-1 "
                                                   "links in each phase";
    }
  }
}

TEST(CollectiveTest, HierarchicalMovesAlongOneDimensionAtATime) {
  const std::vector<uint32_t> sizes = {2, 1, 3, 4};
  const CollectiveSchedule schedule = Hierarchical(sizes, 24 * 1000);
  const topo::Torus torus = topo::Torus::Create(sizes).value();
  // Reduce-scatter along X, Z, W, then all-gather along W, Z, X.
  const std::vector<std::pair<size_t, CollectiveOp>> phases = {
      {0, CollectiveOp::kReduce}, {2, CollectiveOp::kReduce},
      {3, CollectiveOp::kReduce}, {3, CollectiveOp::kCopy},
      {2, CollectiveOp::kCopy},   {0, CollectiveOp::kCopy}};
  std::vector<std::pair<size_t, CollectiveOp>> seen;
  for (const CollectiveMessage& m : schedule.messages) {
    ASSERT_TRUE(Adjacent(torus, m.src, m.dst))
        << "message " << m.id << " is not between torus neighbours";
    const std::pair<size_t, CollectiveOp> phase = {DimensionOf(torus, m), m.op};
    if (seen.empty() || seen.back() != phase) {
      seen.push_back(phase);
    }
  }
  EXPECT_TRUE(seen == phases) << "dimensions in order down, reverse order up";
  EXPECT_EQ(schedule.steps, 2 * (1 + 2 + 3)) << "2(a-1) steps per dimension";
}

TEST(CollectiveTest, HierarchicalBytesPerDimensionSumExactly) {
  for (const auto& sizes :
       std::vector<std::vector<uint32_t>>{{4, 4}, {2, 3, 4}, {4, 8, 8}}) {
    const uint32_t nodes = Product(sizes);
    const topo::Torus torus = topo::Torus::Create(sizes).value();
    for (uint64_t bytes : {uint64_t{nodes} * 64, uint64_t{100003}}) {
      const CollectiveSchedule schedule = Hierarchical(sizes, bytes);
      // [dimension][node]: bytes and messages sent while reducing.
      std::vector<std::vector<uint64_t>> sent(sizes.size(),
                                              std::vector<uint64_t>(nodes));
      std::vector<std::vector<uint64_t>> messages = sent;
      std::vector<uint64_t> gathered(sizes.size());
      for (const CollectiveMessage& m : schedule.messages) {
        const size_t dim = DimensionOf(torus, m);
        if (m.op == CollectiveOp::kReduce) {
          sent[dim][m.src] += m.bytes;
          ++messages[dim][m.src];
        } else {
          gathered[dim] += m.bytes;
        }
      }
      uint64_t reduced_over = 1;  // Nodes sharing one shard so far.
      for (size_t dim = 0; dim < sizes.size(); ++dim) {
        const uint64_t a = sizes[dim];
        reduced_over *= a;
        uint64_t total = 0;
        for (uint32_t node = 0; node < nodes; ++node) {
          EXPECT_EQ(messages[dim][node], a - 1) << "a-1 steps per dimension";
          if (bytes % nodes == 0) {
            EXPECT_EQ(sent[dim][node], (a - 1) * bytes / reduced_over)
                << "(a-1)/a of the shard, which shrank by the earlier sizes";
          }
          total += sent[dim][node];
        }
        // Each ring sends every part of its shard a-1 times; the shards of
        // the rings in one plane tile the buffer.
        const uint64_t expected = (a - 1) * bytes * (nodes / reduced_over);
        EXPECT_EQ(total, expected) << "reduce-scatter bytes, dim " << dim;
        EXPECT_EQ(gathered[dim], expected) << "all-gather mirrors it";
      }
    }
  }
}

TEST(CollectiveTest, OneDimensionalHierarchicalIsTheRing) {
  const CollectiveSchedule ring = Ring(4, 1001);
  for (const auto& sizes : std::vector<std::vector<uint32_t>>{{4}, {1, 4, 1}}) {
    const CollectiveSchedule flat = Hierarchical(sizes, 1001);
    ASSERT_EQ(flat.messages.size(), ring.messages.size());
    for (size_t i = 0; i < ring.messages.size(); ++i) {
      const CollectiveMessage& a = ring.messages[i];
      const CollectiveMessage& b = flat.messages[i];
      EXPECT_TRUE(a.src == b.src && a.dst == b.dst && a.offset == b.offset &&
                  a.bytes == b.bytes && a.op == b.op && a.step == b.step &&
                  a.after == b.after)
          << "torus " << Shape(sizes) << " message " << i;
    }
  }
}

TEST(CollectiveTest, TorusRingOrderVisitsEveryNodeByOneHopSteps) {
  std::vector<std::vector<uint32_t>> shapes = {
      {2},       {7},          {3, 3, 3}, {2, 3, 5},   {5, 3, 2},
      {3, 5, 7}, {1, 4, 1, 3}, {4, 8, 8}, {2, 2, 2, 2}};
  for (uint32_t x = 1; x <= 7; ++x) {
    for (uint32_t y = 1; y <= 7; ++y) {
      if (x * y > 1) {
        shapes.push_back({x, y});
      }
    }
  }
  for (const auto& sizes : shapes) {
    const std::vector<uint32_t> ring = TorusRingOrder(sizes);
    const topo::Torus torus = topo::Torus::Create(sizes).value();
    ASSERT_EQ(ring.size(), Product(sizes)) << Shape(sizes);
    ASSERT_EQ(std::set<uint32_t>(ring.begin(), ring.end()).size(), ring.size())
        << Shape(sizes) << ": a node twice";
    for (size_t i = 0; i < ring.size(); ++i) {
      const uint32_t next = ring[(i + 1) % ring.size()];
      EXPECT_TRUE(Adjacent(torus, ring[i], next))
          << Shape(sizes) << ": " << ring[i] << " -> " << next
          << " is more than one hop";
    }
  }
}

TEST(CollectiveTest, SnakeRingAllReduceUsesOnlyTorusLinks) {
  const std::vector<uint32_t> sizes = {4, 3, 3};
  const CollectiveSchedule snake =
      Make("ring_allreduce", 36, sizes, {{"order", "snake"}});
  const topo::Torus torus = topo::Torus::Create(sizes).value();
  std::set<uint32_t> successors;
  for (const CollectiveMessage& m : snake.messages) {
    EXPECT_TRUE(Adjacent(torus, m.src, m.dst)) << "message " << m.id;
    successors.insert(m.dst);
  }
  EXPECT_EQ(successors.size(), 36u) << "one ring through every node";
}

TEST(CollectiveTest, AllToAllSendsEveryOrderedPairOnceInStaggeredRounds) {
  const uint32_t nodes = 7;
  const CollectiveSchedule schedule =
      Make("alltoall", nodes, {}, {{"bytes", "300"}});
  ExpectWellFormed(schedule);
  EXPECT_EQ(schedule.buffer_bytes, nodes * 300u) << "one block per source";
  EXPECT_EQ(schedule.steps, nodes - 1);
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  std::set<std::pair<uint32_t, uint32_t>> step_receivers;
  for (const CollectiveMessage& m : schedule.messages) {
    EXPECT_TRUE(pairs.insert({m.src, m.dst}).second)
        << m.src << " -> " << m.dst << " twice";
    EXPECT_TRUE(step_receivers.insert({m.step, m.dst}).second)
        << "node " << m.dst << " hit twice in round " << m.step;
    EXPECT_EQ(m.dst, (m.src + m.step + 1) % nodes) << "k-th goes k on";
    EXPECT_EQ(m.offset, m.src * 300u) << "lands in the source's block";
    EXPECT_EQ(m.bytes, 300u);
    EXPECT_EQ(m.op, CollectiveOp::kCopy);
    EXPECT_TRUE(m.after.empty()) << "all-to-all blocks depend on nothing";
  }
  EXPECT_EQ(pairs.size(), nodes * (nodes - 1)) << "every ordered pair";
}

// ---------------------------------------------------------------------------
// Registry.

TEST(CollectiveTest, CatalogueEntriesBuildWithTheirDefaults) {
  std::set<std::string> names;
  for (const topo::ComponentInfo& info : CollectiveCatalogue()) {
    names.insert(info.name);
    EXPECT_FALSE(info.summary.empty()) << info.name;
    for (const topo::ParamSpec& param : info.params) {
      EXPECT_FALSE(param.meaning.empty()) << info.name << "." << param.name;
      EXPECT_FALSE(param.default_value.empty())
          << info.name << "." << param.name;
    }
    const CollectiveSchedule schedule = Make(info.name, 16, {4, 4});
    EXPECT_EQ(schedule.name, info.name);
    ExpectWellFormed(schedule);
  }
  EXPECT_EQ(names, (std::set<std::string>{"alltoall", "ring_allreduce",
                                          "hierarchical_allreduce"}));
}

TEST(CollectiveTest, RejectsBadNamesParametersAndShapes) {
  struct Case {
    std::string name;
    uint32_t nodes;
    std::vector<uint32_t> sizes;
    topo::ParamMap params;
    std::string expected;  // A part of the error message.
  };
  const std::vector<Case> cases = {
      {"allgather", 8, {}, {}, "unknown collective 'allgather'"},
      {"alltoall", 8, {}, {{"window", "4"}}, "unknown parameter 'window'"},
      {"ring_allreduce", 8, {}, {{"bytes", "1MiB"}}, "bytes: expected"},
      {"ring_allreduce", 8, {}, {{"bytes", "0"}}, "byte count 1.."},
      {"alltoall", 8, {}, {{"bytes", "-1"}}, "bytes: expected"},
      {"alltoall", 8, {}, {{"bytes", "99999999999999999999"}}, "1.."},
      {"alltoall", 8, {}, {{"bytes", "1099511627777"}}, "1..1099511627776"},
      {"ring_allreduce", 8, {}, {{"order", "zigzag"}}, "expected ids|snake"},
      {"ring_allreduce", 1, {}, {}, "needs 2..65535 nodes, got 1"},
      {"alltoall", 0, {}, {}, "got 0"},
      {"alltoall", 70000, {}, {}, "got 70000"},
      {"ring_allreduce", 15, {4, 4}, {}, "4x4 make 16 nodes, expected 15"},
      {"hierarchical_allreduce", 4, {4, 0}, {}, "make 0 nodes"},
      {"hierarchical_allreduce", 16, {}, {}, "needs the torus sizes"},
      {"ring_allreduce", 16, {}, {{"order", "snake"}}, "needs the torus"},
      {"ring_allreduce", 8, {}, {{"bytes", "7"}}, "bytes >= nodes (8)"},
      {"hierarchical_allreduce", 8, {2, 4}, {{"bytes", "5"}}, ">= nodes"},
      {"ring_allreduce", 4096, {}, {}, "messages"},
      {"alltoall", 65535, {}, {}, "messages"},
  };
  for (const Case& c : cases) {
    const Result<CollectiveSchedule> schedule =
        CreateCollective(c.name, c.nodes, c.sizes, c.params);
    ASSERT_FALSE(schedule.ok())
        << c.name << " accepted, expected: " << c.expected;
    EXPECT_NE(schedule.error().reason.find(c.expected), std::string::npos)
        << "got: " << schedule.error().reason;
  }
}

}  // namespace
}  // namespace lq::net
