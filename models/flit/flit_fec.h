// SPDX-License-Identifier: Apache-2.0
// The FEC framing of each profile's wire flit: which bytes form which
// codeword and where the check symbols go (docs/spec/phy.md §3).
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/common/result.h"
#include "models/phy/link_profile.h"

namespace lq::flit {

// What the FEC did to one received flit.
struct FecReport {
  size_t codewords = 0;            // Codewords in the flit.
  size_t codewords_corrected = 0;  // Codewords that needed correction.
  size_t symbols_corrected = 0;    // Symbols repaired across all codewords.
};

// In both profiles the flit content (payload, DLP, CRC) fills wire bytes
// [0, content_bytes) unchanged; the FEC adds the rest (systematic code).
class FlitFec {
 public:
  virtual ~FlitFec() = default;

  virtual size_t content_bytes() const = 0;
  virtual size_t wire_bytes() const = 0;

  // Writes wire bytes [content_bytes, wire_bytes) from the content before it.
  virtual void Protect(uint8_t* wire) const = 0;

  // Corrects the wire flit in place, or fails naming the first codeword that
  // could not be corrected (the flit is then partly corrected: discard it).
  virtual Result<FecReport> Correct(uint8_t* wire) const = 0;
};

// The framing for `kind`: immutable, built on first use, shared.
const FlitFec& FlitFecFor(phy::FecKind kind);

}  // namespace lq::flit
