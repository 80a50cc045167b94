// SPDX-License-Identifier: Apache-2.0
// VerilatedLc<Top>: drives a Verilated model with lc_top's ports one clock
// cycle at a time (LcPinModel). Include it only from a source compiled into
// a Verilated library's target, which sees that model's VM_* definitions:
// lc_rtl_model.cpp for lqemu's lc_top, and the conformance suite's
// external DUT for a user's RTL.
//
// The LTSSM's state and the counters a report reads are read from
// registers made public by the library's Verilator configuration
// (rtl/lc/lc_wrapper_public.vlt): a model without one, such as a user's,
// reports none.
#pragma once

#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "generated/cpp/lc_regs.h"
#include "systemc/common/wide_bytes.h"
#include "systemc/link/lc_rtl_model.h"
#include "verilated.h"
#include "verilated_syms.h"
#include "verilated_vcd_c.h"

namespace lq::link {

template <typename Top>
class VerilatedLc final : public LcPinModel {
 public:
  // Resets the model; `name` is its top scope.
  VerilatedLc(const LcWaveform& waveform, uint64_t clock_ps, const char* name)
      : clock_ps_(clock_ps), waveform_(waveform), armed_(waveform.triggered()) {
    if (!waveform.vcd_path.empty()) {
      context_.traceEverOn(true);
    }
    top_ = std::make_unique<Top>(&context_, name);
    if (!waveform.vcd_path.empty()) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      top_->trace(vcd_.get(), kVcdDepth);
      vcd_->open(waveform.vcd_path.c_str());
    }
    ltssm_state_ = static_cast<const uint8_t*>(
        FindPublic(".u_ltssm", "state_q", VLVT_UINT8));
    tx_flits_ = static_cast<const uint64_t*>(
        FindPublic(".u_csr", "tx_flits_q", VLVT_UINT64));
    small_counters_ = static_cast<const uint32_t*>(
        FindPublic(".u_csr", "small_q", VLVT_WDATA));
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
    Tick(0);
    top_->rst_ni = 1;
    top_->eval();
  }

  ~VerilatedLc() override {
    // Verilator 5.006 unregisters a model's scopes from the thread's
    // current context, which is whichever model ran last and may be gone
    // already: make it this model's own first.
    Verilated::threadContextp(&context_);
    top_->final();
    if (vcd_) {
      vcd_->close();
    }
    vcd_.reset();
    top_.reset();
  }

  unsigned NextRxVc() const override { return top_->rx_vc_o; }
  uint64_t cycles() const override { return cycles_; }
  std::optional<unsigned> LtssmState() const override {
    if (ltssm_state_ == nullptr) {
      return std::nullopt;
    }
    return *ltssm_state_;
  }
  std::optional<LinkCounters> Counters() const override {
    if (tx_flits_ == nullptr || small_counters_ == nullptr) {
      return std::nullopt;
    }
    // lc_csr keeps CRC_ERRORS .. LOST_ON_DOWN in register order, a 32-bit
    // word each.
    const auto word = [this](uint32_t offset) -> uint64_t {
      return small_counters_[(offset - regs::lc::kCrcErrorsOffset) / 4];
    };
    return LinkCounters{*tx_flits_, word(regs::lc::kCrcErrorsOffset),
                        word(regs::lc::kReplaysOffset)};
  }

  std::optional<LcRegisterAnswer> PeekRegister(bool write, uint32_t address,
                                               uint32_t data) override {
    // The register port answers combinationally in the request's cycle
    // (lc_csr): present the access, evaluate, and take it back, with the
    // clock low throughout, so that no register is written and no read
    // latches anything.
    Top& top = *top_;
    const auto saved = std::make_tuple(top.reg_req_i, top.reg_we_i,
                                       top.reg_addr_i, top.reg_wdata_i);
    top.reg_req_i = 1;
    top.reg_we_i = write;
    top.reg_addr_i = address;
    top.reg_wdata_i = data;
    top.eval();
    const LcRegisterAnswer answer{static_cast<uint32_t>(top.reg_rdata_o),
                                  RegisterError()};
    std::tie(top.reg_req_i, top.reg_we_i, top.reg_addr_i, top.reg_wdata_i) =
        saved;
    top.eval();
    return answer;
  }

