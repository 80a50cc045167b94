// Behaviour of one interim-fabric card: traffic source, router and sink.
#include "systemc/fabric/fabric_node.h"

#include <utility>

#include "models/roce/addressing.h"
#include "models/roce/frame_edits.h"
#include "models/roce/packet.h"
#include "models/roce/packet_factory.h"

namespace lq::fabric {
namespace {

using sc_core::SC_PS;
using sc_core::sc_time;

// Byte offsets in a RoCEv2 frame the router reads and rewrites.
constexpr size_t kIpOffset = roce::EthernetHeader::kSize;
constexpr size_t kIpTotalLengthOffset = kIpOffset + 2;
constexpr size_t kIpDestinationOffset = kIpOffset + 16;
constexpr uint8_t kInitialTtl = 64;

// The message header at the start of every payload: when it was created,
// its per-destination sequence number and its source. The rest of the
// payload is a pattern derived from these, checked on delivery.
constexpr size_t kStampOffset = 0;
constexpr size_t kSequenceOffset = 8;
constexpr size_t kSourceOffset = 12;

uint64_t NowPs() {
  return static_cast<uint64_t>(sc_core::sc_time_stamp() / sc_time(1, SC_PS));
}

uint8_t PatternByte(uint32_t source, uint32_t sequence, size_t index) {
  return static_cast<uint8_t>(source * 131 + sequence * 31 + index * 7);
}

// The QP numbers of the one connection between every ordered node pair.
uint32_t QpnTowards(topo::NodeId peer) { return 0x10000 | peer; }

}  // namespace

NodeCounters& NodeCounters::operator+=(const NodeCounters& other) {
  sent += other.sent;
  delivered += other.delivered;
  duplicated += other.duplicated;
  reordered += other.reordered;
  corrupted += other.corrupted;
  unroutable += other.unroutable;
  ttl_drops += other.ttl_drops;
  forwarded += other.forwarded;
  payload_bytes_delivered += other.payload_bytes_delivered;
  return *this;
}

FabricNode::FabricNode(sc_core::sc_module_name name, const NodeConfig& config)
    : sc_module(name),
      ports("port"),
      config_(config),
      id_(config.id),
      local_port_(config.routing->topology().LocalPort(config.id)),
      random_(config.seed),
      next_sequence_to_(config.routing->topology().EndpointCount(), 0) {
  SC_HAS_PROCESS(FabricNode);
  ports.init(config.routing->topology().PortCount(id_));
  if (config_.traffic.messages > 0) {
    SC_THREAD(Generate);
  }
  SC_METHOD(OnRouted);
  sensitive << pipeline_.event();
  dont_initialize();
}

Bytes FabricNode::MakeMessage(topo::NodeId destination, uint32_t sequence) {
  roce::Path path;
  path.local_node = id_;
  path.remote_node = destination;
  path.local_qpn = QpnTowards(destination);
  path.remote_qpn = QpnTowards(id_);
  roce::RocePacket packet =
      roce::NewPacket(path, roce::Opcode::kSendOnly, sequence & 0xFFFFFF);
  packet.ip.ttl = kInitialTtl;
  packet.payload.resize(config_.traffic.message_bytes);
  uint8_t* payload = packet.payload.data();
  StoreBigEndian(payload + kStampOffset, 8, NowPs());
  StoreBigEndian(payload + kSequenceOffset, 4, sequence);
  StoreBigEndian(payload + kSourceOffset, 4, id_);
  for (size_t i = kSourceOffset + 4; i < packet.payload.size(); ++i) {
    payload[i] = PatternByte(id_, sequence, i);
  }
  // The scenario check guarantees the packet is well formed and fits.
  return roce::BuildPacket(packet).value();
}

void FabricNode::Generate() {
  const topo::NodeId endpoints = config_.routing->topology().EndpointCount();
  std::exponential_distribution<double> gap(
      1.0 / config_.traffic.mean_gap.to_seconds());
  std::uniform_int_distribution<topo::NodeId> peer(0, endpoints - 2);
  for (uint64_t i = 0; i < config_.traffic.messages; ++i) {
    wait(sc_time(gap(random_), sc_core::SC_SEC));
    topo::NodeId destination = peer(random_);
    if (destination >= id_) {
      ++destination;  // Uniform over every node but this one.
    }
    Bytes frame = MakeMessage(destination, next_sequence_to_[destination]++);
    ++counters_.sent;
    Capture(frame);
    pipeline_.Push({static_cast<int>(local_port_), 0, std::move(frame)},
                   config_.router_latency);
  }
}

void FabricNode::Receive(int port, int vc, Bytes packet) {
  // A flit's payload slot is zero-padded: trim to the frame's own length.
  if (packet.size() >= kIpTotalLengthOffset + 2) {
    const size_t frame_bytes =
        kIpOffset + LoadBigEndian(packet.data() + kIpTotalLengthOffset, 2);
    if (frame_bytes <= packet.size()) {
      packet.resize(frame_bytes);
    }
  }
  pipeline_.Push({port, vc, std::move(packet)}, config_.router_latency);
}

void FabricNode::OnRouted() {
  Arrival arrival = pipeline_.Pop();
  Bytes& packet = arrival.packet;
  if (packet.size() < kIpDestinationOffset + 4) {
    ++counters_.corrupted;
    return;
  }
  const auto destination = roce::NodeFromIpv4(static_cast<uint32_t>(
      LoadBigEndian(packet.data() + kIpDestinationOffset, 4)));
  if (!destination) {
    ++counters_.unroutable;
    return;
  }
  const auto step = config_.routing->Route(
      id_, static_cast<topo::PortId>(arrival.port),
      static_cast<topo::VcClass>(arrival.vc), *destination);
  if (!step) {
    ++counters_.unroutable;
    return;
  }
  if (step->port == local_port_) {
    Deliver(packet);
    return;
  }
  // One more hop: the TTL is how the sink counts hops (TRN-1.7, NET-2.4).
  if (!roce::DecrementTtl(packet)) {
    ++counters_.ttl_drops;
    return;
  }
  ++counters_.forwarded;
  ports[step->port]->Send(std::move(packet), static_cast<int>(step->vc));
}

bool FabricNode::RecordSequence(topo::NodeId source, uint32_t sequence) {
  SourceRecord& record = sources_[source];
  if (sequence >= record.next) {
    for (uint32_t skipped = record.next; skipped < sequence; ++skipped) {
      record.missing.insert(skipped);
    }
    record.next = sequence + 1;
    return true;
  }
  if (record.missing.erase(sequence) == 1) {
    ++counters_.reordered;
    return true;
  }
  ++counters_.duplicated;
  return false;
}

void FabricNode::Deliver(const Bytes& frame) {
  const auto parsed = roce::ParsePacket(frame);
  if (!parsed) {
    ++counters_.corrupted;
    return;
  }
  const Bytes& payload = parsed->payload;
  if (payload.size() != config_.traffic.message_bytes) {
    ++counters_.corrupted;
    return;
  }
  const auto source = static_cast<topo::NodeId>(
      LoadBigEndian(payload.data() + kSourceOffset, 4));
  const auto sequence =
      static_cast<uint32_t>(LoadBigEndian(payload.data() + kSequenceOffset, 4));
  bool intact = roce::NodeFromIpv4(parsed->ip.src).ok() &&
                roce::NodeFromIpv4(parsed->ip.src).value() == source;
  for (size_t i = kSourceOffset + 4; intact && i < payload.size(); ++i) {
    intact = payload[i] == PatternByte(source, sequence, i);
  }
  if (!intact) {
    ++counters_.corrupted;
    return;
  }
  if (!RecordSequence(source, sequence)) {
    return;
  }
  Capture(frame);
  ++counters_.delivered;
  last_delivery_ps_ = NowPs();
  counters_.payload_bytes_delivered += payload.size();
  const uint64_t created_ps = LoadBigEndian(payload.data() + kStampOffset, 8);
  latencies_ns_.push_back(static_cast<double>(NowPs() - created_ps) / 1000.0);
  // Every router on the way, the source's included, took one off the TTL.
  hops_.push_back(kInitialTtl - parsed->ip.ttl);
}

void FabricNode::Capture(const Bytes& frame) {
  if (config_.capture) {
    captured_.push_back({NowPs(), frame});
  }
}

}  // namespace lq::fabric
