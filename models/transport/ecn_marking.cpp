// SPDX-License-Identifier: Apache-2.0
// TRN-9.2's marking probability and TRN-9.3's profiles.
#include "models/transport/ecn_marking.h"

namespace lq::transport {

double MarkProbability(const EcnProfile& profile, uint64_t queued_bytes) {
  if (profile.pmax <= 0 || queued_bytes <= profile.kmin_bytes) {
    return 0;
  }
  if (queued_bytes > profile.kmax_bytes) {
    return 1;
  }
  // Here Kmin < q <= Kmax, so Kmax > Kmin: the division is safe.
  return profile.pmax * static_cast<double>(queued_bytes - profile.kmin_bytes) /
         static_cast<double>(profile.kmax_bytes - profile.kmin_bytes);
}

Result<EcnProfile> EcnProfileNamed(const std::string& name) {
  constexpr uint64_t kKiB = 1024;
  if (name == "dcqcn") {
    return EcnProfile{8 * kKiB, 64 * kKiB, 0.2};
  }
  if (name == "lqcc") {
    return EcnProfile{32 * kKiB, 32 * kKiB, 1};  // TRN-11.2's step
  }
  if (name == "none") {
    return EcnProfile{};
  }
  return Fail("unknown ECN marking profile '" + name +
              "' (dcqcn, lqcc or none)");
}

}  // namespace lq::transport
