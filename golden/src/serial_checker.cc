// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/serial_checker.h"

#include <set>
#include <sstream>

namespace htm::golden {

namespace {
std::string Hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}
}  // namespace

void SerialChecker::SetInitial(uint64_t addr, uint64_t value) {
  mem_[addr] = value;
}

uint64_t SerialChecker::Read(uint64_t addr) const {
  auto it = mem_.find(addr);
  return it == mem_.end() ? 0 : it->second;
}

bool SerialChecker::Fail(std::string msg) {
  if (error_.empty())
    error_ = std::move(msg);
  return false;
}

bool SerialChecker::Record(uint64_t cid, Transaction tx) {
  if (!error_.empty())
    return false;
  if (cid < next_ || waiting_.count(cid) != 0) {
    return Fail("commit id " + std::to_string(cid) + " decided twice");
  }
  waiting_.emplace(cid, std::move(tx));
  for (auto it = waiting_.find(next_); it != waiting_.end(); it = waiting_.find(next_)) {
    const Transaction& t = it->second;
    if (t.committed) {
      for (const Access& r : t.reads) {
        const uint64_t serial = Read(r.addr);
        if (serial != r.value) {
          return Fail("inconsistent read: commit id " + std::to_string(next_) +
                      " committed after reading " + Hex(r.value) + " at address " + Hex(r.addr) +
                      ", but the serial order gives " + Hex(serial));
        }
      }
      for (const Access& w : t.writes)
        mem_[w.addr] = w.value;
      ++committed_;
    }
    ++replayed_;
    waiting_.erase(it);
    ++next_;
  }
  return true;
}

bool SerialChecker::CheckFinal(const std::unordered_map<uint64_t, uint64_t>& hw_memory) {
  if (!error_.empty())
    return false;
  if (!waiting_.empty()) {
    return Fail("commit id " + std::to_string(waiting_.begin()->first) +
                " is decided but commit id " + std::to_string(next_) + " never was");
  }
  std::set<uint64_t> addrs;
  for (const auto& [a, v] : mem_)
    addrs.insert(a);
  for (const auto& [a, v] : hw_memory)
    addrs.insert(a);
  for (uint64_t a : addrs) {
    auto it = hw_memory.find(a);
    const uint64_t hw = it == hw_memory.end() ? 0 : it->second;
    const uint64_t serial = Read(a);
    if (hw != serial) {
      return Fail("final memory differs at address " + Hex(a) + ": the hardware holds " + Hex(hw) +
                  ", the serial replay of " + std::to_string(committed_) +
                  " committed transactions gives " + Hex(serial));
    }
  }
  return true;
}

}  // namespace htm::golden
