// SPDX-License-Identifier: Apache-2.0
// Tests of the RSP session against an in-memory target and channel: every
// packet GDB uses, the stop-reply rules, the ack protocol and bad input.
#include "models/gdb/rsp_session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/gdb/rsp_packet.h"
#include "models/gdb/rv32_description.h"
#include "testbench/models/gdb/gdb_fakes.h"

namespace lq::gdb {
namespace {

using Reason = StopEvent::Reason;
using Replies = std::vector<std::string>;
using fakes::FakeChannel;
using fakes::FakeTarget;

constexpr uint32_t kBase = FakeTarget::kMemoryBase;

StopEvent Stop(Reason reason) {
  StopEvent stop;
  stop.reason = reason;
  return stop;
}

StopEvent Watch(WatchKind kind, uint32_t address) {
  StopEvent stop = Stop(Reason::kWatchpoint);
  stop.watch_kind = kind;
  stop.watch_address = address;
  return stop;
}

class RspSessionTest : public ::testing::Test {
 protected:
  // Serves the first stop with these packets queued. The channel runs dry
  // after them, which closes the connection: the session detaches.
  Replies Exchange(const std::vector<std::string>& packets) {
    for (const std::string& packet : packets) {
      channel_.Send(packet);
    }
    EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
              ResumeAction::kDetach)
        << "a closed connection counts as a detach";
    return channel_.TakeReplies();
  }

  // Connects the way GDB does (qSupported, with or without swbreak+) and
  // resumes from the first stop with c.
  void ConnectAndContinue(bool announce_swbreak) {
    channel_.Send(announce_swbreak ? "qSupported:multiprocess+;swbreak+"
                                   : "qSupported:multiprocess+");
    channel_.Send("c");
    ASSERT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
              ResumeAction::kContinue)
        << "c resumes";
    channel_.TakeReplies();
  }

  FakeTarget target_;
  FakeChannel channel_;
  RspSession session_{target_, channel_};
};

TEST_F(RspSessionTest, FirstStopIsOnlyReportedWhenGdbAsks) {
  channel_.Send("qSupported:swbreak+");
  channel_.Send("?");
  channel_.Send("c");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kContinue)
      << "c resumes the CPU";
  EXPECT_EQ(channel_.written.substr(0, 2), "+$")
      << "nothing goes out before GDB's first packet is acked: an "
         "unsolicited stop reply would confuse GDB's connection handshake";
  const Replies replies = channel_.TakeReplies();
  ASSERT_EQ(replies.size(), 2u) << "qSupported and '?' answered, c silent";
  EXPECT_EQ(replies[1], "S05") << "halted at start reads as SIGTRAP";
}

TEST_F(RspSessionTest, AdvertisesItsFeatures) {
  const Replies replies = Exchange({"qSupported:multiprocess+;swbreak+"});
  ASSERT_EQ(replies.size(), 1u) << "one reply";
  for (const char* feature :
       {"PacketSize=00001000", "qXfer:features:read+", "swbreak+",
        "vContSupported+", "QStartNoAckMode+"}) {
    EXPECT_NE(replies[0].find(feature), std::string::npos)
        << "GDB only uses what is announced: " << feature;
  }
}

TEST_F(RspSessionTest, BreakpointStopSaysSwbreakWhenAnnounced) {
  ConnectAndContinue(true);
  channel_.Send("c");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kBreakpoint)),
            ResumeAction::kContinue)
      << "the stop is served until GDB resumes";
  EXPECT_EQ(channel_.TakeReplies(), Replies{"T05swbreak:;"})
      << "swbreak tells GDB the pc is already at the breakpoint";
}

TEST_F(RspSessionTest, BreakpointStopIsPlainSigtrapUnlessAnnounced) {
  ConnectAndContinue(false);
  channel_.Send("c");
  session_.ServeStop(Stop(Reason::kBreakpoint));
  EXPECT_EQ(channel_.TakeReplies(), Replies{"S05"})
      << "a GDB that did not announce swbreak+ must not get it";
}

