// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes as a MGMT packet's payload. The decoder must
// never crash; an accepted message must encode back to the same bytes, and
// the router's view of it must agree with the decoded route.
#include <cstddef>
#include <cstdint>

#include "models/network/mgmt_message.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lq::net;  // NOLINT: fuzz-local.
  const MgmtHop hop = MgmtHopOf(data, size);
  const lq::Result<MgmtMessage> message = DecodeMgmt(lq::ByteView(data, size));
  if (!message.ok()) {
    return 0;
  }
  const lq::Bytes again = EncodeMgmt(*message);
  Require(again == lq::Bytes(data, data + size));
  if (message->route.empty()) {
    Require(hop.kind == MgmtHop::Kind::kToManager);
  } else if (message->route_ptr == message->route.size()) {
    Require(hop.kind == MgmtHop::Kind::kArrived);
  } else {
    Require(hop.kind == MgmtHop::Kind::kRouted &&
            hop.port == message->route[message->route_ptr]);
  }
  return 0;
}
