// SPDX-License-Identifier: Apache-2.0
// The registered collectives, and the ring engine that both AllReduces share:
// reduce-scatter down a list of ring levels, then all-gather back up it.
#include "models/network/collective.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "models/topology/component_registry.h"
#include "models/topology/topology.h"

namespace lq::net {
namespace {

// 1 TiB per buffer; alltoall's receive buffer (nodes x block) then stays far
// from overflowing 64 bits.
constexpr uint64_t kMaxBytes = uint64_t{1} << 40;

struct Shape {
  uint32_t nodes = 0;
  std::vector<uint32_t> torus_sizes;  // Empty unless the nodes form a torus.
};

using Factory = Result<CollectiveSchedule> (*)(const topo::ComponentInfo& info,
                                               const Shape& shape,
                                               const topo::ParamMap& params);

struct Entry {
  topo::ComponentInfo info;
  Factory factory;
};

// A contiguous part of the buffer.
struct Range {
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

// Part `index` of `count` near-equal parts of `range`. The first
// bytes % count parts are one byte longer, so the parts tile it exactly.
Range Part(Range range, uint32_t count, uint32_t index) {
  const uint64_t base = range.bytes / count;
  const uint64_t longer = range.bytes % count;
  return {range.offset + index * base + std::min<uint64_t>(index, longer),
          base + (index < longer ? 1 : 0)};
}

Result<uint64_t> ParseBytes(const std::string& text) {
  // 16 digits hold kMaxBytes and cannot overflow the accumulator below.
  constexpr size_t kMaxDigits = 16;
  const std::string expected = "bytes: expected a byte count 1.." +
                               std::to_string(kMaxBytes) + ", got '" + text +
                               "'";
  if (text.empty() || text.size() > kMaxDigits) {
    return Fail(expected);
  }
  uint64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return Fail(expected);
    }
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value < 1 || value > kMaxBytes) {
    return Fail(expected);
  }
  return value;
}

std::string SizesText(const std::vector<uint32_t>& sizes) {
  std::string text;
  for (uint32_t size : sizes) {
    text += (text.empty() ? "" : "x") + std::to_string(size);
  }
  return text;
}

Result<bool> CheckShape(const Shape& shape) {
  if (shape.nodes < 2 || shape.nodes > topo::kMaxNodes) {
    return Fail("a collective needs 2.." + std::to_string(topo::kMaxNodes) +
                " nodes, got " + std::to_string(shape.nodes));
  }
  if (shape.torus_sizes.empty()) {
    return true;
  }
  uint64_t product = 1;
  for (uint32_t size : shape.torus_sizes) {
    // Capping keeps the product from overflowing; it is wrong either way.
    product = std::min<uint64_t>(product * size, uint64_t{1} << 32);
  }
  if (product != shape.nodes) {
    return Fail("torus sizes " + SizesText(shape.torus_sizes) + " make " +
                std::to_string(product) + " nodes, expected " +
                std::to_string(shape.nodes));
  }
  return true;
}

Result<bool> CheckMessageCount(const std::string& name, uint64_t count) {
  if (count > kMaxCollectiveMessages) {
    return Fail(name + " would need " + std::to_string(count) +
                " messages, more than the " +
                std::to_string(kMaxCollectiveMessages) + " allowed");
  }
  return true;
}

// The AllReduces split the buffer into one part per node at the finest.
Result<uint64_t> AllReduceBytes(const topo::ComponentInfo& info,
                                const Shape& shape,
                                const topo::ParamMap& params) {
  Result<uint64_t> bytes =
      ParseBytes(topo::ParamOrDefault(info, params, "bytes"));
  if (bytes && *bytes < shape.nodes) {
    return Fail(
        info.name + " needs bytes >= nodes (" + std::to_string(shape.nodes) +
        ") so that every part holds a byte, got " + std::to_string(*bytes));
  }
  return bytes;
}

void Append(CollectiveSchedule& schedule, uint32_t src, uint32_t dst,
            Range range, CollectiveOp op, uint32_t step,
            std::vector<uint32_t> after) {
  const auto id = static_cast<uint32_t>(schedule.messages.size());
  schedule.messages.push_back(
      {id, src, dst, range.offset, range.bytes, op, step, std::move(after)});
}

Result<CollectiveSchedule> MakeAllToAll(const topo::ComponentInfo& info,
                                        const Shape& shape,
                                        const topo::ParamMap& params) {
  Result<uint64_t> block =
      ParseBytes(topo::ParamOrDefault(info, params, "bytes"));
  if (!block) {
    return block.error();
  }
  const uint32_t nodes = shape.nodes;
  Result<bool> fits =
      CheckMessageCount(info.name, uint64_t{nodes} * (nodes - 1));
  if (!fits) {
    return fits.error();
  }
  CollectiveSchedule schedule{info.name, nodes, nodes * *block, nodes - 1, {}};
  schedule.messages.reserve(uint64_t{nodes} * (nodes - 1));
  // Round k sends every node to the one k places on: each round is a
  // permutation, so no node is sent to by everyone at once.
  for (uint32_t round = 1; round < nodes; ++round) {
    for (uint32_t src = 0; src < nodes; ++src) {
      Append(schedule, src, (src + round) % nodes, Range{src * *block, *block},
             CollectiveOp::kCopy, round - 1, {});
    }
  }
  return schedule;
}

// The nodes split into rings of equal size whose members hold the same
// shard of the buffer.
struct RingLevel {
  std::vector<std::vector<uint32_t>> rings;  // Members in ring order.
  std::vector<uint32_t> ring_of;             // Node -> its ring.
  std::vector<uint32_t> place;               // Node -> its place there.
};

RingLevel MakeLevel(uint32_t nodes, std::vector<std::vector<uint32_t>> rings) {
  RingLevel level{std::move(rings), std::vector<uint32_t>(nodes),
                  std::vector<uint32_t>(nodes)};
  for (uint32_t ring = 0; ring < level.rings.size(); ++ring) {
    for (uint32_t place = 0; place < level.rings[ring].size(); ++place) {
      level.ring_of[level.rings[ring][place]] = ring;
      level.place[level.rings[ring][place]] = place;
    }
  }
  return level;
}

// Reduce-scatter level by level, then all-gather in reverse, with the ring
// algorithm within each ring: place p ends its level's reduce-scatter owning
// part p of the shard. The dependency lists are the read-after-write ones
// less those implied by others; which those are is argued where they are
// made, and checked against all read-after-write pairs by the tests.
class AllReduceBuilder {
 public:
  AllReduceBuilder(CollectiveSchedule& schedule, uint64_t bytes)
      : schedule_(schedule),
        shards_(schedule.nodes, std::vector<Range>{{0, bytes}}),
        reduced_(schedule.nodes),
        gathered_(schedule.nodes) {}