TEST_F(RspSessionTest, StepStopIsSigtrap) {
  ConnectAndContinue(true);
  channel_.Send("s");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kStep)), ResumeAction::kStep)
      << "s steps";
  EXPECT_EQ(channel_.TakeReplies(), Replies{"S05"}) << "a finished step";
}

TEST_F(RspSessionTest, WatchpointStopNamesKindAndAddress) {
  ConnectAndContinue(true);
  const struct {
    WatchKind kind;
    const char* reply;
  } cases[] = {{WatchKind::kWrite, "T05watch:80000010;"},
               {WatchKind::kRead, "T05rwatch:80000014;"},
               {WatchKind::kAccess, "T05awatch:80000018;"}};
  uint32_t address = kBase + 0x10;
  for (const auto& test : cases) {
    channel_.Send("c");
    session_.ServeStop(Watch(test.kind, address));
    EXPECT_EQ(channel_.TakeReplies(), Replies{test.reply})
        << "GDB reports which watchpoint triggered from the kind and "
           "the data address";
    address += 4;
  }
}

TEST_F(RspSessionTest, CtrlCInterruptsTheRunningCpu) {
  ConnectAndContinue(true);
  EXPECT_FALSE(session_.PollInterrupt()) << "nothing arrived yet";
  channel_.SendRaw("\x03");
  EXPECT_TRUE(session_.PollInterrupt()) << "0x03 while running is Ctrl-C";
  EXPECT_FALSE(session_.PollInterrupt()) << "one Ctrl-C, one interrupt";
  channel_.Send("c");
  session_.ServeStop(Stop(Reason::kInterrupted));
  EXPECT_EQ(channel_.TakeReplies(), Replies{"S02"})
      << "an interrupted target reports SIGINT";
}

TEST_F(RspSessionTest, PacketsThatArriveWhileRunningWaitForTheNextStop) {
  ConnectAndContinue(true);
  channel_.Send("qC");
  EXPECT_FALSE(session_.PollInterrupt()) << "a packet is no interrupt";
  channel_.Send("c");
  session_.ServeStop(Stop(Reason::kStep));
  EXPECT_EQ(channel_.TakeReplies(), (Replies{"S05", "QC1"}))
      << "the stop reply first, then the packet read while running";
}

TEST_F(RspSessionTest, CtrlCWhileStoppedIsIgnored) {
  channel_.SendRaw("\x03");
  EXPECT_EQ(Exchange({"?"}), Replies{"S05"})
      << "a stopped target has nothing to interrupt";
}

TEST_F(RspSessionTest, ExitIsReportedAsW) {
  ConnectAndContinue(true);
  channel_.Send("?");
  session_.ReportExit(3);
  EXPECT_EQ(channel_.TakeReplies(), (Replies{"W03", "W03"}))
      << "W goes to the waiting GDB and answers a later '?'";
  EXPECT_FALSE(session_.Attached()) << "GDB closed the connection";
}

TEST_F(RspSessionTest, ExitStatusIsItsLowByte) {
  ConnectAndContinue(true);
  session_.ReportExit(0x1ff);
  EXPECT_EQ(channel_.TakeReplies(), Replies{"Wff"})
      << "W carries the status & 0xff, two digits";
}

TEST_F(RspSessionTest, ExitIsNotSentUnsolicited) {
  channel_.Send("?");
  session_.ReportExit(0);
  EXPECT_EQ(channel_.TakeReplies(), Replies{"W00"})
      << "GDB was not waiting: only its '?' gets the W";
}

TEST_F(RspSessionTest, ResumingAfterExitReportsTheExitAgain) {
  ConnectAndContinue(true);
  channel_.Send("c");
  channel_.Send("D");
  session_.ReportExit(1);
  EXPECT_EQ(channel_.TakeReplies(), (Replies{"W01", "W01", "OK"}))
      << "an exited target cannot run; D still ends the session";
}

