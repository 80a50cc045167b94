// SPDX-License-Identifier: Apache-2.0
// The congestion controls' parameters as scenario keys: `dcqcn.*`
// (trn.md TRN-10.5) and `lqcc.*` (TRN-11.8), declared with the defaults of
// models/transport's parameter structs.
#pragma once

#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/transport/congestion_control.h"
#include "systemc/app/key_usage.h"
#include "systemc/common/param.h"

namespace lq::app {

std::vector<ParamSpec> CongestionParamSpecs();

// The keys of congestion control `cc` (dcqcn.* or lqcc.*; none for
// "none"); the other control's keys are skipped. An empty `cc` uses both,
// for cards whose firmware picks a control per QP.
void UseCongestionKeys(const std::string& cc, KeyUsage& usage);

// The parameters of both controls from `params`, for a port whose goodput
// is `line_rate_bps` (TRN-10.1's R). Fails, naming the key, on values the
// key ranges cannot catch (W_min above W_max, R_min above R).
Result<transport::CongestionParams> ScenarioCongestionParams(
    const ParamSet& params, double line_rate_bps);

}  // namespace lq::app
