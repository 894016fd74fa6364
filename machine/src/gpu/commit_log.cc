// SPDX-License-Identifier: Apache-2.0
//
// The commit log writer and its independent checker: see htm/machine/gpu/commit_log.h. Both read
// and write JSON with nlohmann::json; the checker replays through the class the run's own
// serializer uses (htm/machine/gpu/replay.h).
#include "htm/machine/gpu/commit_log.h"

#include <algorithm>
#include <istream>
#include <memory>
#include <ostream>
#include <queue>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "htm/machine/gpu/replay.h"

namespace htm::gpu {

namespace {

using Json = nlohmann::ordered_json;

Json Pairs(const std::vector<uint32_t>& mem) {
  Json a = Json::array();
  for (size_t i = 0; i < mem.size(); ++i) {
    if (mem[i] != 0) {
      a.push_back({i, mem[i]});
    }
  }
  return a;
}

}  // namespace

void JsonLogWriter::Begin(const std::vector<uint32_t>& initial) {
  Json h;
  h["type"] = "header";
  h["format"] = "htmsim-commit-log-1";
  h["workload"] = h_.workload;
  h["tm"] = h_.tm;
  h["machine"] = h_.machine;
  h["scale"] = h_.scale;
  h["seed"] = h_.seed;
  h["words"] = initial.size();
  h["initial"] = Pairs(initial);
  os_ << h.dump() << "\n";
}

void JsonLogWriter::Event(const LogEvent& e) {
  const bool tx = e.kind == LogEvent::Kind::kTx;
  Json j;
  j["type"] = tx ? "tx" : "write";
  j["id"] = e.id;
  j["thread"] = e.thread;
  if (tx) {
    j["cid"] = e.cid;
  }
  j["cycle"] = e.cycle;
  Json reads = Json::array();
  for (const LogEvent::Read& r : e.reads) {
    reads.push_back({r.addr, r.value, r.writer < 0 ? Json("init") : Json(r.writer)});
  }
  j["reads"] = std::move(reads);
  Json writes = Json::array();
  for (const auto& [a, v] : e.writes) {
    writes.push_back({a, v});
  }
  j["writes"] = std::move(writes);
  os_ << j.dump() << "\n";
}

void JsonLogWriter::End(const std::vector<uint32_t>& final_mem) {
  Json f;
  f["type"] = "final";
  f["words"] = final_mem.size();
  f["memory"] = Pairs(final_mem);
  os_ << f.dump() << "\n";
}

void JsonLogWriter::Stopped(const std::string& why) {
  Json f;
  f["type"] = "incomplete";
  f["reason"] = why;
  os_ << f.dump() << "\n";
}

// ---- The checker --------------------------------------------------------------------------------

namespace {

/// The file is not a well-formed commit log.
struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const Json& Field(const Json& o, const char* k) {
  const auto it = o.find(k);
  if (it == o.end()) {
    throw Malformed(std::string("no field \"") + k + "\"");
  }
  return *it;
}
int64_t Int(const Json& j, const char* what) {
  if (!j.is_number_integer()) {
    throw Malformed(std::string(what) + " is not a whole number");
  }
  return j.get<int64_t>();
}
const Json& Arr(const Json& j, const char* what) {
  if (!j.is_array()) {
    throw Malformed(std::string(what) + " is not an array");
  }
  return j;
}
std::string Str(const Json& j, const char* what) {
  if (!j.is_string()) {
    throw Malformed(std::string(what) + " is not a string");
  }
  return j.get<std::string>();
}

class Checker {
 public:
  LogCheckResult Run(std::istream& is) {
    std::string line;
    bool final_seen = false;
    try {
      while (std::getline(is, line)) {
        ++line_no_;
        if (line.empty()) {
          continue;
        }
        if (final_seen) {
          throw Malformed("a line after the final memory");
        }
        Json o;
        try {
          o = Json::parse(line);
        } catch (const Json::parse_error& e) {
          throw Malformed(std::string("not JSON: ") + e.what());
        }
        if (!o.is_object()) {
          throw Malformed("not a JSON object");
        }
        const std::string type = Str(Field(o, "type"), "type");
        if (line_no_ == 1 && type != "header") {
          throw Malformed("the first line is not the header");
        }
        if (type == "header") {
          Header(o);
        } else if (type == "tx" || type == "write") {
          EventLine(o, type == "tx");
        } else if (type == "final") {
          Final(o);
          final_seen = true;
        } else if (type == "incomplete") {
          throw Malformed("the run stopped before its end: " + Str(Field(o, "reason"), "reason"));
        } else {
          throw Malformed("unknown type \"" + type + "\"");
        }
      }
      if (is.bad() || (!is.eof() && is.fail())) {
        throw Malformed("the file cannot be read");
      }
      if (line_no_ == 0) {
        throw Malformed("the log is empty");
      }
      if (!final_seen) {
        throw Malformed("no final memory (the log is cut short)");
      }
      Acyclic();
      r_.ok = true;
    } catch (const Malformed& e) {
      r_.malformed = true;
      r_.error = "line " + std::to_string(line_no_) + ": " + e.what();
    } catch (const std::exception& e) {
      r_.error = "line " + std::to_string(line_no_) + ": " + e.what();
    }
    return r_;
  }