  void Build(const std::vector<RingLevel>& levels) {
    for (const RingLevel& level : levels) {
      ReduceScatter(level);
    }
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
      AllGather(*level);
    }
    schedule_.steps = step_;
  }

 private:
  using Receipts = std::vector<uint32_t>;  // Node -> a message it received.

  void ReduceScatter(const RingLevel& level) {
    const auto size = static_cast<uint32_t>(level.rings[0].size());
    Receipts received(schedule_.nodes);
    for (uint32_t step = 0; step + 1 < size; ++step) {
      Receipts now(schedule_.nodes);
      for (uint32_t node = 0; node < schedule_.nodes; ++node) {
        // The part received last step moves on with this node's share added.
        // The shards the earlier levels reduced here are not implied: every
        // chain into this ring's receipts runs through other nodes only.
        std::vector<uint32_t> after = reduced_[node];
        if (step > 0) {
          after.push_back(received[node]);
        }
        const uint32_t part = (level.place[node] + size - 1 - step) % size;
        Send(level, node, part, CollectiveOp::kReduce, std::move(after), now);
      }
      received = std::move(now);
      ++step_;
    }
    for (uint32_t node = 0; node < schedule_.nodes; ++node) {
      reduced_[node].push_back(received[node]);
      shards_[node].push_back(
          Part(shards_[node].back(), size, level.place[node]));
    }
  }

  void AllGather(const RingLevel& level) {
    const auto size = static_cast<uint32_t>(level.rings[0].size());
    for (std::vector<Range>& shards : shards_) {
      shards.pop_back();  // Gather the shard this level split.
    }
    std::vector<Receipts> level_receipts;
    Receipts received(schedule_.nodes);
    for (uint32_t step = 0; step + 1 < size; ++step) {
      Receipts now(schedule_.nodes);
      for (uint32_t node = 0; node < schedule_.nodes; ++node) {
        std::vector<uint32_t> after =
            step == 0 ? OwnPartComplete(node) : Receipts{received[node]};
        const uint32_t part = (level.place[node] + size - step) % size;
        Send(level, node, part, CollectiveOp::kCopy, std::move(after), now);
      }
      received = now;
      level_receipts.push_back(std::move(now));
      ++step_;
    }
    for (const Receipts& receipts : level_receipts) {
      for (uint32_t node = 0; node < schedule_.nodes; ++node) {
        gathered_[node].push_back(receipts[node]);
      }
    }
  }

