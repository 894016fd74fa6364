// SPDX-License-Identifier: Apache-2.0
//
// What htmsim's commands share to run many independent runs at once and to show how far they
// are: the default of --jobs, a pool of threads over the indices of a list of runs, and a
// one-line progress indication on stderr (shown only when stderr is a terminal, so that logs and
// pipes get the results alone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace htm::sim {

/// The largest --jobs the commands accept.
inline constexpr int kMaxJobs = 256;
/// --jobs by default: the machine's hardware threads, at least 1.
int DefaultJobs();
/// "" when `jobs` is in 1..kMaxJobs, else the message (bad usage).
std::string CheckJobs(int jobs);

/// Runs `work(i)` for every i in [0, n) on min(jobs, n) threads (at least one), each thread
/// taking the next index. After each item, `done(i, finished)` is called with the number of
/// items finished so far, one call at a time (under a lock): the place to print the item's
/// result and the progress. Returns when every item is done.
void ParallelFor(size_t n, int jobs, const std::function<void(size_t i)>& work,
                 const std::function<void(size_t i, size_t finished)>& done = nullptr);

/// A progress line on stderr: Show replaces it, Clear removes it (call it before printing a line
/// of output, so that the two do not mix), the destructor removes it too. It shows nothing when
/// disabled, by default when stderr is not a terminal. Count shows "<what> <done> / <total>" the
/// same way; without a terminal, a Progress made with kTenths prints it as a line of its own at
/// every tenth of the total instead (so that a log shows the runs going on). Not thread-safe: use
/// it from one thread at a time (ParallelFor's `done` is).
class Progress {
 public:
  enum Terminal : uint8_t { kTerminal };  // shown in place when stderr is a terminal
  enum Otherwise : uint8_t { kNothing, kTenths };

  Progress();
  explicit Progress(bool enabled);
  Progress(Terminal, Otherwise otherwise);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  void Show(const std::string& line);
  void Clear();
  void Count(const std::string& what, size_t done, size_t total);

 private:
  bool enabled_;
  bool tenths_ = false;  // Count prints lines at every tenth (no terminal, kTenths)
  size_t shown_ = 0;     // characters of the line now on the terminal
};

}  // namespace htm::sim
