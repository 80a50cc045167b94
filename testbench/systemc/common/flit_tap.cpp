// SPDX-License-Identifier: Apache-2.0
// The flit tap's pass-through and its targeted damage.
#include "testbench/systemc/common/flit_tap.h"

#include <utility>

#include "models/flit/dlp.h"
#include "models/flit/flit_codec.h"
#include "models/flit/sequence.h"

namespace lq::testing {

FlitTap::FlitTap(sc_core::sc_module_name name, const phy::LinkProfile& profile)
    : sc_module(name), controller("controller"), phy("phy"), profile_(profile) {
  controller.in(*static_cast<phy::PhyTxIf*>(this));
  phy.in(*static_cast<phy::PhyRxIf*>(this));
}

sc_core::sc_time FlitTap::Transmit(phy::PhyTxFlit flit,
                                   const sc_core::sc_time& offset) {
  const Result<flit::DlpHeader> header = flit::ParseDlp(
      ByteView(flit.content).Sub(flit::DlpOffset(profile_), flit::kDlpBytes));
  if (header && header->type == flit::FlitType::kPayload &&
      (!any_new_ || flit::SeqIsAfter(header->flit_seq, last_new_seq_))) {
    any_new_ = true;
    last_new_seq_ = header->flit_seq;
    if (targets_.count(new_payloads_) != 0) {
      flit.content[0] ^= 0xFF;  // The slot no longer matches the flit CRC.
      ++corrupted_;
    }
    ++new_payloads_;
  }
  return phy.out->Transmit(std::move(flit), offset);
}

}  // namespace lq::testing
