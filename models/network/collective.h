// SPDX-License-Identifier: Apache-2.0
// Collective-communication schedules for network studies: all-to-all, ring
// AllReduce and hierarchical (torus) AllReduce as a DAG of messages, chosen by
// name from a registry as the traffic patterns are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/topology/params.h"

namespace lq::net {

// What the receiver does with a message's payload.
enum class CollectiveOp : uint8_t {
  kReduce,  // Adds it into its own copy of the range (reduce-scatter).
  kCopy,    // Overwrites its copy of the range (all-gather, all-to-all).
};

// One message of a schedule. A simulator may send it once every message in
// `after` has been delivered at `src`; nothing else orders it.
struct CollectiveMessage {
  uint32_t id = 0;  // Its index in CollectiveSchedule::messages.
  uint32_t src = 0;
  uint32_t dst = 0;
  // The payload is bytes [offset, offset + bytes) of the buffer: for the
  // AllReduces the same range at both ends, for alltoall block `src` of the
  // receiver's buffer.
  uint64_t offset = 0;
  uint64_t bytes = 0;
  CollectiveOp op = CollectiveOp::kCopy;
  // The algorithm step, counted on across phases; a node sends one message
  // per step at most. For reports: `after` alone orders the messages.
  uint32_t step = 0;
  // The earlier messages delivered at `src` that wrote bytes this one
  // carries (its read-after-write dependencies), less those already implied
  // by others in the list. Ascending ids, all below `id`.
  std::vector<uint32_t> after;
};

struct CollectiveSchedule {
  std::string name;
  uint32_t nodes = 0;
  // Every node's buffer: the vector an AllReduce reduces, or the receive
  // buffer of alltoall (one block per source).
  uint64_t buffer_bytes = 0;
  uint32_t steps = 0;
  std::vector<CollectiveMessage> messages;  // Ascending step, then src.
};

// Largest schedule built, so that a typo in a node count fails fast instead
// of exhausting memory; about 1 GiB of messages.
inline constexpr uint64_t kMaxCollectiveMessages = uint64_t{1} << 24;

// Every registered collective with its parameters, meanings and defaults.
const std::vector<topo::ComponentInfo>& CollectiveCatalogue();

// Builds collective `name` over endpoints 0..nodes-1. `torus_sizes` (X
// fastest, as torus node IDs count) is empty unless the endpoints form a
// torus; hierarchical_allreduce and ring order=snake need it. Unknown names
// or parameters, bad values and shapes are errors saying what was expected.
Result<CollectiveSchedule> CreateCollective(
    const std::string& name, uint32_t nodes,
    const std::vector<uint32_t>& torus_sizes, const topo::ParamMap& params);

// A ring through every node of a torus whose consecutive members, last to
// first included, are one hop apart: boustrophedon rows where a dimension
// has an even size, otherwise rows that wrap round with a shift.
// Precondition: every size >= 1.
std::vector<uint32_t> TorusRingOrder(const std::vector<uint32_t>& sizes);

}  // namespace lq::net
