// SPDX-License-Identifier: Apache-2.0
// lqemu's own RTL link controller, rtl/lc/lc_top.sv, at its pins. Compiled
// into the Verilated library's target, so it sees the model's VM_*
// definitions.
#include "systemc/link/lc_rtl_model.h"

#include "Vlq_lc_top.h"
#include "systemc/link/verilated_lc.h"

namespace lq::link {

LcRtlModel::LcRtlModel(const LcWaveform& waveform, uint64_t clock_ps)
    : model_(std::make_unique<VerilatedLc<Vlq_lc_top>>(waveform, clock_ps,
                                                       "lc_top")) {}

LcRtlModel::~LcRtlModel() = default;

}  // namespace lq::link
