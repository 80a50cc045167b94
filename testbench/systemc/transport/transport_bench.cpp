// SPDX-License-Identifier: Apache-2.0
// Packets per wall second through the transport engines (issue 7): every
// node of a 4x8x8 torus (256 nodes, dor, routers joined port to port)
// RDMA-WRITEs 4 KiB messages to a peer picked by a seeded random
// derangement, each message four 1 KiB packets plus their ACKs, all as real
// RoCEv2 bytes moved by DMA. A timed run (SystemC allows one elaboration
// per process): `transport_bench [WRITES_PER_NODE]` (default 200), or
// `--quick` (5) for CTest. Exit 1 if a WRITE does not complete.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <systemc>
#include <vector>

#include "systemc/cluster/engine_torus.h"

namespace lq::transport {
namespace {

constexpr uint32_t kMessageBytes = 4096;

int Main(int argc, char** argv) {
  unsigned writes = 200;
  if (argc > 1) {
    writes = std::strcmp(argv[1], "--quick") == 0 ? 5 : std::atoi(argv[1]);
  }
  const auto build_start = std::chrono::steady_clock::now();
  std::vector<EngineNode> nodes =
      BuildTorus("4x8x8", net::DeliveryFaults{}, 64 * kMessageBytes);
  const auto count = static_cast<unsigned>(nodes.size());
  // A derangement: every node writes to one other, and is written by one.
  std::vector<unsigned> peer(count);
  std::iota(peer.begin(), peer.end(), 0);
  std::mt19937 random(1);
  auto fixed_point = [&] {
    for (unsigned n = 0; n < count; ++n) {
      if (peer[n] == n) {
        return true;
      }
    }
    return false;
  };
  do {
    std::shuffle(peer.begin(), peer.end(), random);
  } while (fixed_point());
  std::vector<uint32_t> out_qp(count), in_qp(count);
  for (unsigned n = 0; n < count; ++n) {
    out_qp[n] = nodes[n].engine->CreateQp();
    in_qp[peer[n]] = nodes[peer[n]].engine->CreateQp();
  }
  for (unsigned n = 0; n < count; ++n) {
    const unsigned p = peer[n];
    if (!InitQps(*nodes[n].engine, out_qp[n], *nodes[p].engine, in_qp[p]) ||
        !ReadyQps(*nodes[n].engine, out_qp[n], *nodes[p].engine, in_qp[p])) {
      std::fprintf(stderr, "transport_bench: QP set-up failed\n");
      return 1;
    }
    for (unsigned i = 0; i < writes; ++i) {
      SendWr wr;
      wr.wr_id = i;
      wr.kind = SendKind::kWrite;
      wr.length = kMessageBytes;
      wr.remote_address = kMessageBytes * (i % 64);
      wr.rkey = nodes[p].rkey;
      if (!nodes[n].engine->PostSend(out_qp[n], wr, 0).ok()) {
        std::fprintf(stderr, "transport_bench: post failed\n");
        return 1;
      }
    }
  }
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const double build =
      std::chrono::duration<double>(start - build_start).count();
  uint64_t packets = 0, completions = 0;
  for (EngineNode& node : nodes) {
    packets += node.engine->counters().packets_sent;
    completions += node.engine->PollCompletions().size();
  }
  std::printf(
      "256 nodes (4x8x8), %u WRITEs of %u B each: %llu packets in %.2f s wall "
      "(build %.2f s), %.0f packets per wall second, %.1f us simulated\n",
      writes, kMessageBytes, static_cast<unsigned long long>(packets), wall,
      build, static_cast<double>(packets) / wall,
      sc_core::sc_time_stamp().to_seconds() * 1e6);
  if (completions != uint64_t{count} * writes) {
    std::fprintf(stderr, "transport_bench: %llu of %llu WRITEs completed\n",
                 static_cast<unsigned long long>(completions),
                 static_cast<unsigned long long>(uint64_t{count} * writes));
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lq::transport

int sc_main(int argc, char** argv) { return lq::transport::Main(argc, argv); }
