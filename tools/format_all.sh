#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formats every tracked C++ file with clang-format (.clang-format), or with --check reports the
# files that are not formatted and exits 1.
#   tools/format_all.sh [--check] [clang-format binary]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then
  check=1
  shift
fi
cf="${1:-clang-format}"
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.h' '*.cc' '*.cpp' '*.inc' \
  2>/dev/null || true)
if ((${#files[@]} == 0)); then
  mapfile -t files < <(find golden workloads machine tb sim tests -name '*.h' -o -name '*.cc' -o -name '*.inc')
fi
if ((check)); then
  "$cf" --dry-run --Werror "${files[@]}"
  echo "clang-format: ${#files[@]} files formatted"
else
  "$cf" -i "${files[@]}"
fi
