// SPDX-License-Identifier: Apache-2.0
// RankWorld: the ranks of a parallel run (decision 0050). Started by
// mpirun in a build with MPI (CMake option LQ_MPI), this process is one of
// the job's ranks; otherwise it is the only rank of a world of one, and
// every operation below is the identity. Only rank_world.cpp includes MPI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/bytes.h"

namespace lq::parallel {

class RankWorld {
 public:
  // Joins the job's world if mpirun started this process (its launcher's
  // environment says so), else makes a world of one. Call once, before
  // anything else reads the world; later calls return the same world.
  // Every rank but 0 then writes nothing to stdout or stderr, so that a
  // report or an error is printed once (Complain still reaches stderr).
  static RankWorld& Init(int* argc, char*** argv);
  // The world Init made (a world of one if it was never called).
  static RankWorld& Get();

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  bool parallel() const { return size_ > 1; }
  bool root() const { return rank_ == 0; }

  // The greatest of every rank's `value`, on every rank.
  uint64_t Max(uint64_t value) const;
  // Every rank sends `to[r]` to rank r (to.size() == size()), and
  // `least`, as long on every rank, becomes the least of every rank's,
  // element by element; returns what each rank sent here, by sender. One
  // all-to-all of the sizes and figures, and a second of the bytes only
  // if any rank sends some.
  std::vector<Bytes> Exchange(const std::vector<Bytes>& to,
                              std::vector<uint64_t>& least) const;
  // Rank 0 gets every rank's `mine`, by rank; the others get nothing.
  std::vector<Bytes> Gather(const Bytes& mine) const;

  // Leaves the world once every rank has come here; the process may then
  // exit with any status. A relayed child tells its parent it is done.
  void Finish();

  // A run's phases are child processes (decision 0020), and a child that
  // fork made cannot use MPI itself. RelayTo(fd), in such a child, sends
  // every operation above over `fd` to its parent, which answers each
  // with the world's (Serve): the children of every rank then form the
  // world their parents do. Solo(), in rank 0's child, makes a world of
  // one for a phase that runs in one process.
  void RelayTo(int fd);
  void Solo();
  // In the parent: answers the operations its child sends over `fd`
  // until the child finishes (true) or the descriptor closes first
  // (false: the child died).
  bool Serve(int fd) const;
  // Ends every rank of the job now with `status` (a rank that failed);
  // a world of one just exits.
  [[noreturn]] void Abort(int status) const;
  // Writes "lqemu: rank R: `text`" (in a world of one, "lqemu: `text`")
  // to the process's stderr, whichever rank this is.
  void Complain(const std::string& text) const;

 private:
  RankWorld() = default;
  unsigned rank_ = 0;
  unsigned size_ = 1;
  bool joined_ = false;  // MPI_Init was called and MPI_Finalize not yet
  int relay_fd_ = -1;    // a relayed child's line to its parent
  int stderr_fd_ = 2;    // the process's stderr, kept when silenced
};

}  // namespace lq::parallel
