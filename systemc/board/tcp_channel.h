// SPDX-License-Identifier: Apache-2.0
// The TCP socket GDB connects to (target remote localhost:PORT): a listener
// bound to the loopback interface only, and the accepted connection as the
// byte channel of an RSP session. Plain POSIX C++, no SystemC.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "models/gdb/rsp_channel.h"

namespace lq::board {

// One accepted connection. Reads are buffered, so the session's byte-wise
// reads cost a system call only when the buffer is empty; writes go out at
// once (TCP_NODELAY), since GDB waits for every reply.
class TcpConnection final : public gdb::RspChannel {
 public:
  // Takes ownership of a connected socket.
  explicit TcpConnection(int connected_socket);
  ~TcpConnection() override;

  TcpConnection(const TcpConnection&) = delete;
  TcpConnection& operator=(const TcpConnection&) = delete;

  int ReadByte() override;
  int PollByte() override;
  void Write(std::string_view bytes) override;

  // True once the peer closed the connection or it failed; bytes received
  // before that are still read first.
  bool closed() const { return closed_; }

 private:
  // Refills the empty buffer; false if nothing arrived (or never will).
  bool Fill(bool wait);

  int socket_;
  bool closed_ = false;
  std::array<uint8_t, 4096> buffer_{};
  size_t read_at_ = 0;
  size_t filled_ = 0;
};

class TcpListener {
 public:
  // Listens on 127.0.0.1:port; port 0 lets the system pick a free one (see
  // port()). Throws std::runtime_error naming the port if it cannot, for
  // instance because another program already listens there.
  explicit TcpListener(uint16_t port);
  ~TcpListener();

  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  // The port actually bound.
  uint16_t port() const { return port_; }

  // Waits for GDB to connect. Throws std::runtime_error on a socket error.
  std::unique_ptr<TcpConnection> Accept();
  // A connection if one is already waiting, else nullptr; never waits.
  std::unique_ptr<TcpConnection> TryAccept();

 private:
  std::unique_ptr<TcpConnection> AcceptWithin(int timeout_ms);

  int socket_ = -1;
  uint16_t port_ = 0;
};

}  // namespace lq::board
