// SPDX-License-Identifier: Apache-2.0
// The link controller at transaction level: the same sockets, registers,
// counters and link behaviour as the RTL controller behind
// RtlLinkController, decided by the state machines of models/link and timed
// per flit, at a fraction of the RTL's cost (docs/link-calibration.md).
//
// Speed (DESIGN §5): nothing is clocked. A flit is an event at its flit
// time; an idle link sends nothing. The NOPs an idle RTL link sends are
// implicit: the controller sends NOPs only while they carry something the
// partner needs (an ACK or NAK due, unacknowledged flits, a credit count
// not yet carried), then closes with one round of credit counts marked as
// idle fill, which stands for the idle stream (decision 0006).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/link/control_queue.h"
#include "models/link/link_receiver.h"
#include "models/link/link_transmitter.h"
#include "models/link/ltssm.h"
#include "models/phy/link_profile.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/cycle_clock.h"
#include "systemc/common/path_probe.h"
#include "systemc/common/register_port.h"
#include "systemc/common/stat_list.h"
#include "systemc/link/lc_registers.h"
#include "systemc/link/link_controller.h"
#include "systemc/link/slot_socket.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::link {

// Pipeline latencies in link clock cycles, calibrated against the RTL
// (docs/link-calibration.md; test tl_calibration_test).
struct TlLatency {
  unsigned tx_cycles = 1;          // Flit chosen to flit handed to the PHY.
  unsigned rx_check_cycles = 1;    // Flit from the PHY to its checks.
  unsigned rx_deliver_cycles = 2;  // Checks to the slot offered upward.
};

struct TlLinkControllerConfig {
  phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  double clock_ns = 1.0;          // Link clock (DESIGN §5: 1 GHz).
  unsigned tx_slots_per_vc = 4;   // Room granted to the network per VC.
  double ltssm_time_scale = 1.0;  // DLL-6.2
  bool start_trained = false;     // DLL-6.12
  LinkBufferSizes buffers;
  TlLatency latency;
};

class TlLinkController : public sc_core::sc_module,
                         public LinkController,
                         private phy::PhyRxIf,
                         private SlotIf {
 public:
  tlm_utils::simple_target_socket_optional<TlLinkController> csr;
  phy::PhyInitiatorSocket phy;
  SlotSocket network;
  sc_core::sc_out<bool> irq;

  TlLinkController(sc_core::sc_module_name name,
                   const TlLinkControllerConfig& config);

  size_t slot_bytes() const { return config_.profile.payload_bytes; }
  uint64_t counter(LcCounter counter) const { return regs_.counter(counter); }
  static const ComponentDecl& Declaration();

  // LinkController.
  CsrTargetSocket& csr_socket() override { return csr; }
  phy::PhyInitiatorSocket& phy_socket() override { return phy; }
  SlotSocket& network_socket() override { return network; }
  sc_core::sc_out<bool>& irq_port() override { return irq; }
  LtssmState ltssm_state() const override { return ltssm_.state(); }
  void set_state_observer(StateObserver observer) override {
    state_observer_ = std::move(observer);
  }
  void ResetNetworkSide() override;
  void set_probe(PathProbe* probe) override { probe_ = probe; }
  StatList Stats() const override;
  std::optional<LinkCounters> Counters() const override;

 private:
  struct TxSlot {
    uint64_t cycle;  // First cycle it may leave.
    Bytes bytes;
  };
  struct RxItem {
    uint64_t cycle;  // Cycle of its checks.
    bool lanes;      // A lane report rather than a flit.
    phy::PhyRxFlit flit;
    phy::LaneStatus status;
  };

  // phy::PhyRxIf and SlotIf, called by the PHY and the network.
  void Receive(phy::PhyRxFlit flit, const sc_core::sc_time& delay) override;
  void UpdateLanes(phy::LaneStatus status,
                   const sc_core::sc_time& delay) override;
  void Put(Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  void Control(Bytes message, const sc_core::sc_time& delay) override;
  void BTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int TransportDebug(tlm::tlm_generic_payload& trans);
  // A register write, by firmware or a debugger, and what it sets going.
  bool WriteRegister(uint32_t offset, uint32_t value);

  void start_of_simulation() override;
  void OnTxTime();  // SC_METHOD: one flit time of the transmitter.
  void OnRxDue();   // SC_METHOD: received flits and lane reports.
  // Takes the received flits and lane reports due by cycle `now`, and
  // offers the slots they freed upward.
  void TakeDueRx(uint64_t now);
  void OnLtssmTimeout();  // SC_METHOD: the LTSSM state's timeout.
  void DriveIrq();        // SC_METHOD: irq follows the registers.

  void ProcessFlit(const phy::PhyRxFlit& flit);
  void StepLtssm(const LtssmInputs& in);
  void OnLtssmEvents(const LtssmEvents& events);  // Resets, counts, IRQs.
  void Enqueue(RxItem item);  // In cycle order, waking OnRxDue().
  void HandleTxEvents(const TxEvents& events);
  void ApplyRegisters();
  void DeliverSlots();
  // Whether an L0 NOP is worth sending now; `idle_fill` when it is the
  // closing round of credit counts.
  bool NopNeeded(bool& idle_fill) const;
  // `payload`: the flit carries a slot (new or replayed).
  void Transmit(Bytes content, bool idle_fill, uint64_t at_ps, bool payload);
  // Wakes the transmitter at `cycle`, or when it may next choose a flit.
  void KickTx(uint64_t cycle);
  void UpdateIrq();
  RxState ReceiverState() const;

  TlLinkControllerConfig config_;
  PathProbe* probe_ = nullptr;
  StateObserver state_observer_;
  CycleClock clock_;
  LinkTransmitter tx_;
  LinkReceiver rx_;
  Ltssm ltssm_;
  LcRegisters regs_;

  std::vector<std::deque<TxSlot>> tx_slots_;  // Per VC, from the network.
  ControlQueue control_;                      // From the network (DLL-11.4).
  std::vector<unsigned> network_room_;        // Credits towards the network.
  uint64_t reg_free_ps_ = 0;  // The next flit may be chosen from here...
  uint64_t phy_free_ps_ = 0;  // ...and the PHY takes it from here.
  uint64_t next_deliver_cycle_ = 0;
  uint64_t armed_deadline_ = Ltssm::kNever;  // Of ltssm_event_.
  VcCredits carried_{};         // FREED(v) last carried by a flit...
  VcCredits filled_{};          // ...and by an idle-fill flit.
  bool corrupt_armed_ = false;  // ERR_INJECT.CORRUPT
  bool delivering_ = false;     // Inside DeliverSlots().
  bool selective_nak_ = true;   // CTRL.SEL_NAK_EN, as last written.
  bool irq_level_ = false;

  std::deque<RxItem> rx_items_;
  sc_core::sc_event tx_event_, rx_event_, ltssm_event_, irq_event_;

  // Statistics.
  uint64_t tx_flits_ = 0, tx_idle_fill_ = 0, rx_flits_ = 0;
  uint64_t slots_in_ = 0, slots_out_ = 0, csr_accesses_ = 0;
  uint64_t control_sent_ = 0, control_received_ = 0, control_rejected_ = 0;
  uint64_t activations_ = 0;
};

}  // namespace lq::link