TEST_F(RspSessionTest, ReadsAllRegistersLittleEndian) {
  for (int i = 0; i < kRv32IntegerRegisters; ++i) {
    target_.registers[i] = static_cast<uint32_t>(i) * 0x01010101u;
  }
  target_.registers[kRv32PcRegister] = 0x80000004;
  const Replies replies = Exchange({"g"});
  ASSERT_EQ(replies.size(), 1u) << "one reply";
  ASSERT_EQ(replies[0].size(), 33u * 8) << "x0..x31 and pc, 8 digits each";
  EXPECT_EQ(replies[0].substr(8, 8), "01010101") << "x1";
  EXPECT_EQ(replies[0].substr(31 * 8, 8), "1f1f1f1f") << "x31";
  EXPECT_EQ(replies[0].substr(32 * 8), "04000080")
      << "pc is register 32, least significant byte first";
}

TEST_F(RspSessionTest, WritesAllRegisters) {
  std::string hex;
  for (int i = 0; i < kRv32RegisterCount; ++i) {
    hex += RegisterToHex(0x1000u + static_cast<uint32_t>(i));
  }
  EXPECT_EQ(Exchange({"G" + hex}), Replies{"OK"}) << "33 registers written";
  EXPECT_EQ(target_.registers[5], 0x1005u) << "x5 from the sixth group";
  EXPECT_EQ(target_.registers[kRv32PcRegister], 0x1020u) << "pc last";
}

TEST_F(RspSessionTest, RejectsMalformedRegisterBlocks) {
  target_.registers[1] = 7;
  std::string hex;
  for (int i = 0; i < kRv32RegisterCount; ++i) {
    hex += RegisterToHex(0xffffffff);
  }
  std::string bad_digit = hex;
  bad_digit.back() = 'x';
  EXPECT_EQ(Exchange({"G" + hex.substr(8), "G" + bad_digit, "G" + hex + "00"}),
            (Replies{"E01", "E01", "E01"}))
      << "too short, a non-hex digit and too long are errors";
  EXPECT_EQ(target_.registers[1], 7u)
      << "a rejected G writes nothing, not even the registers before the "
         "bad digit";
}

TEST_F(RspSessionTest, ReadsAndWritesOneRegister) {
  target_.registers[kRv32PcRegister] = 0x80000010;
  EXPECT_EQ(Exchange({"p20", "P1=78563412", "p1"}),
            (Replies{"10000080", "OK", "78563412"}))
      << "p/P address one register by hex number";
  EXPECT_EQ(target_.registers[1], 0x12345678u) << "ra written little-endian";
}

TEST_F(RspSessionTest, ReadsAndWritesRegistersBeyondTheGPacket) {
  const int mcause = kRv32FirstCsrRegister + 0x342;  // 0x383
  target_.csrs[mcause] = 0x80000007;
  EXPECT_EQ(Exchange({"p383", "P383=02000000", "p383", "p384", "p10000"}),
            (Replies{"07000080", "OK", "02000000", "E01", "E01"}))
      << "a CSR the target has, by GDB's number; one it lacks, and a number "
         "past any description, are errors";
  EXPECT_EQ(target_.csrs[mcause], 2u);
}

TEST_F(RspSessionTest, RejectsBadRegisterNumbersAndValues) {
  EXPECT_EQ(Exchange({"p21", "pffffffffff", "p", "pzz", "P21=00000000",
                      "P1=123", "P1", "P=00000000"}),
            Replies(8, "E01"))
      << "register 33 does not exist; malformed numbers and values are "
         "errors, never crashes";
}

TEST_F(RspSessionTest, ReadsMemory) {
  EXPECT_EQ(Exchange({"m80000000,4", "m80000010,0"}), (Replies{"00010203", ""}))
      << "bytes in memory order; zero bytes is an empty reply";
}

TEST_F(RspSessionTest, ReadsTheMappedPrefixOfARangeThatLeavesMemory) {
  EXPECT_EQ(Exchange({"m80000ffe,4"}), Replies{"feff"})
      << "GDB accepts a shorter reply and asks again for the rest";
}

