// SPDX-License-Identifier: Apache-2.0
// The link controller a user brings (-DLQ_DUT_RTL, docs/guide-conformance.md),
// Verilated as Vlq_dut_top: `--dut own`. Present only in builds made with
// it (LQ_CONFORMANCE_OWN_RTL).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "systemc/link/lc_rtl_model.h"

namespace lq::conformance {

std::unique_ptr<link::LcPinModel> MakeOwnRtlModel(
    const link::LcWaveform& waveform, uint64_t clock_ps);

}  // namespace lq::conformance
