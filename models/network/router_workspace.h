// SPDX-License-Identifier: Apache-2.0
// RouterWorkspace: the working state of a router cycle's allocations (the
// VC and switch allocators' rounds, the adaptive choice's candidate
// ports), which routers stepped one at a time share so that it stays in
// the cache while each router keeps only its arbiters' pointers
// (decisions 0039, 0053). Both network kernels step their routers through
// one.
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "models/network/separable_allocator.h"
#include "models/network/vc_allocator.h"
#include "models/topology/routing.h"

namespace lq::net {

class RouterWorkspace {
 public:
  // For routers whose switch allocator runs `islip_iterations` iterations
  // (0: round-robin).
  explicit RouterWorkspace(unsigned islip_iterations)
      : islip_iterations_(islip_iterations) {}

  // Makes room for a router of `ports` ports of `vcs` VCs each. Throws
  // std::invalid_argument for a router whose switch allocator differs.
  void Fit(unsigned ports, unsigned vcs, unsigned islip_iterations) {
    if (islip_iterations != islip_iterations_) {
      throw std::invalid_argument(
          "routers sharing a workspace must share router.switch_allocator "
          "and router.islip_iterations");
    }
    if (ports > ports_) {
      ports_ = ports;
      switch_allocator_ =
          std::make_unique<SeparableAllocator>(ports, islip_iterations_);
    }
    if (ports * vcs > output_vcs_) {
      output_vcs_ = ports * vcs;
      va_ = std::make_unique<VcAllocator>(output_vcs_);
    }
  }

  // Valid once Fit has been called; the same objects until Fit grows them.
  VcAllocator& va() { return *va_; }
  SeparableAllocator& switch_allocator() { return *switch_allocator_; }
  std::vector<topo::PortId>& candidates() { return candidates_; }

 private:
  unsigned islip_iterations_;
  unsigned ports_ = 0, output_vcs_ = 0;
  std::unique_ptr<SeparableAllocator> switch_allocator_;
  std::unique_ptr<VcAllocator> va_;
  std::vector<topo::PortId> candidates_;
};

}  // namespace lq::net
