// The interim fabric: every card of a topology as a FabricNode, every link
// direction as a LinkChannel, wired like a netlist from the scenario's
// parameters. It exercises the reference models end to end until the PHY,
// link and router components of later releases replace it
// (docs/decisions/0002-interim-fabric.md).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/phy/link_profile.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/common/param.h"
#include "systemc/fabric/fabric_node.h"
#include "systemc/fabric/link_channel.h"

namespace lq::fabric {

// Checks combinations the per-key ranges cannot (e.g. a message too large
// for one flit); returns why the scenario cannot be built.
std::optional<std::string> ValidateFabricParams(const ParamSet& params);

// One direction of a link: where it leaves from, where it goes, and the
// fraction of the traffic's lifetime it spent serialising flits.
struct LinkDirectionLoad {
  topo::NodeId node = 0;
  topo::PortId port = 0;
  topo::NodeId to = 0;
  std::vector<uint32_t> coordinates;  // node's, where the topology has them
  double utilisation = 0;
};

// Sums over the whole fabric, read after the simulation ends.
struct FabricTotals {
  NodeCounters nodes;
  LinkCounters links;
  uint64_t messages_expected = 0;
  std::vector<double> latencies_ns;
  std::vector<uint32_t> hops;
  double max_link_utilisation = 0;  // Busiest direction's busy fraction.
  std::vector<LinkDirectionLoad> directions;  // in the links' order
  uint64_t last_delivery_ps = 0;              // When the last message arrived.
};

class Fabric : public sc_core::sc_module {
 public:
  // Precondition: ValidateFabricParams(params) found nothing.
  Fabric(sc_core::sc_module_name name, const ParamSet& params);

  int node_count() const { return static_cast<int>(nodes_.size()); }
  int link_count() const { return static_cast<int>(links_.size()); }
  const topo::Topology& topology() const { return *topology_; }
  const phy::LinkProfile& profile() const { return profile_; }

  uint64_t MessagesExpected() const;
  uint64_t MessagesDelivered() const;
  FabricTotals Collect() const;
  // The packets node 0 sent and received, for --pcap.
  const std::vector<CapturedPacket>& Captured() const;

 private:
  std::shared_ptr<const topo::Topology> topology_;
  std::shared_ptr<const topo::RoutingFunction> routing_;
  phy::LinkProfile profile_;
  sc_core::sc_vector<FabricNode> nodes_;
  sc_core::sc_vector<LinkChannel> links_;
  std::vector<std::pair<topo::PortRef, topo::PortRef>> ends_;  // per link
};

}  // namespace lq::fabric
