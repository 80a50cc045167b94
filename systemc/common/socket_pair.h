// SPDX-License-Identifier: Apache-2.0
// The one socket shape of lqemu's message protocols (DESIGN §4): a port that
// calls the peer's interface and an export that the peer calls, bound
// crosswise by Connect(). Messages are owned values passed with a delay; no
// model keeps a pointer to another.
#pragma once

#include <string>
#include <systemc>

namespace lq {

template <typename OutIf, typename InIf>
struct SocketPair {
  explicit SocketPair(const char* name)
      : out((std::string(name) + "_out").c_str()),
        in((std::string(name) + "_in").c_str()) {}
  sc_core::sc_port<OutIf> out;  // Calls into the peer.
  sc_core::sc_export<InIf> in;  // The peer calls this side here.
};

template <typename AIf, typename BIf>
void Connect(SocketPair<AIf, BIf>& a, SocketPair<BIf, AIf>& b) {
  a.out(b.in);
  b.out(a.in);
}

}  // namespace lq
