// SeparableAllocator: a router's switch allocator, separable and
// input-first (NET-8.5). Each cycle every input port offers requests from
// its VCs in round-robin order (one with `rr`, every ready one with
// `islip`); the allocator matches input ports to output ports and calls
// back for each grant. Both network kernels use it, so the SystemC router
// and the cycle kernel grant the same requests in the same order.
#pragma once

#include <optional>
#include <vector>

#include "models/network/round_robin_round.h"

namespace lq::net {

class SeparableAllocator {
 public:
  // `islip_iterations` 0 selects round-robin, otherwise iSLIP with that
  // many iterations.
  SeparableAllocator(unsigned ports, unsigned vcs, unsigned islip_iterations)
      : ports_(ports),
        vcs_(vcs),
        iterations_(islip_iterations),
        input_next_(ports, 0),
        output_next_(ports, 0),
        accept_next_(ports, 0),
        matched_(ports, kNone),
        out_taken_(ports, false),
        grant_round_(ports),
        accept_round_(ports) {}

  // Starts a cycle's requests.
  void Clear() { requests_.clear(); }
  // Input port `port`'s requests: its VCs in round-robin order from its
  // pointer, `wants(vc)` giving the output port VC `vc`'s head can send a
  // flit to now, or none. Round-robin takes the first VC that can, iSLIP
  // every one.
  template <typename Wants>
  void RequestFrom(unsigned port, Wants&& wants) {
    for (unsigned k = 0; k < vcs_; ++k) {
      const unsigned vc = (input_next_[port] + k) % vcs_;
      if (const std::optional<unsigned> out = wants(vc)) {
        requests_.push_back({port, vc, *out});
        if (iterations_ == 0) {
          return;
        }
      }
    }
  }

  // Matches this cycle's requests and calls grant(port, vc) for each
  // winner, moving the pointers past it.
  template <typename Grant>
  void Allocate(Grant&& grant) {
    if (iterations_ == 0) {
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

  // Each input port has made one request; each output port grants the
  // requester nearest after its pointer.
  template <typename Grant>
  void AllocateRoundRobin(Grant& grant) {
    grant_round_.Clear();
    for (unsigned r = 0; r < requests_.size(); ++r) {
      const Asked& asked = requests_[r];
      const unsigned o = asked.out_port;
      grant_round_.Offer(
          o, r, RoundRobinRound::Distance(asked.port, output_next_[o], ports_));
    }
    for (const unsigned o : grant_round_.touched()) {
      const Asked asked = requests_[grant_round_.winner(o)];
      grant(asked.port, asked.vc);
      output_next_[o] = (asked.port + 1) % ports_;
      input_next_[asked.port] = (asked.vc + 1) % vcs_;
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
    matched_inputs_.clear();
    for (unsigned iteration = 0; iteration < iterations_; ++iteration) {
      grant_round_.Clear();
      for (const Asked& asked : requests_) {
        const unsigned o = asked.out_port;
        if (matched_[asked.port] == kNone && !out_taken_[o]) {
          grant_round_.Offer(
              o, asked.port,
              RoundRobinRound::Distance(asked.port, output_next_[o], ports_));
        }
      }
      accept_round_.Clear();
      for (const unsigned o : grant_round_.touched()) {
        const unsigned p = grant_round_.winner(o);
        accept_round_.Offer(
            p, o, RoundRobinRound::Distance(o, accept_next_[p], ports_));
      }
      if (accept_round_.empty()) {
        break;
      }
      for (const unsigned p : accept_round_.touched()) {
        const unsigned o = accept_round_.winner(p);
        matched_[p] = o;
        out_taken_[o] = true;
        matched_inputs_.push_back(p);
        if (iteration == 0) {
          output_next_[o] = (p + 1) % ports_;
          accept_next_[p] = (o + 1) % ports_;
        }
      }
    }
    for (const unsigned p : matched_inputs_) {
      const unsigned o = matched_[p];
      matched_[p] = kNone;
      out_taken_[o] = false;
      for (const Asked& asked : requests_) {
        if (asked.port == p && asked.out_port == o) {
          grant(p, asked.vc);
          input_next_[p] = (asked.vc + 1) % vcs_;
          break;
        }
      }
    }
  }

  unsigned ports_;
  unsigned vcs_;
  unsigned iterations_;
  // Round-robin pointers: per input port the VC it serves next, per output
  // port the input it grants next (iSLIP's grant pointers), and iSLIP's
  // accept pointers per input port.
  std::vector<unsigned> input_next_, output_next_, accept_next_;
  // iSLIP's matches: per input port its output, per output port whether it
  // is taken, and the matched inputs in match order.
  std::vector<unsigned> matched_, matched_inputs_;
  std::vector<bool> out_taken_;
  RoundRobinRound grant_round_, accept_round_;
  std::vector<Asked> requests_;
};

}  // namespace lq::net
