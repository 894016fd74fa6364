// SPDX-License-Identifier: Apache-2.0
//
// Pieces every workload and executor shares, on the LDS and on global memory: the random source
// (one generator for every random choice, so that a seed fixes a run) and the problem list that a
// workload's Check() fills.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace htm::gpu {

/// splitmix64.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n); n in 1..2^32.
  uint32_t Below(uint64_t n) { return static_cast<uint32_t>(((Next() >> 32) * n) >> 32); }
  /// Uniform in [lo, hi].
  uint32_t Range(uint32_t lo, uint32_t hi) { return lo + Below(uint64_t{hi} - lo + 1); }
  /// True with probability p.
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }
  template <class T>
  void Shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) {
      std::swap(v[i - 1], v[Below(i)]);
    }
  }
  /// `n` distinct values of [0, range) in random order (n <= range).
  std::vector<uint32_t> Distinct(uint32_t n, uint32_t range) {
    if (n > range) {
      throw std::invalid_argument("Rng::Distinct: more values than the range holds");
    }
    std::vector<uint32_t> out;
    out.reserve(n);
    if (uint64_t{n} * 4 >= range) {  // dense: a partial shuffle of the whole range
      std::vector<uint32_t> all(range);
      for (uint32_t i = 0; i < range; ++i) {
        all[i] = i;
      }
      for (uint32_t i = 0; i < n; ++i) {
        std::swap(all[i], all[i + Below(range - i)]);
        out.push_back(all[i]);
      }
      return out;
    }
    std::unordered_set<uint32_t> seen;
    while (out.size() < n) {
      const uint32_t v = Below(range);
      if (seen.insert(v).second) {
        out.push_back(v);
      }
    }
    return out;
  }

 private:
  uint64_t state_;
};

/// What Check() finds wrong: a count and the first few messages.
class Problems {
 public:
  template <class... A>
  void Add(const A&... parts) {
    if (++count_ <= kMaxMessages) {
      std::ostringstream os;
      (os << ... << parts);
      messages_.push_back(os.str());
    }
  }
  bool empty() const { return count_ == 0; }
  int count() const { return count_; }
  /// "" when empty; else "<n> problem(s): <first>; <second>; ...".
  std::string str() const {
    if (count_ == 0) {
      return "";
    }
    std::ostringstream os;
    os << count_ << (count_ == 1 ? " problem: " : " problems: ");
    for (size_t i = 0; i < messages_.size(); ++i) {
      os << (i ? "; " : "") << messages_[i];
    }
    if (count_ > kMaxMessages) {
      os << "; ...";
    }
    return os.str();
  }

 private:
  static constexpr int kMaxMessages = 6;
  int count_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace htm::gpu
