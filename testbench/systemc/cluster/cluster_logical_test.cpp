// Cross-node page faults served by firmware (docs/spec/log.md section 6,
// issue 8): a 2x2 torus of boards with transport engines and logical
// units boots the link bring-up firmware, which trains the links, switches
// in the routes and then serves, on each card, the faults on its paged
// region (firmware/images/page_service.c) from the unit's interrupt. Then
// node 1 stores to a page of node 0 (first touch: ALLOCATED on node 0),
// node 2 loads it back (MAP), node 0 touches a page of its own, and node 3
// touches a page beyond what node 0 hands out (REJECT RANGE).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "testbench/systemc/common/firmware_image.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/logical/requester.h"

namespace lq::cluster {
namespace {

using logical::AccessStatus;
using logical::testing::Requester;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kNodes = 4;
constexpr uint64_t kPage = 64 * 1024;
constexpr uint64_t kDirect = uint64_t{16} << 30;

uint64_t PagedGa(uint16_t owner, uint64_t page, uint64_t offset = 0) {
  return logical::GlobalAddress(owner, kDirect + page * kPage + offset);
}

Bytes Pattern(size_t length, uint8_t seed) {
  Bytes bytes(length);
  for (size_t i = 0; i < length; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + 5 * i);
  }
  return bytes;
}

TEST(ClusterLogicalTest, LOG_6_4_FirmwareServesCrossNodePageFaults) {
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  ASSERT_TRUE(image.ok()) << image.error().reason;
  std::vector<std::string> console;
  unsigned serving = 0;
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();
  config.network.transport = transport::TransportEngineConfig{};
  config.network.logical = logical::LogicalUnitConfig{};
  config.on_console_line = [&](const std::string& node,
                               const std::string& line) {
    console.push_back(node + ": " + line);
    serving += line == "page service: serving page faults" ? 1 : 0;
  };
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "2x2"}}).value();
  Cluster cluster("cluster", config, topology);
  ASSERT_TRUE(cluster.Load(*image).ok());
  std::vector<std::unique_ptr<Requester>> requesters;
  for (unsigned n = 0; n < kNodes; ++n) {
    requesters.push_back(
        std::make_unique<Requester>(("requester" + std::to_string(n)).c_str()));
    requesters.back()->socket.bind(cluster.node(n).logical()->socket);
  }

  std::vector<AccessStatus> statuses;
  Bytes loaded;
  sc_time first_touch;
  testing::ScThread work("work", [&] {
    for (int t = 0; t < 1000 && serving < kNodes; ++t) {
      sc_core::wait(sc_time(10, SC_US));
    }
    ASSERT_EQ(serving, kNodes) << "every firmware serves faults";
    const sc_time start = sc_core::sc_time_stamp();
    statuses.push_back(
        requesters[1]->Store(PagedGa(0, 5, 0x80), Pattern(64, 1)).status);
    first_touch = sc_core::sc_time_stamp() - start;
    const logical::testing::Answer load =
        requesters[2]->Load(PagedGa(0, 5, 0x80), 64);
    statuses.push_back(load.status);
    loaded = load.data;
    statuses.push_back(
        requesters[0]->Store(PagedGa(0, 6), Pattern(8, 2)).status);
    statuses.push_back(requesters[3]->Load(PagedGa(0, 5000), 8).status);
  });
  sc_core::sc_start(sc_time(40, sc_core::SC_MS));

  std::string transcript;
  for (const std::string& line : console) {
    transcript += line + "\n";
  }
  ASSERT_TRUE(work.finished()) << transcript;
  EXPECT_EQ(statuses, (std::vector<AccessStatus>{
                          AccessStatus::kOk, AccessStatus::kOk,
                          AccessStatus::kOk, AccessStatus::kAddressError}));
  EXPECT_EQ(loaded, Pattern(64, 1)) << "node 2 reads node 1's store";
  // page_service's pool starts 4 GiB below the top of the 16 GiB region.
  const uint64_t first_frame = (kDirect - (uint64_t{4} << 30)) / kPage;
  EXPECT_EQ(cluster.node(0).card_memory()->Peek(first_frame * kPage + 0x80, 64),
            Pattern(64, 1));
  EXPECT_EQ(cluster.node(0).card_memory()->Peek((first_frame + 1) * kPage, 8),
            Pattern(8, 2));
  EXPECT_EQ(cluster.finished_nodes(), kNodes) << transcript;
  EXPECT_EQ(cluster.worst_status(), 0) << transcript;
  EXPECT_NE(std::find(console.begin(), console.end(),
                      "node0: page service: 4 faults served, 2 pages "
                      "allocated, 1 rejected, 0 unsent"),
            console.end())
      << transcript;
  EXPECT_GT(first_touch, sc_time(1, SC_US)) << "firmware took its time";
  std::printf(
      "first-touch store from node 1, served by node 0's firmware: "
      "%.0f ns\n",
      first_touch.to_seconds() * 1e9);
}

}  // namespace
}  // namespace lq::cluster
