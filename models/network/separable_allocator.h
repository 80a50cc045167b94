// SPDX-License-Identifier: Apache-2.0
// SeparableAllocator: a router's switch allocator, separable and
// input-first (NET-8.5). Each cycle every input port offers requests from
// its VCs in round-robin order (one with `rr`, every ready one with
// `islip`); the allocator matches input ports to output ports and calls
// back for each grant. Both network kernels use it, so the SystemC router
// and the cycle kernel grant the same requests in the same order. A
// router keeps only its arbiters' pointers (Pointers); the round's working
// state is the allocator's, which the cycle kernel shares among all its
// routers so that it stays in the cache.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <optional>
#include <vector>

#include "models/network/round_robin_round.h"

namespace lq::net {

class SeparableAllocator {
 public:
  // One router's arbiters: round-robin pointers that persist from cycle
  // to cycle. Per input port the VC it serves next, per output port the
  // input it grants next (iSLIP's grant pointers), and per input port
  // iSLIP's accept pointer.
  class Pointers {
   public:
    Pointers(
        unsigned ports, unsigned vcs,
        std::pmr::memory_resource* memory = std::pmr::get_default_resource())
        : ports_(ports), vcs_(vcs), next_(3 * ports, 0, memory) {}

   private:
    friend class SeparableAllocator;
    unsigned input(unsigned port) const { return next_[port]; }
    unsigned output(unsigned port) const { return next_[ports_ + port]; }
    unsigned accept(unsigned port) const { return next_[2 * ports_ + port]; }
    // A grant passes the turn of the arbiter that gave it: input port
    // `port`'s to the VC after `vc`, output port `out`'s to the input
    // after `port`, and `port`'s accept turn to the output after `out`.
    void PassInput(unsigned port, unsigned vc) {
      next_[port] = static_cast<uint16_t>(RoundRobinRound::Next(vc, vcs_));
    }
    void PassOutput(unsigned out, unsigned port) {
      next_[ports_ + out] =
          static_cast<uint16_t>(RoundRobinRound::Next(port, ports_));
    }
    void PassAccept(unsigned port, unsigned out) {
      next_[2 * ports_ + port] =
          static_cast<uint16_t>(RoundRobinRound::Next(out, ports_));
    }
    unsigned ports_, vcs_;
    std::pmr::vector<uint16_t> next_;
  };

  // The working state of an allocation round, for routers of up to
  // `max_ports` ports: one allocator serves any number of routers in
  // turn. `islip_iterations` 0 selects round-robin, otherwise iSLIP with
  // that many iterations.
  SeparableAllocator(unsigned max_ports, unsigned islip_iterations)
      : iterations_(islip_iterations),
        matched_(max_ports, kNone),
        out_taken_(max_ports, 0),
        grant_round_(max_ports),
        accept_round_(max_ports) {}

  // Starts a cycle's requests for the router whose arbiters are `pointers`.
  void Clear(Pointers& pointers) {
    pointers_ = &pointers;
    asked_ = 0;
    // Room for every VC of every port to ask (iSLIP), made once: a
    // request is then written without a check of the vector's capacity.
    const size_t most = size_t{pointers.ports_} * pointers.vcs_;
    if (requests_.size() < most) {
      requests_.resize(most);
    }
    requested_outputs_ = 0;
    contended_ = pointers.ports_ > kMostUncontendedPorts;
  }
  // Input port `port`'s requests: of its VCs with bit v set in `listed`,
  // in round-robin order from its pointer, `wants(vc)` giving the output
  // port VC `vc`'s head can send a flit to now, or none. Round-robin takes
  // the first VC that can, iSLIP every one. A VC not listed asks for
  // nothing. Called at most once per input port in a round.
  template <typename Wants>
  void RequestFrom(unsigned port, unsigned listed, Wants&& wants) {
    const unsigned vcs = pointers_->vcs_;
    const size_t first = asked_;
    const unsigned pointer = pointers_->input(port);
    // The listed VCs rotated so that bit k is the k-th after the pointer.
    const uint64_t from_pointer = ((uint64_t{listed} >> pointer) |
                                   (uint64_t{listed} << (vcs - pointer))) &
                                  ((uint64_t{1} << vcs) - 1);
    for (uint64_t order = from_pointer; order != 0; order &= order - 1) {
      unsigned vc = pointer + static_cast<unsigned>(__builtin_ctzll(order));
      vc -= vc >= vcs ? vcs : 0;
      if (const std::optional<unsigned> out = wants(vc)) {
        // Written in place (decision 0058).
        Asked& asked = requests_[asked_++];
        asked.port = port;
        asked.vc = vc;
        asked.out_port = *out;
        if (iterations_ == 0) {
          break;
        }
      }
    }
    if (contended_ || asked_ == first) {
      return;
    }
    const unsigned out = requests_[first].out_port;
    for (size_t r = first + 1; r < asked_; ++r) {
      contended_ = contended_ || requests_[r].out_port != out;
    }
    const uint64_t bit = uint64_t{1} << out;
    contended_ = contended_ || (requested_outputs_ & bit) != 0;
    requested_outputs_ |= bit;
  }

