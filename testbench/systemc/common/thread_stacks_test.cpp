// SPDX-License-Identifier: Apache-2.0
// The check that a design's thread stacks fit the kernel's map limit: it
// counts threads, not methods, and refuses a budget past the limit with
// the figures and the fix.
#include "systemc/common/thread_stacks.h"

#include <gtest/gtest.h>

#include <systemc>

namespace lq {
namespace {

// Three threads and a method, one of the threads in a child module.
class Threads : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Threads);
  explicit Threads(const sc_core::sc_module_name& name)
      : sc_module(name), child_("child") {
    SC_THREAD(Wait);
    SC_THREAD(Wait);
    SC_METHOD(Tick);
  }

 private:
  class Child : public sc_core::sc_module {
   public:
    SC_HAS_PROCESS(Child);
    explicit Child(const sc_core::sc_module_name& name) : sc_module(name) {
      SC_THREAD(Wait);
    }
    void Wait() { wait(); }
  };
  void Wait() { wait(); }
  void Tick() {}
  Child child_;
};

TEST(ThreadStacks, CountsThreadsNotMethodsAndFitsASmallDesign) {
  Threads design("design");
  const ThreadStackBudget budget = CurrentThreadStackBudget();
  EXPECT_EQ(budget.threads, 3u) << "two threads and the child's; no method";
  EXPECT_GT(budget.maps_in_use, 0u) << "read from /proc/self/maps";
  EXPECT_GT(budget.map_limit, 0u) << "read from /proc/sys/vm/max_map_count";
  EXPECT_TRUE(budget.Fits()) << "three stacks fit any machine";
  EXPECT_FALSE(ThreadStacksProblem());
}

TEST(ThreadStacks, ABudgetPastTheLimitDoesNotFit_fail) {
  ThreadStackBudget budget;
  budget.threads = 57344;  // the interim fabric's 16x16x32 torus (0002)
  budget.maps_in_use = 500;
  budget.map_limit = 65530;
  EXPECT_EQ(budget.MapsNeeded(), 500u + 2 * 57344u + 4096u)
      << "two maps per stack, and headroom for the heap";
  EXPECT_FALSE(budget.Fits());
  budget.map_limit = 0;
  EXPECT_TRUE(budget.Fits()) << "an unknown limit refuses nothing";
}

}  // namespace
}  // namespace lq
