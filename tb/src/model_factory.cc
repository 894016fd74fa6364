// SPDX-License-Identifier: Apache-2.0
//
// The InstanceFactory of the Verilated models: see htm/tb/model_factory.h.
#include "htm/tb/model_factory.h"

#include <algorithm>
#include <stdexcept>

#include "htm/tb/registry.h"

namespace htm::tb {

namespace {

bool NetlistImpl(golden::Impl impl) {
  return impl == golden::Impl::kNetlist || impl == golden::Impl::kNetlistChecked;
}

bool CheckedImpl(golden::Impl impl) {
  return impl == golden::Impl::kRtlChecked || impl == golden::Impl::kNetlistChecked;
}

class Factory final : public golden::InstanceFactory {
 public:
  std::string Check(golden::Impl impl, const std::string& block, const std::type_info& ports,
                    const void* params) const override {
    if (impl == golden::Impl::kGolden) {
      return "the golden model is not built by the factory of the Verilated models";
    }
    if (Find(impl, block, ports, params) != nullptr) {
      return "";
    }
    const bool netlist = NetlistImpl(impl);
    const std::vector<std::string> cfgs = ModelConfigs(block, netlist);
    std::string known;
    for (const std::string& c : cfgs) {
      known += (known.empty() ? "" : ", ") + c;
    }
    if (cfgs.empty()) {
      return block + " has no " + (netlist ? "netlist" : "RTL") + " model in this build" +
             (netlist ? " (netlists of LONG_NETLIST configurations are built with HTM_LONG=ON)"
                      : "");
    }
    return "no named configuration of " + block + " has the machine's parameters" +
           std::string(netlist ? " among those with a netlist" : "") +
           " (configurations: " + known + "; add one in cmake/HtmConfigs.cmake)";
  }

 protected:
  std::unique_ptr<golden::InstanceBase> MakeAny(golden::Impl impl, const std::type_info& ports,
                                                const void* params,
                                                const golden::InstanceInfo& info) const override {
    const Entry* e = Find(impl, info.block, ports, params);
    if (e == nullptr) {
      throw std::invalid_argument(Check(impl, info.block, ports, params));
    }
    return e->make(CheckedImpl(impl), info);
  }

 private:
  static const Entry* Find(golden::Impl impl, const std::string& block, const std::type_info& ports,
                           const void* params) {
    const bool netlist = NetlistImpl(impl);
    for (const Entry& e : Registry()) {
      if (e.block == block && e.netlist == netlist && e.ports != nullptr && *e.ports == ports &&
          e.matches(params)) {
        return &e;
      }
    }
    return nullptr;
  }
};

}  // namespace

const golden::InstanceFactory& ModelFactory() {
  static const Factory f;
  return f;
}

std::vector<std::string> ModelConfigs(const std::string& block, bool netlist) {
  std::vector<std::string> out;
  for (const Entry& e : Registry()) {
    if (e.block == block && e.netlist == netlist) {
      out.push_back(e.config);
    }
  }
  return out;
}

}  // namespace htm::tb