TEST_F(RspSessionTest, ClampsLongReadsToOnePacket) {
  const Replies replies = Exchange({"m80000000,ffffffff"});
  ASSERT_EQ(replies.size(), 1u) << "one reply";
  EXPECT_EQ(replies[0].size(), kMaxPacketPayload)
      << "the reply fits PacketSize instead of allocating 4 GiB";
}

TEST_F(RspSessionTest, RejectsBadMemoryReads) {
  EXPECT_EQ(Exchange({"m0,4", "mffffffff,10", "m80000000", "mzz,4",
                      "m80000000,100000000"}),
            Replies(5, "E01"))
      << "unmapped memory, the top of the address space, a missing length, "
         "bad hex and a length above 32 bits are errors";
}

TEST_F(RspSessionTest, WritesMemoryInHex) {
  EXPECT_EQ(Exchange({"M80000004,2:abcd"}), Replies{"OK"}) << "M writes";
  EXPECT_EQ(target_.memory[4], 0xab) << "first byte";
  EXPECT_EQ(target_.memory[5], 0xcd) << "second byte";
}

TEST_F(RspSessionTest, RejectsBadHexMemoryWrites) {
  EXPECT_EQ(Exchange({"M80000000,2:abc", "M80000000,3:abcd", "M0,1:00",
                      "Mffffffff,2:0000", "M80000000,1", "M80000000,1:zz"}),
            Replies(6, "E01"))
      << "odd hex, a length that does not match the data, unmapped memory, "
         "a wrapping range, no data and bad hex are errors";
  EXPECT_EQ(target_.memory[0], 0x00) << "nothing was written";
}

TEST_F(RspSessionTest, WritesBinaryMemoryWithEscapes) {
  const std::string data("$#}*\x03\x00", 6);
  EXPECT_EQ(Exchange({"X80000000,0:", "X80000008,6:" + data}),
            (Replies{"OK", "OK"}))
      << "GDB probes X with length 0, then sends escaped binary";
  EXPECT_EQ(
      std::string(target_.memory.begin() + 8, target_.memory.begin() + 14),
      data)
      << "the escaped bytes land unescaped";
}

TEST_F(RspSessionTest, RejectsBadBinaryMemoryWrites) {
  EXPECT_EQ(Exchange({"X80000000,2:a", "X0,1:a", "X80000000,1"}),
            Replies(3, "E01"))
      << "short data, unmapped memory and no data are errors";
}

TEST_F(RspSessionTest, InsertsAndRemovesBreakpoints) {
  EXPECT_EQ(Exchange({"Z0,80000010,4", "Z1,80000020,2", "Z0,80000030,4;X1,0",
                      "z0,80000010,4"}),
            (Replies{"OK", "OK", "OK", "OK"}))
      << "Z0 and Z1 both become software breakpoints";
  EXPECT_TRUE(target_.breakpoints.empty())
      << "the connection closed, so the session removed what GDB left";
}

TEST_F(RspSessionTest, BreakpointsReachTheTarget) {
  channel_.Send("Z0,80000010,4");
  channel_.Send("Z1,80000020,2");
  channel_.Send("c");
  session_.ServeStop(Stop(Reason::kHaltedAtStart));
  EXPECT_EQ(target_.breakpoints,
            (std::vector<uint32_t>{kBase + 0x10, kBase + 0x20}))
      << "each Z0/Z1 inserts one breakpoint at its address";
}

TEST_F(RspSessionTest, InsertsWatchpointsOfEachKind) {
  channel_.Send("Z2,80000100,4");
  channel_.Send("Z3,80000104,2");
  channel_.Send("Z4,80000108,1");
  channel_.Send("z3,80000104,2");
  channel_.Send("c");
  session_.ServeStop(Stop(Reason::kHaltedAtStart));
  EXPECT_EQ(channel_.TakeReplies(), Replies(4, "OK")) << "all accepted";
  using W = FakeTarget::Watchpoint;
  EXPECT_EQ(target_.watchpoints,
            (std::vector<W>{{WatchKind::kWrite, kBase + 0x100, 4},
                            {WatchKind::kAccess, kBase + 0x108, 1}}))
      << "Z2/Z3/Z4 are write/read/access with the watched length";
}