  // Matches this cycle's requests and calls grant(port, vc) for each
  // winner, moving the pointers past it.
  template <typename Grant>
  void Allocate(Grant&& grant) {
    if (!contended_) {
      AllocateUncontended(grant);
    } else if (iterations_ == 0) {
      AllocateRoundRobin(grant);
    } else {
      AllocateIslip(grant);
    }
  }

 private:
  static constexpr unsigned kNone = RoundRobinRound::kNone;
  struct Asked {
    unsigned port, vc, out_port;
  };

  // Every requesting input port asks for one output port, which no other
  // asks for: round-robin and iSLIP both grant each input its first
  // request in round-robin order, in the order the inputs asked, and move
  // the pointers past it (iSLIP's all in its first iteration), so the
  // arbiters need not run.
  template <typename Grant>
  void AllocateUncontended(Grant& grant) {
    Pointers& at = *pointers_;
    unsigned last_port = kNone;
    for (size_t r = 0; r < asked_; ++r) {
      const Asked& asked = requests_[r];
      if (asked.port == last_port) {
        continue;  // the port's later VCs, for the same output
      }
      last_port = asked.port;
      grant(asked.port, asked.vc);
      at.PassOutput(asked.out_port, asked.port);
      at.PassInput(asked.port, asked.vc);
      if (iterations_ > 0) {
        at.PassAccept(asked.port, asked.out_port);
      }
    }
  }

  // Each input port has made one request; each output port grants the
  // requester nearest after its pointer.
  template <typename Grant>
  void AllocateRoundRobin(Grant& grant) {
    Pointers& at = *pointers_;
    grant_round_.Clear();
    for (unsigned r = 0; r < asked_; ++r) {
      const Asked& asked = requests_[r];
      const unsigned o = asked.out_port;
      grant_round_.Offer(
          o, r, RoundRobinRound::Distance(asked.port, at.output(o), at.ports_));
    }
    for (const unsigned o : grant_round_.touched()) {
      const Asked asked = requests_[grant_round_.winner(o)];
      grant(asked.port, asked.vc);
      at.PassOutput(o, asked.port);
      at.PassInput(asked.port, asked.vc);
    }
  }

  // iSLIP (McKeown): each iteration, every unmatched output grants the
  // unmatched requesting input nearest after its grant pointer, and every
  // input accepts the granting output nearest after its accept pointer.
  // Pointers move past a match only in the first iteration. A matched
  // input sends from its first requesting VC for that output in
  // round-robin order.
  template <typename Grant>
  void AllocateIslip(Grant& grant) {
    Pointers& at = *pointers_;
    matched_inputs_.clear();
    for (unsigned iteration = 0; iteration < iterations_; ++iteration) {
      grant_round_.Clear();
      for (size_t r = 0; r < asked_; ++r) {
        const Asked& asked = requests_[r];
        const unsigned o = asked.out_port;
        if (matched_[asked.port] == kNone && !out_taken_[o]) {
          grant_round_.Offer(
              o, asked.port,
              RoundRobinRound::Distance(asked.port, at.output(o), at.ports_));
        }
      }
      accept_round_.Clear();
      for (const unsigned o : grant_round_.touched()) {
        const unsigned p = grant_round_.winner(o);
        accept_round_.Offer(
            p, o, RoundRobinRound::Distance(o, at.accept(p), at.ports_));
      }
      if (accept_round_.empty()) {
        break;
      }
      for (const unsigned p : accept_round_.touched()) {
        const unsigned o = accept_round_.winner(p);
        matched_[p] = o;
        out_taken_[o] = 1;
        matched_inputs_.push_back(p);
        if (iteration == 0) {
          at.PassOutput(o, p);
          at.PassAccept(p, o);
        }
      }
    }
    for (const unsigned p : matched_inputs_) {
      const unsigned o = matched_[p];
      matched_[p] = kNone;
      out_taken_[o] = 0;
      for (size_t r = 0; r < asked_; ++r) {
        const Asked& asked = requests_[r];
        if (asked.port == p && asked.out_port == o) {
          grant(p, asked.vc);
          at.PassInput(p, asked.vc);
          break;
        }
      }
    }
  }

  // Routers of more ports always run the arbiters.
  static constexpr unsigned kMostUncontendedPorts = 64;

  unsigned iterations_;
  Pointers* pointers_ = nullptr;  // the router allocating now
  // This round's: the output ports asked for, a bit each, and whether two
  // inputs ask for one output or one input for two.
  uint64_t requested_outputs_ = 0;
  bool contended_ = false;
  // iSLIP's matches: per input port its output, per output port whether it
  // is taken, and the matched inputs in match order.
  std::vector<unsigned> matched_, matched_inputs_;
  std::vector<uint8_t> out_taken_;
  RoundRobinRound grant_round_, accept_round_;
  std::vector<Asked> requests_;  // this round's: the first asked_
  size_t asked_ = 0;
};

}  // namespace lq::net
