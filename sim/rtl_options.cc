// SPDX-License-Identifier: Apache-2.0
//
// The RTL-in-the-loop options of htmsim: see rtl_options.h. The Verilated models are reached
// through rtl_models.h: in htmsim, which has none, --rtl is refused (htmsim.cc hands such a
// command over to htmsim-rtl before it gets here).
#include "rtl_options.h"

#include <algorithm>
#include <sstream>

#include "cli_util.h"
#include "rtl_models.h"

namespace po = boost::program_options;

namespace htm::sim {

namespace {

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) {
    s += (s.empty() ? "" : ", ") + x;
  }
  return s;
}

}  // namespace

void RtlArgs::Add(po::options_description& d) {
  d.add_options()("rtl", po::value(&rtl),
                  "put Verilated models in the loop: 'all' of the machine's blocks, or "
                  "comma-separated RTL tops (htm_commit_unit,htm_cat,...); each instance runs "
                  "beside its golden model, compared every cycle")(
      "netlist", po::bool_switch(&netlist), "with --rtl: the Yosys netlists instead of the RTL")(
      "unchecked", po::bool_switch(&unchecked),
      "with --rtl: the Verilated models alone, without their golden models beside them")(
      "waves", po::value(&waves),
      "with --rtl: write the waves of the Verilated instances to this FST (one file per "
      "instance, FILE with the instance's name, unless --waves-instance names one)")(
      "waves-instance", po::value(&waves_instance),
      "with --waves: only this instance (e.g. partition0.commit_unit, core3.cat), into FILE");
}

std::string RtlArgs::Validate() const {
  if (rtl.empty()) {
    if (netlist || unchecked || !waves.empty() || !waves_instance.empty()) {
      return "--netlist, --unchecked and --waves go with --rtl";
    }
    return "";
  }
  if (!waves_instance.empty() && waves.empty()) {
    return "--waves-instance goes with --waves";
  }
  if (!HasRtlModels()) {
    return "--rtl needs the Verilated models, which this htmsim (golden models only) does not "
           "have: use htmsim-rtl";
  }
  if (rtl == "all") {
    return "";
  }
  const std::vector<std::string> known = RtlModelBlocks();
  for (const std::string& b : SplitList(rtl)) {
    if (std::find(known.begin(), known.end(), b) == known.end()) {
      return "unknown block '" + b + "' for --rtl (blocks: " + Join(known) + ")";
    }
  }
  if (SplitList(rtl).empty()) {
    return "--rtl needs 'all' or block names";
  }
  return "";
}

std::string RtlArgs::Resolve(const gpu::MachineConfig& m, gpu::TmMode tm, const std::string& repro,
                             bool strict, gpu::RtlSelection* out) const {
  *out = gpu::RtlSelection{};
  if (rtl.empty()) {
    return "";
  }
  const std::vector<gpu::BlockUse> uses = gpu::MachineBlocks(m, tm);
  std::vector<std::string> want;
  if (rtl == "all") {
    for (const gpu::BlockUse& u : uses) {
      want.push_back(u.block);
    }
  } else {
    want = SplitList(rtl);
  }
  out->impl = netlist ? (unchecked ? golden::Impl::kNetlist : golden::Impl::kNetlistChecked)
                      : (unchecked ? golden::Impl::kRtl : golden::Impl::kRtlChecked);
  out->factory = RtlModelFactory();
  out->waves = waves;
  out->waves_instance = waves_instance;
  out->repro = repro;
  for (const std::string& b : want) {
    const auto it = std::find_if(uses.begin(), uses.end(),
                                 [&](const gpu::BlockUse& u) { return u.block == b; });
    if (it == uses.end()) {
      if (strict) {
        return "machine " + m.name + " has no " + b + " under " + gpu::ToString(tm) +
               "; its blocks:\n" + BlockTable(m, tm);
      }
      continue;
    }
    if (std::string err = it->check(*out->factory, out->impl); !err.empty()) {
      return err + "; the blocks of machine " + m.name + " under " + gpu::ToString(tm) + ":\n" +
             BlockTable(m, tm);
    }
    out->blocks.push_back(b);
  }
  return "";
}

std::string RtlArgs::CommandLine() const {
  if (rtl.empty()) {
    return "";
  }
  std::string s = " --rtl " + rtl;
  s += netlist ? " --netlist" : "";
  s += unchecked ? " --unchecked" : "";
  return s;
}

std::string BlockTable(const gpu::MachineConfig& m, gpu::TmMode tm) {
  std::ostringstream os;
  const golden::InstanceFactory* f = RtlModelFactory();
  for (const gpu::BlockUse& u : gpu::MachineBlocks(m, tm)) {
    os << "  " << u.block << " (" << u.instances << (u.instances == 1 ? " instance" : " instances")
       << ")";
    if (f == nullptr) {
      os << "\n";  // no Verilated models in this binary
      continue;
    }
    os << ": RTL configurations " << Join(RtlModelConfigs(u.block, false))
       << (u.check(*f, golden::Impl::kRtl).empty() ? " (one matches the machine)"
                                                   : " (none matches the machine)")
       << "; netlists " << Join(RtlModelConfigs(u.block, true))
       << (u.check(*f, golden::Impl::kNetlist).empty() ? " (one matches)" : " (none matches)")
       << "\n";
  }
  return os.str();
}

}  // namespace htm::sim
