// SPDX-License-Identifier: Apache-2.0
// RankWorld: MPI underneath when built with it.
#include "systemc/parallel/rank_world.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "systemc/parallel/wire.h"

#ifdef LQ_HAVE_MPI
#include <mpi.h>
#endif

namespace lq::parallel {
namespace {

RankWorld* world = nullptr;

#ifdef LQ_HAVE_MPI
// mpirun (Open MPI's, or a PMI launcher's) tells its processes their
// world size in the environment; a process started by hand has none.
bool StartedByLauncher() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr ||
         std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

// A rank that dies of a signal says which it is and leaves with status 1;
// mpirun then ends the others (decision 0050).
int crash_fd = STDERR_FILENO;
char crash_line[64];
size_t crash_length = 0;

void OnFatalSignal(int signal) {
  char line[96];
  size_t length = crash_length;
  std::memcpy(line, crash_line, length);
  char digits[12];
  size_t count = 0;
  for (int value = signal; value > 0 && count < sizeof digits; value /= 10) {
    digits[count++] = static_cast<char>('0' + value % 10);
  }
  while (count > 0) {
    line[length++] = digits[--count];
  }
  line[length++] = '\n';
  if (write(crash_fd, line, length) < 0) {
    _exit(1);
  }
  _exit(1);
}

void CatchFatalSignals(unsigned rank, int fd) {
  crash_fd = fd;
  crash_length = static_cast<size_t>(std::snprintf(
      crash_line, sizeof crash_line, "lqemu: rank %u: died of signal ", rank));
  struct sigaction action {};
  action.sa_handler = OnFatalSignal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    sigaction(signal, &action, nullptr);
  }
}

int Count(size_t bytes) {
  if (bytes > static_cast<size_t>(std::numeric_limits<int>::max())) {
    std::fprintf(stderr, "lqemu: a message between ranks exceeds 2 GiB\n");
    std::abort();
  }
  return static_cast<int>(bytes);
}
#endif

// A relayed child's operations (RelayTo, Serve): one byte, then the
// operation's arguments as one blob; the parent answers with one blob.
enum class RelayOp : uint8_t { kMax = 1, kExchange, kGather, kFinish };

void WriteAll(int fd, const void* data, size_t size) {
  const auto* at = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const ssize_t written = write(fd, at, size);
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      std::_Exit(1);  // the other end is gone: the job ends
    }
    at += written;
    size -= static_cast<size_t>(written);
  }
}

// False if the line closed before `size` bytes came.
bool ReadAll(int fd, void* data, size_t size) {
  auto* at = static_cast<uint8_t*>(data);
  while (size > 0) {
    const ssize_t got = read(fd, at, size);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return false;
    }
    at += got;
    size -= static_cast<size_t>(got);
  }
  return true;
}

void SendBlob(int fd, const Bytes& blob) {
  const uint64_t size = blob.size();
  WriteAll(fd, &size, sizeof size);
  WriteAll(fd, blob.data(), blob.size());
}

bool ReceiveBlob(int fd, Bytes& blob) {
  uint64_t size = 0;
  if (!ReadAll(fd, &size, sizeof size)) {
    return false;
  }
  blob.resize(size);
  return ReadAll(fd, blob.data(), size);
}

// The child's side of one operation: its answer.
Bytes Call(int fd, RelayOp op, const Bytes& arguments) {
  const auto code = static_cast<uint8_t>(op);
  WriteAll(fd, &code, 1);
  SendBlob(fd, arguments);
  Bytes answer;
  if (!ReceiveBlob(fd, answer)) {
    std::_Exit(1);  // the parent is gone
  }
  return answer;
}

void PutBlobs(WireWriter& out, const std::vector<Bytes>& blobs) {
  out.U32(static_cast<uint32_t>(blobs.size()));
  for (const Bytes& blob : blobs) {
    out.Blob(blob);
  }
}

std::vector<Bytes> TakeBlobs(WireReader& in) {
  std::vector<Bytes> blobs(in.U32());
  for (Bytes& blob : blobs) {
    const ByteView view = in.Blob();
    blob.assign(view.begin(), view.end());
  }
  return blobs;
}

