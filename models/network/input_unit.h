// SPDX-License-Identifier: Apache-2.0
// InputUnit: a router's input side (docs/spec/net.md section 8), flit by
// flit: per input VC the packets its buffer holds, in order (NET-8.1), the
// head's pipeline state, the flits freed since credits last went back
// (NET-8.2), and the stages' work lists (NET-8.3, NET-8.5). No payload
// bytes: both kernels drive it, the SystemC router keeping each packet's
// bytes beside it under PacketState::packet (decisions 0038, 0039).
#pragma once

#include <cstdint>
#include <memory_resource>
#include <vector>

namespace lq::net {

// A packet in an input VC, from its head flit's arrival to its last flit's
// departure: what the pipeline has decided about it. 32 bytes.
struct PacketState {
  uint64_t ready = 0;   // when the next pipeline stage may act
  uint32_t packet = 0;  // the kernel's handle of the packet
  // The cycle kernel's copy of the packet's destination and of the links it
  // has crossed, which come with its flits so that routing reads no record
  // (the SystemC router reads its header instead).
  uint32_t dst = 0;
  uint16_t arrived = 0;  // flits that may go (whole slots in SystemC)
  uint16_t sent = 0;
  uint16_t out_port = 0;
  uint8_t out_vc = 0;
  uint8_t hops = 0;
  bool routed = false;
  bool allocated = false;
  bool adaptive = false;  // may still pick any productive port (NET-4.3)
  bool discard = false;   // dropped: absorb its flits
};

class InputUnit {
 public:
  // An input VC's packets, a FIFO: the oldest, the head, in place (the
  // only one the pipeline acts on, so that a cycle reads the input VCs and
  // nothing else), those behind it in the VC's slice of the unit's ring.
  // 40 bytes.
  struct Vc {
    PacketState head;
    uint32_t freed = 0;   // flits gone since credits were last returned
    uint16_t behind = 0;  // the oldest packet behind the head, in its slice
    uint16_t size = 0;    // packets, the head's included
    bool empty() const { return size == 0; }
  };

  // `input_vcs` VCs whose buffers hold `buffer_flits` flits: room for that
  // many packets, plus the one whose flits have all moved on while more
  // are still to come. A VC holding more (the SystemC router's buffers
  // count bytes, NET-8.2, so small packets share slots) widens every VC's
  // room. The VCs and work lists come from `memory`, the ring of packets
  // behind the heads, which few cycles touch, from `ring_memory`.
  InputUnit(
      unsigned input_vcs, unsigned buffer_flits,
      std::pmr::memory_resource* memory = std::pmr::get_default_resource(),
      std::pmr::memory_resource* ring_memory = std::pmr::get_default_resource())
      : slice_(buffer_flits),
        vcs_(input_vcs, memory),
        occupied_((input_vcs + 63) / 64, 0, memory),
        unallocated_(occupied_.size(), 0, memory),
        granted_(occupied_.size(), 0, memory),
        ring_(size_t{input_vcs} * buffer_flits, ring_memory) {}

  unsigned size() const { return static_cast<unsigned>(vcs_.size()); }
  Vc& vc(unsigned i) { return vcs_[i]; }
  const Vc& vc(unsigned i) const { return vcs_[i]; }
  // Precondition: the VC holds a packet.
  PacketState& front(unsigned i) { return vcs_[i].head; }
  PacketState& back(unsigned i) { return at(i, vcs_[i].size - 1u); }
  // The k-th packet of VC i, the head's k being 0. Precondition: k < size.
  PacketState& at(unsigned i, unsigned k) {
    Vc& in = vcs_[i];
    return k == 0 ? in.head : ring_[Slot(i, in.behind + k - 1u)];
  }
  const PacketState& at(unsigned i, unsigned k) const {
    return const_cast<InputUnit&>(*this).at(i, k);
  }
  // A packet's head flit arrived: it waits for route computation and VC
  // allocation once it is the VC's head. Returns its state, cleared, for
  // the caller to fill in place, not a copy built on the stack (decision
  // 0058).
  PacketState& emplace_back(unsigned i) {
    Vc& in = vcs_[i];
    PacketState* packet = &in.head;
    if (in.size == 0) {
      Set(occupied_, i);
      Set(unallocated_, i);
    } else {
      if (in.size - 1u == slice_) {
        Widen();
      }
      packet = &ring_[Slot(i, in.behind + in.size - 1u)];
    }
    ++in.size;
    *packet = PacketState{};
    return *packet;
  }
  // The head's last flit left, or it was dropped: the next packet, if any,
  // becomes the head and waits for route computation and VC allocation.
  void pop_front(unsigned i) {
    Vc& in = vcs_[i];
    if (--in.size == 0) {
      Clear(occupied_, i);
      Clear(unallocated_, i);  // an empty VC waits for nothing
      return;
    }
    in.head = ring_[Slot(i, in.behind)];
    in.behind =
        static_cast<uint16_t>(in.behind + 1u == slice_ ? 0 : in.behind + 1u);
    // The new head waits for route computation and VC allocation, unless
    // it was dropped while behind (NET-7.1): then only for its flits.
    if (in.head.discard) {
      Allocated(i);
    } else {
      Set(unallocated_, i);
    }
  }
  // Takes out the dropped packets at VC i's head whose flits have all
  // come (`complete(head)`), calling gone(head) for each before it leaves:
  // a dropped packet's flits are absorbed, not sent (NET-7.1, NET-2.4).
  // Whether the VC still holds a packet.
  template <typename Complete, typename Gone>
  bool DrainDropped(unsigned i, Complete complete, Gone gone) {
    Vc& in = vcs_[i];
    while (!in.empty() && in.head.discard && complete(in.head)) {
      gone(in.head);
      pop_front(i);
    }
    return !in.empty();
  }
  // VC i's head has its output VC, or is dropped: it leaves the list of
  // heads waiting for route computation or VC allocation.
  void Allocated(unsigned i) { Clear(unallocated_, i); }
  // VC i's head won VC allocation this cycle. It moves to the switch's
  // list when the cycle's allocations end (EndAllocations), not at once:
  // its switch stage is due a cycle later at the earliest (every stage
  // takes at least one, NET-8.3), so this cycle's switch requests, which
  // follow VC allocation under router.vc_reuse after_tail, need not look
  // at it. Until then it stays on the list of heads waiting for VC
  // allocation, which is walked once a cycle, before the grants.
  void Granted(unsigned i) { Set(granted_, i); }
  void EndAllocations() {
    for (size_t w = 0; w < granted_.size(); ++w) {
      unallocated_[w] &= ~granted_[w];
      granted_[w] = 0;
    }
  }