  // What completed the part a node owns at the level now gathering: the
  // last level's reduce-scatter and every all-gather receipt of the levels
  // below. An all-gather receipt's chain runs through the node's own
  // reduce-scatter sends of that level, which imply the reduce-scatters of
  // the levels above it, so only the last level's needs naming then.
  std::vector<uint32_t> OwnPartComplete(uint32_t node) const {
    if (gathered_[node].empty()) {
      return reduced_[node];
    }
    std::vector<uint32_t> after = {reduced_[node].back()};
    after.insert(after.end(), gathered_[node].begin(), gathered_[node].end());
    return after;
  }

  void Send(const RingLevel& level, uint32_t node, uint32_t part,
            CollectiveOp op, std::vector<uint32_t> after, Receipts& receipts) {
    const std::vector<uint32_t>& ring = level.rings[level.ring_of[node]];
    const auto size = static_cast<uint32_t>(ring.size());
    const uint32_t next = ring[(level.place[node] + 1) % size];
    receipts[next] = static_cast<uint32_t>(schedule_.messages.size());
    Append(schedule_, node, next, Part(shards_[node].back(), size, part), op,
           step_, std::move(after));
  }

  CollectiveSchedule& schedule_;
  uint32_t step_ = 0;
  std::vector<std::vector<Range>> shards_;  // Node -> its shard per level.
  std::vector<Receipts> reduced_;   // Node -> final reduce receipt per level.
  std::vector<Receipts> gathered_;  // Node -> all-gather receipts so far.
};

Result<CollectiveSchedule> BuildAllReduce(
    const std::string& name, uint32_t nodes, uint64_t bytes,
    const std::vector<RingLevel>& levels) {
  uint64_t per_node = 0;
  for (const RingLevel& level : levels) {
    per_node += 2 * (level.rings[0].size() - 1);
  }
  Result<bool> fits = CheckMessageCount(name, per_node * nodes);
  if (!fits) {
    return fits.error();
  }
  CollectiveSchedule schedule{name, nodes, bytes, 0, {}};
  schedule.messages.reserve(per_node * nodes);
  AllReduceBuilder(schedule, bytes).Build(levels);
  return schedule;
}

Result<CollectiveSchedule> MakeRingAllReduce(const topo::ComponentInfo& info,
                                             const Shape& shape,
                                             const topo::ParamMap& params) {
  Result<uint64_t> bytes = AllReduceBytes(info, shape, params);
  if (!bytes) {
    return bytes.error();
  }
  Result<size_t> order = topo::ParseChoice(
      "order", topo::ParamOrDefault(info, params, "order"), {"ids", "snake"});
  if (!order) {
    return order.error();
  }
  const bool snake = *order == 1;
  if (snake && shape.torus_sizes.empty()) {
    return Fail("ring_allreduce order=snake needs the torus sizes");
  }
  std::vector<uint32_t> ring(shape.nodes);
  for (uint32_t node = 0; node < shape.nodes; ++node) {
    ring[node] = node;
  }
  if (snake) {
    ring = TorusRingOrder(shape.torus_sizes);
  }
  return BuildAllReduce(info.name, shape.nodes, *bytes,
                        {MakeLevel(shape.nodes, {std::move(ring)})});
}

// One level per torus dimension of size > 1: its rings run along it.
std::vector<RingLevel> DimensionLevels(uint32_t nodes,
                                       const std::vector<uint32_t>& sizes) {
  std::vector<RingLevel> levels;
  uint32_t stride = 1;
  for (uint32_t size : sizes) {
    if (size > 1) {
      std::vector<std::vector<uint32_t>> rings;
      for (uint32_t node = 0; node < nodes; ++node) {
        if ((node / stride) % size == 0) {
          std::vector<uint32_t> ring(size);
          for (uint32_t k = 0; k < size; ++k) {
            ring[k] = node + k * stride;
          }
          rings.push_back(std::move(ring));
        }
      }
      levels.push_back(MakeLevel(nodes, std::move(rings)));
    }
    stride *= size;
  }
  return levels;
}

