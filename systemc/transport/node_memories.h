// SPDX-License-Identifier: Apache-2.0
// NodeMemories: a workload's reach into each node's memory, which the
// workload's owner binds to the node's transport engine: writing the bytes
// a work request will read, and reading what landed.
#pragma once

#include <cstdint>
#include <functional>

#include "models/common/bytes.h"

namespace lq::transport {

struct NodeMemories {
  std::function<void(unsigned node, uint64_t address, const Bytes& bytes)>
      write;
  std::function<ByteView(unsigned node, uint64_t address, uint32_t length)>
      read;
};

}  // namespace lq::transport
