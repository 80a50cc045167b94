// SPDX-License-Identifier: Apache-2.0
// POSIX sockets behind TcpListener and TcpConnection.
#include "systemc/board/tcp_channel.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lq::board {
namespace {

constexpr int kWaitForever = -1;
constexpr int kDoNotWait = 0;
constexpr int kListenBacklog = 1;  // one debugger at a time

std::string ListenError(uint16_t port, const char* step, int error) {
  return "cannot listen for GDB on 127.0.0.1:" + std::to_string(port) + ": " +
         step + ": " + std::strerror(error);
}

}  // namespace

TcpConnection::TcpConnection(int connected_socket) : socket_(connected_socket) {
  // Every RSP reply is a small write GDB waits for; Nagle's delay would
  // stall each round trip.
  const int on = 1;
  setsockopt(socket_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}

TcpConnection::~TcpConnection() { close(socket_); }

int TcpConnection::ReadByte() {
  if (read_at_ == filled_ && !Fill(true)) {
    return kNoByte;
  }
  return buffer_[read_at_++];
}

int TcpConnection::PollByte() {
  if (read_at_ == filled_ && !Fill(false)) {
    return kNoByte;
  }
  return buffer_[read_at_++];
}

bool TcpConnection::Fill(bool wait) {
  if (closed_) {
    return false;
  }
  while (true) {
    const ssize_t received =
        recv(socket_, buffer_.data(), buffer_.size(), wait ? 0 : MSG_DONTWAIT);
    if (received > 0) {
      read_at_ = 0;
      filled_ = static_cast<size_t>(received);
      return true;
    }
    if (received < 0 && errno == EINTR) {
      continue;
    }
    if (received < 0 && !wait && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return false;
    }
    // 0: the peer closed; any other error ends the connection as well.
    closed_ = true;
    return false;
  }
}

void TcpConnection::Write(std::string_view bytes) {
  while (!bytes.empty() && !closed_) {
    // MSG_NOSIGNAL: a peer that went away must not kill the simulator with
    // SIGPIPE.
    const ssize_t sent =
        send(socket_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) {
      continue;
    }
    if (sent <= 0) {
      closed_ = true;
      return;
    }
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
}

TcpListener::TcpListener(uint16_t port) {
  socket_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (socket_ < 0) {
    throw std::runtime_error(ListenError(port, "socket", errno));
  }
  // Lets a restarted simulator take the port over from its predecessor's
  // closed connections (TIME_WAIT); a live listener still blocks the bind.
  const int on = 1;
  setsockopt(socket_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));

  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  // Loopback only: the stub lets whoever connects read and write memory.
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(socket_, reinterpret_cast<const sockaddr*>(&address),
           sizeof(address)) != 0) {
    const int error = errno;
    close(socket_);
    throw std::runtime_error(ListenError(port, "bind", error));
  }
  if (listen(socket_, kListenBacklog) != 0) {
    const int error = errno;
    close(socket_);
    throw std::runtime_error(ListenError(port, "listen", error));
  }
  socklen_t length = sizeof(address);
  if (getsockname(socket_, reinterpret_cast<sockaddr*>(&address), &length) !=
      0) {
    const int error = errno;
    close(socket_);
    throw std::runtime_error(ListenError(port, "getsockname", error));
  }
  port_ = ntohs(address.sin_port);
}

TcpListener::~TcpListener() { close(socket_); }

std::unique_ptr<TcpConnection> TcpListener::Accept() {
  return AcceptWithin(kWaitForever);
}

std::unique_ptr<TcpConnection> TcpListener::TryAccept() {
  return AcceptWithin(kDoNotWait);
}

std::unique_ptr<TcpConnection> TcpListener::AcceptWithin(int timeout_ms) {
  while (true) {
    pollfd waiting{socket_, POLLIN, 0};
    const int ready = poll(&waiting, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready < 0) {
      throw std::runtime_error(
          "GDB listener on 127.0.0.1:" + std::to_string(port_) +
          ": poll: " + std::strerror(errno));
    }
    if (ready == 0) {
      return nullptr;
    }
    const int connection = accept4(socket_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection >= 0) {
      return std::make_unique<TcpConnection>(connection);
    }
    // The client may have given up between poll and accept: then there is
    // nobody waiting after all.
    if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN) {
      if (timeout_ms == kDoNotWait) {
        return nullptr;
      }
      continue;
    }
    throw std::runtime_error(
        "GDB listener on 127.0.0.1:" + std::to_string(port_) +
        ": accept: " + std::strerror(errno));
  }
}

}  // namespace lq::board
