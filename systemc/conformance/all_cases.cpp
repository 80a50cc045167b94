// SPDX-License-Identifier: Apache-2.0
// The suite's cases, chapter by chapter.
#include <utility>

#include "systemc/conformance/conformance_case.h"

namespace lq::conformance {

std::vector<ConformanceCase> AllCases() {
  std::vector<ConformanceCase> cases = PhyPortCases();
  for (auto chapter : {DllFlitCases, DllLinkCases, NetRouterCases,
                       NetRoutingCases, NetMgmtCases, TrnFrameCases, TrnQpCases,
                       TrnReliabilityCases, TrnCongestionCases, TrnRouterCases,
                       LogAccessCases, LogFaultCases, LogFirmwareCases}) {
    for (ConformanceCase& c : chapter()) {
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace lq::conformance
