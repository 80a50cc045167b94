// SPDX-License-Identifier: Apache-2.0
// The channel profiles a link can run (pcie6, ib), chosen by name, and the
// figures derived from them: rates, flit times, goodput, latency
// (docs/spec/phy.md §1 and §4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/result.h"

namespace lq::phy {

// How a profile protects its flit; models/flit maps each kind to its framing.
enum class FecKind {
  kInterleavedRs8,  // Three interleaved RS codewords over GF(2^8), t = 1 each.
  kKp4Rs544,        // One RS(544,514) codeword over GF(2^10), t = 15.
};

// Signal propagation in copper or fibre: 5 ns per metre (PHY-4.5).
inline constexpr uint64_t kCableDelayPsPerMetre = 5000;
inline constexpr double kDefaultCableMetres = 2.0;

struct LinkProfile {
  const char* name;         // Registry key and scenario value.
  const char* description;  // One line for `lqemu list`.
  uint8_t wire_id;          // Code in training sets and STATUS.PROFILE.
  unsigned max_lanes;       // Widest link; narrower widths halve down to x1.
  uint64_t lane_rate_mbps;  // Payload-carrying bits per second per lane.
  const char* signalling;   // Modulation and line code, for documentation.
  unsigned stripe_bits;     // Unit dealt round-robin over the lanes.
  size_t flit_wire_bytes;   // One flit (or FEC block) on the wire.
  size_t payload_bytes;     // The payload slot inside it.
  FecKind fec;
  uint64_t tx_pipeline_ps;  // Fixed transmit latency before the first bit.
  uint64_t rx_pipeline_ps;  // Fixed receive latency after the last bit.
};

// The profile registered under `name`; the error lists the known names.
Result<LinkProfile> FindLinkProfile(std::string_view name);
// Registered profile names, in registration order (for `lqemu list`).
std::vector<std::string> LinkProfileNames();

// True for the widths a profile may train to: powers of two up to max_lanes.
bool IsAllowedWidth(const LinkProfile& profile, unsigned width);
// The widest allowed width that fits in `usable_lanes` lanes; 0 if none.
unsigned WidestWidth(const LinkProfile& profile, unsigned usable_lanes);

// Raw line rate of a link of `width` lanes in one direction.
uint64_t RawRateMbps(const LinkProfile& profile, unsigned width);
// Time to serialise one wire flit at `width` lanes.
uint64_t FlitTimePs(const LinkProfile& profile, unsigned width);
// The same at full width (max_lanes), in ns: the clock period of a router
// whose ports carry what the profile's links do.
double FullWidthFlitNs(const LinkProfile& profile);
// Payload-slot bits per second at `width` lanes when every flit is full.
double PayloadGoodputGbps(const LinkProfile& profile, unsigned width);
// Propagation delay of a cable of `metres`.
uint64_t CableDelayPs(double metres);
// First bit handed to the PHY to last bit out of the receiver's PHY:
// tx pipeline + serialisation + cable + rx pipeline (PHY-4.6).
uint64_t OneWayLatencyPs(const LinkProfile& profile, unsigned width,
                         double cable_metres);
// The logical lane that carries wire bit `bit` of a flit at `width` lanes.
unsigned LaneOfWireBit(const LinkProfile& profile, unsigned width,
                       uint64_t bit);

}  // namespace lq::phy
