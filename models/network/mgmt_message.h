// SPDX-License-Identifier: Apache-2.0
// Management messages (docs/spec/net.md NET-7.5): the payload of MGMT
// packets between the fabric manager and the nodes' firmware. The 64-byte
// message header with its source route, each type's body, the wire form
// and a decoder that checks everything a receiver relies on; and the part
// a router reads to forward one (NET-7.4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/network/route_header.h"
#include "models/topology/management_tree.h"

namespace lq::net {

inline constexpr size_t kMgmtHeaderBytes = 64;  // TYPE .. SR
// SR bytes 6..63: the management tree's deepest route.
inline constexpr size_t kMaxSourceRoute = topo::ManagementTree::kMaxDepth;
// MGMT_PARENT_PORT at the FM: no port.
inline constexpr uint8_t kNoParentPort =
    static_cast<uint8_t>(topo::ManagementTree::kNoPort);

enum class MgmtType : uint8_t {
  kLinkEvent = 1,
  kRegWrite = 2,
  kTableWrite = 3,
  kFreeze = 4,
  kCountReq = 5,
  kCountRep = 6,
  kSwitch = 7,
  kResume = 8,
  kAck = 9,
};
const char* MgmtTypeName(MgmtType type);

struct LinkEventBody {
  uint8_t port = 0;
  bool up = false;
  friend bool operator==(const LinkEventBody& a, const LinkEventBody& b) {
    return a.port == b.port && a.up == b.up;
  }
};
struct RegWriteBody {
  uint8_t reg = 0;  // the router register's word index: its offset / 4
  uint32_t value = 0;
  friend bool operator==(const RegWriteBody& a, const RegWriteBody& b) {
    return a.reg == b.reg && a.value == b.value;
  }
};
struct TableWriteBody {
  uint32_t first = 0;             // shadow-bank index of entries[0]
  std::vector<uint16_t> entries;  // NET-5.2's raw entries
  friend bool operator==(const TableWriteBody& a, const TableWriteBody& b) {
    return a.first == b.first && a.entries == b.entries;
  }
};
struct CountRepBody {
  uint64_t injected = 0;  // DATA packets, NET-8.9's counters
  uint64_t ejected = 0;
  uint64_t dropped = 0;
  friend bool operator==(const CountRepBody& a, const CountRepBody& b) {
    return a.injected == b.injected && a.ejected == b.ejected &&
           a.dropped == b.dropped;
  }
};
using MgmtBody = std::variant<std::monostate, LinkEventBody, RegWriteBody,
                              TableWriteBody, CountRepBody>;

// The most entries one TABLE_WRITE carries within net.max_payload's limit.
inline constexpr size_t kMaxTableWriteEntries =
    (kMaxPayloadLimit - kMgmtHeaderBytes - 6) / 2;

struct MgmtMessage {
  MgmtType type = MgmtType::kAck;
  uint8_t seq = 0;
  uint16_t node = 0;           // the sender, or the target (NET-7.5)
  std::vector<uint8_t> route;  // SR: output port per hop; empty: to the FM
  uint8_t route_ptr = 0;       // SR_PTR
  MgmtBody body;               // monostate for the types without one

  friend bool operator==(const MgmtMessage& a, const MgmtMessage& b) {
    return a.type == b.type && a.seq == b.seq && a.node == b.node &&
           a.route == b.route && a.route_ptr == b.route_ptr && a.body == b.body;
  }
};

// The wire form. Precondition: the body is the type's (none for FREEZE,
// COUNT_REQ, SWITCH, RESUME, ACK), the route at most kMaxSourceRoute ports,
// a TABLE_WRITE at most kMaxTableWriteEntries entries.
Bytes EncodeMgmt(const MgmtMessage& message);

// Parses a MGMT packet's payload: the header, a known TYPE, SR_COUNT at
// most 58, SR_PTR at most SR_COUNT, unused SR bytes 0, and exactly the
// body its type has.
Result<MgmtMessage> DecodeMgmt(ByteView payload);

// What a router reads of a MGMT payload to forward it (NET-7.4).
struct MgmtHop {
  enum class Kind {
    kToManager,  // SR_COUNT = 0: up the tree, on MGMT_PARENT_PORT
    kRouted,     // on `port`, then SR_PTR + 1
    kArrived,    // SR_PTR = SR_COUNT: eject here
    kMalformed,  // shorter than the header, or SR_PTR > SR_COUNT > 58
  };
  Kind kind = Kind::kMalformed;
  uint8_t port = 0;
};
// Reads the first min(size, kMgmtHeaderBytes) bytes of `payload`.
MgmtHop MgmtHopOf(const uint8_t* payload, size_t size);
// The ports of a router as management routing sees them: network ports
// 0..network_ports-1, and the local port network_ports if it has one.
struct MgmtPorts {
  unsigned network_ports = 0;
  bool local_port = true;
  uint8_t parent_port = kNoParentPort;  // MGMT_PARENT_PORT
};
// NET-7.4: the port a MGMT packet with next hop `hop` leaves by: up the
// management tree on the parent port (or out at the local port at the
// manager's node, kNoParentPort), along its source route, or out at the
// local port once the route is done; none if the packet is malformed or
// the port does not exist (a switch has no local port).
std::optional<unsigned> MgmtOutPort(const MgmtHop& hop, const MgmtPorts& ports);

// Byte offset of SR_PTR in a MGMT payload: what a forwarding router
// increments.
inline constexpr size_t kMgmtRoutePtrOffset = 2;

}  // namespace lq::net
