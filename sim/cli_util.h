// SPDX-License-Identifier: Apache-2.0
//
// Helpers of the command-line tools: output files written through a temporary file and renamed
// when complete, so that a command that stops early leaves nothing half-written
// (docs/htmsim.md), comma-separated option lists, numeric options that refuse what is not a
// number of their type, and the parsing of a command's options with the one message for a
// malformed command line.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/any.hpp>
#include <boost/program_options.hpp>

namespace htm::sim {

/// A number given on the command line: decimal digits only (a leading '-' only for a signed
/// type), within the type's range. Boost's own parser takes "-5" for an unsigned option and
/// wraps it around (18446744073709551611); these options refuse it with a message instead.
template <class T>
struct Number {
  T v{};
};

template <class T>
void validate(boost::any& v, const std::vector<std::string>& values, Number<T>*, int) {
  namespace po = boost::program_options;
  po::validators::check_first_occurrence(v);
  const std::string& s = po::validators::get_single_string(values);
  const bool neg = !s.empty() && s[0] == '-';
  const std::string digits = neg ? s.substr(1) : s;
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      (neg && !std::is_signed_v<T>)) {
    throw po::validation_error(po::validation_error::invalid_option_value);
  }
  errno = 0;
  char* end = nullptr;
  if constexpr (std::is_signed_v<T>) {
    const long long x = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max()) {
      throw po::validation_error(po::validation_error::invalid_option_value);
    }
    v = boost::any(Number<T>{static_cast<T>(x)});
  } else {
    const unsigned long long x = std::strtoull(s.c_str(), &end, 10);
    if (errno != 0 || x > std::numeric_limits<T>::max()) {
      throw po::validation_error(po::validation_error::invalid_option_value);
    }
    v = boost::any(Number<T>{static_cast<T>(x)});
  }
}

/// A numeric option stored in `*target`, with `*target` as its default.
template <class T>
boost::program_options::typed_value<Number<T>>* Num(T* target) {
  return boost::program_options::value<Number<T>>()
      ->default_value(Number<T>{*target}, std::to_string(*target))
      ->notifier([target](const Number<T>& n) { *target = n.v; });
}
/// A numeric option without a default: `*target` is set only when it is given.
template <class T>
boost::program_options::typed_value<Number<T>>* NumNoDefault(T* target) {
  return boost::program_options::value<Number<T>>()->notifier(
      [target](const Number<T>& n) { *target = n.v; });
}

class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
    os_.open(tmp_);
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile() {
    if (!done_) {
      os_.close();
      std::remove(tmp_.c_str());
    }
  }
  bool good() const { return os_.good(); }
  std::ostream& os() { return os_; }
  /// Closes the file and gives it its name; false when writing or renaming failed.
  bool Commit() {
    os_.close();
    done_ = true;
    if (os_.fail()) {
      std::remove(tmp_.c_str());
      return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp_, path_, ec);
    return !ec;
  }

 private:
  std::string path_, tmp_;
  std::ofstream os_;
  bool done_ = false;
};

/// Writes `text` to `path` through an AtomicFile; false when writing or renaming failed.
inline bool WriteFileAtomically(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  if (!f.good()) {
    return false;
  }
  f.os() << text;
  return f.Commit();
}

/// Parses a command's options (and its positional ones, when `pos` is given) into `vm`. On a
/// malformed command line prints "<who>: <what> (try <who> --help)" on stderr and returns false:
/// the command then exits 2 (bad usage).
inline bool ParseOptions(
    const std::string& who, int argc, char** argv,
    const boost::program_options::options_description& desc,
    boost::program_options::variables_map& vm,
    const boost::program_options::positional_options_description* pos = nullptr) {
  namespace po = boost::program_options;
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(desc);
    if (pos != nullptr) {
      parser.positional(*pos);
    }
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << who << ": " << e.what() << " (try " << who << " --help)\n";
    return false;
  }
  return true;
}

/// ParseOptions for a command with one positional sub-command ("htmsim si oracle ..."), stored in
/// *sub (empty when none is given).
inline bool ParseWithSubcommand(const std::string& who, int argc, char** argv,
                                const boost::program_options::options_description& desc,
                                boost::program_options::variables_map& vm, std::string* sub) {
  namespace po = boost::program_options;
  po::options_description all;
  all.add(desc).add_options()("command", po::value(sub));
  po::positional_options_description pos;
  pos.add("command", 1);
  return ParseOptions(who, argc, argv, all, vm, &pos);
}

/// The parameters of the configuration called `name` in a configuration header's kAll
/// (htm/configs/<block>.h), or nullptr.
template <class All>
const auto* FindConfig(const All& all, const std::string& name) {
  for (const auto& entry : all) {
    if (entry.first == name) {
      return &entry.second;
    }
  }
  return static_cast<decltype(&all.begin()->second)>(nullptr);
}

/// The items of a comma-separated list, empty items dropped.
inline std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

}  // namespace htm::sim
