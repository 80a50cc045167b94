// SPDX-License-Identifier: Apache-2.0
// The clock that runs a network's routers (decision 0049): each client
// runs once at the earliest time it asked for, clients due together run
// in the order of their latest requests, a superseded time wakes nothing,
// a zero-delay wake runs at the same time, whether asked by a client the
// clock is running or by another process, and the clock runs the clients
// of an instant after every other process of that instant (NET-8.12).
#include "systemc/network/router_clock.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// When each client ran, as "name@ns".
std::vector<std::string> runs;

class Recorder : public RouterClock::Client {
 public:
  explicit Recorder(std::string name) : name_(std::move(name)) {}
  // What the client does when it runs, after recording it.
  std::function<void()> then;

 private:
  void OnClock() override {
    runs.push_back(name_ + "@" +
                   std::to_string(static_cast<int>(
                       sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5)));
    if (then) {
      std::exchange(then, nullptr)();
    }
  }
  std::string name_;
};

// Another process that wakes clients at zero delay: one at 5 ns, a delta
// after the clock was due to run at 5 ns (it waits for that), and one at
// 7 ns, when it has nothing else to run.
SC_MODULE(Poker) {
  RouterClock* clock = nullptr;
  Recorder* after_run = nullptr;
  Recorder* alone = nullptr;
  SC_CTOR(Poker) { SC_THREAD(Poke); }
  void Poke() {
    wait(sc_time(5, SC_NS));
    wait(sc_core::SC_ZERO_TIME);
    clock->Wake(*after_run, sc_core::SC_ZERO_TIME);
    wait(sc_time(2, SC_NS));
    clock->Wake(*alone, sc_core::SC_ZERO_TIME);
  }
};

TEST(RouterClockTest, RunsEachClientOnceAtItsEarliestTimeInRequestOrder) {
  RouterClock clock("clock");
  Recorder a("a"), b("b"), c("c"), d("d"), e("e"), f("f"), g("g"), h("h");
  Poker poker("poker");
  poker.clock = &clock;
  poker.after_run = &h;
  poker.alone = &d;

  // b asks for 5 ns before a does; a's later request for 10 ns is dropped.
  clock.Wake(b, sc_time(5, SC_NS));
  clock.Wake(a, sc_time(10, SC_NS));
  clock.Wake(a, sc_time(5, SC_NS));
  clock.Wake(a, sc_time(20, SC_NS));
  // Running at 5 ns, a wakes c and itself at zero delay: both run at 5 ns,
  // after the clients already due, the poker's h among them.
  a.then = [&] {
    clock.Wake(c, sc_core::SC_ZERO_TIME);
    clock.Wake(a, sc_core::SC_ZERO_TIME);
  };
  // c asks for 12 ns when it runs.
  c.then = [&] { clock.Wake(c, sc_time(7, SC_NS)); };
  // f asks for 30 ns before g does, then for 20 ns, and at 20 ns for 30 ns
  // again: at 30 ns g, whose request is now the older, runs first.
  clock.Wake(f, sc_time(30, SC_NS));
  clock.Wake(g, sc_time(30, SC_NS));
  clock.Wake(f, sc_time(20, SC_NS));
  f.then = [&] { clock.Wake(f, sc_time(10, SC_NS)); };
  // e's 60 ns is superseded by 25 ns: nothing is left to run at 60 ns.
  clock.Wake(e, sc_time(60, SC_NS));
  clock.Wake(e, sc_time(25, SC_NS));

  sc_core::sc_start();  // until nothing is left to do
  EXPECT_EQ(runs,
            (std::vector<std::string>{"b@5", "a@5", "h@5", "c@5", "a@5", "d@7",
                                      "c@12", "f@20", "e@25", "g@30", "f@30"}));
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(30, SC_NS))
      << "a time no client still wants wakes nothing";
}

}  // namespace
}  // namespace lq::net
