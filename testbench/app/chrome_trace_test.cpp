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

}  // namespace
}  // namespace lq::app
