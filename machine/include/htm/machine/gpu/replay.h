// SPDX-License-Identifier: Apache-2.0
//
// The serial replay of a serialization order: the memory and the latest writer of every word, as
// the events are applied one after the other. The run's own serializer (which checks the order
// while the machine produces it) and the commit log's independent checker (htm/machine/gpu/
// commit_log.h, which reads it back from the file) both replay through this class, so they check
// reads the same way and word their findings the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace htm::gpu {

class Replay {
 public:
  explicit Replay(std::vector<uint32_t> initial)
      : mem_(std::move(initial)), writer_(mem_.size(), -1) {}

  /// What is wrong with a read, if anything: the value differs from the replayed memory, or
  /// the writer it names is not the latest writer of the word.
  struct ReadFault {
    bool wrong_writer = false;  // else the value is wrong
    uint32_t addr = 0, value = 0, replayed = 0;
    int64_t named = -1, latest = -1;  // event ids, -1: the initial memory
  };
  /// Checks a read of word `addr` that returned `value` and, when `named` is given, names the
  /// event whose write it saw (-1: the initial memory). `writer_first`: report a wrong writer
  /// before a wrong value (the serializer's order) instead of after.
  std::optional<ReadFault> CheckRead(uint32_t addr, uint32_t value, std::optional<int64_t> named,
                                     bool writer_first = false) const {
    const bool bad_value = mem_[addr] != value;
    const bool bad_writer = named && *named != writer_[addr];
    if (!bad_value && !bad_writer) {
      return std::nullopt;
    }
    ReadFault f{bad_writer && (writer_first || !bad_value),
                addr,
                value,
                mem_[addr],
                named.value_or(writer_[addr]),
                writer_[addr]};
    return f;
  }
  /// Event `id` writes `value` to word `addr`.
  void Write(uint32_t addr, uint32_t value, int64_t id) {
    mem_[addr] = value;
    writer_[addr] = id;
  }
  uint32_t value(uint32_t addr) const { return mem_[addr]; }
  int64_t writer(uint32_t addr) const { return writer_[addr]; }
  size_t words() const { return mem_.size(); }
  const std::vector<uint32_t>& memory() const { return mem_; }
  /// The first word at which `final_mem` differs from the replayed memory, or -1.
  int64_t FirstDifference(const std::vector<uint32_t>& final_mem) const {
    for (size_t a = 0; a < final_mem.size() && a < mem_.size(); ++a) {
      if (final_mem[a] != mem_[a]) {
        return static_cast<int64_t>(a);
      }
    }
    return final_mem.size() == mem_.size() ? -1 : static_cast<int64_t>(mem_.size());
  }

  /// The finding in words: `reader` names the reading event, `who(id)` an event (-1: the initial
  /// memory).
  static std::string Describe(const ReadFault& f, const std::string& reader,
                              const std::function<std::string(int64_t)>& who) {
    if (f.wrong_writer) {
      return reader + " read word " + std::to_string(f.addr) + " from " + who(f.named) +
             ", but in the serial order its latest writer is " + who(f.latest);
    }
    return reader + " read word " + std::to_string(f.addr) + " = " + std::to_string(f.value) +
           ", but in the serial order it holds " + std::to_string(f.replayed) + " (written by " +
           who(f.latest) + ")";
  }

 private:
  std::vector<uint32_t> mem_;
  std::vector<int64_t> writer_;
};

}  // namespace htm::gpu
