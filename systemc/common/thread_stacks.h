// SPDX-License-Identifier: Apache-2.0
// Whether the elaborated design's SystemC threads can have their stacks.
// Each SC_THREAD gets a stack of its own, mapped with a guard page: two
// memory maps. The kernel caps a process's maps at vm.max_map_count
// (65,530 by default); past it SystemC warns W518 ("stack setup failed"),
// runs threads without guard pages, and every later allocation fails
// (std::bad_alloc). Checked after elaboration, before sc_start allocates
// the stacks.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <systemc>

namespace lq {

struct ThreadStackBudget {
  size_t threads = 0;      // SC_THREADs and SC_CTHREADs in the design
  size_t maps_in_use = 0;  // the process's memory maps now
  size_t map_limit = 0;    // vm.max_map_count; 0 if it cannot be read
  // Two maps per stack, plus room for the heap's own maps as it grows.
  size_t MapsNeeded() const;
  bool Fits() const { return map_limit == 0 || MapsNeeded() <= map_limit; }
};

// The budget of the design elaborated so far.
ThreadStackBudget CurrentThreadStackBudget();

// Why the design's thread stacks do not fit, with the figures and the
// fix; nothing if they fit.
std::optional<std::string> ThreadStacksProblem();

// Refuses, at the end of elaboration, a design whose thread stacks do not
// fit: prints why on stderr after `command` ("lqemu") and ends the process
// with `status` before sc_start allocates them. Create one before the
// first sc_start.
class ThreadStackGuard : public sc_core::sc_module {
 public:
  ThreadStackGuard(const sc_core::sc_module_name& name, std::string command,
                   int status);

 private:
  void end_of_elaboration() override;

  std::string command_;
  int status_;
};

}  // namespace lq
