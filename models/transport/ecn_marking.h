// SPDX-License-Identifier: Apache-2.0
// RED-style ECN marking at a router's egress queue (docs/spec/trn.md
// TRN-9.2, TRN-9.3): the probability of marking a packet from the bytes
// already queued ahead of it, and the named marking profiles.
#pragma once

#include <cstdint>
#include <string>

#include "models/common/result.h"

namespace lq::transport {

struct EcnProfile {
  uint64_t kmin_bytes = 0;
  uint64_t kmax_bytes = 0;
  double pmax = 0;  // 0: never mark
};

// TRN-9.2: 0 up to Kmin, Pmax·(q − Kmin)/(Kmax − Kmin) up to Kmax, then 1;
// with Kmin = Kmax a step at Kmin. A profile with Pmax 0 never marks.
double MarkProbability(const EcnProfile& profile, uint64_t queued_bytes);

// TRN-9.3's profiles by name: "dcqcn", "lqcc" or "none".
Result<EcnProfile> EcnProfileNamed(const std::string& name);

}  // namespace lq::transport
