// SPDX-License-Identifier: Apache-2.0
// BoardLines: what a run of boards prints is written at window ends, those
// lines made before the previous window's end, sorted by simulated time,
// node and the node's own order; the rest when the run is finished.
#include "systemc/app/board_lines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <systemc>

#include "systemc/parallel/rank_world.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::app {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

std::string Read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BoardLines, WritesAWindowsLinesOnceTheNextHasEndedInTimeNodeOrder) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "board_lines_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  parallel::WindowSync sync(parallel::RankWorld::Get(), sc_time(10, SC_NS));
  BoardLines lines(sync, {"node0", "node1", "node2"}, dir.string());
  std::string notes_by_20ns;
  testing::ScThread boards("boards", [&] {
    sc_core::wait(sc_time(5, SC_NS));
    lines.Note(2, "node 2 at 5 ns");
    lines.Console(2, "two a");
    lines.Console(1, "one");
    lines.Note(1, "node 1 at 5 ns");
    lines.Console(2, "two b");
    sc_core::wait(sc_time(5, SC_NS));
    lines.WindowEnded();  // at 10 ns: nothing before 0 ns
    EXPECT_FALSE(std::filesystem::exists(dir / "node1.log"));
    sc_core::wait(sc_time(5, SC_NS));
    lines.Console(0, "zero at 15 ns");
    sc_core::wait(sc_time(5, SC_NS));
    ::testing::internal::CaptureStderr();
    lines.WindowEnded();  // at 20 ns: what was made before 10 ns
    notes_by_20ns = ::testing::internal::GetCapturedStderr();
  });
  sc_core::sc_start();

  EXPECT_EQ(notes_by_20ns, "node 1 at 5 ns\nnode 2 at 5 ns\n")
      << "by node at one instant, whatever order they came in";
  EXPECT_EQ(Read(dir / "node1.log"), "one\n");
  EXPECT_EQ(Read(dir / "node2.log"), "two a\ntwo b\n") << "the node's order";
  EXPECT_FALSE(std::filesystem::exists(dir / "node0.log"))
      << "made at 15 ns, in the window not yet followed by another";
  lines.RunEnded();
  lines.Console(0, "a last partial line");
  lines.Finish();
  EXPECT_EQ(Read(dir / "node0.log"), "zero at 15 ns\na last partial line\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lq::app
