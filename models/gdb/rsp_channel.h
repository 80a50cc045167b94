// SPDX-License-Identifier: Apache-2.0
// The byte stream between an RSP session and GDB, so that the session runs
// the same over a TCP socket (systemc/board/tcp_channel.h) and over the
// in-memory channels of the tests.
#pragma once

#include <string_view>

namespace lq::gdb {

class RspChannel {
 public:
  // What ReadByte and PollByte return instead of a byte.
  static constexpr int kNoByte = -1;

  virtual ~RspChannel() = default;

  // The next byte GDB sent (0..255), waiting for it if need be; kNoByte once
  // the connection is closed, and from then on.
  virtual int ReadByte() = 0;
  // The next byte if one has already arrived, else kNoByte (also once the
  // connection is closed). Never waits: the running CPU calls it.
  virtual int PollByte() = 0;
  // Sends bytes to GDB; dropped silently once the connection is closed (the
  // next ReadByte tells the session).
  virtual void Write(std::string_view bytes) = 0;
};

}  // namespace lq::gdb
