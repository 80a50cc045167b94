// SPDX-License-Identifier: Apache-2.0
// The link controller at RTL fidelity: the Verilated lc_top (rtl/lc/) in a
// thin SystemC wrapper. It only translates: the CSR port becomes a TLM-2.0
// target socket, the payload streams become a SlotSocket, the PHY side a
// PhyInitiatorSocket, irq_o an interrupt signal.
//
// Speed (DESIGN §5): the model is never clocked pin by pin from sc_clock. One
// thread advances it a batch of cycles ahead of the kernel, up to the PHY's
// lookahead (no flit can arrive sooner), then waits once; inputs that arrive
// with a delay are queued and applied at their cycle.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/common/bytes.h"
#include "models/link/control_queue.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/cycle_clock.h"
#include "systemc/common/register_port.h"
#include "systemc/common/stat_list.h"
#include "systemc/link/lc_rtl_model.h"
#include "systemc/link/link_controller.h"
#include "systemc/link/slot_socket.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::link {

struct RtlLinkControllerConfig {
  double clock_ns = 1.0;         // Link clock (DESIGN §5: 1 GHz).
  unsigned batch_cycles = 64;    // Most cycles per activation; capped by
                                 // the PHY's lookahead.
  unsigned tx_slots_per_vc = 4;  // Room granted to the network per VC.
  LcWaveform waveform;           // None unless it names a VCD file.
  // The controller behind the sockets; empty: lqemu's own (LcRtlModel).
  LcPinModelFactory model;
};

class RtlLinkController : public sc_core::sc_module,
                          public LinkController,
                          private phy::PhyRxIf,
                          private SlotIf {
 public:
  // Slot bytes of the Verilated model: it is built for profile pcie6.
  static constexpr size_t kSlotBytes = kLcSlotBytes;

  tlm_utils::simple_target_socket_optional<RtlLinkController> csr;
  phy::PhyInitiatorSocket phy;
  SlotSocket network;
  sc_core::sc_out<bool> irq;

  RtlLinkController(sc_core::sc_module_name name,
                    const RtlLinkControllerConfig& config);

  uint64_t cycles() const { return model_->cycles(); }
  unsigned batch_cycles() const { return batch_cycles_; }
  static const ComponentDecl& Declaration();

  // LinkController. The LTSSM's state is the model's after the last cycle
  // it ran; a model that does not make it public (a user's RTL) reports
  // kDisabled and calls no observer.
  CsrTargetSocket& csr_socket() override { return csr; }
  phy::PhyInitiatorSocket& phy_socket() override { return phy; }
  SlotSocket& network_socket() override { return network; }
  sc_core::sc_out<bool>& irq_port() override { return irq; }
  LtssmState ltssm_state() const override { return ltssm_state_; }
  void set_state_observer(StateObserver observer) override {
    state_observer_ = std::move(observer);
  }
  void ResetNetworkSide() override;
  void set_probe(PathProbe* probe) override { probe_ = probe; }
  StatList Stats() const override;
  std::optional<LinkCounters> Counters() const override {
    return model_->Counters();
  }

 private:
  struct Timed {
    uint64_t cycle;  // First cycle at which it applies.
  };
  struct RxEntry : Timed {
    phy::PhyRxFlit flit;
  };
  struct LaneEntry : Timed {
    phy::LaneStatus status;
  };
  struct TxEntry : Timed {
    Bytes bytes;
  };
  struct CsrAccess {
    bool write = false;
    uint32_t address = 0;
    uint32_t data = 0;  // Write data in, read data out.
    bool error = false;
  };

  // phy::PhyRxIf and SlotIf, called by the PHY and the network.
  void Receive(phy::PhyRxFlit flit, const sc_core::sc_time& delay) override;
  void UpdateLanes(phy::LaneStatus status,
                   const sc_core::sc_time& delay) override;
  void Put(Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  void Control(Bytes message, const sc_core::sc_time& delay) override;
  // A register access's fields from the transaction (the written word).
  static CsrAccess AccessOf(const tlm::tlm_generic_payload& trans);
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int TransportDebug(tlm::tlm_generic_payload& trans);

  void start_of_simulation() override;
  void Run();       // SC_THREAD: runs the model in batches, and CSR
                    // accesses at its next cycle.
  void DriveIrq();  // SC_METHOD: irq follows irq_o at its cycle.
  // One clock cycle with its inputs; `csr_access` rides on it if given.
  void StepCycle(CsrAccess* csr_access);
  void ApplyInputs(CsrAccess* csr_access, LcInputs& in);
  // The outputs of `cycle`.
  void TakeOutputs(uint64_t cycle, LcOutputs& out, CsrAccess* csr_access);
  // The model's LTSSM state, if it makes it public.
  std::optional<LtssmState> ModelLtssmState() const;
  // Calls the observer if the model's LTSSM left its state in `cycle`.
  void WatchLtssm(uint64_t cycle);
  // From the kernel's time to the model's next cycle.
  sc_core::sc_time Offset() const;
  uint64_t Late(uint64_t cycle);  // Clamps a past cycle to the next one.

  RtlLinkControllerConfig config_;
  PathProbe* probe_ = nullptr;
  StateObserver state_observer_;
  LtssmState ltssm_state_ = LtssmState::kDisabled;
  CycleClock clock_;
  unsigned batch_cycles_ = 1;
  std::unique_ptr<LcPinModel> model_;  // Cycle c is at time c * clock.
  LcOutputs outputs_;  // Reused each cycle: its buffers keep their memory.

  std::deque<RxEntry> rx_flits_;
  std::deque<LaneEntry> lane_updates_;
  std::vector<std::deque<TxEntry>> tx_slots_;  // Per VC.
  ControlQueue control_;                       // DLL-11.4
  std::vector<unsigned> network_room_;         // Credits towards the network.
  uint64_t phy_free_cycle_ = 0;  // First cycle the PHY takes a flit.
  uint32_t receivers_ = 0;

  CsrAccess* pending_csr_ = nullptr;  // Handed over by BTransport().
  sc_core::sc_event csr_request_, csr_done_;

  bool irq_level_ = false;
  std::deque<std::pair<uint64_t, bool>> irq_changes_;
  sc_core::sc_event irq_event_;

  // Statistics.
  uint64_t late_inputs_ = 0;  // Inputs that arrived after their cycle ran.
  uint64_t tx_flits_ = 0;
  uint64_t rx_flits_in_ = 0;
  uint64_t slots_in_ = 0;
  uint64_t slots_out_ = 0;
  uint64_t control_sent_ = 0;
  uint64_t control_received_ = 0;
  uint64_t control_rejected_ = 0;
  uint64_t csr_accesses_ = 0;
  uint64_t activations_ = 0;
};

}  // namespace lq::link
