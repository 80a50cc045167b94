// SPDX-License-Identifier: Apache-2.0
// The link controllers' declarations.
#include "systemc/link/lc_declaration.h"

namespace lq::link {
namespace {

ComponentDecl Controller(std::string name, std::string meaning,
                         std::vector<StatDecl> first,
                         std::vector<StatDecl> last) {
  ComponentDecl decl{
      std::move(name),
      std::move(meaning),
      {{"network", "slot socket", "payload slots to and from the router"},
       {"phy", "PHY initiator socket", "flits to and from its PHY"},
       {"csr", "TLM-2.0 target, 32-bit",
        "register block (docs/registers/lc.md)"}},
      std::move(first)};
  const std::vector<StatDecl> common = {
      {"activations",
       "the controller's process activations: a cost of the simulation, "
       "which a run over MPI ranks may count otherwise"},
      {"tx_flits", "flits sent, every type"},
      {"rx_flits", "flits received, every type"},
      {"slots_in", "payload slots taken from the router"},
      {"slots_out", "payload slots delivered to the router"},
      {"control_sent", "link control messages sent (dll.md section 11)"},
      {"control_received", "link control messages received well formed"},
      {"control_dropped",
       "older control messages discarded for a newer one (DLL-11.4)"},
      {"control_rejected",
       "good CONTROL flits whose slot was malformed (DLL-11.3)"},
      {"csr_accesses", "register accesses"}};
  decl.stats.insert(decl.stats.end(), common.begin(), common.end());
  decl.stats.insert(decl.stats.end(), last.begin(), last.end());
  return decl;
}

}  // namespace

const ComponentDecl& TlLinkControllerDeclaration() {
  static const ComponentDecl decl = Controller(
      "lc (tlm)", "a port's link controller at transaction level (dll.md)", {},
      {{"tx_idle_fill",
        "idle-fill NOPs sent before the link fell silent (DLL-4.11)"},
       {"tx_payload_flits",
        "PAYLOAD flits sent, replays included: the TX_FLITS register"},
       {"crc_errors", "flits received bad: the CRC_ERRORS register"},
       {"replays", "replays started: the REPLAYS register"}});
  return decl;
}

const ComponentDecl& RtlLinkControllerDeclaration() {
  static const ComponentDecl decl = Controller(
      "lc (rtl)",
      "a port's link controller as Verilated RTL in its SystemC wrapper",
      {{"cycles", "link clock cycles the RTL ran"}},
      {{"late_inputs", "inputs that arrived after the RTL had run past them"}});
  return decl;
}

}  // namespace lq::link
