// SPDX-License-Identifier: Apache-2.0
// The conformance suite's window on a device under test: a module between
// the DUT's PHY socket and its PHY that records every flit in both
// directions, decoded, with the time it leaves or reaches the DUT, and lets
// a test case alter or remove flits on their way. It is also how the
// suite's mutants break a DUT at its port (mutants.h).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <systemc>
#include <utility>
#include <vector>

#include "models/flit/dlp.h"
#include "models/phy/link_profile.h"
#include "systemc/phy/phy_sockets.h"

namespace lq::conformance {

enum class FlitDirection { kFromDut, kToDut };

// One flit at the DUT's port.
struct PortFlit {
  sc_core::sc_time at;  // When it leaves (from) or reaches (to) the DUT.
  FlitDirection direction = FlitDirection::kFromDut;
  // Decoded when the flit is intact: not marked bad by the PHY, CRC and
  // DLP good. Edits made by a case are seen here.
  std::optional<flit::DlpHeader> header;
  Bytes content;      // Slot, DLP and flit CRC.
  bool bad = false;   // To the DUT: the PHY could not correct it.
  unsigned lane = 0;  // To the DUT: the lane of a TRAINING flit.
  // From the DUT: the width it gives the PHY, and whether it marks the
  // flit as standing for an idle link's NOP stream (DLL-4.11, PHY-5.8).
  unsigned width = 0;
  bool idle_fill = false;

  bool Is(flit::FlitType type) const { return header && header->type == type; }
};

class PortTap : public sc_core::sc_module,
                private phy::PhyTxIf,
                private phy::PhyRxIf {
 public:
  // What an edit does with the flit it was given.
  enum class EditResult { kPass, kDrop };
  // Called for every flit before it is recorded and passed on; may change
  // `flit.content` (then call Reseal() to keep the CRC good) or `flit.bad`.
  // Dropping a flit from the DUT damages it instead, so that the PHY's
  // timing is kept: the partner sees a bad flit.
  using Edit = std::function<EditResult(PortFlit& flit)>;

  phy::PhyTargetSocket dut;  // Bound to the DUT's (or a mutant's) socket.
  phy::PhyInitiatorSocket phy;

  // `record` false keeps no log (a mutant's tap).
  PortTap(sc_core::sc_module_name name, const phy::LinkProfile& profile,
          bool record = true);

  void set_from_dut_edit(Edit edit) { from_dut_edit_ = std::move(edit); }
  void set_to_dut_edit(Edit edit) { to_dut_edit_ = std::move(edit); }

  const std::vector<PortFlit>& log() const { return log_; }
  // Notified whenever a flit is recorded.
  const sc_core::sc_event& recorded() const { return recorded_; }
  const phy::LinkProfile& profile() const { return profile_; }

  // From inside a to-DUT edit only: sends the DUT an extra flit with
  // `content`, `after` past the flit being edited, once that one is
  // delivered (so the DUT sees its flits in time order).
  void InjectToDut(Bytes content, const sc_core::sc_time& after);

  // From inside a to-DUT edit only: the lanes in the mask `lanes` fail
  // towards the DUT `after` past the flit being edited, as its PHY would
  // report a failed lane (PHY-5.4): they lose lock and their receivers,
  // later reports of the PHY say so too, and no TRAINING flit reaches the
  // DUT on them any more.
  void FailLanesToDut(uint32_t lanes, const sc_core::sc_time& after);

  // Recomputes the flit CRC and header of `flit` after an edit.
  void Reseal(PortFlit& flit) const;
  // Replaces the DLP of `flit` by `header` and reseals it.
  void Rewrite(PortFlit& flit, const flit::DlpHeader& header) const;

 private:
  sc_core::sc_time Transmit(phy::PhyTxFlit flit,
                            const sc_core::sc_time& offset) override;
  sc_core::sc_time Lookahead() const override { return phy.out->Lookahead(); }
  void Receive(phy::PhyRxFlit flit, const sc_core::sc_time& delay) override;
  void UpdateLanes(phy::LaneStatus status,
                   const sc_core::sc_time& delay) override {
    status.receivers &= ~failed_lanes_;
    dut.out->UpdateLanes(status, delay);
  }

  void DeliverInjections();  // SC_METHOD: injections that are due.
  void Decode(PortFlit& flit) const;
  void Record(const PortFlit& flit);

  phy::LinkProfile profile_;
  bool record_;
  Edit from_dut_edit_, to_dut_edit_;
  std::vector<std::pair<Bytes, sc_core::sc_time>> injections_;
  struct Pending {
    sc_core::sc_time call_at;  // Kernel time to hand it over...
    sc_core::sc_time delay;    // ...this far ahead, as the PHY does.
    Bytes content;
  };
  std::deque<Pending> pending_;  // In call_at order.
  sc_core::sc_event inject_due_;
  uint32_t failed_lanes_ = 0;
  std::vector<std::pair<uint32_t, sc_core::sc_time>> lane_failures_;
  std::vector<PortFlit> log_;
  sc_core::sc_event recorded_;
};

}  // namespace lq::conformance