TEST_F(RspSessionTest, RejectsBadBreakAndWatchpoints) {
  target_.refuse_watchpoints = true;
  EXPECT_EQ(Exchange({"Z0", "Z0,xyz,4", "Zq,80000000,4", "Z0,80000000",
                      "z0,80000040,4", "Z2,80000000,4", "Z5,80000000,4"}),
            (Replies{"E01", "E01", "E01", "E01", "E01", "E01", ""}))
      << "malformed packets, removing what is not there and a refusing "
         "target are errors; an unknown type is unsupported";
}

TEST_F(RspSessionTest, ContinueAndStepMayGiveAnAddress) {
  channel_.Send("c80000040");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kContinue)
      << "c ADDR continues";
  EXPECT_EQ(target_.registers[kRv32PcRegister], 0x80000040u)
      << "from ADDR: the session writes the pc";
  channel_.Send("s80000044");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kStep)), ResumeAction::kStep)
      << "s ADDR steps";
  EXPECT_EQ(target_.registers[kRv32PcRegister], 0x80000044u) << "pc moved";
}

TEST_F(RspSessionTest, ResumesWithSignalIgnoringTheSignal) {
  channel_.Send("C05");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kContinue)
      << "C continues: the hart has no signals to deliver";
  channel_.Send("S02;80000048");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kStep)), ResumeAction::kStep)
      << "S steps";
  EXPECT_EQ(target_.registers[kRv32PcRegister], 0x80000048u)
      << "from the given address";
}

TEST_F(RspSessionTest, RejectsMalformedResumes) {
  channel_.Send("cxyz");
  channel_.Send("C");
  channel_.Send("S05;zz");
  channel_.Send("s");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kStep)
      << "the session keeps serving after bad resumes";
  EXPECT_EQ(channel_.TakeReplies(), Replies(3, "E01"))
      << "a bad address or signal is an error, not a resume";
  EXPECT_EQ(target_.registers[kRv32PcRegister], 0u) << "pc untouched";
}

TEST_F(RspSessionTest, ResumesWithVCont) {
  EXPECT_EQ(Exchange({"vCont?"}), Replies{"vCont;c;C;s;S"})
      << "vCont? lists the actions the stub supports";
  const struct {
    const char* packet;
    ResumeAction action;
  } cases[] = {{"vCont;c", ResumeAction::kContinue},
               {"vCont;s:1;c", ResumeAction::kStep},
               {"vCont;s:2;c", ResumeAction::kContinue},
               {"vCont;C05:-1", ResumeAction::kContinue},
               {"vCont;S05:1", ResumeAction::kStep}};
  for (const auto& test : cases) {
    FakeTarget target;
    FakeChannel channel;
    RspSession session(target, channel);
    channel.Send(test.packet);
    EXPECT_EQ(session.ServeStop(Stop(Reason::kHaltedAtStart)), test.action)
        << "the leftmost action for thread 1 applies: " << test.packet;
    EXPECT_TRUE(channel.TakeReplies().empty())
        << "a resume is answered by the next stop reply: " << test.packet;
  }
}

TEST_F(RspSessionTest, RejectsVContItCannotDo) {
  EXPECT_EQ(Exchange({"vCont", "vCont;", "vCont;s:2",
                      "vCont;r80000000,80000010", "vCont;t", "vCont;Cxx"}),
            Replies(6, "E01"))
      << "no action, only other threads, range stepping, stop and bad "
         "signals are not resumes the stub can do";
}

