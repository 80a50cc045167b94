// SPDX-License-Identifier: Apache-2.0
// The routing registry: one entry per routing function, each a description
// and a factory that checks the topology and parses the parameters.
#include "models/topology/routing_registry.h"

#include "models/topology/adaptive_routing.h"
#include "models/topology/component_registry.h"
#include "models/topology/dor_routing.h"
#include "models/topology/full_mesh_routing.h"
#include "models/topology/table_routing.h"
#include "models/topology/updown_routing.h"

namespace lq::topo {
namespace {

using RoutingResult = Result<std::unique_ptr<RoutingFunction>>;
using Factory = RoutingResult (*)(const ComponentInfo& info,
                                  std::shared_ptr<const Topology> topology,
                                  const ParamMap& params);

struct Entry {
  ComponentInfo info;
  Factory factory;
};

// The topology as concrete type T, or an error naming what was needed.
template <typename T>
Result<std::shared_ptr<const T>> As(const std::shared_ptr<const Topology>& topo,
                                    const char* routing, const char* needed) {
  std::shared_ptr<const T> typed = std::dynamic_pointer_cast<const T>(topo);
  if (!typed) {
    return Fail(std::string(routing) + " routing needs a " + needed +
                " topology, not " + topo->Describe());
  }
  return typed;
}

RoutingResult MakeDor(const ComponentInfo& info,
                      std::shared_ptr<const Topology> topology,
                      const ParamMap& params) {
  Result<std::shared_ptr<const Torus>> torus =
      As<Torus>(topology, "dor", "torus");
  if (!torus) {
    return torus.error();
  }
  Result<size_t> dateline =
      ParseChoice("dateline", ParamOrDefault(info, params, "dateline"),
                  {"off", "on", "per_dimension"});
  if (!dateline) {
    return dateline.error();
  }
  Result<size_t> tie = ParseChoice("tie", ParamOrDefault(info, params, "tie"),
                                   {"plus", "parity"});
  if (!tie) {
    return tie.error();
  }
  return std::unique_ptr<RoutingFunction>(std::make_unique<DorRouting>(
      *torus, static_cast<DorRouting::Dateline>(*dateline),
      static_cast<DorRouting::Tie>(*tie)));
}

RoutingResult MakeAdaptive(const ComponentInfo& info,
                           std::shared_ptr<const Topology> topology,
                           const ParamMap& params) {
  Result<std::shared_ptr<const Torus>> torus =
      As<Torus>(topology, "adaptive", "torus");
  if (!torus) {
    return torus.error();
  }
  Result<uint32_t> classes = ParseUnsigned(
      "adaptive_classes", ParamOrDefault(info, params, "adaptive_classes"), 1,
      AdaptiveRouting::kMaxAdaptiveClasses);
  if (!classes) {
    return classes.error();
  }
  return std::unique_ptr<RoutingFunction>(std::make_unique<AdaptiveRouting>(
      *torus, static_cast<VcClass>(*classes)));
}

RoutingResult MakeUpDown(const ComponentInfo&,
                         std::shared_ptr<const Topology> topology,
                         const ParamMap&) {
  Result<std::shared_ptr<const FatTree>> tree =
      As<FatTree>(topology, "updown", "fattree");
  if (!tree) {
    return tree.error();
  }
  return std::unique_ptr<RoutingFunction>(
      std::make_unique<UpDownRouting>(*tree));
}

RoutingResult MakeFullMesh(const ComponentInfo& info,
                           std::shared_ptr<const Topology> topology,
                           const ParamMap& params) {
  Result<std::shared_ptr<const FullMesh2D>> mesh =
      As<FullMesh2D>(topology, "fullmesh", "fullmesh");
  if (!mesh) {
    return mesh.error();
  }
  Result<size_t> order = ParseChoice(
      "order", ParamOrDefault(info, params, "order"), {"xy", "balanced"});
  if (!order) {
    return order.error();
  }
  Result<uint32_t> vls =
      ParseUnsigned("vls", ParamOrDefault(info, params, "vls"), 1, 2);
  if (!vls) {
    return vls.error();
  }
  const auto path_order = *order == 0 ? FullMeshRouting::Order::kXy
                                      : FullMeshRouting::Order::kBalanced;
  return std::unique_ptr<RoutingFunction>(
      std::make_unique<FullMeshRouting>(*mesh, path_order, *vls));
}

RoutingResult MakeTable(const ComponentInfo& info,
                        std::shared_ptr<const Topology> topology,
                        const ParamMap& params) {
  Result<uint32_t> classes =
      ParseUnsigned("classes", ParamOrDefault(info, params, "classes"), 1,
                    TableRouting::kMaxClasses);
  if (!classes) {
    return classes.error();
  }
  std::optional<NodeId> root;
  const std::string root_text = ParamOrDefault(info, params, "root");
  if (root_text != "auto") {
    Result<uint32_t> id = ParseUnsigned("root", root_text, 0, kMaxNodes - 1);
    if (!id) {
      return id.error();
    }
    root = *id;
  }
  Result<std::unique_ptr<TableRouting>> table =
      TableRouting::Build(std::move(topology), *classes, root);
  if (!table) {
    return table.error();
  }
  return std::unique_ptr<RoutingFunction>(std::move(table).value());
}

const std::vector<Entry>& Entries() {
  static const std::vector<Entry> entries = {
      {{"dor",
        "torus: dimension order X,Y,Z.., shorter way round, dateline VC "
        "classes (NET-4.2)",
        {{"dateline",
          "on (class 1 from the wrap link) | per_dimension (class 1 for a "
          "dimension whose way wraps) | off (deadlocks rings of 3+; "
          "experiments only)",
          "on"},
         {"tie",
          "a tie at k/2: parity (+ from even coordinates, - from odd), or "
          "plus",
          "parity"}}},
       MakeDor},
      {{"adaptive",
        "torus: minimal adaptive on classes 2 and up, dor escape on classes "
        "0-1; needs net.vc_classes 2 + adaptive_classes (NET-4.3)",
        {{"adaptive_classes", "adaptive VC classes, 1..2", "1"}}},
       MakeAdaptive},
      {{"updown",
        "fattree: up to the lowest common tier, then down (NET-4.4)",
        {}},
       MakeUpDown},
      {{"fullmesh",
        "fullmesh: one hop per dimension, VL = hops taken (NET-4.5)",
        {{"order", "xy (X then Y) | balanced (Y first from odd src column+row)",
          "xy"},
         {"vls", "VC classes (VLs), 1..2; 1 with balanced deadlocks", "2"}}},
       MakeFullMesh},
      {{"table",
        "any topology, incl. degraded: per-node tables, escalated "
        "up*/down* (NET-5)",
        {{"classes", "VC classes; a packet may turn down->up classes-1 times",
          "2"},
         {"root", "up*/down* root node ID, or auto (NET-5.4)", "auto"}}},
       MakeTable},
  };
  return entries;
}

}  // namespace

const std::vector<ComponentInfo>& RoutingCatalogue() {
  static const std::vector<ComponentInfo> catalogue = CatalogueOf(Entries());
  return catalogue;
}

Result<std::unique_ptr<RoutingFunction>> CreateRouting(
    const std::string& name, std::shared_ptr<const Topology> topology,
    const ParamMap& params) {
  const auto entry = FindComponent(Entries(), "routing function", name, params);
  if (!entry) {
    return entry.error();
  }
  return (*entry)->factory((*entry)->info, std::move(topology), params);
}

}  // namespace lq::topo
