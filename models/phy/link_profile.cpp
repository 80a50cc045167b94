// SPDX-License-Identifier: Apache-2.0
// The registry of link profiles and the arithmetic derived from them.
#include "models/phy/link_profile.h"

#include <array>
#include <cmath>

namespace lq::phy {

namespace {

constexpr uint64_t kPsPerMicrosecond = 1000000;  // ps * Mb/s -> bits.
constexpr unsigned kBitsPerByte = 8;

// The registry. Values and their sources: docs/spec/phy.md, PHY-1.2/1.3/4.4.
constexpr std::array<LinkProfile, 2> kProfiles{{
    {/*name=*/"pcie6",
     /*description=*/"PCIe 6.0 flit mode: x16 at 64 GT/s PAM4, 256-byte flit",
     /*wire_id=*/0, /*max_lanes=*/16, /*lane_rate_mbps=*/64000,
     /*signalling=*/"64 GT/s PAM4, 1b/1b (flit mode)", /*stripe_bits=*/8,
     /*flit_wire_bytes=*/256, /*payload_bytes=*/236,
     /*fec=*/FecKind::kInterleavedRs8, /*tx_pipeline_ps=*/10000,
     /*rx_pipeline_ps=*/10000},
    {/*name=*/"ib",
     /*description=*/"InfiniBand XDR-class: 4 x 200 Gb/s, RS(544,514) block",
     /*wire_id=*/1, /*max_lanes=*/4, /*lane_rate_mbps=*/200000,
     /*signalling=*/"200 Gb/s per lane, RS(544,514) KP4 FEC",
     /*stripe_bits=*/10, /*flit_wire_bytes=*/680, /*payload_bytes=*/628,
     /*fec=*/FecKind::kKp4Rs544, /*tx_pipeline_ps=*/10000,
     /*rx_pipeline_ps=*/40000},
}};

}  // namespace

Result<LinkProfile> FindLinkProfile(std::string_view name) {
  for (const LinkProfile& profile : kProfiles) {
    if (name == profile.name) {
      return profile;
    }
  }
  std::string known;
  for (const LinkProfile& profile : kProfiles) {
    known += known.empty() ? "" : ", ";
    known += profile.name;
  }
  return Fail("unknown link profile '" + std::string(name) +
              "' (known: " + known + ")");
}

std::vector<std::string> LinkProfileNames() {
  std::vector<std::string> names;
  for (const LinkProfile& profile : kProfiles) {
    names.emplace_back(profile.name);
  }
  return names;
}

bool IsAllowedWidth(const LinkProfile& profile, unsigned width) {
  return width != 0 && width <= profile.max_lanes && (width & (width - 1)) == 0;
}

unsigned WidestWidth(const LinkProfile& profile, unsigned usable_lanes) {
  for (unsigned width = profile.max_lanes; width > 0; width /= 2) {
    if (width <= usable_lanes) {
      return width;
    }
  }
  return 0;
}

uint64_t RawRateMbps(const LinkProfile& profile, unsigned width) {
  return profile.lane_rate_mbps * width;
}

uint64_t FlitTimePs(const LinkProfile& profile, unsigned width) {
  const uint64_t bits = profile.flit_wire_bytes * kBitsPerByte;
  return bits * kPsPerMicrosecond / RawRateMbps(profile, width);
}

double FullWidthFlitNs(const LinkProfile& profile) {
  return static_cast<double>(FlitTimePs(profile, profile.max_lanes)) / 1000;
}

double PayloadGoodputGbps(const LinkProfile& profile, unsigned width) {
  const double payload_bits =
      static_cast<double>(profile.payload_bytes * kBitsPerByte);
  // bits per ps is Tb/s; scale to Gb/s.
  return payload_bits * 1000.0 /
         static_cast<double>(FlitTimePs(profile, width));
}

uint64_t CableDelayPs(double metres) {
  return static_cast<uint64_t>(
      std::llround(metres * static_cast<double>(kCableDelayPsPerMetre)));
}

uint64_t OneWayLatencyPs(const LinkProfile& profile, unsigned width,
                         double cable_metres) {
  return profile.tx_pipeline_ps + FlitTimePs(profile, width) +
         CableDelayPs(cable_metres) + profile.rx_pipeline_ps;
}

unsigned LaneOfWireBit(const LinkProfile& profile, unsigned width,
                       uint64_t bit) {
  return static_cast<unsigned>((bit / profile.stripe_bits) % width);
}

}  // namespace lq::phy