  void Cycle(const LcInputs& in, LcOutputs& out) override {
    Top& top = *top_;
    top.phy_rx_valid_i = in.phy_rx_valid;
    if (in.phy_rx_valid) {
      top.phy_rx_bad_i = in.phy_rx_bad;
      top.phy_rx_fec_corrected_i = in.phy_rx_fec_corrected;
      top.phy_rx_lane_i = in.phy_rx_lane;
      rtl::PackBytes(*in.phy_rx_flit, top.phy_rx_flit_i.data());
    }
    top.phy_receiver_i = in.phy_receivers;
    top.phy_lock_lost_i = in.phy_lock_lost;
    top.phy_tx_ready_i = in.phy_tx_ready;
    for (unsigned vc = 0; vc < kLcVcs; ++vc) {
      if ((in.tx_valid >> vc) & 1u) {
        rtl::PackBytes(*in.tx_slots[vc],
                       top.tx_slot_i.data() + vc * kSlotWords);
      }
    }
    top.tx_valid_i = in.tx_valid;
    top.rx_ready_i = in.rx_ready;
    top.ctrl_tx_valid_i = in.ctrl_tx_valid;
    if (in.ctrl_tx_valid) {
      rtl::PackBytes(*in.ctrl_tx_slot, top.ctrl_tx_slot_i.data());
    }
    top.reg_req_i = in.reg_req;
    top.reg_we_i = in.reg_we;
    top.reg_addr_i = in.reg_addr;
    top.reg_wdata_i = in.reg_wdata;

    top.eval();

    out.tx_taken = top.tx_valid_i & top.tx_ready_o;
    out.phy_tx = top.phy_tx_valid_o && in.phy_tx_ready;
    if (out.phy_tx) {
      out.phy_tx_flit =
          rtl::UnpackBytes(top.phy_tx_flit_o.data(), kLcContentBytes);
      out.width = top.width_o;
      out.corrupt_bytes = top.phy_tx_corrupt_bytes_o;
    }
    out.rx = top.rx_valid_o && in.rx_ready;
    if (out.rx) {
      out.rx_vc = top.rx_vc_o;
      out.rx_slot = rtl::UnpackBytes(top.rx_slot_o.data(), kLcSlotBytes);
    }
    out.ctrl_taken = top.ctrl_tx_valid_i && top.ctrl_tx_ready_o;
    out.ctrl_rx = top.ctrl_rx_valid_o;
    if (out.ctrl_rx) {
      out.ctrl_rx_slot =
          rtl::UnpackBytes(top.ctrl_rx_slot_o.data(), kLcSlotBytes);
    }
    out.reg_rdata = top.reg_rdata_o;
    out.reg_error = RegisterError();
    out.irq = top.irq_o;

    if (armed_) {
      OpenOnTrigger(in);
    }
    Tick(++cycles_);
  }

 private:
  static constexpr size_t kSlotBits = kLcSlotBytes * rtl::kBitsPerByte;
  static_assert(kSlotBits % rtl::kBitsPerWord == 0, "slot not word aligned");
  static constexpr size_t kSlotWords = kSlotBits / rtl::kBitsPerWord;
  static constexpr int kVcdDepth = 99;  // Every level of the hierarchy.

  // Variable `var` of Verilator type `type` in the instance whose name
  // ends in `leaf`, if the model makes it public.
  const void* FindPublic(const char* leaf, const char* var, int type) {
    const VerilatedScopeNameMap* scopes = context_.scopeNameMap();
    if (scopes == nullptr) {
      return nullptr;
    }
    for (const auto& [scope_name, scope] : *scopes) {
      const char* name_leaf = std::strrchr(scope_name, '.');
      if (name_leaf == nullptr || std::strcmp(name_leaf, leaf) != 0) {
        continue;
      }
      const VerilatedVar* found = scope->varFind(var);
      if (found != nullptr && found->vltype() == type) {
        return found->datap();
      }
    }
    return nullptr;
  }

  // The rising edge. The clock falls unevaluated unless a waveform is being
  // written: lc_top acts on rising edges only, and Verilator (5.006)
  // re-evaluates all the logic its inputs feed at every eval(), so the next
  // Cycle()'s eval, after its inputs are driven, takes the falling edge too.
  void Tick(uint64_t cycle) {
    top_->clk_i = 1;
    top_->eval();
    Dump(cycle * clock_ps_);
    top_->clk_i = 0;
    if (vcd_) {
      top_->eval();
      Dump(cycle * clock_ps_ + clock_ps_ / 2);
    }
  }

  // The register port refuses the access on its pins: an error, or not
  // ready.
  bool RegisterError() const { return top_->reg_error_o || !top_->reg_ready_o; }

  // The waveform's window opens at this cycle if its trigger holds now.
  void OpenOnTrigger(const LcInputs& in) {
    const uint64_t now_ps = (cycles_ + 1) * clock_ps_;
    if (now_ps < waveform_.from_ps) {
      return;
    }
    const bool state = waveform_.open_on_ltssm && ltssm_state_ != nullptr &&
                       *ltssm_state_ == *waveform_.open_on_ltssm;
    const bool write = waveform_.open_on_write && in.reg_req && in.reg_we &&
                       in.reg_addr == *waveform_.open_on_write;
    if (state || write) {
      const uint64_t length = waveform_.until_ps - waveform_.from_ps;
      constexpr uint64_t kEnd = std::numeric_limits<uint64_t>::max();
      waveform_.until_ps = length > kEnd - now_ps ? kEnd : now_ps + length;
      waveform_.from_ps = now_ps;
      armed_ = false;
    }
  }

  void Dump(uint64_t ps) {
    if (vcd_ && !armed_ && ps >= waveform_.from_ps && ps < waveform_.until_ps) {
      vcd_->dump(ps);
    }
  }

  VerilatedContext context_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  const uint8_t* ltssm_state_ = nullptr;
  const uint64_t* tx_flits_ = nullptr;        // TX_FLITS
  const uint32_t* small_counters_ = nullptr;  // CRC_ERRORS .. LOST_ON_DOWN
  uint64_t clock_ps_;
  LcWaveform waveform_;
  bool armed_;  // a trigger is yet to open the window
  uint64_t cycles_ = 0;
};

}  // namespace lq::link
