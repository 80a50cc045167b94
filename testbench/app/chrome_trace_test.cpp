// SPDX-License-Identifier: Apache-2.0
// Unit tests of the Chrome trace writer: metadata naming every process and
// track first, then the events, with times converted to microseconds.
#include "systemc/app/chrome_trace.h"

#include "gtest/gtest.h"

namespace lq::app {
namespace {

TEST(ChromeTrace, NamesProcessesAndTracksAndKeepsEventsInOrder) {
  ChromeTrace trace;
  trace.Span("node3", "port 1", "L0", 1500, 4000, {{"k", 1}});
  trace.Instant("node0", "firmware", "hello", 250);
  trace.Span("node3", "port 1", "Recovery", 4000, 3000);  // ends before start
  EXPECT_EQ(trace.size(), 3u);
  const auto json = trace.Json();
  EXPECT_EQ(json["displayTimeUnit"], "ns");
  const auto& events = json["traceEvents"];
  ASSERT_EQ(events.size(), 2u + 2u + 3u) << "2 processes, 2 tracks, 3 events";
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(events[i]["ph"], "M") << "metadata first";
  }
  const auto& span = events[4];
  EXPECT_EQ(span["ph"], "X");
  EXPECT_DOUBLE_EQ(span["ts"].get<double>(), 1.5) << "microseconds";
  EXPECT_DOUBLE_EQ(span["dur"].get<double>(), 2.5);
  EXPECT_EQ(span["args"]["k"], 1);
  const auto& instant = events[5];
  EXPECT_EQ(instant["ph"], "i");
  EXPECT_DOUBLE_EQ(instant["ts"].get<double>(), 0.25);
  EXPECT_NE(instant["pid"], span["pid"]);
  EXPECT_EQ(events[6]["tid"], span["tid"]) << "same track, same ID";
  EXPECT_DOUBLE_EQ(events[6]["dur"].get<double>(), 0) << "never negative";
  bool named = false;
  for (size_t i = 0; i < 4; ++i) {
    named |= events[i]["name"] == "thread_name" &&
             events[i]["tid"] == span["tid"] &&
             events[i]["args"]["name"] == "port 1";
  }
  EXPECT_TRUE(named) << "the span's track is named";
}

TEST(ChromeTrace, KeepsOnlyTheWindow) {
  ChromeTrace trace;
  trace.SetWindow(1000, 2000);
  trace.Span("node0", "messages", "before", 100, 900);
  trace.Span("node0", "messages", "across the start", 500, 1500);
  trace.Span("node0", "messages", "across the end", 1800, 2500);
  trace.Span("node0", "messages", "after", 2000, 2100);
  trace.Instant("node0", "faults", "inside", 1999);
  trace.Instant("node0", "faults", "outside", 2000);
  ASSERT_EQ(trace.size(), 3u);
  const auto json = trace.Json();
  const auto& events = json["traceEvents"];
  const auto& start = events[events.size() - 3];
  EXPECT_EQ(start["name"], "across the start");
  EXPECT_DOUBLE_EQ(start["ts"].get<double>(), 1.0) << "cut at the start";
  EXPECT_DOUBLE_EQ(start["dur"].get<double>(), 0.5);
  const auto& end = events[events.size() - 2];
  EXPECT_DOUBLE_EQ(end["dur"].get<double>(), 0.2) << "cut at the end";
  EXPECT_EQ(events[events.size() - 1]["name"], "inside");
}

}  // namespace
}  // namespace lq::app
