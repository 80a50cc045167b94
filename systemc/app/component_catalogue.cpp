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

std::vector<const ComponentDecl*> ComponentCatalogue() {
  return {&board::Board::Declaration(),
          &board::Rv32Cpu::Declaration(),
          &phy::PhyPort::Declaration(),
          &link::TlLinkControllerDeclaration(),
          &link::RtlLinkControllerDeclaration(),
          &net::Router::Declaration(),
          &transport::RouterFlowControl::Declaration(),
          &transport::TransportEngine::Declaration(),
          &logical::LogicalUnit::Declaration(),
          &logical::WorkloadEngine::Declaration()};
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

}  // namespace lq::app
