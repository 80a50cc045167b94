// SPDX-License-Identifier: Apache-2.0
// RouterRegisters: a router's register block (rtl/regs/router.regs.json,
// docs/registers/router.md, NET-5.6) on a TLM-2.0 target socket. Firmware or
// a fabric manager writes the shadow bank — MODE, SHAPE, the table through
// TABLE_INDEX/TABLE_DATA, PORT_UP — and TABLE_SWITCH builds the routing
// function it describes and makes it the router's. What the block controls
// at the local port (TC_MAP, INJECT_FREEZE, the epoch stamped on injected
// packets) goes out through RouterRegisterHooks; bus rules are DLL-8's.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/result.h"
#include "models/topology/routing.h"
#include "models/topology/table_routing.h"
#include "systemc/common/register_bank.h"
#include "systemc/network/router.h"

namespace lq::net {

// The local port's side of the block: set by whoever builds the node; unset
// hooks do nothing.
struct RouterRegisterHooks {
  std::function<void(const std::array<uint8_t, 8>& tc_map)> on_tc_map;
  std::function<void(bool frozen)> on_inject_freeze;
  std::function<void(uint8_t epoch)> on_epoch;  // after every switch
};

class NetworkInterface;
// The hooks that make `local`, the interface at the router's local port,
// follow the registers.
RouterRegisterHooks LocalPortHooks(NetworkInterface& local);

// ROUTE_MODE codes (NET-4.8) and the routing-function names they stand for.
std::optional<uint32_t> RouteModeCode(const std::string& routing_name);

class RouterRegisters : public sc_core::sc_module {
 public:
  // Optional: a router in a network study has no bus.
  tlm_utils::simple_target_socket_optional<RouterRegisters> socket;

  // `router` is the router these registers belong to; `vc_sets` its S.
  RouterRegisters(const sc_core::sc_module_name& name, Router& router,
                  unsigned vc_sets);

  void SetHooks(RouterRegisterHooks hooks) { hooks_ = std::move(hooks); }
  // The builder's preset of the shadow bank's MODE (SHAPE presets itself to
  // the fabric's sizes): what a TABLE_SWITCH installs unless firmware
  // writes another. Throws on a name with no ROUTE_MODE code.
  void PresetMode(const std::string& routing_name);
  // The TC_MAP in force (reset: NET-3.5's default for S sets).
  std::array<uint8_t, 8> tc_map() const;

 private:
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& trans);
  std::optional<uint32_t> ReadTableData();  // nullopt: past the end
  // The entry at TABLE_INDEX, TABLE_INDEX left as it is (a debugger's).
  std::optional<uint32_t> PeekTableData() const;
  bool WriteTableData(uint32_t value);
  // The routing function the shadow bank describes, or why there is none.
  Result<std::shared_ptr<const topo::RoutingFunction>> BuildShadow();
  std::vector<topo::TableEntry>& ShadowTable();
  Result<std::shared_ptr<const topo::RoutingFunction>> BuildFixed(
      const std::string& name) const;
  void Switch();
  void HookCounters();

  Router& router_;
  unsigned vc_sets_;
  RegisterBank regs_;
  RouterRegisterHooks hooks_;
  size_t table_size_ = 0;                       // E x C x 2
  std::vector<topo::TableEntry> shadow_table_;  // empty: all invalid
  // The active bank's MODE, SHAPE, table and PORT_UP: the shadow after the
  // next switch. Read back from the router's function at a switch when
  // someone else (the builder, a fabric manager) installed that function.
  uint32_t active_mode_ = 0, active_shape_ = 0, active_port_up_ = 0;
  std::vector<topo::TableEntry> active_table_;            // empty: all invalid
  std::shared_ptr<const topo::RoutingFunction> pending_;  // built, to install
  std::shared_ptr<const topo::RoutingFunction> installed_;  // by this block
};

}  // namespace lq::net
