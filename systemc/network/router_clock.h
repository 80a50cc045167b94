// SPDX-License-Identifier: Apache-2.0
// RouterClock: the one SystemC process that runs a network's routers
// (decision 0049). Each router asks to be woken at a time, as it would
// notify an event of its own; the clock keeps one timed event, for the
// earliest time any router asked for, and at that time runs every router
// due, in the order of their latest requests. A request superseded by an
// earlier one is forgotten, as sc_event forgets a later notification: a
// time no router still wants wakes nothing. A network of N routers then
// costs the SystemC kernel one timed notification per distinct wake-up
// time instead of N, and no process switch per router. At an instant the
// routers run after every other process of it (NET-8.12).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <systemc>
#include <vector>

namespace lq::net {

class RouterClock : public sc_core::sc_module {
 public:
  // What the clock runs: a router's cycle.
  class Client {
   public:
    // Called at a time this client asked for.
    virtual void OnClock() = 0;

   protected:
    ~Client() = default;

   private:
    friend class RouterClock;
    static constexpr uint64_t kIdle = std::numeric_limits<uint64_t>::max();
    uint64_t pending_ = kIdle;  // the earliest time asked for, in ticks
    uint64_t request_ = 0;      // the clock's number of that request
  };

  explicit RouterClock(const sc_core::sc_module_name& name);

  // Runs `client` `delay` from now, as sc_event::notify(delay) would: a
  // client asked for two times runs at the earlier only, and then asks
  // again for what it still needs. A zero delay runs it at this time,
  // after the clients already due (one that has run at this time already
  // runs again).
  void Wake(Client& client, const sc_core::sc_time& delay);

  // The time now, in ticks: while the clock runs its clients, the time it
  // runs them at, without asking the kernel each time.
  uint64_t Now() const {
    return running_ ? running_at_ : sc_core::sc_time_stamp().value();
  }

 private:
  void Run();  // SC_METHOD: the clients due now
  void Schedule(uint64_t at);

  // A request in a time's list; stale once its client asks again.
  struct Request {
    Client* client;
    uint64_t number;
  };
  // The requests for one time, in order, and how many are not stale.
  struct Due {
    std::vector<Request> requests;
    size_t live = 0;
  };

  // Forgets `client`'s pending request, superseded by an earlier one.
  void Forget(const Client& client);

  std::map<uint64_t, Due> due_;
  std::vector<std::vector<Request>> spare_;  // emptied lists, for reuse
  uint64_t requests_ = 0;                    // requests numbered so far
  uint64_t notified_ = Client::kIdle;        // the event's pending time
  bool running_ = false;
  uint64_t running_at_ = 0;  // while running_
  // Delta cycles Run() has waited at this instant for other processes.
  static constexpr unsigned kMaxDeferrals = 16;
  unsigned deferrals_ = 0;
  sc_core::sc_event event_;
};

}  // namespace lq::net
