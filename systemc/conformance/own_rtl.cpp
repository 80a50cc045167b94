// SPDX-License-Identifier: Apache-2.0
// The user's Verilated link controller at its pins. Compiled into the
// Verilated library's target (lq_dut_rtl), so it sees the model's VM_*
// definitions.
#include "systemc/conformance/own_rtl.h"

#include "Vlq_dut_top.h"
#include "systemc/link/verilated_lc.h"

namespace lq::conformance {

std::unique_ptr<link::LcPinModel> MakeOwnRtlModel(
    const link::LcWaveform& waveform, uint64_t clock_ps) {
  return std::make_unique<link::VerilatedLc<Vlq_dut_top>>(waveform, clock_ps,
                                                          "dut_top");
}

}  // namespace lq::conformance
