// SPDX-License-Identifier: Apache-2.0
// Any 32-bit TLM target socket, whatever its binding policy: what a bus
// binds a block's register socket (or window) to. Register sockets are
// optional (simple_target_socket_optional), so a card without a board
// leaves them unbound.
#pragma once

#include <tlm>

namespace lq {

using CsrTargetSocket =
    tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>,
                                  tlm::tlm_bw_transport_if<>>;

}  // namespace lq
