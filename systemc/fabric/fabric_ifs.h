// The two interfaces the interim fabric's modules are bound through: a node
// hands packets to a link, and a link hands received packets to a node.
#pragma once

#include <systemc>

#include "models/common/bytes.h"

namespace lq::fabric {

// What a node sees of one of its outgoing links.
class PacketLinkIf : public virtual sc_core::sc_interface {
 public:
  // Queues one network packet on virtual channel `vc` for transmission.
  virtual void Send(Bytes packet, int vc) = 0;
};

// What a link sees of the node at its far end.
class PacketSinkIf : public virtual sc_core::sc_interface {
 public:
  // Takes one packet that arrived intact on the node's port `port`.
  virtual void Receive(int port, int vc, Bytes packet) = 0;
};

}  // namespace lq::fabric