TEST_F(RspSessionTest, DetachEndsTheSession) {
  channel_.Send("Z0,80000010,4");
  channel_.Send("Z2,80000100,4");
  channel_.Send("D");
  channel_.Send("?");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kDetach)
      << "D detaches";
  EXPECT_EQ(channel_.TakeReplies(), (Replies{"OK", "OK", "OK"}))
      << "D is answered OK; nothing after it is read";
  EXPECT_TRUE(target_.breakpoints.empty() && target_.watchpoints.empty())
      << "a detached CPU must not stop at points nobody watches";
  EXPECT_FALSE(session_.Attached()) << "the session is over";
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kBreakpoint)),
            ResumeAction::kDetach)
      << "later stops return at once: the CPU runs freely";
  EXPECT_FALSE(session_.PollInterrupt()) << "nobody left to interrupt";
  EXPECT_TRUE(channel_.TakeReplies().empty()) << "and nothing is sent";
}

TEST_F(RspSessionTest, KillEndsTheSessionWithoutAReply) {
  channel_.Send("Z0,80000010,4");
  channel_.Send("k");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kKill)
      << "k kills";
  EXPECT_EQ(channel_.TakeReplies(), Replies{"OK"})
      << "only Z0 is answered: GDB expects nothing after k";
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kKill)
      << "the session stays killed";
}

TEST_F(RspSessionTest, VKillEndsTheSessionWithOk) {
  channel_.Send("vKill;1");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kKill)
      << "vKill kills";
  EXPECT_EQ(channel_.TakeReplies(), Replies{"OK"}) << "vKill expects OK";
}

TEST_F(RspSessionTest, ClosedConnectionDetachesAndCleansUp) {
  channel_.Send("Z0,80000010,4");
  channel_.Send("Z4,80000100,4");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kDetach)
      << "GDB went away: treated as detach";
  EXPECT_TRUE(target_.breakpoints.empty() && target_.watchpoints.empty())
      << "points GDB left behind are removed";
}

TEST_F(RspSessionTest, AnswersThreadQueriesForOneThread) {
  EXPECT_EQ(Exchange({"qAttached", "qAttached:1", "qC", "qfThreadInfo",
                      "qsThreadInfo", "Hg0", "Hc-1", "T1"}),
            (Replies{"1", "1", "QC1", "m1", "l", "OK", "OK", "OK"}))
      << "one hart, thread 1, attached (so quitting GDB detaches)";
}

TEST_F(RspSessionTest, MonitorCommandsAnswerAsConsoleOutputThenOk) {
  target_.monitor_answers["time"] = "13.000 us\n";
  // "monitor time" and "monitor link cut 0 2", hex-encoded; then bad hex.
  EXPECT_EQ(Exchange({"qRcmd,74696d65",
                      "qRcmd,6c696e6b20637574203020"
                      "32",
                      "qRcmd,7", "qRcmd,zz"}),
            (Replies{"O31332e303030207573"
                     "0a",
                     "OK",
                     "O6e6f207375636820636f6d6d616e64"
                     "0a",
                     "OK", "E01", "E01"}));
  EXPECT_EQ(target_.monitor_commands,
            (std::vector<std::string>{"time", "link cut 0 2"}));
}

TEST_F(RspSessionTest, MonitorIsUnsupportedOnATargetWithoutCommands) {
  EXPECT_EQ(Exchange({"qRcmd,74696d65"}), Replies{""})
      << "an empty reply: GDB says the target does not support monitor";
}

TEST_F(RspSessionTest, RejectsDeadThreads) {
  EXPECT_EQ(Exchange({"T2", "T", "Tzz"}), Replies(3, "E01"))
      << "only thread 1 is alive";
}

TEST_F(RspSessionTest, RepliesEmptyToWhatItDoesNotSupport) {
  EXPECT_EQ(Exchange({"vMustReplyEmpty", "qTStatus", "vFile:open:", "!", "",
                      "qXfer:memory-map:read::0,100", "bc"}),
            Replies(7, ""))
      << "the empty reply tells GDB a packet is unsupported";
}

TEST_F(RspSessionTest, ServesTheTargetDescription) {
  const std::string xml = Rv32TargetDescription();
  EXPECT_EQ(Exchange({"qXfer:features:read:target.xml:0,ffff"}),
            Replies{"l" + xml})
      << "a window larger than the document returns all of it, last";
}

