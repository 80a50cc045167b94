// RouterClock: wake-ups by time, run from one event.
#include "systemc/network/router_clock.h"

#include <utility>

namespace lq::net {

RouterClock::RouterClock(const sc_core::sc_module_name& name)
    : sc_module(name) {
  SC_HAS_PROCESS(RouterClock);
  SC_METHOD(Run);
  sensitive << event_;
  dont_initialize();
}

void RouterClock::Wake(Client& client, const sc_core::sc_time& delay) {
  const uint64_t at = (sc_core::sc_time_stamp() + delay).value();
  if (client.pending_ <= at) {
    return;
  }
  client.pending_ = at;
  auto [slot, added] = due_.try_emplace(at);
  if (added && !spare_.empty()) {
    slot->second = std::move(spare_.back());
    spare_.pop_back();
  }
  slot->second.push_back(&client);
  Schedule(at);
}

void RouterClock::Schedule(uint64_t at) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (running_ && at == now) {
    return;  // Run() is still walking this time's list
  }
  if (at < notified_) {
    notified_ = at;
    event_.notify(sc_core::sc_time::from_value(at - now));
  }
}

void RouterClock::Run() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  notified_ = Client::kIdle;
  const auto slot = due_.find(now);
  if (slot != due_.end()) {
    running_ = true;
    // Clients woken at zero delay while this runs join the list's end.
    std::vector<Client*>& clients = slot->second;
    for (size_t i = 0; i < clients.size(); ++i) {
      Client& client = *clients[i];
      if (client.pending_ == now) {
        client.pending_ = Client::kIdle;
        client.OnClock();
      }
    }
    running_ = false;
    clients.clear();
    spare_.push_back(std::move(clients));
    due_.erase(slot);
  }
  if (!due_.empty()) {
    Schedule(due_.begin()->first);
  }
}

}  // namespace lq::net