Result<CollectiveSchedule> MakeHierarchicalAllReduce(
    const topo::ComponentInfo& info, const Shape& shape,
    const topo::ParamMap& params) {
  if (shape.torus_sizes.empty()) {
    return Fail(info.name +
                " needs the torus sizes: it reduces along one torus "
                "dimension at a time");
  }
  Result<uint64_t> bytes = AllReduceBytes(info, shape, params);
  if (!bytes) {
    return bytes.error();
  }
  return BuildAllReduce(info.name, shape.nodes, *bytes,
                        DimensionLevels(shape.nodes, shape.torus_sizes));
}

const std::vector<Entry>& Entries() {
  static const std::vector<Entry> entries = {
      {{"alltoall",
        "every node sends a block to every other node; round k goes k nodes "
        "on, no dependencies",
        {{"bytes", "block per ordered pair of nodes", "65536"}}},
       MakeAllToAll},
      {{"ring_allreduce",
        "reduce-scatter then all-gather round one ring of all nodes, "
        "2(N-1) steps",
        {{"bytes", "buffer reduced, on every node", "1048576"},
         {"order",
          "ring order: ids (0..N-1) or snake (torus neighbours, needs the "
          "torus sizes)",
          "ids"}}},
       MakeRingAllReduce},
      {{"hierarchical_allreduce",
        "ring reduce-scatter along each torus dimension in turn on a "
        "shrinking shard, then all-gather in reverse order",
        {{"bytes", "buffer reduced, on every node", "1048576"}}},
       MakeHierarchicalAllReduce},
  };
  return entries;
}

// A cycle through every x + y, x from cycle `row` and y from cycle `rows`
// (IDs of disjoint torus dimensions): walk each row round in full, forwards
// or backwards, then take one step along `rows`. A row walked forwards ends
// one place before where it started, backwards one after; the walk closes
// when these shifts cancel modulo the row length. With an even number of
// rows they alternate; with an odd number (and an odd row length L no longer
// than it), (rows + L) / 2 forwards and the rest backwards shift by -L.
std::vector<uint32_t> WalkRows(const std::vector<uint32_t>& row,
                               const std::vector<uint32_t>& rows) {
  const size_t length = row.size();
  const size_t count = rows.size();
  const size_t forwards = count % 2 == 0 ? 0 : (count + length) / 2;
  std::vector<uint32_t> cycle;
  size_t place = 0;
  for (size_t r = 0; r < count; ++r) {
    const bool forward = count % 2 == 0 ? r % 2 == 0 : r < forwards;
    for (size_t k = 0; k < length; ++k) {
      cycle.push_back(row[place] + rows[r]);
      if (k + 1 < length) {
        place = forward ? (place + 1) % length : (place + length - 1) % length;
      }
    }
  }
  return cycle;
}

// Picks which cycle gives the rows so that WalkRows closes.
std::vector<uint32_t> ProductCycle(const std::vector<uint32_t>& a,
                                   const std::vector<uint32_t>& b) {
  const bool b_rows =
      b.size() % 2 == 0 || (a.size() % 2 == 1 && b.size() >= a.size());
  return b_rows ? WalkRows(a, b) : WalkRows(b, a);
}

}  // namespace

std::vector<uint32_t> TorusRingOrder(const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> cycle = {0};
  uint32_t stride = 1;
  for (uint32_t size : sizes) {
    if (size > 1) {
      std::vector<uint32_t> ring(size);
      for (uint32_t k = 0; k < size; ++k) {
        ring[k] = k * stride;
      }
      cycle = cycle.size() == 1 ? ring : ProductCycle(cycle, ring);
    }
    stride *= size;
  }
  return cycle;
}

const std::vector<topo::ComponentInfo>& CollectiveCatalogue() {
  static const std::vector<topo::ComponentInfo> catalogue =
      topo::CatalogueOf(Entries());
  return catalogue;
}

Result<CollectiveSchedule> CreateCollective(
    const std::string& name, uint32_t nodes,
    const std::vector<uint32_t>& torus_sizes, const topo::ParamMap& params) {
  const auto entry = topo::FindComponent(Entries(), "collective", name, params);
  if (!entry) {
    return entry.error();
  }
  const Shape shape{nodes, torus_sizes};
  Result<bool> checked = CheckShape(shape);
  if (!checked) {
    return checked.error();
  }
  return (*entry)->factory((*entry)->info, shape, params);
}

}  // namespace lq::net