TEST_F(RspSessionTest, ServesTheTargetDescriptionInChunks) {
  const std::string xml = Rv32TargetDescription();
  const size_t chunk = 0x100;
  std::vector<std::string> packets;
  for (size_t offset = 0; offset < xml.size(); offset += chunk) {
    packets.push_back("qXfer:features:read:target.xml:" +
                      ToHex(Bytes{static_cast<uint8_t>(offset >> 8),
                                  static_cast<uint8_t>(offset)}) +
                      ",100");
  }
  const Replies replies = Exchange(packets);
  std::string joined;
  for (size_t i = 0; i < replies.size(); ++i) {
    ASSERT_FALSE(replies[i].empty()) << "every chunk starts with m or l";
    EXPECT_EQ(replies[i][0], i + 1 == replies.size() ? 'l' : 'm')
        << "m while more follows, l for the last chunk " << i;
    joined += replies[i].substr(1);
  }
  EXPECT_EQ(joined, xml) << "the chunks add up to the document";
}

TEST_F(RspSessionTest, RejectsBadTargetDescriptionReads) {
  const std::string size =
      ToHex(Bytes{static_cast<uint8_t>(Rv32TargetDescription().size() >> 8),
                  static_cast<uint8_t>(Rv32TargetDescription().size())});
  EXPECT_EQ(Exchange({"qXfer:features:read:other.xml:0,100",
                      "qXfer:features:read:target.xml",
                      "qXfer:features:read:target.xml:0",
                      "qXfer:features:read:target.xml:zz,100",
                      "qXfer:features:read:target.xml:ffff,100",
                      "qXfer:features:read:target.xml:" + size + ",100"}),
            (Replies{"E01", "E01", "E01", "E01", "E01", "l"}))
      << "an unknown annex, a missing or malformed window and an offset "
         "past the end are errors; the offset at the end is the empty last "
         "chunk";
}

TEST_F(RspSessionTest, AcksEveryPacket) {
  Exchange({"?", "g"});
  EXPECT_EQ(channel_.written.substr(0, 2), "+$") << "ack, then the reply";
  EXPECT_EQ(channel_.written.find('+', 2), channel_.written.find("$S05") + 7)
      << "the second packet is acked after the first reply";
}

TEST_F(RspSessionTest, NacksABadChecksumAndWaitsForTheResend) {
  channel_.SendRaw("$?#00");
  Exchange({"?"});
  EXPECT_EQ(channel_.written, "-+$S05#b8")
      << "the corrupted '?' is nacked and not answered; its resend is";
}

TEST_F(RspSessionTest, ResendsTheLastReplyOnNack) {
  channel_.Send("?");
  channel_.SendRaw("-");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kDetach)
      << "served until the channel closes";
  EXPECT_EQ(channel_.written, "+$S05#b8$S05#b8")
      << "GDB's '-' says our reply arrived damaged: send it again";
}

TEST_F(RspSessionTest, RejectsOversizePackets) {
  channel_.SendRaw(EncodePacket("X80000000,1001:" + std::string(0x1001, 'a')));
  EXPECT_EQ(Exchange({"?"}), (Replies{"E01", "S05"}))
      << "a packet over PacketSize is refused, and the next one is served";
  EXPECT_EQ(target_.memory[0], 0x00) << "nothing of it was written";
}

TEST_F(RspSessionTest, NoAckModeStopsAcking) {
  channel_.Send("QStartNoAckMode");
  channel_.Send("?");
  channel_.SendRaw("$?#00");
  channel_.SendRaw("-");
  EXPECT_EQ(session_.ServeStop(Stop(Reason::kHaltedAtStart)),
            ResumeAction::kDetach)
      << "served until the channel closes";
  EXPECT_EQ(channel_.written, "+$OK#9a$S05#b8$S05#b8")
      << "QStartNoAckMode itself is acked; after it nothing is, a bad "
         "checksum is used anyway (GDB cannot resend) and '-' means nothing";
}

}  // namespace
}  // namespace lq::gdb
