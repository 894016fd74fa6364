// SPDX-License-Identifier: Apache-2.0
//
// The serialization order of a run and its replay: see serializer.h.
#include "serializer.h"

namespace htm::gpu {

Serializer::Serializer(const std::vector<uint32_t>& initial, LogSink* sink)
    : replay_(initial), sink_(sink) {
  if (sink_ != nullptr) {
    sink_->Begin(initial);
  }
}

void Serializer::Decided(uint64_t cid, bool committed, LogEvent e) {
  e.kind = LogEvent::Kind::kTx;
  e.cid = cid;
  pending_.Add(cid, {committed, std::move(e)}, [this](std::pair<bool, LogEvent> x) {
    if (gated_) {
      ready_.push_back({true, x.first, std::move(x.second)});
    } else if (x.first) {
      Emit(std::move(x.second));
    }
  });
  Drain();
}

void Serializer::Before(uint64_t cid, LogEvent e) {
  e.kind = LogEvent::Kind::kTx;
  e.cid = cid;
  before_.emplace(cid, std::move(e));
}

void Serializer::Write(int thread, uint64_t cycle, uint32_t addr, uint32_t value, bool atomic,
                       uint32_t old) {
  LogEvent e;
  e.kind = LogEvent::Kind::kWrite;
  e.thread = thread;
  e.cycle = cycle;
  if (atomic) {
    e.reads.push_back({addr, old, 0});
  }
  e.writes.push_back({addr, value});
  if (!ready_.empty()) {
    ready_.push_back({false, true, std::move(e)});
    return;
  }
  Emit(std::move(e));
}

bool Serializer::Finish(const std::vector<uint32_t>& hw) {
  gate_ = UINT64_MAX;
  Drain();
  for (auto& [cid, e] : before_) {  // placed after every commit id decided
    Emit(std::move(e));
  }
  before_.clear();
  if (pending_.held() && error_.empty()) {
    error_ =
        "commit id " + std::to_string(*pending_.held()) + " decided while an older one never was";
  }
  if (error_.empty()) {
    if (const int64_t a = replay_.FirstDifference(hw); a >= 0) {
      const auto w = static_cast<uint32_t>(a);
      error_ = "final memory: word " + std::to_string(a) + " holds " + std::to_string(hw[w]) +
               ", the serial replay gives " + std::to_string(replay_.value(w)) +
               " (last written by " + Who(replay_.writer(w)) + ")";
    }
  }
  if (sink_ != nullptr) {
    sink_->End(hw);
  }
  return error_.empty();
}

std::string Serializer::Who(int64_t id) const {
  if (id < 0) {
    return "the initial memory";
  }
  const auto it = who_.find(static_cast<uint64_t>(id));
  return "event " + std::to_string(id) + (it == who_.end() ? "" : " (" + it->second + ")");
}

void Serializer::Drain() {
  while (!ready_.empty()) {
    Ready& r = ready_.front();
    if (r.tx) {
      if (r.e.cid >= gate_) {
        return;
      }
      for (auto it = before_.begin(); it != before_.end() && it->first <= r.e.cid;) {
        Emit(std::move(it->second));
        it = before_.erase(it);
      }
    }
    if (r.committed) {
      Emit(std::move(r.e));
    }
    ready_.pop_front();
  }
}

void Serializer::Emit(LogEvent e, bool writers_given) {
  e.id = next_id_++;
  const std::string me =
      (e.kind == LogEvent::Kind::kTx ? "transaction of thread " + std::to_string(e.thread) +
                                           ", commit id " + std::to_string(e.cid)
                                     : "write of thread " + std::to_string(e.thread)) +
      " at cycle " + std::to_string(e.cycle);
  for (LogEvent::Read& r : e.reads) {
    if (error_.empty()) {
      const auto named = writers_given ? std::optional<int64_t>(r.writer) : std::nullopt;
      if (const auto fault = replay_.CheckRead(r.addr, r.value, named, /*writer_first=*/true)) {
        error_ = gpu::Replay::Describe(
            *fault, "serializability: event " + std::to_string(e.id) + " (" + me + ")",
            [this](int64_t id) { return Who(id); });
      }
    }
    r.writer = replay_.writer(r.addr);
  }
  for (const auto& [a, v] : e.writes) {
    replay_.Write(a, v, static_cast<int64_t>(e.id));
  }
  if (e.kind == LogEvent::Kind::kTx && e.writes.size() < 64) {
    who_[e.id] = me;  // names for messages (bounded: most recent writers matter)
  }
  if (sink_ != nullptr) {
    sink_->Event(e);
  }
}

}  // namespace htm::gpu
