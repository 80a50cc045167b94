// SPDX-License-Identifier: Apache-2.0
// Tests of the TCP listener and connection GDB talks to, over real loopback
// sockets on ephemeral ports.
#include "systemc/board/tcp_channel.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace lq::board {
namespace {

// A client socket connected to 127.0.0.1:port, closed when it goes out of
// scope (or earlier, by Close).
class Client {
 public:
  explicit Client(uint16_t port) : socket_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(socket_, reinterpret_cast<sockaddr*>(&address),
                         sizeof(address)) == 0;
  }
  ~Client() { Close(); }

  bool connected() const { return connected_; }
  void Send(const std::string& bytes) {
    ASSERT_EQ(send(socket_, bytes.data(), bytes.size(), 0),
              static_cast<ssize_t>(bytes.size()))
        << "the test client could not send";
  }
  std::string Receive(size_t count) {
    std::string bytes(count, '\0');
    size_t got = 0;
    while (got < count) {
      const ssize_t n = recv(socket_, &bytes[got], count - got, 0);
      if (n <= 0) {
        break;
      }
      got += static_cast<size_t>(n);
    }
    bytes.resize(got);
    return bytes;
  }
  void Close() {
    if (socket_ >= 0) {
      close(socket_);
      socket_ = -1;
    }
  }

 private:
  int socket_;
  bool connected_ = false;
};

// TryAccept until the connection the client started is there (the kernel
// completes the handshake asynchronously).
std::unique_ptr<TcpConnection> TryAcceptFor(TcpListener& listener,
                                            std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::unique_ptr<TcpConnection> connection = listener.TryAccept()) {
      return connection;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return nullptr;
}

TEST(TcpListener, BindsAnEphemeralPortAndReportsIt) {
  TcpListener listener(0);
  EXPECT_NE(listener.port(), 0) << "port 0 asks the system for a free port";
  EXPECT_EQ(listener.TryAccept(), nullptr)
      << "nobody connected: TryAccept returns at once, empty-handed";
}

TEST(TcpListener, RejectsAPortInUse) {
  TcpListener first(0);
  try {
    TcpListener second(first.port());
    FAIL() << "two listeners on one port must not both succeed";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(first.port())),
              std::string::npos)
        << "the message names the port, so the user can pick another: "
        << error.what();
  }
}

TEST(TcpConnection, ExchangesBytesBothWays) {
  TcpListener listener(0);
  Client client(listener.port());
  ASSERT_TRUE(client.connected()) << "loopback connect";
  std::unique_ptr<TcpConnection> connection = listener.Accept();
  ASSERT_NE(connection, nullptr) << "Accept returns the waiting client";

  EXPECT_EQ(connection->PollByte(), gdb::RspChannel::kNoByte)
      << "nothing sent yet: poll does not wait";
  EXPECT_FALSE(connection->closed()) << "an idle connection is still open";
  client.Send("$g#67\x03");
  EXPECT_EQ(connection->ReadByte(), '$') << "blocking read gets the first byte";
  std::string rest;
  for (int i = 0; i < 5; ++i) {
    rest.push_back(static_cast<char>(connection->ReadByte()));
  }
  EXPECT_EQ(rest, "g#67\x03") << "bytes arrive in order, 0x03 included";

  connection->Write("+$OK#9a");
  EXPECT_EQ(client.Receive(7), "+$OK#9a") << "writes reach the client";
}

TEST(TcpConnection, PollSeesBytesThatArrived) {
  TcpListener listener(0);
  Client client(listener.port());
  std::unique_ptr<TcpConnection> connection =
      TryAcceptFor(listener, std::chrono::seconds(10));
  ASSERT_NE(connection, nullptr) << "TryAccept finds the pending client";
  client.Send("\x03");
  int byte = gdb::RspChannel::kNoByte;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (byte == gdb::RspChannel::kNoByte &&
         std::chrono::steady_clock::now() < deadline) {
    byte = connection->PollByte();
  }
  EXPECT_EQ(byte, 0x03) << "the running CPU sees Ctrl-C by polling";
}

TEST(TcpConnection, DetectsThePeerClosing) {
  TcpListener listener(0);
  Client client(listener.port());
  std::unique_ptr<TcpConnection> connection = listener.Accept();
  client.Send("+");
  client.Close();
  EXPECT_EQ(connection->ReadByte(), '+')
      << "bytes sent before the close are still delivered";
  EXPECT_EQ(connection->ReadByte(), gdb::RspChannel::kNoByte)
      << "then the read reports the closed connection instead of blocking";
  EXPECT_TRUE(connection->closed()) << "and the connection knows it";
  EXPECT_EQ(connection->PollByte(), gdb::RspChannel::kNoByte)
      << "poll after close";
  EXPECT_EQ(connection->ReadByte(), gdb::RspChannel::kNoByte)
      << "closed stays closed";
}

TEST(TcpConnection, WritingToAClosedPeerDoesNotKillTheProcess) {
  TcpListener listener(0);
  Client client(listener.port());
  std::unique_ptr<TcpConnection> connection = listener.Accept();
  client.Close();
  const std::string reply(64 * 1024, 'x');
  for (int i = 0; i < 100 && !connection->closed(); ++i) {
    connection->Write(reply);
  }
  EXPECT_TRUE(connection->closed())
      << "the failed write marks the connection closed (no SIGPIPE)";
}

TEST(TcpListener, AcceptsAgainAfterAConnectionEnds) {
  TcpListener listener(0);
  for (int round = 0; round < 2; ++round) {
    Client client(listener.port());
    std::unique_ptr<TcpConnection> connection = listener.Accept();
    client.Send("x");
    EXPECT_EQ(connection->ReadByte(), 'x')
        << "GDB may reconnect after detaching, round " << round;
  }
}

}  // namespace
}  // namespace lq::board
