// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/xbar_model.h"

#include <stdexcept>

namespace htm::golden {

std::string CheckXbarParams(const XbarParams& p) {
  if (p.num_src < 1 || p.num_src > 64) {
    return "NumSrc must be in 1..64, got " + std::to_string(p.num_src);
  }
  if (p.num_dst < 1 || p.num_dst > 64) {
    return "NumDst must be in 1..64, got " + std::to_string(p.num_dst);
  }
  const int chunks = p.data_w >= 1 ? XbarChunks(p.data_w) : 0;
  if (p.data_w < 1 || chunks > kXbarMaxChunks || p.data_w % chunks != 0) {
    return "DataW must be in 1..256 and split into 64-bit or narrower equal chunks, got " +
           std::to_string(p.data_w);
  }
  if (p.num_src * chunks > kMaxVec || p.num_dst * chunks > kMaxVec) {
    return "NumSrc and NumDst times the data chunks must be at most 64";
  }
  if (p.latency < 1 || p.latency > 64) {
    return "Latency must be in 1..64, got " + std::to_string(p.latency);
  }
  if (p.fifo_depth < 1 || p.fifo_depth > 4096) {
    return "FifoDepth must be in 1..4096, got " + std::to_string(p.fifo_depth);
  }
  if (p.in_depth < 0 || p.in_depth > 4096) {
    return "InDepth must be in 0..4096, got " + std::to_string(p.in_depth);
  }
  return "";
}

XbarData XbarReqData(const XbarParams& p, const XbarIn& in, int s) {
  XbarData d{};
  const int n = XbarChunks(p.data_w);
  for (int j = 0; j < n; ++j) {
    d[j] = in.req_data[s * n + j] & LowMask(XbarChunkW(p.data_w));
  }
  return d;
}

XbarData XbarOutData(const XbarParams& p, const XbarOut& out, int d) {
  XbarData x{};
  const int n = XbarChunks(p.data_w);
  for (int j = 0; j < n; ++j) {
    x[j] = out.out_data[d * n + j];
  }
  return x;
}

void XbarSetReq(const XbarParams& p, XbarIn& in, int s, uint64_t dst, const XbarData& data) {
  const int n = XbarChunks(p.data_w);
  in.req_valid |= uint64_t{1} << s;
  in.req_dst[s] = dst & LowMask(IdxWidth(p.num_dst));
  for (int j = 0; j < n; ++j) {
    in.req_data[s * n + j] = data[j] & LowMask(XbarChunkW(p.data_w));
  }
}

const XbarParams& XbarModel::Checked(const XbarParams& p) {
  if (std::string err = CheckXbarParams(p); !err.empty()) {
    throw std::invalid_argument("htm_xbar: " + err);
  }
  return p;
}

XbarModel::XbarModel(const XbarParams& p) : p_(Checked(p)) {
  Reset();
}

void XbarModel::Reset() {
  dst_.assign(p_.num_dst, Dst{});
  for (Dst& d : dst_) {
    d.cred = p_.fifo_depth;
    d.link.assign(p_.latency, std::nullopt);
  }
  src_.assign(p_.num_src, {});
  err_ = false;
}

int XbarModel::in_link(int d) const {
  int n = 0;
  for (const auto& m : dst_[d].link) {
    n += m.has_value() ? 1 : 0;
  }
  return n;
}

bool XbarModel::Asks(const XbarIn& in, int s, int d) const {
  if (p_.in_depth > 0) {
    return !src_[s].empty() && src_[s].front().dst == static_cast<uint64_t>(d);
  }
  return ((in.req_valid >> s) & 1U) != 0 && in.req_dst[s] == static_cast<uint64_t>(d);
}

int XbarModel::Grant(const XbarIn& in, int d) const {
  const Dst& x = dst_[d];
  if (x.cred == 0) {
    return -1;
  }
  // htm_rr_arb: the first requester at or after the pointer, wrapping.
  for (int o = 0; o < p_.num_src; ++o) {
    const int s = (x.prio + o) % p_.num_src;
    if (Asks(in, s, d)) {
      return s;
    }
  }
  return -1;
}

XbarOut XbarModel::Eval(const XbarIn& in) const {
  XbarOut o;
  const int n = XbarChunks(p_.data_w);
  for (int d = 0; d < p_.num_dst; ++d) {
    const int g = Grant(in, d);
    if (g >= 0 && p_.in_depth == 0) {
      o.req_ready |= uint64_t{1} << g;
    }
    const Dst& x = dst_[d];
    if (!x.fifo.empty()) {
      o.out_valid |= uint64_t{1} << d;
      o.out_src[d] = static_cast<uint64_t>(x.fifo.front().src);
      for (int j = 0; j < n; ++j) {
        o.out_data[d * n + j] = x.fifo.front().data[j];
      }
    }
  }
  if (p_.in_depth > 0) {
    // Each input FIFO's registered not-full flag.
    for (int s = 0; s < p_.num_src; ++s) {
      o.req_ready |= static_cast<uint64_t>(in_src(s) < p_.in_depth) << s;
    }
  }
  o.err = err_ ? 1 : 0;
  return o;
}

void XbarModel::Tick(const XbarIn& in) {
  const int last = p_.latency - 1;
  int granted = 0;
  uint64_t taken = 0;  // sources granted (their input FIFO's head is popped)
  for (int s = 0; s < p_.num_src; ++s) {
    if (((in.req_valid >> s) & 1U) != 0 && in.req_dst[s] >= static_cast<uint64_t>(p_.num_dst)) {
      err_ = true;
    }
  }
  for (int d = 0; d < p_.num_dst; ++d) {
    Dst& x = dst_[d];
    const int g = Grant(in, d);
    const bool pop = !x.fifo.empty() && ((in.out_ready >> d) & 1U) != 0;
    // Coverage.
    int asking = 0;
    for (int s = 0; s < p_.num_src; ++s) {
      asking += Asks(in, s, d) ? 1 : 0;
    }
    cover_.contention += asking >= 2 ? 1 : 0;
    cover_.credit_stall += asking >= 1 && x.cred == 0 ? 1 : 0;
    cover_.fifo_full += static_cast<int>(x.fifo.size()) == p_.fifo_depth ? 1 : 0;
    cover_.out_stall += !x.fifo.empty() && !pop ? 1 : 0;
    cover_.link_full += in_link(d) == p_.latency ? 1 : 0;
    granted += g >= 0 ? 1 : 0;
    // The FIFO (htm_fifo: a push into a full FIFO is refused even with a pop).
    if (x.link[last].has_value() && static_cast<int>(x.fifo.size()) >= p_.fifo_depth) {
      throw std::logic_error("htm_xbar model: a message reached the full FIFO of destination " +
                             std::to_string(d));
    }
    if (pop) {
      x.fifo.pop_front();
    }
    if (x.link[last].has_value()) {
      x.fifo.push_back(*x.link[last]);
    }
    for (int k = last; k > 0; --k) {
      x.link[k] = x.link[k - 1];
    }
    x.link[0].reset();
    if (g >= 0) {
      x.link[0] = Msg{g, p_.in_depth > 0 ? src_[g].front().data : XbarReqData(p_, in, g)};
      x.prio = (g + 1) % p_.num_src;
      taken |= uint64_t{1} << g;
    }
    x.cred += (pop ? 1 : 0) - (g >= 0 ? 1 : 0);
  }
  cover_.parallel += granted >= 2 ? 1 : 0;
  if (p_.in_depth == 0) {
    return;
  }
  // The input FIFOs (htm_fifo: a push into a full FIFO is refused even with a pop).
  for (int s = 0; s < p_.num_src; ++s) {
    std::deque<Req>& q = src_[s];
    const bool push = ((in.req_valid >> s) & 1U) != 0 && in_src(s) < p_.in_depth;
    if (((taken >> s) & 1U) != 0) {
      q.pop_front();
    }
    if (push) {
      q.push_back(Req{in.req_dst[s] & LowMask(IdxWidth(p_.num_dst)), XbarReqData(p_, in, s)});
    }
  }
}

}  // namespace htm::golden
