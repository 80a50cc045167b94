// The clock that runs a network's routers (decision 0049): each client
// runs once at the earliest time it asked for, clients due together run
// in the order they asked, and a zero-delay wake runs at the same time,
// whether asked by a client the clock is running or by another process.
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

// Another process that wakes a client at zero delay at 7 ns.
SC_MODULE(Poker) {
  RouterClock* clock = nullptr;
  Recorder* target = nullptr;
  SC_CTOR(Poker) { SC_THREAD(Poke); }
  void Poke() {
    wait(sc_time(7, SC_NS));
    clock->Wake(*target, sc_core::SC_ZERO_TIME);
  }
};

TEST(RouterClockTest, RunsEachClientOnceAtItsEarliestTimeInTheOrderAsked) {
  RouterClock clock("clock");
  Recorder a("a"), b("b"), c("c"), d("d");
  Poker poker("poker");
  poker.clock = &clock;
  poker.target = &d;

  // b asks for 5 ns before a does; a's later request for 10 ns is dropped.
  clock.Wake(b, sc_time(5, SC_NS));
  clock.Wake(a, sc_time(10, SC_NS));
  clock.Wake(a, sc_time(5, SC_NS));
  clock.Wake(a, sc_time(20, SC_NS));
  // Running at 5 ns, a wakes c and itself at zero delay: both run at 5 ns,
  // after the clients already due.
  a.then = [&] {
    clock.Wake(c, sc_core::SC_ZERO_TIME);
    clock.Wake(a, sc_core::SC_ZERO_TIME);
  };
  // c asks for 12 ns when it runs.
  c.then = [&] { clock.Wake(c, sc_time(7, SC_NS)); };

  sc_core::sc_start(sc_time(30, SC_NS));
  EXPECT_EQ(runs, (std::vector<std::string>{"b@5", "a@5", "c@5", "a@5", "d@7",
                                            "c@12"}));
}

}  // namespace
}  // namespace lq::net
