// SPDX-License-Identifier: Apache-2.0
// RouterRegisters: the shadow bank, TABLE_SWITCH and the counters' view.
#include "systemc/network/router_registers.h"

#include <stdexcept>
#include <utility>

#include "generated/cpp/router_regs.h"
#include "models/common/bytes.h"
#include "models/topology/fat_tree.h"
#include "models/topology/programmed_table.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "models/topology/torus.h"
#include "systemc/common/register_port.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"

namespace lq::net {

namespace regs = lq::regs::router;
using Mode = regs::RouteMode;

namespace {

struct ModeName {
  Mode mode;
  const char* name;
};
constexpr ModeName kModeNames[] = {{Mode::kDor, "dor"},
                                   {Mode::kUpdown, "updown"},
                                   {Mode::kFullmesh, "fullmesh"},
                                   {Mode::kTable, "table"},
                                   {Mode::kAdaptive, "adaptive"}};

const char* ModeRoutingName(uint32_t code) {
  for (const ModeName& entry : kModeNames) {
    if (static_cast<uint32_t>(entry.mode) == code) {
      return entry.name;
    }
  }
  return nullptr;
}

constexpr unsigned kTcMapBits = 2;

// SHAPE's fields, in dimension order.
constexpr lq::regs::Field kShapeSizes[] = {
    regs::kShapeSize0, regs::kShapeSize1, regs::kShapeSize2, regs::kShapeSize3};

// SHAPE for the fabric a router is built into (NET-5.6): a torus's ring
// sizes, a fat-tree's k; 0 where the fixed functions do not apply or the
// sizes do not fit.
uint32_t FabricShape(const topo::Topology& topology) {
  const auto& sizes = kShapeSizes;
  if (const auto* torus = dynamic_cast<const topo::Torus*>(&topology)) {
    if (torus->sizes().size() > 4) {
      return 0;
    }
    uint32_t shape = 0;
    for (size_t d = 0; d < torus->sizes().size(); ++d) {
      if (torus->sizes()[d] > sizes[d].Mask() >> sizes[d].lsb) {
        return 0;
      }
      shape |= sizes[d].Place(torus->sizes()[d]);
    }
    return shape;
  }
  if (const auto* tree = dynamic_cast<const topo::FatTree*>(&topology)) {
    return tree->k() <= 0xFF ? regs::kShapeSize0.Place(tree->k()) : 0;
  }
  return 0;
}

}  // namespace

std::optional<uint32_t> RouteModeCode(const std::string& routing_name) {
  for (const ModeName& entry : kModeNames) {
    if (routing_name == entry.name) {
      return static_cast<uint32_t>(entry.mode);
    }
  }
  return std::nullopt;
}

RouterRegisterHooks LocalPortHooks(NetworkInterface& local) {
  return {[&local](const std::array<uint8_t, 8>& map) { local.SetTcMap(map); },
          [&local](bool frozen) { local.SetFrozen(frozen); },
          [&local](uint8_t epoch) { local.SetEpoch(epoch); }};
}

RouterRegisters::RouterRegisters(const sc_core::sc_module_name& name,
                                 Router& router, unsigned vc_sets)
    : sc_module(name),
      socket("socket"),
      router_(router),
      vc_sets_(vc_sets),
      regs_(regs::kRegisters) {
  const topo::Topology& topology = router.routing().topology();
  const unsigned classes = router.vc_classes();
  regs_.Store(regs::kNodeIdOffset, router.node());
  regs_.Store(regs::kEndpointsOffset, topology.EndpointCount());
  regs_.Store(regs::kShapeInfoOffset,
              regs::kShapeInfoPorts.Place(router.local_port()) |
                  regs::kShapeInfoVcClasses.Place(classes) |
                  regs::kShapeInfoVcSets.Place(vc_sets));
  const auto defaults = DefaultTcMap(vc_sets);
  uint32_t tc_bits = 0;
  for (unsigned tc = 0; tc < defaults.size(); ++tc) {
    tc_bits |= static_cast<uint32_t>(defaults[tc]) << (tc * kTcMapBits);
  }
  regs_.Store(regs::kTcMapOffset, tc_bits);
  table_size_ = topo::ProgrammedTableRouting::TableSize(topology, classes);
  const uint32_t mode = RouteModeCode(router.routing().Name())
                            .value_or(static_cast<uint32_t>(Mode::kTable));
  regs_.Store(regs::kRouteModeOffset, regs::kRouteModeMode.Place(mode));
  regs_.Store(regs::kShapeOffset, FabricShape(topology));

  regs_.Hook(regs::kRouteModeOffset,
             {[this] {
                const uint32_t active =
                    RouteModeCode(router_.routing().Name()).value_or(0);
                return regs_.value(regs::kRouteModeOffset) |
                       regs::kRouteModeActive.Place(active);
              },
              [](uint32_t value) {
                return ModeRoutingName(regs::kRouteModeMode.Read(value)) !=
                       nullptr;
              },
              nullptr});
  regs_.Hook(regs::kTcMapOffset,
             {nullptr,
              [this](uint32_t value) {
                for (unsigned tc = 0; tc < 8; ++tc) {
                  if (((value >> (tc * kTcMapBits)) & 3) >= vc_sets_) {
                    return false;
                  }
                }
                return true;
              },
              [this](uint32_t) {
                if (hooks_.on_tc_map) {
                  hooks_.on_tc_map(tc_map());
                }
              }});
  const uint32_t port_mask =
      router.local_port() >= 32 ? ~0u : (1u << router.local_port()) - 1;
  regs_.Hook(regs::kPortUpOffset,
             {nullptr,
              [port_mask](uint32_t value) { return (value & ~port_mask) == 0; },
              nullptr});
  regs_.Hook(regs::kTableIndexOffset,
             {nullptr, [this](uint32_t value) { return value < table_size_; },
              nullptr});
  regs_.Hook(regs::kTableDataOffset,
             {nullptr, [this](uint32_t value) { return WriteTableData(value); },
              nullptr});
  regs_.Hook(regs::kTableSwitchOffset,
             {nullptr,
              [this](uint32_t value) {
                if (!(value & regs::kTableSwitchApply.Mask())) {
                  return true;
                }
                auto built = BuildShadow();
                if (!built) {
                  return false;
                }
                pending_ = std::move(built.value());
                return true;
              },
              [this](uint32_t) {
                if (pending_) {
                  Switch();
                }
              }});
  regs_.Hook(regs::kEpochOffset,
             {[this] { return uint32_t{router_.epoch()}; }, nullptr, nullptr});
  regs_.Hook(
      regs::kInjectFreezeOffset,
      {nullptr, nullptr, [this](uint32_t value) {
         if (hooks_.on_inject_freeze) {
           hooks_.on_inject_freeze(regs::kInjectFreezeFreeze.Read(value));
         }
       }});
  regs_.Hook(regs::kMgmtParentPortOffset,
             {[this] { return uint32_t{router_.mgmt_parent_port()}; }, nullptr,
              [this](uint32_t value) {
                router_.SetMgmtParentPort(static_cast<uint8_t>(
                    regs::kMgmtParentPortPort.Read(value)));
              }});
  HookCounters();
  socket.register_b_transport(this, &RouterRegisters::BTransport);
  socket.register_transport_dbg(this, &RouterRegisters::TransportDbg);
}

void RouterRegisters::HookCounters() {
  using Counter = uint64_t RouterCounters::*;
  const std::pair<uint32_t, Counter> counters[] = {
      {regs::kInjectedOffset, &RouterCounters::injected},
      {regs::kEjectedOffset, &RouterCounters::ejected},
      {regs::kForwardedOffset, &RouterCounters::forwarded},
      {regs::kHopsOffset, &RouterCounters::hops},
      {regs::kDropsTtlOffset, &RouterCounters::drops_ttl},
      {regs::kDropsHeaderOffset, &RouterCounters::drops_header},
      {regs::kStreamErrorsOffset, &RouterCounters::stream_errors},
      {regs::kDropsNoRouteOffset, &RouterCounters::drops_no_route},
      {regs::kDropsLinkDownOffset, &RouterCounters::drops_link_down},
      {regs::kDropsStaleEpochOffset, &RouterCounters::drops_stale_epoch},
      {regs::kDropsNodeDownOffset, &RouterCounters::drops_node_down}};
  for (const auto& [offset, counter] : counters) {
    const Counter member = counter;
    regs_.Hook(offset, {[this, member] {
                          const uint64_t value = router_.counters().*member;
                          return value > 0xFFFFFFFFu
                                     ? 0xFFFFFFFFu
                                     : static_cast<uint32_t>(value);
                        },
                        nullptr, nullptr});
  }
}

void RouterRegisters::PresetMode(const std::string& routing_name) {
  const auto code = RouteModeCode(routing_name);
  if (!code) {
    throw std::invalid_argument("no ROUTE_MODE for routing " + routing_name);
  }
  regs_.Store(regs::kRouteModeOffset, regs::kRouteModeMode.Place(*code));
}

std::array<uint8_t, 8> RouterRegisters::tc_map() const {
  std::array<uint8_t, 8> map{};
  const uint32_t bits = regs_.value(regs::kTcMapOffset);
  for (unsigned tc = 0; tc < map.size(); ++tc) {
    map[tc] = static_cast<uint8_t>((bits >> (tc * kTcMapBits)) & 3);
  }
  return map;
}

// A bank's table takes E x C x 2 entries (64 KiB on 8192 cards), so it is
// made when first used: a router never programmed through its registers
// holds none.
std::vector<topo::TableEntry>& RouterRegisters::ShadowTable() {
  if (shadow_table_.empty()) {
    shadow_table_.resize(table_size_);
  }
  return shadow_table_;
}

std::optional<uint32_t> RouterRegisters::PeekTableData() const {
  const uint32_t index = regs_.value(regs::kTableIndexOffset);
  if (index >= table_size_) {
    return std::nullopt;
  }
  return shadow_table_.empty() ? 0 : shadow_table_[index].raw;
}

std::optional<uint32_t> RouterRegisters::ReadTableData() {
  const std::optional<uint32_t> value = PeekTableData();
  if (value) {
    regs_.Store(regs::kTableIndexOffset,
                regs_.value(regs::kTableIndexOffset) + 1);
  }
  return value;
}

bool RouterRegisters::WriteTableData(uint32_t value) {
  const uint32_t index = regs_.value(regs::kTableIndexOffset);
  if (index >= table_size_) {
    return false;
  }
  ShadowTable()[index].raw = static_cast<uint16_t>(value);
  regs_.Store(regs::kTableIndexOffset, index + 1);
  return true;
}

Result<std::shared_ptr<const topo::RoutingFunction>>
RouterRegisters::BuildShadow() {
  const uint32_t mode =
      regs::kRouteModeMode.Read(regs_.value(regs::kRouteModeOffset));
  std::shared_ptr<const topo::RoutingFunction> built;
  if (mode == static_cast<uint32_t>(Mode::kTable)) {
    built = std::make_shared<topo::ProgrammedTableRouting>(
        router_.routing().shared_topology(), router_.node(),
        router_.vc_classes(), ShadowTable(), regs_.value(regs::kPortUpOffset));
  } else {
    auto fixed = BuildFixed(ModeRoutingName(mode));
    if (!fixed) {
      return fixed.error();
    }
    built = std::move(fixed.value());
  }
  if (built->VcClasses() > router_.vc_classes()) {
    return Fail(built->Name() + " needs more VC classes than the router has");
  }
  return built;
}

// NET-5.6: the topology the fixed function needs comes from SHAPE; it must
// give this node the router's ports and the fabric's endpoint count.
Result<std::shared_ptr<const topo::RoutingFunction>>
RouterRegisters::BuildFixed(const std::string& name) const {
  const uint32_t shape = regs_.value(regs::kShapeOffset);
  const auto& sizes = kShapeSizes;
  const uint32_t endpoints = regs_.value(regs::kEndpointsOffset);
  std::string kind;
  topo::ParamMap params;
  if (name == "dor" || name == "adaptive") {
    kind = "torus";
    std::string dims;
    for (const lq::regs::Field& size : sizes) {
      if (size.Read(shape) != 0) {
        dims += (dims.empty() ? "" : "x") + std::to_string(size.Read(shape));
      }
    }
    params["dims"] = dims;
  } else if (name == "updown") {
    kind = "fattree";
    params["endpoints"] = std::to_string(endpoints);
    params["k"] = std::to_string(sizes[0].Read(shape));
  } else {
    kind = "fullmesh";
    params["x"] = std::to_string(sizes[0].Read(shape));
    params["y"] = std::to_string(sizes[1].Read(shape));
  }
  auto topology = topo::CreateTopology(kind, params);
  if (!topology) {
    return Fail("SHAPE: " + topology.error().reason);
  }
  const std::shared_ptr<const topo::Topology> built = topology.value();
  if (built->EndpointCount() != endpoints ||
      built->PortCount(router_.node()) != router_.local_port()) {
    return Fail("SHAPE describes another fabric than this router's");
  }
  auto routing = topo::CreateRouting(name, built, {});
  if (!routing) {
    return routing.error();
  }
  return std::shared_ptr<const topo::RoutingFunction>(
      std::move(routing.value()));
}

// The shadow bank becomes active and the active one the shadow (NET-5.6).
void RouterRegisters::Switch() {
  const topo::RoutingFunction& active = router_.routing();
  if (&active != installed_.get()) {
    // Installed by the builder or a fabric manager: read its bank back.
    active_mode_ =
        regs::kRouteModeMode.Place(RouteModeCode(active.Name()).value_or(0));
    active_shape_ = 0;
    const auto* tables = dynamic_cast<const topo::TableRouting*>(&active);
    active_table_ =
        tables ? topo::ProgrammedTableRouting::TableOf(*tables, router_.node())
               : std::vector<topo::TableEntry>();
    active_port_up_ =
        tables ? topo::ProgrammedTableRouting::PortUpOf(*tables, router_.node())
               : 0;
  }
  const uint32_t mode = regs_.value(regs::kRouteModeOffset);
  const uint32_t shape = regs_.value(regs::kShapeOffset);
  const uint32_t port_up = regs_.value(regs::kPortUpOffset);
  regs_.Store(regs::kRouteModeOffset, active_mode_);
  regs_.Store(regs::kShapeOffset, active_shape_);
  regs_.Store(regs::kPortUpOffset, active_port_up_);
  active_mode_ = mode;
  active_shape_ = shape;
  active_port_up_ = port_up;
  std::swap(shadow_table_, active_table_);
  installed_ = std::move(pending_);
  router_.WriteShadowRouting(installed_);
  router_.SwitchRouting();
  if (hooks_.on_epoch) {
    hooks_.on_epoch(router_.epoch());
  }
}

void RouterRegisters::BTransport(tlm::tlm_generic_payload& trans,
                                 sc_core::sc_time& delay) {
  delay += sc_core::sc_time(10, sc_core::SC_NS);
  ServeRegisterAccess(
      trans,
      [this](uint32_t offset) {
        return offset == regs::kTableDataOffset ? ReadTableData()
                                                : regs_.Read(offset);
      },
      [this](uint32_t offset, uint32_t value) {
        return regs_.Write(offset, value);
      });
}

// Debug reads have no side effect: TABLE_DATA shows the entry at
// TABLE_INDEX without moving it. Debug writes are firmware's.
unsigned RouterRegisters::TransportDbg(tlm::tlm_generic_payload& trans) {
  return ServeDebugAccess(
      trans,
      [this](uint32_t offset) {
        return offset == regs::kTableDataOffset ? PeekTableData()
                                                : regs_.Peek(offset);
      },
      [this](uint32_t offset, uint32_t value) {
        return regs_.Write(offset, value);
      });
}

}  // namespace lq::net
