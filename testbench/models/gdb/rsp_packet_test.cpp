// SPDX-License-Identifier: Apache-2.0
// Tests of RSP framing (decoder, encoder) and the hex helpers.
#include "models/gdb/rsp_packet.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lq::gdb {
namespace {

using Kind = RspEvent::Kind;

std::vector<RspEvent> Decode(RspDecoder& decoder, std::string_view bytes) {
  return decoder.Feed(
      ByteView(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

std::vector<RspEvent> Decode(std::string_view bytes) {
  RspDecoder decoder;
  return Decode(decoder, bytes);
}

TEST(RspEncoder, AppendsTheChecksumOfThePayload) {
  EXPECT_EQ(EncodePacket("OK"), "$OK#9a")
      << "'O' + 'K' = 0x9a: GDB checks the two digits after '#'";
  EXPECT_EQ(EncodePacket(""), "$#00") << "the empty reply means unsupported";
  EXPECT_EQ(EncodePacket("S05"), "$S05#b8") << "a stop reply as gdbserver";
}

TEST(RspEncoder, EscapesFramingBytes) {
  const std::string frame = EncodePacket(std::string("a$b#c}d*e", 9));
  EXPECT_EQ(frame.substr(0, frame.size() - 3),
            "$a}\x04"
            "b}\x03"
            "c}]d}\x0a"
            "e")
      << "$ # } * must travel as '}' and the byte XOR 0x20, or GDB would "
         "misframe qXfer data";
  EXPECT_EQ(frame.substr(frame.size() - 2),
            ToHex(Bytes{RspChecksum(frame.substr(1, frame.size() - 4))}))
      << "the checksum covers the escaped bytes as sent";
}

TEST(RspDecoder, YieldsAPacketWithAGoodChecksum) {
  const std::vector<RspEvent> events = Decode("$qSupported:swbreak+#8b");
  ASSERT_EQ(events.size(), 1u) << "one frame, one event";
  EXPECT_EQ(events[0].kind, Kind::kPacket) << "the checksum is right";
  EXPECT_EQ(events[0].payload, "qSupported:swbreak+") << "payload unchanged";
}

TEST(RspDecoder, AcceptsUppercaseChecksumDigits) {
  const std::vector<RspEvent> events = Decode("$OK#9A");
  ASSERT_EQ(events.size(), 1u) << "one frame";
  EXPECT_EQ(events[0].kind, Kind::kPacket)
      << "hex digits of either case are the same checksum";
}

TEST(RspDecoder, RejectsABadChecksum) {
  const std::vector<RspEvent> events = Decode("$OK#9b$OK#zz");
  ASSERT_EQ(events.size(), 2u) << "two frames";
  EXPECT_EQ(events[0].kind, Kind::kBadChecksum)
      << "a wrong sum must be nacked so that GDB resends";
  EXPECT_EQ(events[0].payload, "OK")
      << "the payload stays available for no-ack mode";
  EXPECT_EQ(events[1].kind, Kind::kBadChecksum) << "non-hex digits never match";
}

TEST(RspDecoder, RecognisesAcksAndTheInterruptByteOutsideFrames) {
  const std::vector<RspEvent> events = Decode("+-\x03");
  ASSERT_EQ(events.size(), 3u) << "each control byte is an event";
  EXPECT_EQ(events[0].kind, Kind::kAck) << "'+' acks our last packet";
  EXPECT_EQ(events[1].kind, Kind::kNack) << "'-' asks for it again";
  EXPECT_EQ(events[2].kind, Kind::kInterrupt) << "0x03 is Ctrl-C";
}

TEST(RspDecoder, TakesControlBytesInsideAFrameAsData) {
  const std::string frame = EncodePacket(std::string("X0,3:+\x03-", 8));
  const std::vector<RspEvent> events = Decode(frame);
  ASSERT_EQ(events.size(), 1u) << "no ack or interrupt hides in binary data";
  EXPECT_EQ(events[0].payload, std::string("X0,3:+\x03-", 8))
      << "X data may hold 0x03, '+' and '-' unescaped";
}

TEST(RspDecoder, IgnoresJunkBetweenFrames) {
  const std::vector<RspEvent> events = Decode("\r\nhello\xff$g#67 ");
  ASSERT_EQ(events.size(), 1u) << "line noise yields nothing";
  EXPECT_EQ(events[0].payload, "g") << "the frame after the noise is intact";
}

TEST(RspDecoder, RestartsTheFrameAtADollar) {
  const std::vector<RspEvent> events = Decode("$m800$g#67");
  ASSERT_EQ(events.size(), 1u) << "the cut-off frame is dropped";
  EXPECT_EQ(events[0].kind, Kind::kPacket) << "the new frame is checked alone";
  EXPECT_EQ(events[0].payload, "g") << "only the new frame's payload";
}

TEST(RspDecoder, UnescapesEscapedBytes) {
  const std::vector<RspEvent> events =
      Decode(EncodePacket(std::string("X0,4:$#}*", 9)));
  ASSERT_EQ(events.size(), 1u) << "one frame";
  EXPECT_EQ(events[0].kind, Kind::kPacket) << "sum over escaped bytes";
  EXPECT_EQ(events[0].payload, std::string("X0,4:$#}*", 9))
      << "escapes come back as the original bytes";
}

TEST(RspDecoder, ExpandsRunLengthEncoding) {
  // "0* " is '0' and 3 more ('0' + ' ' - 29); the sum covers '*' and ' '.
  const std::string raw = "m0* 1*!";
  const std::string frame = "$" + raw + "#" + ToHex(Bytes{RspChecksum(raw)});
  const std::vector<RspEvent> events = Decode(frame);
  ASSERT_EQ(events.size(), 1u) << "one frame";
  EXPECT_EQ(events[0].kind, Kind::kPacket) << "sum over the encoded bytes";
  EXPECT_EQ(events[0].payload, "m000011111")
      << "a run repeats the previous byte count - 29 more times";
}

TEST(RspDecoder, RejectsMalformedRunsAndEscapes) {
  for (const std::string raw : {"* ", "a*\x01", "abc}"}) {
    const std::string frame = "$" + raw + "#" + ToHex(Bytes{RspChecksum(raw)});
    const std::vector<RspEvent> events = Decode(frame);
    ASSERT_EQ(events.size(), 1u) << "the frame still ends at '#': " << raw;
    EXPECT_EQ(events[0].kind, Kind::kMalformed)
        << "a run with nothing to repeat, a count below ' ' or a dangling "
           "escape cannot be decoded: "
        << raw;
  }
}

TEST(RspDecoder, RejectsOversizePacketsAndStaysInStep) {
  RspDecoder decoder(8);
  const std::vector<RspEvent> events =
      Decode(decoder, EncodePacket("123456789") + EncodePacket("12345678"));
  ASSERT_EQ(events.size(), 2u) << "the long frame is read to its end";
  EXPECT_EQ(events[0].kind, Kind::kMalformed)
      << "more than the announced PacketSize is refused";
  EXPECT_TRUE(events[0].payload.empty()) << "nothing of it is kept";
  EXPECT_EQ(events[1].kind, Kind::kPacket)
      << "the next frame decodes: the stream stayed in step";
  EXPECT_EQ(events[1].payload, "12345678") << "exactly the limit is fine";
}

TEST(RspDecoder, RejectsRunsThatExpandPastTheLimit) {
  RspDecoder decoder(8);
  const std::string raw = "a*~";  // 1 + 97 bytes
  const std::vector<RspEvent> events =
      Decode(decoder, "$" + raw + "#" + ToHex(Bytes{RspChecksum(raw)}));
  ASSERT_EQ(events.size(), 1u) << "one frame";
  EXPECT_EQ(events[0].kind, Kind::kMalformed)
      << "the limit applies to the expanded payload";
}

TEST(RspDecoder, FeedsOneByteAtATime) {
  RspDecoder decoder;
  const std::string frame = EncodePacket("vCont;c");
  for (size_t i = 0; i + 1 < frame.size(); ++i) {
    EXPECT_FALSE(decoder.Feed(static_cast<uint8_t>(frame[i])).has_value())
        << "no event before the last checksum digit, byte " << i;
  }
  const std::optional<RspEvent> event =
      decoder.Feed(static_cast<uint8_t>(frame.back()));
  ASSERT_TRUE(event.has_value()) << "the last byte completes the packet";
  EXPECT_EQ(event->payload, "vCont;c") << "the session can stop reading here";
}

TEST(RspHex, EncodesBytesInMemoryOrder) {
  EXPECT_EQ(ToHex(Bytes{0x00, 0xab, 0x7f}), "00ab7f")
      << "two lowercase digits per byte";
  EXPECT_EQ(ToHex(Bytes{}), "") << "nothing in, nothing out";
}

TEST(RspHex, ParsesBytes) {
  const Result<Bytes> bytes = ParseHexBytes("00aB7F");
  ASSERT_TRUE(bytes.ok()) << "either case";
  EXPECT_EQ(*bytes, (Bytes{0x00, 0xab, 0x7f})) << "memory order";
}

TEST(RspHex, RejectsMalformedByteHex) {
  EXPECT_FALSE(ParseHexBytes("abc").ok()) << "odd digit count";
  EXPECT_FALSE(ParseHexBytes("0g").ok()) << "non-hex digit";
  EXPECT_FALSE(ParseHexBytes(std::string("0\0", 2)).ok()) << "NUL byte";
}

TEST(RspHex, RegistersAreLittleEndian) {
  EXPECT_EQ(RegisterToHex(0x80000010), "10000080")
      << "GDB reads RISC-V registers least significant byte first";
  const Result<uint32_t> value = ParseRegisterHex("78563412");
  ASSERT_TRUE(value.ok()) << "8 digits";
  EXPECT_EQ(*value, 0x12345678u) << "the first byte is the lowest";
}

TEST(RspHex, RejectsMalformedRegisterHex) {
  EXPECT_FALSE(ParseRegisterHex("1234567").ok()) << "7 digits";
  EXPECT_FALSE(ParseRegisterHex("123456789").ok()) << "9 digits";
  EXPECT_FALSE(ParseRegisterHex("1234567x").ok()) << "non-hex digit";
  EXPECT_FALSE(ParseRegisterHex("").ok()) << "empty";
}

TEST(RspHex, ParsesNumbersMostSignificantFirst) {
  EXPECT_EQ(*ParseHexNumber("80000000"), 0x80000000u) << "an address";
  EXPECT_EQ(*ParseHexNumber("0000000000ffffffff"), 0xffffffffu)
      << "leading zeros do not count against 32 bits";
  EXPECT_EQ(*ParseHexNumber("A"), 10u) << "uppercase digit";
}

TEST(RspHex, RejectsMalformedNumbers) {
  EXPECT_FALSE(ParseHexNumber("").ok()) << "empty";
  EXPECT_FALSE(ParseHexNumber("100000000").ok()) << "above 32 bits";
  EXPECT_FALSE(ParseHexNumber("-1").ok()) << "sign";
  EXPECT_FALSE(ParseHexNumber("12 ").ok()) << "trailing space";
}

}  // namespace
}  // namespace lq::gdb
