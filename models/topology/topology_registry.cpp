// SPDX-License-Identifier: Apache-2.0
// The topology registry: one entry per topology, each a description and a
// factory that parses its parameters.
#include "models/topology/topology_registry.h"

#include "models/topology/component_registry.h"
#include "models/topology/fat_tree.h"
#include "models/topology/full_mesh.h"
#include "models/topology/torus.h"

namespace lq::topo {
namespace {

using Factory = Result<std::shared_ptr<const Topology>> (*)(
    const ComponentInfo& info, const ParamMap& params);

struct Entry {
  ComponentInfo info;
  Factory factory;
};

Result<std::shared_ptr<const Topology>> MakeTorus(const ComponentInfo& info,
                                                  const ParamMap& params) {
  Result<std::vector<uint32_t>> dims =
      ParseSizeList("dims", ParamOrDefault(info, params, "dims"), 1, kMaxNodes);
  if (!dims) {
    return dims.error();
  }
  Result<Torus> torus = Torus::Create(*dims);
  if (!torus) {
    return torus.error();
  }
  return std::shared_ptr<const Topology>(
      std::make_shared<Torus>(std::move(torus).value()));
}

Result<std::shared_ptr<const Topology>> MakeFatTree(const ComponentInfo& info,
                                                    const ParamMap& params) {
  Result<uint32_t> endpoints = ParseUnsigned(
      "endpoints", ParamOrDefault(info, params, "endpoints"), 1, kMaxNodes);
  if (!endpoints) {
    return endpoints.error();
  }
  Result<uint32_t> k = ParseUnsigned("k", ParamOrDefault(info, params, "k"), 0,
                                     kMaxPortsPerNode);
  if (!k) {
    return k.error();
  }
  const uint32_t radix = *k == 0 ? FatTree::RadixFor(*endpoints) : *k;
  Result<FatTree> tree = FatTree::Create(radix, *endpoints);
  if (!tree) {
    return tree.error();
  }
  return std::shared_ptr<const Topology>(
      std::make_shared<FatTree>(std::move(tree).value()));
}

Result<std::shared_ptr<const Topology>> MakeFullMesh(const ComponentInfo& info,
                                                     const ParamMap& params) {
  Result<uint32_t> x =
      ParseUnsigned("x", ParamOrDefault(info, params, "x"), 1, kMaxNodes);
  if (!x) {
    return x.error();
  }
  Result<uint32_t> y =
      ParseUnsigned("y", ParamOrDefault(info, params, "y"), 1, kMaxNodes);
  if (!y) {
    return y.error();
  }
  Result<FullMesh2D> mesh = FullMesh2D::Create(*x, *y);
  if (!mesh) {
    return mesh.error();
  }
  return std::shared_ptr<const Topology>(
      std::make_shared<FullMesh2D>(std::move(mesh).value()));
}

const std::vector<Entry>& Entries() {
  static const std::vector<Entry> entries = {
      {{"torus",
        "k-ary n-cube with wrap links, 2n ports + local per node (NET-6.1)",
        {{"dims", "ring sizes X x Y x Z ..., 1..8 dimensions", "4x8x8"}}},
       MakeTorus},
      {{"fattree",
        "3-tier k-ary fat-tree (Al-Fares), hosts on edge switches (NET-6.2)",
        {{"endpoints", "hosts attached, at most k^3/4", "256"},
         {"k", "switch radix, even; 0 = smallest that holds the endpoints",
          "0"}}},
       MakeFatTree},
      {{"fullmesh",
        "UB-Mesh 2D full mesh: every row and column fully connected "
        "(NET-6.3)",
        {{"x", "nodes per row (columns)", "8"},
         {"y", "nodes per column (rows)", "8"}}},
       MakeFullMesh},
  };
  return entries;
}

}  // namespace

const std::vector<ComponentInfo>& TopologyCatalogue() {
  static const std::vector<ComponentInfo> catalogue = CatalogueOf(Entries());
  return catalogue;
}

Result<std::shared_ptr<const Topology>> CreateTopology(const std::string& name,
                                                       const ParamMap& params) {
  const auto entry = FindComponent(Entries(), "topology", name, params);
  if (!entry) {
    return entry.error();
  }
  return (*entry)->factory((*entry)->info, params);
}

}  // namespace lq::topo
