// SPDX-License-Identifier: Apache-2.0
// Management messages: NET-7.5's layout, written and checked.
#include "models/network/mgmt_message.h"

#include <algorithm>

namespace lq::net {
namespace {

constexpr size_t kTypeOffset = 0;
constexpr size_t kCountOffset = 1;
constexpr size_t kSeqOffset = 3;
constexpr size_t kNodeOffset = 4;
constexpr size_t kRouteOffset = 6;
constexpr size_t kTableWriteFixed = 6;  // first index, count
constexpr size_t kCountRepBytes = 24;

Error Bad(const std::string& reason, size_t offset) {
  return Error{"MGMT message: " + reason, offset};
}

}  // namespace

const char* MgmtTypeName(MgmtType type) {
  switch (type) {
    case MgmtType::kLinkEvent:
      return "LINK_EVENT";
    case MgmtType::kRegWrite:
      return "REG_WRITE";
    case MgmtType::kTableWrite:
      return "TABLE_WRITE";
    case MgmtType::kFreeze:
      return "FREEZE";
    case MgmtType::kCountReq:
      return "COUNT_REQ";
    case MgmtType::kCountRep:
      return "COUNT_REP";
    case MgmtType::kSwitch:
      return "SWITCH";
    case MgmtType::kResume:
      return "RESUME";
    case MgmtType::kAck:
      return "ACK";
  }
  return "?";
}

Bytes EncodeMgmt(const MgmtMessage& m) {
  Bytes out(kMgmtHeaderBytes, 0);
  out[kTypeOffset] = static_cast<uint8_t>(m.type);
  out[kCountOffset] = static_cast<uint8_t>(m.route.size());
  out[kMgmtRoutePtrOffset] = m.route_ptr;
  out[kSeqOffset] = m.seq;
  StoreBigEndian(out.data() + kNodeOffset, 2, m.node);
  std::copy(m.route.begin(), m.route.end(), out.begin() + kRouteOffset);
  if (const auto* link = std::get_if<LinkEventBody>(&m.body)) {
    out.push_back(link->port);
    out.push_back(link->up ? 1 : 0);
  } else if (const auto* reg = std::get_if<RegWriteBody>(&m.body)) {
    out.push_back(reg->reg);
    out.resize(out.size() + 4);
    StoreBigEndian(out.data() + out.size() - 4, 4, reg->value);
  } else if (const auto* table = std::get_if<TableWriteBody>(&m.body)) {
    const size_t at = out.size();
    out.resize(at + kTableWriteFixed + 2 * table->entries.size());
    StoreBigEndian(out.data() + at, 4, table->first);
    StoreBigEndian(out.data() + at + 4, 2, table->entries.size());
    for (size_t i = 0; i < table->entries.size(); ++i) {
      StoreBigEndian(out.data() + at + kTableWriteFixed + 2 * i, 2,
                     table->entries[i]);
    }
  } else if (const auto* counts = std::get_if<CountRepBody>(&m.body)) {
    const size_t at = out.size();
    out.resize(at + kCountRepBytes);
    StoreBigEndian(out.data() + at, 8, counts->injected);
    StoreBigEndian(out.data() + at + 8, 8, counts->ejected);
    StoreBigEndian(out.data() + at + 16, 8, counts->dropped);
  }
  return out;
}

Result<MgmtMessage> DecodeMgmt(ByteView payload) {
  if (payload.size() < kMgmtHeaderBytes) {
    return Bad("shorter than its 64-byte header", payload.size());
  }
  const uint8_t* p = payload.data();
  MgmtMessage m;
  if (p[kTypeOffset] < static_cast<uint8_t>(MgmtType::kLinkEvent) ||
      p[kTypeOffset] > static_cast<uint8_t>(MgmtType::kAck)) {
    return Bad("unknown TYPE " + std::to_string(p[kTypeOffset]), kTypeOffset);
  }
  m.type = static_cast<MgmtType>(p[kTypeOffset]);
  const size_t count = p[kCountOffset];
  if (count > kMaxSourceRoute) {
    return Bad("SR_COUNT " + std::to_string(count) + " exceeds 58",
               kCountOffset);
  }
  m.route_ptr = p[kMgmtRoutePtrOffset];
  if (m.route_ptr > count) {
    return Bad("SR_PTR beyond SR_COUNT", kMgmtRoutePtrOffset);
  }
  m.seq = p[kSeqOffset];
  m.node = static_cast<uint16_t>(LoadBigEndian(p + kNodeOffset, 2));
  m.route.assign(p + kRouteOffset, p + kRouteOffset + count);
  for (size_t i = kRouteOffset + count; i < kMgmtHeaderBytes; ++i) {
    if (p[i] != 0) {
      return Bad("unused SR byte not 0", i);
    }
  }
  const uint8_t* body = p + kMgmtHeaderBytes;
  const size_t size = payload.size() - kMgmtHeaderBytes;
  size_t want = 0;
  switch (m.type) {
    case MgmtType::kLinkEvent:
      want = 2;
      if (size == want) {
        if (body[1] > 1) {
          return Bad("LINK_EVENT state is neither 0 nor 1",
                     kMgmtHeaderBytes + 1);
        }
        m.body = LinkEventBody{body[0], body[1] == 1};
      }
      break;
    case MgmtType::kRegWrite:
      want = 5;
      if (size == want) {
        m.body = RegWriteBody{
            body[0], static_cast<uint32_t>(LoadBigEndian(body + 1, 4))};
      }
      break;
    case MgmtType::kTableWrite: {
      want = kTableWriteFixed;
      if (size >= want) {
        const size_t n = LoadBigEndian(body + 4, 2);
        want += 2 * n;
        if (size == want) {
          TableWriteBody table;
          table.first = static_cast<uint32_t>(LoadBigEndian(body, 4));
          for (size_t i = 0; i < n; ++i) {
            table.entries.push_back(static_cast<uint16_t>(
                LoadBigEndian(body + kTableWriteFixed + 2 * i, 2)));
          }
          m.body = std::move(table);
        }
      }
      break;
    }
    case MgmtType::kCountRep:
      want = kCountRepBytes;
      if (size == want) {
        m.body =
            CountRepBody{LoadBigEndian(body, 8), LoadBigEndian(body + 8, 8),
                         LoadBigEndian(body + 16, 8)};
      }
      break;
    default:
      break;  // no body
  }
  if (size != want) {
    return Bad(std::string(MgmtTypeName(m.type)) + " body of " +
                   std::to_string(size) + " bytes, expected " +
                   std::to_string(want),
               kMgmtHeaderBytes);
  }
  return m;
}

MgmtHop MgmtHopOf(const uint8_t* payload, size_t size) {
  MgmtHop hop;
  if (size < kMgmtHeaderBytes) {
    return hop;
  }
  const uint8_t count = payload[kCountOffset];
  const uint8_t ptr = payload[kMgmtRoutePtrOffset];
  if (count > kMaxSourceRoute || ptr > count) {
    return hop;
  }
  if (count == 0) {
    hop.kind = MgmtHop::Kind::kToManager;
  } else if (ptr == count) {
    hop.kind = MgmtHop::Kind::kArrived;
  } else {
    hop.kind = MgmtHop::Kind::kRouted;
    hop.port = payload[kRouteOffset + ptr];
  }
  return hop;
}

std::optional<unsigned> MgmtOutPort(const MgmtHop& hop,
                                    const MgmtPorts& ports) {
  const unsigned local = ports.network_ports;
  std::optional<unsigned> out;
  switch (hop.kind) {
    case MgmtHop::Kind::kToManager:
      out = ports.parent_port == kNoParentPort ? local : ports.parent_port;
      break;
    case MgmtHop::Kind::kRouted:
      out = hop.port;
      break;
    case MgmtHop::Kind::kArrived:
      out = local;
      break;
    case MgmtHop::Kind::kMalformed:
      break;
  }
  if (out &&
      (*out < ports.network_ports || (*out == local && ports.local_port))) {
    return out;
  }
  return std::nullopt;
}

}  // namespace lq::net
