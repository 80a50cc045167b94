// SPDX-License-Identifier: Apache-2.0
// Drives a Verilated model's clk_i and rst_ni and counts the RTL assertions
// that fail in it.
#pragma once

#include <climits>
#include <cstdint>
#include <memory>

#include "verilated.h"

namespace lq::rtl {

// Owns one Verilated model `V` whose top has the ports clk_i and rst_ni, as
// every lqemu RTL top does. A test sets inputs, calls Settle() to see the
// combinational outputs of this cycle (handshakes are decided there), then
// Tick() to take the rising edge.
template <typename V>
class ClockedModel {
 public:
  ClockedModel() : context_(std::make_unique<VerilatedContext>()) {
    // A failed `ASSERT only counts (and prints), so a test can report it as a
    // failure and the negative tests can expect it instead of the process
    // dying.
    context_->errorLimit(INT_MAX);
    context_->fatalOnError(false);
    model_ = std::make_unique<V>(context_.get(), "dut");
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
  }
  ~ClockedModel() { model_->final(); }
  ClockedModel(const ClockedModel&) = delete;
  ClockedModel& operator=(const ClockedModel&) = delete;

  V& dut() { return *model_; }
  V* operator->() { return model_.get(); }

  // Holds the asynchronous reset low for `cycles` rising edges, then releases
  // it.
  void Reset(int cycles = kResetCycles) {
    model_->rst_ni = 0;
    model_->eval();
    for (int i = 0; i < cycles; ++i) {
      Tick();
    }
    model_->rst_ni = 1;
    model_->eval();
  }

  // Recomputes the combinational outputs after inputs changed, clock low.
  void Settle() { model_->eval(); }

  // One clock period: rising edge (flops take their _d), then falling edge.
  // Verilator samples assertion operands at the start of eval(), so the inputs
  // are settled first: otherwise an assertion would see new inputs next to
  // combinational values still computed from the old ones.
  void Tick() {
    model_->eval();
    model_->clk_i = 1;
    model_->eval();
    context_->timeInc(kHalfPeriod);
    model_->clk_i = 0;
    model_->eval();
    context_->timeInc(kHalfPeriod);
    ++cycles_;
  }

  uint64_t cycles() const { return cycles_; }

  // Failed `ASSERT checks so far (VerilatedContext's error count).
  int assertion_failures() const { return context_->errorCount(); }

 private:
  static constexpr int kResetCycles = 2;
  static constexpr uint64_t kHalfPeriod = 1;

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<V> model_;
  uint64_t cycles_ = 0;
};

}  // namespace lq::rtl
