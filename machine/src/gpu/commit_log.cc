// SPDX-License-Identifier: Apache-2.0
//
// The commit log writer and its independent checker: see htm/gpu/commit_log.h.
#include "htm/machine/gpu/commit_log.h"

#include <cctype>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <queue>
#include <stdexcept>
#include <variant>
#include <vector>

#include "htm/machine/gpu/replay.h"

namespace htm::gpu {

namespace {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "\"";
}

void Pairs(std::ostream& os, const std::vector<uint32_t>& mem) {
  os << "[";
  bool first = true;
  for (size_t a = 0; a < mem.size(); ++a) {
    if (mem[a] != 0) {
      os << (first ? "" : ",") << "[" << a << "," << mem[a] << "]";
      first = false;
    }
  }
  os << "]";
}

}  // namespace

void JsonLogWriter::Begin(const std::vector<uint32_t>& initial) {
  os_ << "{\"type\":\"header\",\"format\":\"htmsim-commit-log-1\",\"workload\":"
      << Quote(h_.workload) << ",\"tm\":" << Quote(h_.tm) << ",\"machine\":" << Quote(h_.machine)
      << ",\"scale\":" << Quote(h_.scale) << ",\"seed\":" << h_.seed
      << ",\"words\":" << initial.size() << ",\"initial\":";
  Pairs(os_, initial);
  os_ << "}\n";
}

void JsonLogWriter::Event(const LogEvent& e) {
  const bool tx = e.kind == LogEvent::Kind::kTx;
  os_ << "{\"type\":\"" << (tx ? "tx" : "write") << "\",\"id\":" << e.id
      << ",\"thread\":" << e.thread;
  if (tx) {
    os_ << ",\"cid\":" << e.cid;
  }
  os_ << ",\"cycle\":" << e.cycle << ",\"reads\":[";
  for (size_t i = 0; i < e.reads.size(); ++i) {
    const LogEvent::Read& r = e.reads[i];
    os_ << (i ? "," : "") << "[" << r.addr << "," << r.value << ",";
    if (r.writer < 0) {
      os_ << "\"init\"";
    } else {
      os_ << r.writer;
    }
    os_ << "]";
  }
  os_ << "],\"writes\":[";
  for (size_t i = 0; i < e.writes.size(); ++i) {
    os_ << (i ? "," : "") << "[" << e.writes[i].first << "," << e.writes[i].second << "]";
  }
  os_ << "]}\n";
}

void JsonLogWriter::End(const std::vector<uint32_t>& final_mem) {
  os_ << "{\"type\":\"final\",\"words\":" << final_mem.size() << ",\"memory\":";
  Pairs(os_, final_mem);
  os_ << "}\n";
}

// ---- The checker: a small JSON reader and the replay
// ---------------------------------------------

namespace {

struct Json;
using JsonArray = std::vector<Json>;
using JsonObject = std::map<std::string, Json>;
struct Json {
  std::variant<std::monostate, bool, int64_t, std::string, std::shared_ptr<JsonArray>,
               std::shared_ptr<JsonObject>>
      v;
};

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  Json Parse() {
    Json j = Value();
    Space();
    if (i_ != s_.size()) {
      throw std::runtime_error("text after the object at column " + std::to_string(i_ + 1));
    }
    return j;
  }

 private:
  void Space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) {
      ++i_;
    }
  }
  [[noreturn]] void Bad(const std::string& what) {
    throw std::runtime_error(what + " at column " + std::to_string(i_ + 1));
  }
  bool Eat(char c) {
    Space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  Json Value() {
    Space();
    if (i_ >= s_.size()) {
      Bad("unexpected end of line");
    }
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      auto obj = std::make_shared<JsonObject>();
      if (!Eat('}')) {
        do {
          Space();
          if (i_ >= s_.size() || s_[i_] != '"') {
            Bad("expected a key");
          }
          std::string key = String();
          if (!Eat(':')) {
            Bad("expected ':'");
          }
          (*obj)[key] = Value();
        } while (Eat(','));
        if (!Eat('}')) {
          Bad("expected ',' or '}'");
        }
      }
      return Json{obj};
    }
    if (c == '[') {
      ++i_;
      auto arr = std::make_shared<JsonArray>();
      if (!Eat(']')) {
        do {
          arr->push_back(Value());
        } while (Eat(','));
        if (!Eat(']')) {
          Bad("expected ',' or ']'");
        }
      }
      return Json{arr};
    }
    if (c == '"') {
      return Json{String()};
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      size_t used = 0;
      const int64_t n = std::stoll(s_.substr(i_), &used);
      i_ += used;
      return Json{n};
    }
    if (s_.compare(i_, 4, "true") == 0) {
      i_ += 4;
      return Json{true};
    }
    if (s_.compare(i_, 5, "false") == 0) {
      i_ += 5;
      return Json{false};
    }
    if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
      return Json{};
    }
    Bad("unexpected character");
  }
  std::string String() {
    ++i_;  // the opening quote
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        ++i_;
      }
      out += s_[i_++];
    }
    if (i_ >= s_.size()) {
      Bad("unterminated string");
    }
    ++i_;
    return out;
  }
  const std::string& s_;
  size_t i_ = 0;
};

