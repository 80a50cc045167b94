// SPDX-License-Identifier: Apache-2.0
// The Verilated link controller behind a plain C++ face: one call per clock
// cycle with that cycle's pin values in and out. It keeps Verilator's
// headers, which must be compiled with the model's own definitions, out of
// SystemC code (the RTL wrapper) and lets a benchmark time the raw model.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "models/common/bytes.h"
#include "systemc/link/link_counters.h"

namespace lq::link {

inline constexpr unsigned kLcVcs = 4;           // lc_pkg::NUM_VCS.
inline constexpr size_t kLcSlotBytes = 236;     // Built for profile pcie6.
inline constexpr size_t kLcContentBytes = 250;  // Slot + DLP + flit CRC.
// LTSSM_TIME_SCALE of the library built for clusters (rtl/CMakeLists.txt,
// MsCycles = 100): its timeouts run 10^4 times faster than the spec's.
inline constexpr double kLcRtlLtssmTimeScale = 1e-4;

// The register pins' answer to one access.
struct LcRegisterAnswer {
  uint32_t rdata = 0;
  bool error = false;  // refused: unknown, read-only, or an illegal value
};

// Inputs of one cycle. Byte buffers are read only when their valid is set.
struct LcInputs {
  bool phy_rx_valid = false;
  bool phy_rx_bad = false;
  bool phy_rx_fec_corrected = false;
  unsigned phy_rx_lane = 0;
  const Bytes* phy_rx_flit = nullptr;  // kLcContentBytes.
  uint32_t phy_receivers = 0;
  uint32_t phy_lock_lost = 0;
  bool phy_tx_ready = false;
  uint32_t tx_valid = 0;                        // Bit per VC.
  std::array<const Bytes*, kLcVcs> tx_slots{};  // kLcSlotBytes each.
  bool rx_ready = false;
  bool ctrl_tx_valid = false;           // A control slot to send (DLL-11).
  const Bytes* ctrl_tx_slot = nullptr;  // kLcSlotBytes.
  bool reg_req = false;
  bool reg_we = false;
  uint32_t reg_addr = 0;
  uint32_t reg_wdata = 0;
};

// Outputs of the same cycle, before its clock edge. Byte buffers are filled
// only when a transfer happens (valid and ready).
struct LcOutputs {
  uint32_t tx_taken = 0;      // VCs whose slot the controller took.
  bool phy_tx = false;        // A flit went to the PHY...
  Bytes phy_tx_flit;          // ...with this content,
  unsigned width = 0;         // at this width,
  uint8_t corrupt_bytes = 0;  // with ERR_INJECT.CORRUPT armed for it.
  bool rx = false;            // A slot was delivered...
  unsigned rx_vc = 0;
  Bytes rx_slot;
  bool ctrl_taken = false;  // The controller took the control slot.
  bool ctrl_rx = false;     // A control slot arrived...
  Bytes ctrl_rx_slot;       // ...with these bytes.
  uint32_t reg_rdata = 0;
  bool reg_error = false;  // Error or not ready.
  bool irq = false;
};

// A Verilated link controller with lc_top's ports, driven one clock cycle
// at a time: lqemu's own (LcRtlModel) or one brought by a user
// (docs/guide-conformance.md, "Your own RTL").
class LcPinModel {
 public:
  virtual ~LcPinModel() = default;
  // One clock cycle: apply `in`, evaluate, fill `out`, clock edge.
  virtual void Cycle(const LcInputs& in, LcOutputs& out) = 0;
  // The VC of the slot offered next (a register: stable until the edge).
  virtual unsigned NextRxVc() const = 0;
  virtual uint64_t cycles() const = 0;
  // The LTSSM's state (LtssmState's order, lc_ltssm's state_e) after the
  // last cycle; none if the model does not make it public.
  virtual std::optional<unsigned> LtssmState() const { return std::nullopt; }
  // TX_FLITS, CRC_ERRORS and REPLAYS after the last cycle; none if the
  // model does not make its counter registers public.
  virtual std::optional<LinkCounters> Counters() const { return std::nullopt; }
  // How the register pins answer an access presented now, evaluated
  // without a clock edge, so that nothing changes (a debugger's peek): the
  // read data and the error; a write is only checked. None if the model
  // cannot evaluate between edges.
  virtual std::optional<LcRegisterAnswer> PeekRegister(bool write,
                                                       uint32_t address,
                                                       uint32_t data) {
    (void)write;
    (void)address;
    (void)data;
    return std::nullopt;
  }
};

// Where and when a model writes its waveform: the clock edges in
// [from_ps, until_ps) go to a VCD file at `vcd_path`, if one is named.
// With a trigger the window opens instead at the first cycle, from
// `from_ps` on, at which the trigger holds, and is as long: the LTSSM in
// state `open_on_ltssm` (LtssmState's order; a model that does not make
// its state public never opens it), or a write presented to the register
// at byte offset `open_on_write`.
struct LcWaveform {
  std::string vcd_path;
  uint64_t from_ps = 0;
  uint64_t until_ps = std::numeric_limits<uint64_t>::max();
  std::optional<unsigned> open_on_ltssm;
  std::optional<uint32_t> open_on_write;
  bool triggered() const { return open_on_ltssm || open_on_write; }
};

// Makes a model in reset, writing `waveform`.
using LcPinModelFactory = std::function<std::unique_ptr<LcPinModel>(
    const LcWaveform& waveform, uint64_t clock_ps)>;

// lqemu's RTL link controller, rtl/lc/lc_top.sv.
class LcRtlModel final : public LcPinModel {
 public:
  // Resets the model, writing `waveform`.
  explicit LcRtlModel(const LcWaveform& waveform = {},
                      uint64_t clock_ps = 1000);
  ~LcRtlModel() override;
  LcRtlModel(const LcRtlModel&) = delete;
  LcRtlModel& operator=(const LcRtlModel&) = delete;

  void Cycle(const LcInputs& in, LcOutputs& out) override {
    model_->Cycle(in, out);
  }
  unsigned NextRxVc() const override { return model_->NextRxVc(); }
  uint64_t cycles() const override { return model_->cycles(); }
  std::optional<unsigned> LtssmState() const override {
    return model_->LtssmState();
  }
  std::optional<LinkCounters> Counters() const override {
    return model_->Counters();
  }
  std::optional<LcRegisterAnswer> PeekRegister(bool write, uint32_t address,
                                               uint32_t data) override {
    return model_->PeekRegister(write, address, data);
  }

 private:
  std::unique_ptr<LcPinModel> model_;
};

}  // namespace lq::link