void PutNumbers(WireWriter& out, const std::vector<uint64_t>& numbers) {
  out.U32(static_cast<uint32_t>(numbers.size()));
  for (const uint64_t number : numbers) {
    out.U64(number);
  }
}

std::vector<uint64_t> TakeNumbers(WireReader& in) {
  std::vector<uint64_t> numbers(in.U32());
  for (uint64_t& number : numbers) {
    number = in.U64();
  }
  return numbers;
}

}  // namespace

RankWorld& RankWorld::Init(int* argc, char*** argv) {
  if (world != nullptr) {
    return *world;
  }
  world = new RankWorld();
#ifdef LQ_HAVE_MPI
  if (StartedByLauncher()) {
    MPI_Init(argc, argv);
    // A failure on one rank ends the job (Abort) rather than leaving the
    // others waiting in a collective.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    world->rank_ = static_cast<unsigned>(rank);
    world->size_ = static_cast<unsigned>(size);
    world->joined_ = true;
    if (rank != 0) {
      world->stderr_fd_ = dup(STDERR_FILENO);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      close(null);
    }
    CatchFatalSignals(world->rank_, world->stderr_fd_);
  }
#else
  (void)argc;
  (void)argv;
#endif
  return *world;
}

RankWorld& RankWorld::Get() {
  return world != nullptr ? *world : Init(nullptr, nullptr);
}

uint64_t RankWorld::Max(uint64_t value) const {
  if (relay_fd_ >= 0) {
    Bytes arguments;
    WireWriter(arguments).U64(value);
    const Bytes answer = Call(relay_fd_, RelayOp::kMax, arguments);
    return WireReader(answer).U64();
  }
#ifdef LQ_HAVE_MPI
  if (joined_) {
    uint64_t greatest = value;
    MPI_Allreduce(&value, &greatest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return greatest;
  }
#endif
  return value;
}

std::vector<Bytes> RankWorld::Exchange(const std::vector<Bytes>& to,
                                       std::vector<uint64_t>& least) const {
  if (relay_fd_ >= 0) {
    Bytes arguments;
    WireWriter out(arguments);
    PutBlobs(out, to);
    PutNumbers(out, least);
    const Bytes answer = Call(relay_fd_, RelayOp::kExchange, arguments);
    WireReader in(answer);
    std::vector<Bytes> from = TakeBlobs(in);
    least = TakeNumbers(in);
    return from;
  }
#ifdef LQ_HAVE_MPI
  if (joined_) {
    // To each rank: the size of its bytes, whether this rank sends any
    // bytes at all (0) or none (1), and `least`.
    const size_t fields = 2 + least.size();
    bool sends = false;
    for (const Bytes& bytes : to) {
      sends = sends || !bytes.empty();
    }
    std::vector<uint64_t> headers(size_ * fields), received(size_ * fields);
    for (unsigned r = 0; r < size_; ++r) {
      uint64_t* header = &headers[r * fields];
      header[0] = to[r].size();
      header[1] = sends ? 0 : 1;
      std::copy(least.begin(), least.end(), header + 2);
    }
    MPI_Alltoall(headers.data(), Count(fields), MPI_UINT64_T, received.data(),
                 Count(fields), MPI_UINT64_T, MPI_COMM_WORLD);
    bool anyone_sends = false;
    for (unsigned r = 0; r < size_; ++r) {
      const uint64_t* header = &received[r * fields];
      anyone_sends = anyone_sends || header[1] == 0;
      for (size_t i = 0; i < least.size(); ++i) {
        least[i] = std::min(least[i], header[2 + i]);
      }
    }
    std::vector<Bytes> from(size_);
    if (!anyone_sends) {
      return from;
    }
    std::vector<int> send_counts(size_), send_offsets(size_);
    std::vector<int> receive_counts(size_), receive_offsets(size_);
    Bytes sending;
    size_t total = 0;
    for (unsigned r = 0; r < size_; ++r) {
      send_offsets[r] = Count(sending.size());
      send_counts[r] = Count(to[r].size());
      sending.insert(sending.end(), to[r].begin(), to[r].end());
      receive_offsets[r] = Count(total);
      receive_counts[r] = Count(received[r * fields]);
      total += received[r * fields];
    }
    Bytes receiving(total);
    MPI_Alltoallv(sending.data(), send_counts.data(), send_offsets.data(),
                  MPI_BYTE, receiving.data(), receive_counts.data(),
                  receive_offsets.data(), MPI_BYTE, MPI_COMM_WORLD);
    for (unsigned r = 0; r < size_; ++r) {
      const auto first = receiving.begin() + receive_offsets[r];
      from[r].assign(first, first + receive_counts[r]);
    }
    return from;
  }
#endif
  return to;
}

std::vector<Bytes> RankWorld::Gather(const Bytes& mine) const {
  if (relay_fd_ >= 0) {
    const Bytes answer = Call(relay_fd_, RelayOp::kGather, mine);
    WireReader in(answer);
    return TakeBlobs(in);
  }
#ifdef LQ_HAVE_MPI
  if (joined_) {
    const int count = Count(mine.size());
    std::vector<int> counts(root() ? size_ : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0,
               MPI_COMM_WORLD);
    std::vector<int> offsets(counts.size());
    size_t total = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      offsets[r] = Count(total);
      total += static_cast<size_t>(counts[r]);
    }
    Bytes all(total);
    MPI_Gatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(),
                offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    std::vector<Bytes> by_rank(counts.size());
    for (size_t r = 0; r < counts.size(); ++r) {
      const auto first = all.begin() + offsets[r];
      by_rank[r].assign(first, first + counts[r]);
    }
    return by_rank;
  }
#endif
  return {mine};
}

