// SPDX-License-Identifier: Apache-2.0
// LinkCounters: the link controller's counters a run's report reads, the
// same registers at either fidelity (docs/registers/lc.md): TX_FLITS,
// CRC_ERRORS and REPLAYS. Plain C++, so that the Verilated model's face
// (lc_rtl_model.h) can name it without SystemC.
#pragma once

#include <cstdint>

namespace lq::link {

struct LinkCounters {
  uint64_t tx_payload_flits = 0;  // TX_FLITS: PAYLOAD flits sent, replays too
  uint64_t crc_errors = 0;        // CRC_ERRORS: flits received bad
  uint64_t replays = 0;           // REPLAYS: replays started
};

}  // namespace lq::link
