// SPDX-License-Identifier: Apache-2.0
// Maps each FEC kind of a link profile to its flit framing.
#include "models/flit/flit_fec.h"

#include "models/flit/interleaved_rs_fec.h"
#include "models/flit/kp4_fec.h"

namespace lq::flit {

const FlitFec& FlitFecFor(phy::FecKind kind) {
  // Built once: the KP4 encoder's tables take ~60 KiB and some microseconds.
  static const InterleavedRsFec interleaved;
  static const Kp4Fec kp4;
  switch (kind) {
    case phy::FecKind::kInterleavedRs8:
      return interleaved;
    case phy::FecKind::kKp4Rs544:
      return kp4;
  }
  return interleaved;
}

}  // namespace lq::flit