const Json& Field(const JsonObject& o, const std::string& k) {
  const auto it = o.find(k);
  if (it == o.end()) {
    throw std::runtime_error("no field \"" + k + "\"");
  }
  return it->second;
}
int64_t Int(const Json& j, const char* what) {
  if (const auto* n = std::get_if<int64_t>(&j.v)) {
    return *n;
  }
  throw std::runtime_error(std::string(what) + " is not a number");
}
const JsonArray& Arr(const Json& j, const char* what) {
  if (const auto* a = std::get_if<std::shared_ptr<JsonArray>>(&j.v)) {
    return **a;
  }
  throw std::runtime_error(std::string(what) + " is not an array");
}
std::string Str(const Json& j, const char* what) {
  if (const auto* s = std::get_if<std::string>(&j.v)) {
    return *s;
  }
  throw std::runtime_error(std::string(what) + " is not a string");
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
          throw std::runtime_error("a line after the final memory");
        }
        const Json j = Parser(line).Parse();
        const auto* objp = std::get_if<std::shared_ptr<JsonObject>>(&j.v);
        if (objp == nullptr) {
          throw std::runtime_error("not a JSON object");
        }
        const JsonObject& o = **objp;
        const std::string type = Str(Field(o, "type"), "type");
        if (line_no_ == 1 && type != "header") {
          throw std::runtime_error("the first line is not the header");
        }
        if (type == "header") {
          Header(o);
        } else if (type == "tx" || type == "write") {
          EventLine(o, type == "tx");
        } else if (type == "final") {
          Final(o);
          final_seen = true;
        } else {
          throw std::runtime_error("unknown type \"" + type + "\"");
        }
      }
      if (line_no_ == 0) {
        throw std::runtime_error("the log is empty");
      }
      if (!final_seen) {
        throw std::runtime_error("no final memory (the log is cut short)");
      }
      Acyclic();
      r_.ok = true;
    } catch (const std::exception& e) {
      r_.error = "line " + std::to_string(line_no_) + ": " + e.what();
    }
    return r_;
  }

 private:
  uint32_t Addr(int64_t a) const {
    if (!replay_) {
      throw std::runtime_error("an event before the header");
    }
    if (a < 0 || static_cast<uint64_t>(a) >= replay_->words()) {
      throw std::runtime_error("address " + std::to_string(a) + " outside the " +
                               std::to_string(replay_->words()) + " words");
    }
    return static_cast<uint32_t>(a);
  }
  std::vector<uint32_t> Memory(const JsonObject& o, const char* key) {
    const int64_t words = Int(Field(o, "words"), "words");
    if (words < 0 || words > (int64_t{1} << 32)) {
      throw std::runtime_error("impossible word count");
    }
    std::vector<uint32_t> m(static_cast<size_t>(words), 0);
    for (const Json& p : Arr(Field(o, key), key)) {
      const JsonArray& pair = Arr(p, "an address/value pair");
      if (pair.size() != 2) {
        throw std::runtime_error("an address/value pair without two numbers");
      }
      const int64_t a = Int(pair[0], "an address");
      if (a < 0 || a >= words) {
        throw std::runtime_error("address " + std::to_string(a) + " outside the memory");
      }
      m[static_cast<size_t>(a)] = static_cast<uint32_t>(Int(pair[1], "a value"));
    }
    return m;
  }
  void Header(const JsonObject& o) {
    if (line_no_ != 1) {
      throw std::runtime_error("a second header");
    }
    if (Str(Field(o, "format"), "format") != "htmsim-commit-log-1") {
      throw std::runtime_error("unknown format");
    }
    replay_ = std::make_unique<gpu::Replay>(Memory(o, "initial"));
    writes_of_.assign(replay_->words(), {});
  }
  void EventLine(const JsonObject& o, bool tx) {
    const int64_t id = Int(Field(o, "id"), "id");
    if (id != static_cast<int64_t>(events_)) {
      throw std::runtime_error("id " + std::to_string(id) + " where " + std::to_string(events_) +
                               " comes next");
    }
    const std::string me = std::string(tx ? "transaction " : "write ") + std::to_string(id) +
                           " (thread " + std::to_string(Int(Field(o, "thread"), "thread")) + ")";
    ++events_;
    (tx ? r_.transactions : r_.writes) += 1;
    for (const Json& rj : Arr(Field(o, "reads"), "reads")) {
      const JsonArray& rd = Arr(rj, "a read");
      if (rd.size() != 3) {
        throw std::runtime_error(me + ": a read without address, value and writer");
      }
      const uint32_t a = Addr(Int(rd[0], "a read's address"));
      const auto value = static_cast<uint32_t>(Int(rd[1], "a read's value"));
      int64_t w = -1;
      if (std::holds_alternative<std::string>(rd[2].v)) {
        if (Str(rd[2], "writer") != "init") {
          throw std::runtime_error(me + ": a read's writer is neither an id nor \"init\"");
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
        throw std::runtime_error(gpu::Replay::Describe(*fault, me, [](int64_t e) {
          return e < 0 ? std::string("the initial memory") : "event " + std::to_string(e);
        }));
      }
      // Edges: the writer it saw -> it; it -> the next writer of the word after that one.
      if (w >= 0) {
        Edge(w, id);
      }
      reads_of_.push_back({a, w, id});
    }
    for (const Json& wj : Arr(Field(o, "writes"), "writes")) {
      const JsonArray& wr = Arr(wj, "a write");
      if (wr.size() != 2) {
        throw std::runtime_error(me + ": a write without address and value");
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
  void Final(const JsonObject& o) {
    const std::vector<uint32_t> fin = Memory(o, "memory");
    if (fin.size() != replay_->words()) {
      throw std::runtime_error("the final memory has " + std::to_string(fin.size()) +
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
  /// Adds the read-write edges (a reader precedes the next writer of what it read) and sorts
  /// the graph topologically.
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
      out[f].push_back(t);
      ++in[t];
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
      for (const int64_t t : out[v]) {
        if (--in[t] == 0) {
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
  std::unique_ptr<gpu::Replay> replay_;  // the memory and its latest writers, from the header
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