void RankWorld::Finish() {
  if (relay_fd_ >= 0) {
    const auto code = static_cast<uint8_t>(RelayOp::kFinish);
    WriteAll(relay_fd_, &code, 1);
    close(relay_fd_);
    relay_fd_ = -1;
    return;
  }
#ifdef LQ_HAVE_MPI
  if (joined_) {
    MPI_Finalize();
    joined_ = false;
  }
#endif
}

void RankWorld::RelayTo(int fd) {
  relay_fd_ = fd;
  joined_ = false;  // the parent's, not this process's
}

void RankWorld::Solo() {
  relay_fd_ = -1;
  joined_ = false;
  rank_ = 0;
  size_ = 1;
}

bool RankWorld::Serve(int fd) const {
  for (;;) {
    uint8_t code = 0;
    if (!ReadAll(fd, &code, 1)) {
      return false;
    }
    if (static_cast<RelayOp>(code) == RelayOp::kFinish) {
      return true;
    }
    Bytes arguments;
    if (!ReceiveBlob(fd, arguments)) {
      return false;
    }
    WireReader in(arguments);
    Bytes answer;
    WireWriter out(answer);
    switch (static_cast<RelayOp>(code)) {
      case RelayOp::kMax:
        out.U64(Max(in.U64()));
        break;
      case RelayOp::kExchange: {
        const std::vector<Bytes> to = TakeBlobs(in);
        std::vector<uint64_t> least = TakeNumbers(in);
        PutBlobs(out, Exchange(to, least));
        PutNumbers(out, least);
        break;
      }
      case RelayOp::kGather:
        PutBlobs(out, Gather(arguments));
        break;
      default:
        return false;
    }
    SendBlob(fd, answer);
  }
}

void RankWorld::Complain(const std::string& text) const {
  const std::string line =
      "lqemu: " +
      (parallel() ? "rank " + std::to_string(rank_) + ": " : std::string()) +
      text + "\n";
  std::fflush(stderr);
  if (write(stderr_fd_, line.data(), line.size()) < 0) {
    std::perror("lqemu");
  }
}

void RankWorld::Abort(int status) const {
  std::fflush(nullptr);
#ifdef LQ_HAVE_MPI
  if (joined_) {
    MPI_Abort(MPI_COMM_WORLD, status);
  }
#endif
  std::_Exit(status);
}

}  // namespace lq::parallel