 private:
  uint32_t Addr(int64_t a) const {
    if (!replay_) {
      throw Malformed("an event before the header");
    }
    if (a < 0 || static_cast<uint64_t>(a) >= replay_->words()) {
      throw Malformed("address " + std::to_string(a) + " outside the " +
                      std::to_string(replay_->words()) + " words");
    }
    return static_cast<uint32_t>(a);
  }
  std::vector<uint32_t> Memory(const Json& o, const char* key) {
    const int64_t words = Int(Field(o, "words"), "words");
    if (words < 0 || words > (int64_t{1} << 32)) {
      throw Malformed("impossible word count");
    }
    std::vector<uint32_t> m(static_cast<size_t>(words), 0);
    for (const Json& p : Arr(Field(o, key), key)) {
      const Json& pair = Arr(p, "an address/value pair");
      if (pair.size() != 2) {
        throw Malformed("an address/value pair without two numbers");
      }
      const int64_t a = Int(pair[0], "an address");
      if (a < 0 || a >= words) {
        throw Malformed("address " + std::to_string(a) + " outside the memory");
      }
      m[static_cast<size_t>(a)] = static_cast<uint32_t>(Int(pair[1], "a value"));
    }
    return m;
  }
  void Header(const Json& o) {
    if (line_no_ != 1) {
      throw Malformed("a second header");
    }
    if (Str(Field(o, "format"), "format") != "htmsim-commit-log-1") {
      throw Malformed("unknown format");
    }
    replay_ = std::make_unique<Replay>(Memory(o, "initial"));
    writes_of_.assign(replay_->words(), {});
  }
  void EventLine(const Json& o, bool tx) {
    const int64_t id = Int(Field(o, "id"), "id");
    if (id != static_cast<int64_t>(events_)) {
      throw std::runtime_error("id " + std::to_string(id) + " where " + std::to_string(events_) +
                               " comes next");
    }
    const std::string me = std::string(tx ? "transaction " : "write ") + std::to_string(id) +
                           " (thread " + std::to_string(Int(Field(o, "thread"), "thread")) + ")";
    ++events_;
    (tx ? r_.transactions : r_.writes) += 1;
    for (const Json& rd : Arr(Field(o, "reads"), "reads")) {
      if (!rd.is_array() || rd.size() != 3) {
        throw Malformed(me + ": a read without address, value and writer");
      }
      const uint32_t a = Addr(Int(rd[0], "a read's address"));
      const auto value = static_cast<uint32_t>(Int(rd[1], "a read's value"));
      int64_t w = -1;
      if (rd[2].is_string()) {
        if (rd[2].get<std::string>() != "init") {
          throw Malformed(me + ": a read's writer is neither an id nor \"init\"");
        }
      } else {
        w = Int(rd[2], "a read's writer");
        if (w < 0 || w >= id) {
          throw std::runtime_error(me + ": reads word " + std::to_string(a) + " from event " +
                                   std::to_string(w) + ", which is not before it");
        }
      }
      ++r_.reads;
      if (const auto fault = replay_->CheckRead(a, value, w)) {
        throw std::runtime_error(Replay::Describe(*fault, me, [](int64_t e) {
          return e < 0 ? std::string("the initial memory") : "event " + std::to_string(e);
        }));
      }
      // Edges: the writer it saw -> it; it -> the next writer of the word after that one.
      if (w >= 0) {
        Edge(w, id);
      }
      reads_of_.push_back({a, w, id});
    }
    for (const Json& wr : Arr(Field(o, "writes"), "writes")) {
      if (!wr.is_array() || wr.size() != 2) {
        throw Malformed(me + ": a write without address and value");
      }
      const uint32_t a = Addr(Int(wr[0], "a write's address"));
      const int64_t before = replay_->writer(a);
      if (before >= 0 && before != id) {
        Edge(before, id);
      }
      replay_->Write(a, static_cast<uint32_t>(Int(wr[1], "a write's value")), id);
      if (writes_of_[a].empty() || writes_of_[a].back() != id) {
        writes_of_[a].push_back(id);
      }
    }
  }
  void Final(const Json& o) {
    if (!replay_) {
      throw Malformed("the final memory before the header");
    }
    const std::vector<uint32_t> fin = Memory(o, "memory");
    if (fin.size() != replay_->words()) {
      throw Malformed("the final memory has " + std::to_string(fin.size()) +
                      " words, the initial " + std::to_string(replay_->words()));
    }
    if (const int64_t a = replay_->FirstDifference(fin); a >= 0) {
      const auto w = static_cast<uint32_t>(a);
      throw std::runtime_error("the final memory holds " + std::to_string(fin[w]) + " at word " +
                               std::to_string(a) + ", replaying the log gives " +
                               std::to_string(replay_->value(w)));
    }
  }
  void Edge(int64_t from, int64_t to) {
    edges_.push_back({from, to});
    ++r_.edges;
  }
  /// Adds the read-write edges (a reader precedes the next writer of what it read) and sorts the
  /// graph topologically.
  void Acyclic() {
    for (const auto& [a, w, reader] : reads_of_) {
      const auto& ws = writes_of_[a];
      const auto next = std::upper_bound(ws.begin(), ws.end(), w);
      if (next != ws.end() && *next != reader) {
        Edge(reader, *next);
      }
    }
    std::vector<std::vector<int64_t>> out(events_);
    std::vector<int> in(events_, 0);
    for (const auto& [f, t] : edges_) {
      out[static_cast<size_t>(f)].push_back(t);
      ++in[static_cast<size_t>(t)];
    }
    std::queue<int64_t> ready;
    for (uint64_t v = 0; v < events_; ++v) {
      if (in[v] == 0) {
        ready.push(static_cast<int64_t>(v));
      }
    }
    uint64_t sorted = 0;
    while (!ready.empty()) {
      const int64_t v = ready.front();
      ready.pop();
      ++sorted;
      for (const int64_t t : out[static_cast<size_t>(v)]) {
        if (--in[static_cast<size_t>(t)] == 0) {
          ready.push(t);
        }
      }
    }
    if (sorted != events_) {
      for (uint64_t v = 0; v < events_; ++v) {
        if (in[v] > 0) {
          throw std::runtime_error("the dependency graph has a cycle through event " +
                                   std::to_string(v));
        }
      }
    }
  }

  LogCheckResult r_;
  uint64_t line_no_ = 0, events_ = 0;
  std::unique_ptr<Replay> replay_;  // the memory and its latest writers, from the header
  std::vector<std::vector<int64_t>> writes_of_;
  struct ReadOf {
    uint32_t addr;
    int64_t writer, reader;
  };
  std::vector<ReadOf> reads_of_;
  std::vector<std::pair<int64_t, int64_t>> edges_;
};

}  // namespace

LogCheckResult CheckCommitLog(std::istream& is) {
  Checker c;
  return c.Run(is);
}

}  // namespace htm::gpu
