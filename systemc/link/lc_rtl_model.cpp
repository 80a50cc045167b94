// Pin-level driving of the Verilated lc_top. Compiled into the Verilated
// library's target, so it sees the model's VM_* definitions.
#include "systemc/link/lc_rtl_model.h"

#include "Vlq_lc_top.h"
#include "systemc/common/wide_bytes.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace lq::link {

namespace {

constexpr size_t kSlotBits = kLcSlotBytes * rtl::kBitsPerByte;
static_assert(kSlotBits % rtl::kBitsPerWord == 0, "slot not word aligned");
constexpr size_t kSlotWords = kSlotBits / rtl::kBitsPerWord;
constexpr int kFstDepth = 99;  // Every level of the hierarchy.

}  // namespace

struct LcRtlModel::Impl {
  VerilatedContext context;
  std::unique_ptr<Vlq_lc_top> top;
  std::unique_ptr<VerilatedFstC> fst;

  void Tick(uint64_t cycle, uint64_t clock_ps) {
    top->clk_i = 1;
    top->eval();
    if (fst) {
      fst->dump(cycle * clock_ps);
    }
    top->clk_i = 0;
    top->eval();
    if (fst) {
      fst->dump(cycle * clock_ps + clock_ps / 2);
    }
  }
};

LcRtlModel::LcRtlModel(const std::string& fst_path, uint64_t clock_ps)
    : impl_(std::make_unique<Impl>()), clock_ps_(clock_ps) {
  if (!fst_path.empty()) {
    impl_->context.traceEverOn(true);
  }
  impl_->top = std::make_unique<Vlq_lc_top>(&impl_->context, "lc_top");
  if (!fst_path.empty()) {
    impl_->fst = std::make_unique<VerilatedFstC>();
    impl_->top->trace(impl_->fst.get(), kFstDepth);
    impl_->fst->open(fst_path.c_str());
  }
  Vlq_lc_top& top = *impl_->top;
  top.clk_i = 0;
  top.rst_ni = 0;
  top.eval();
  impl_->Tick(0, clock_ps_);
  top.rst_ni = 1;
  top.eval();
}

LcRtlModel::~LcRtlModel() {
  // Verilator 5.006 unregisters a model's scopes from the thread's current
  // context, which is whichever model ran last and may be gone already:
  // make it this model's own first.
  Verilated::threadContextp(&impl_->context);
  impl_->top->final();
  if (impl_->fst) {
    impl_->fst->close();
  }
  impl_->fst.reset();
  impl_->top.reset();
}

unsigned LcRtlModel::NextRxVc() const { return impl_->top->rx_vc_o; }

void LcRtlModel::Cycle(const LcInputs& in, LcOutputs& out) {
  Vlq_lc_top& top = *impl_->top;
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
      rtl::PackBytes(*in.tx_slots[vc], top.tx_slot_i.data() + vc * kSlotWords);
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
  out.reg_error = top.reg_error_o || !top.reg_ready_o;
  out.irq = top.irq_o;

  impl_->Tick(++cycles_, clock_ps_);
}

}  // namespace lq::link
