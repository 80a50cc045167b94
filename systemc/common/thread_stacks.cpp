// SPDX-License-Identifier: Apache-2.0
// Counting the design's threads against the kernel's limit on maps.
#include "systemc/common/thread_stacks.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace lq {
namespace {

// Maps left for the heap and the libraries once the stacks are placed.
constexpr size_t kHeadroomMaps = 4096;
constexpr size_t kMapsPerStack = 2;   // the stack and its guard page
constexpr size_t kLimitStep = 65536;  // a limit to suggest is a multiple

size_t RoundUp(size_t value, size_t step) {
  return (value + step - 1) / step * step;
}

size_t CountThreads(const std::vector<sc_core::sc_object*>& objects) {
  size_t threads = 0;
  for (const sc_core::sc_object* object : objects) {
    const std::string kind = object->kind();
    threads += kind == "sc_thread_process" || kind == "sc_cthread_process";
    threads += CountThreads(object->get_child_objects());
  }
  return threads;
}

size_t CountLines(const char* path) {
  std::ifstream file(path);
  size_t lines = 0;
  for (std::string line; std::getline(file, line);) {
    ++lines;
  }
  return lines;
}

size_t ReadLimit() {
  std::ifstream file("/proc/sys/vm/max_map_count");
  size_t limit = 0;
  return file >> limit ? limit : 0;
}

std::string Grouped(size_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<size_t>(at), ",");
  }
  return digits;
}

}  // namespace

size_t ThreadStackBudget::MapsNeeded() const {
  return maps_in_use + kMapsPerStack * threads + kHeadroomMaps;
}

ThreadStackBudget CurrentThreadStackBudget() {
  ThreadStackBudget budget;
  budget.threads = CountThreads(sc_core::sc_get_top_level_objects());
  budget.maps_in_use = CountLines("/proc/self/maps");
  budget.map_limit = ReadLimit();
  return budget;
}

std::optional<std::string> ThreadStacksProblem() {
  const ThreadStackBudget budget = CurrentThreadStackBudget();
  if (budget.Fits()) {
    return std::nullopt;
  }
  return "the design has " + Grouped(budget.threads) +
         " SystemC threads, whose stacks need about " +
         Grouped(budget.MapsNeeded()) +
         " memory maps with those in use, and vm.max_map_count is " +
         Grouped(budget.map_limit) +
         ": raise it (as root: sysctl -w vm.max_map_count=" +
         std::to_string(RoundUp(budget.MapsNeeded(), kLimitStep)) +
         ") or build a smaller topology";
}

ThreadStackGuard::ThreadStackGuard(const sc_core::sc_module_name& name,
                                   std::string command, int status)
    : sc_module(name), command_(std::move(command)), status_(status) {}

void ThreadStackGuard::end_of_elaboration() {
  if (const auto problem = ThreadStacksProblem()) {
    std::fprintf(stderr, "%s: %s\n", command_.c_str(), problem->c_str());
    std::fflush(nullptr);
    // Nothing has run or been written yet; SystemC's kernel, mid-start,
    // is not torn down.
    std::quick_exit(status_);
  }
}

}  // namespace lq
