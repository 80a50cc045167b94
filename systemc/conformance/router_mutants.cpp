// SPDX-License-Identifier: Apache-2.0
// The suite's router mutants.
#include "systemc/conformance/router_mutants.h"

#include "models/network/route_header.h"

namespace lq::conformance {

std::vector<MutantInfo> RouterMutants() {
  return {
      {"trn-ignores-pause", "trn",
       "never takes in a PFC frame, so no XOFF stops its outputs"},
      {"trn-late-xoff", "trn",
       "sends XOFF only above 96 KiB, not pfc.xoff_bytes (64 KiB)"},
      {"trn-marks-as-lqcc", "trn",
       "marks with the lqcc step whatever the congestion control"},
      {"net-forgets-hops", "net",
       "sends every packet with HOPS one less than it should (HCRC right)"}};
}

std::optional<RouterMutant> MakeRouterMutant(const std::string& name) {
  RouterMutant mutant;
  if (name == "trn-ignores-pause") {
    mutant.loses_pfc_frames = true;  // against TRN-8.7
    return mutant;
  }
  if (name == "trn-late-xoff") {
    // A router whose threshold is not the one its scenario set: built with
    // 96 KiB where the case expects the default (against TRN-8.5).
    mutant.keys = {{"pfc.xoff_bytes", "98304"}};
    return mutant;
  }
  if (name == "trn-marks-as-lqcc") {
    mutant.keys = {{"ecn.profile", "lqcc"}};  // against TRN-9.3
    return mutant;
  }
  if (name == "net-forgets-hops") {
    mutant.sends = [](Bytes& packet) {  // against NET-2.4
      if (packet.size() < net::kRouteHeaderBytes) {
        return;
      }
      net::RouteHeader header = net::DecodeRouteHeader(packet.data());
      if (header.hops > 0) {
        --header.hops;
        net::EncodeRouteHeader(header, packet.data());
      }
    };
    return mutant;
  }
  return std::nullopt;
}

}  // namespace lq::conformance