  // The work lists, 64 VCs to a word: the VCs that hold a packet; of
  // those, the ones whose heads wait for route computation or VC
  // allocation; and the others (allocated, waiting for the switch, or
  // dropped, waiting for their flits).
  uint64_t held(size_t w) const { return occupied_[w]; }
  uint64_t to_allocate(size_t w) const { return unallocated_[w]; }
  uint64_t to_send(size_t w) const { return occupied_[w] & ~unallocated_[w]; }
  // Whether any head waits for route computation or VC allocation.
  bool AnyToAllocate() const {
    for (const uint64_t word : unallocated_) {
      if (word != 0) {
        return true;
      }
    }
    return false;
  }
  // Calls visit(i) for each VC i whose bit is set in word(w), the w-th
  // word of a list, in ascending order of i, each word as it was when the
  // walk reached it (a change visit makes to a later word shows, one to
  // the word being walked does not).
  template <typename Word, typename Visit>
  void ForEachSet(Word word, Visit visit) const {
    for (size_t w = 0; w < occupied_.size(); ++w) {
      for (uint64_t bits = word(w); bits != 0; bits &= bits - 1) {
        visit(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
      }
    }
  }
  // The same for the VCs that hold a packet.
  template <typename Visit>
  void ForEachHeld(Visit visit) const {
    ForEachSet([this](size_t w) { return held(w); }, visit);
  }
  // Calls visit(i) for each VC i whose head waits for route computation
  // or VC allocation and whose stage is due at `now` (its `ready` no
  // later), in ascending order of i. A word's heads are all looked at
  // before any of them is visited, without a branch on each: which are
  // due depends on the traffic, so such a branch would be mispredicted
  // often.
  template <typename Visit>
  void ForEachDueToAllocate(uint64_t now, Visit visit) const {
    for (size_t w = 0; w < unallocated_.size(); ++w) {
      uint64_t due = 0;
      for (uint64_t bits = to_allocate(w); bits != 0; bits &= bits - 1) {
        const unsigned bit = static_cast<unsigned>(__builtin_ctzll(bits));
        due |= uint64_t{vcs_[w * 64 + bit].head.ready <= now} << bit;
      }
      for (; due != 0; due &= due - 1) {
        visit(static_cast<unsigned>(w * 64 + __builtin_ctzll(due)));
      }
    }
  }
  // Calls visit(p, listed) once for each port p with a VC on the list
  // `word` picks, in ascending order, `listed` having bit v set for each
  // of its `vcs` VCs on the list, where port_of(i) is VC i's port (a
  // port's VCs are numbered together, from p * vcs): switch allocation's
  // requests come by input port (NET-8.5). Each port's bits are read when
  // the walk reaches the port, so a visit may change its own port's.
  template <typename Word, typename PortOf, typename Visit>
  void ForEachPort(Word word, PortOf port_of, unsigned vcs, Visit visit) const {
    const size_t words = occupied_.size();
    const uint64_t port_bits = (uint64_t{1} << vcs) - 1;
    size_t w = 0;
    uint64_t bits = word(0);
    for (;;) {
      while (bits == 0) {
        if (++w == words) {
          return;
        }
        bits = word(w);
      }
      const unsigned port =
          port_of(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
      const size_t first = size_t{port} * vcs;
      const size_t end = first + vcs;  // the next port's first VC
      const unsigned shift = first % 64;
      uint64_t listed = word(first / 64) >> shift;
      if (shift + vcs > 64) {  // the port's VCs span two words
        listed |= word(first / 64 + 1) << (64 - shift);
      }
      visit(port, static_cast<unsigned>(listed & port_bits));
      w = end / 64;
      if (w == words) {
        return;
      }
      bits = word(w) & (~uint64_t{0} << (end % 64));
    }
  }

 private:
  // Doubles every VC's room behind its head. Throws std::length_error
  // beyond 65,535 packets in one VC.
  void Widen();
  size_t Slot(unsigned i, uint32_t at) const {
    return size_t{i} * slice_ + (at >= slice_ ? at - slice_ : at);
  }
  static void Set(std::pmr::vector<uint64_t>& bits, unsigned i) {
    bits[i / 64] |= uint64_t{1} << (i % 64);
  }
  static void Clear(std::pmr::vector<uint64_t>& bits, unsigned i) {
    bits[i / 64] &= ~(uint64_t{1} << (i % 64));
  }

  uint32_t slice_;  // ring entries per VC
  std::pmr::vector<Vc> vcs_;
  std::pmr::vector<uint64_t> occupied_, unallocated_;
  std::pmr::vector<uint64_t> granted_;  // this cycle's VC allocation winners
  std::pmr::vector<PacketState> ring_;
};

}  // namespace lq::net
