// SPDX-License-Identifier: Apache-2.0
// Unit tests of the phase runner: every phase in a child process of its
// own, results in the jobs' order, and every way a child can fail named.
#include "systemc/app/phase_runner.h"

#include <csignal>
#include <fstream>

#include "gtest/gtest.h"

namespace lq::app {
namespace {

PhaseJob Writes(const std::string& name, int value, int status = 0) {
  return {name, [value, status](const std::string& path) {
            std::ofstream(path) << "{\"value\": " << value << "}";
            return status;
          }};
}

TEST(PhaseRunner, RunsEveryJobAndReturnsItsStatsInOrder) {
  std::vector<PhaseJob> jobs;
  for (int i = 0; i < 5; ++i) {
    jobs.push_back(Writes("job" + std::to_string(i), i * 10));
  }
  size_t calls = 0;
  const auto results = RunPhases(jobs, 2, [&calls](const auto&, size_t done) {
    EXPECT_EQ(done, ++calls);
  });
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(calls, 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(results[i].name, "job" + std::to_string(i));
    ASSERT_TRUE(results[i].Ok()) << results[i].failure;
    EXPECT_EQ((*results[i].stats)["value"], i * 10);
  }
}

TEST(PhaseRunner, ChildrenCannotTouchTheParentsMemory) {
  int touched = 0;
  const auto results = RunPhases({{"writer",
                                   [&touched](const std::string& path) {
                                     touched = 1;
                                     std::ofstream(path) << "{}";
                                     return 0;
                                   }}},
                                 1);
  ASSERT_TRUE(results[0].Ok()) << results[0].failure;
  EXPECT_EQ(touched, 0) << "the phase ran in the parent's process";
}

TEST(PhaseRunner, WaitsForItsChildrenEvenIfSigchldWasIgnored) {
  std::signal(SIGCHLD, SIG_IGN);  // as nohup and some CI runners leave it
  const auto results = RunPhases({Writes("a", 1), Writes("b", 2)}, 2);
  std::signal(SIGCHLD, SIG_DFL);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].Ok()) << results[0].failure;
  EXPECT_TRUE(results[1].Ok()) << results[1].failure;
}

TEST(PhaseRunner, NamesEveryWayAChildFails) {
  const auto results = RunPhases(
      {Writes("lost_data", 1, 1),
       {"silent", [](const std::string&) { return 0; }},
       {"garbled",
        [](const std::string& path) {
          std::ofstream(path) << "{ not json";
          return 0;
        }},
       {"crashed",
        [](const std::string&) {
          std::raise(SIGKILL);
          return 0;
        }},
       {"threw",
        [](const std::string&) -> int { throw std::runtime_error("boom"); }},
       Writes("fine", 7)},
      2);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_EQ(results[0].exit_status, 1);
  EXPECT_EQ(results[0].failure, "exited with status 1");
  // A non-zero status keeps what else went wrong.
  EXPECT_TRUE(results[0].stats) << "a failed phase's stats are still read";
  EXPECT_EQ(results[1].failure, "wrote no stats");
  EXPECT_NE(results[2].failure.find("unreadable stats"), std::string::npos)
      << results[2].failure;
  EXPECT_EQ(results[3].failure, "killed by signal " + std::to_string(SIGKILL));
  EXPECT_EQ(results[3].exit_status, 1);
  EXPECT_EQ(results[4].failure, "exited with status 1");
  EXPECT_TRUE(results[5].Ok()) << "one failure does not stop the others";
}

}  // namespace
}  // namespace lq::app
