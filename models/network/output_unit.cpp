// SPDX-License-Identifier: Apache-2.0
// OutputUnit: output VCs, credits and the output queue's departures.
#include "models/network/output_unit.h"

namespace lq::net {

OutputUnit::OutputUnit(unsigned ports, const RouterParams& params,
                       uint64_t period, std::pmr::memory_resource* memory,
                       std::pmr::memory_resource* cold_memory)
    : vcs_(params.vcs()),
      period_(period),
      pipeline_(period * (params.sa_cycles + params.st_cycles)),
      queue_(period * params.output_buffer_flits),
      outputs_(ports * vcs_, memory),
      ports_(ports, memory),
      stalls_(ports * vcs_, cold_memory) {}

uint64_t OutputUnit::stall_cycles(unsigned o, uint64_t now) const {
  const Stall& stall = stalls_[o];
  const uint64_t open =
      outputs_[o].stalling() && now > stall.since ? now - stall.since : 0;
  return (stall.ended + open) / period_;
}

std::vector<uint64_t> OutputUnit::FlitsOut(unsigned ports) const {
  std::vector<uint64_t> flits;
  for (unsigned p = 0; p < ports; ++p) {
    flits.push_back(flits_out(p));
  }
  return flits;
}

std::vector<uint64_t> OutputUnit::StallCycles(unsigned ports,
                                              uint64_t now) const {
  std::vector<uint64_t> cycles;
  for (unsigned o = 0; o < ports * vcs_; ++o) {
    cycles.push_back(stall_cycles(o, now));
  }
  return cycles;
}

}  // namespace lq::net
