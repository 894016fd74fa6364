// SPDX-License-Identifier: Apache-2.0
//
// The thread pool and the progress line of htmsim's commands: see parallel.h.
#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

namespace htm::sim {

int DefaultJobs() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string CheckJobs(int jobs) {
  if (jobs >= 1 && jobs <= kMaxJobs) {
    return "";
  }
  return "--jobs must be in 1.." + std::to_string(kMaxJobs) + ", got " + std::to_string(jobs);
}

void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& work,
                 const std::function<void(size_t, size_t)>& done) {
  std::atomic<size_t> next{0};
  std::mutex mu;
  size_t finished = 0;
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) {
      work(i);
      std::lock_guard<std::mutex> lock(mu);
      ++finished;
      if (done) {
        done(i, finished);
      }
    }
  };
  const size_t threads = std::min(n, static_cast<size_t>(std::max(1, jobs)));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) {
    pool.emplace_back(worker);
  }
  worker();  // the calling thread is one of them
  for (std::thread& t : pool) {
    t.join();
  }
}

Progress::Progress() : Progress(isatty(STDERR_FILENO) != 0) {}

Progress::Progress(bool enabled) : enabled_(enabled) {}

Progress::Progress(Terminal, Otherwise otherwise) : Progress() {
  tenths_ = !enabled_ && otherwise == kTenths;
}

Progress::~Progress() {
  Clear();
}

void Progress::Show(const std::string& line) {
  if (!enabled_) {
    return;
  }
  // Spaces over what is left of a longer previous line.
  const std::string pad(shown_ > line.size() ? shown_ - line.size() : 0, ' ');
  std::fprintf(stderr, "\r%s%s", line.c_str(), pad.c_str());
  std::fflush(stderr);
  shown_ = line.size();
}

void Progress::Count(const std::string& what, size_t done, size_t total) {
  const std::string line = what + " " + std::to_string(done) + " / " + std::to_string(total);
  if (enabled_) {
    Show(line);
  } else if (tenths_ && done > 0 && done <= total && done * 10 / total != (done - 1) * 10 / total) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }
}

void Progress::Clear() {
  if (!enabled_ || shown_ == 0) {
    return;
  }
  std::fprintf(stderr, "\r%s\r", std::string(shown_, ' ').c_str());
  std::fflush(stderr);
  shown_ = 0;
}

}  // namespace htm::sim
