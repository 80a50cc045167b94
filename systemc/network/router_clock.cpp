// SPDX-License-Identifier: Apache-2.0
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
  const uint64_t at = Now() + delay.value();
  if (client.pending_ <= at) {
    return;
  }
  if (client.pending_ != Client::kIdle) {
    Forget(client);
  }
  client.pending_ = at;
  client.request_ = ++requests_;
  auto [slot, added] = due_.try_emplace(at);
  Due& due = slot->second;
  if (added && !spare_.empty()) {
    due.requests = std::move(spare_.back());
    spare_.pop_back();
  }
  due.requests.push_back(Request{&client, client.request_});
  ++due.live;
  Schedule(at);
}

void RouterClock::Forget(const Client& client) {
  const auto slot = due_.find(client.pending_);
  if (--slot->second.live > 0) {
    return;  // its entry stays, stale, among live ones
  }
  slot->second.requests.clear();
  spare_.push_back(std::move(slot->second.requests));
  due_.erase(slot);
  // The event may now be due for a time nobody wants; the caller asks for
  // an earlier one, which replaces it.
}

void RouterClock::Schedule(uint64_t at) {
  const uint64_t now = Now();
  if (running_ && at == now) {
    return;  // Run() is still walking this time's list
  }
  if (at < notified_) {
    notified_ = at;
    event_.notify(sc_core::sc_time::from_value(at - now));
  }
}

void RouterClock::Run() {
  // NET-8.12: the routers act last at an instant, once no other process
  // has anything left to do at it (or after kMaxDeferrals delta cycles,
  // should another clock be waiting too): what their neighbours send them
  // for this instant has then arrived, whichever the kernel ran first.
  if (sc_core::sc_pending_activity_at_current_time() &&
      deferrals_ < kMaxDeferrals) {
    ++deferrals_;
    event_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  deferrals_ = 0;
  const uint64_t now = sc_core::sc_time_stamp().value();
  notified_ = Client::kIdle;
  const auto slot = due_.find(now);
  if (slot != due_.end()) {
    running_ = true;
    running_at_ = now;
    // Clients woken at zero delay while this runs join the list's end.
    std::vector<Request>& requests = slot->second.requests;
    for (size_t i = 0; i < requests.size(); ++i) {
      Client& client = *requests[i].client;
      if (client.pending_ == now && client.request_ == requests[i].number) {
        client.pending_ = Client::kIdle;
        client.OnClock();
      }
    }
    running_ = false;
    requests.clear();
    spare_.push_back(std::move(requests));
    due_.erase(slot);
  }
  if (!due_.empty()) {
    Schedule(due_.begin()->first);
  }
}

}  // namespace lq::net
