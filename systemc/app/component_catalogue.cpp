// SPDX-License-Identifier: Apache-2.0
// The component catalogue, from each component's own Declaration().
#include "systemc/app/component_catalogue.h"

#include <string>

#include "systemc/board/board.h"
#include "systemc/board/rv32_cpu.h"
#include "systemc/link/lc_declaration.h"
#include "systemc/logical/logical_unit.h"
#include "systemc/logical/workload_engine.h"
#include "systemc/network/router.h"
#include "systemc/phy/phy_port.h"
#include "systemc/transport/router_flow_control.h"
#include "systemc/transport/transport_engine.h"

namespace lq::app {
namespace {

// Where a node holds each component whose statistics a stats file gives
// (cluster::Node's and its LinkPorts' instance names); the remote access
// probe's workload engine reports in its own section instead.
struct Placed {
  const ComponentDecl* decl;
  const char* path;
};

std::vector<Placed> PlacedComponents() {
  return {{&board::Board::Declaration(), "board"},
          {&board::Rv32Cpu::Declaration(), "board.cpu"},
          {&phy::PhyPort::Declaration(), "port<p>.phy"},
          {&link::TlLinkControllerDeclaration(), "port<p>.lc"},
          {&link::RtlLinkControllerDeclaration(), "port<p>.lc"},
          {&net::Router::Declaration(), "router"},
          {&transport::RouterFlowControl::Declaration(), "flow"},
          {&transport::TransportEngine::Declaration(), "transport"},
          {&logical::LogicalUnit::Declaration(), "logical"}};
}

}  // namespace

std::vector<const ComponentDecl*> ComponentCatalogue() {
  std::vector<const ComponentDecl*> catalogue;
  for (const Placed& placed : PlacedComponents()) {
    catalogue.push_back(placed.decl);
  }
  catalogue.push_back(&logical::WorkloadEngine::Declaration());
  return catalogue;
}

void PrintComponents(std::FILE* out) {
  std::fprintf(out,
               "Components (ports, then statistics under "
               "<node>.<component>.):\n");
  for (const ComponentDecl* decl : ComponentCatalogue()) {
    std::fprintf(out, "  %s: %s\n", decl->name.c_str(), decl->meaning.c_str());
    for (const PortDecl& port : decl->ports) {
      std::fprintf(out, "    port  %-24s %s: %s\n", port.name.c_str(),
                   port.protocol.c_str(), port.meaning.c_str());
    }
    for (const StatDecl& stat : decl->stats) {
      std::fprintf(out, "    stat  %-24s %s\n", stat.name.c_str(),
                   stat.meaning.c_str());
    }
  }
}

void PrintComponentsMarkdown(std::FILE* out) {
  std::fprintf(out,
               "\n# Components\n\nThe ports and statistics each component "
               "of a node declares. Statistics appear in a stats file as "
               "`stats[\"<node>.<component>.<name>\"]` (docs/stats-schema.md); "
               "a name with a part in angle brackets is a family, one "
               "statistic per value.\n");
  for (const ComponentDecl* decl : ComponentCatalogue()) {
    std::fprintf(out,
                 "\n## %s\n\n%s.\n\n| port | protocol | meaning |\n"
                 "|---|---|---|\n",
                 decl->name.c_str(), decl->meaning.c_str());
    for (const PortDecl& port : decl->ports) {
      std::fprintf(out, "| `%s` | %s | %s |\n", port.name.c_str(),
                   port.protocol.c_str(), port.meaning.c_str());
    }
    std::fprintf(out, "\n| statistic | meaning |\n|---|---|\n");
    for (const StatDecl& stat : decl->stats) {
      std::fprintf(out, "| `%s` | %s |\n", stat.name.c_str(),
                   stat.meaning.c_str());
    }
  }
}

void PrintStatisticsMarkdown(std::FILE* out) {
  std::fprintf(out, "| statistic | component | meaning |\n|---|---|---|\n");
  for (const Placed& placed : PlacedComponents()) {
    for (const StatDecl& stat : placed.decl->stats) {
      std::fprintf(out, "| `<node>.%s.%s` | %s | %s |\n", placed.path,
                   stat.name.c_str(), placed.decl->name.c_str(),
                   stat.meaning.c_str());
    }
  }
}

}  // namespace lq::app
