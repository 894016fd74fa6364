# SPDX-License-Identifier: Apache-2.0
#
# Blocks, named configurations, and everything generated from them:
#   * one Verilated RTL model per (block, configuration), PREFIX V<block>__<config>, and one of
#     its Yosys netlist, PREFIX V<block>__<config>__netlist, all in the static library htm_models
#     (Verilated once, linked into the test binary and htmsim-rtl);
#   * htm/configs/<block>.h with one constexpr Params per configuration (also with HTM_RTL off,
#     which builds nothing else of this);
#   * a registration of each model with the lockstep registry (htm/tb/registry.h);
#   * CTests: lint.verilator.<block>.<config>, synth.ecp5.<block>.<config>.
# The configurations themselves are in cmake/HtmConfigs.cmake.

set(HTM_BLOCKS "" CACHE INTERNAL "")

function(htm_block NAME)
  cmake_parse_arguments(A "" "PORTS;BENCH;BENCH_HEADER;DEF" "" ${ARGN})
  foreach(k PORTS BENCH BENCH_HEADER DEF)
    if(NOT A_${k})
      message(FATAL_ERROR "htm_block(${NAME}): ${k} is required")
    endif()
  endforeach()
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/${A_DEF})
    message(FATAL_ERROR "htm_block(${NAME}): no such file ${A_DEF}")
  endif()
  # Parameters of the block, from its .def: HTM_PARAM(<SV name>, <C++ member>, <C++ type>).
  file(STRINGS ${CMAKE_SOURCE_DIR}/${A_DEF} lines REGEX "^HTM_PARAM\\(")
  set(params "")
  set(members "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^HTM_PARAM\\(([A-Za-z0-9_]+), *([a-z0-9_]+), *([^)]+)\\)")
      message(FATAL_ERROR "${A_DEF}: cannot parse '${line}'")
    endif()
    list(APPEND params ${CMAKE_MATCH_1})
    list(APPEND members ${CMAKE_MATCH_2})
  endforeach()
  set(HTM_BLOCKS ${HTM_BLOCKS} ${NAME} CACHE INTERNAL "")
  foreach(k PORTS BENCH BENCH_HEADER DEF)
    set(HTM_BLOCK_${NAME}_${k} ${A_${k}} CACHE INTERNAL "")
  endforeach()
  set(HTM_BLOCK_${NAME}_PARAMS ${params} CACHE INTERNAL "")
  set(HTM_BLOCK_${NAME}_MEMBERS ${members} CACHE INTERNAL "")
  set(HTM_BLOCK_${NAME}_CONFIGS "" CACHE INTERNAL "")
endfunction()

function(htm_config BLOCK NAME)
  cmake_parse_arguments(A "LONG;LONG_NETLIST;LONG_SYNTH;NO_NETLIST;KEEP_MEMORIES"
                        "NETLIST_CYCLES;CYCLES;ROUTER;TRACE_DEPTH" "" ${ARGN})
  if(DEFINED A_TRACE_DEPTH AND NOT A_TRACE_DEPTH MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): TRACE_DEPTH must be a positive number, "
                        "not '${A_TRACE_DEPTH}'")
  endif()
  if(NOT DEFINED A_ROUTER)
    set(A_ROUTER router1)
  elseif(NOT A_ROUTER MATCHES "^router[12]$")
    message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): ROUTER must be router1 or router2, "
                        "not '${A_ROUTER}'")
  endif()
  if(A_LONG)
    set(A_LONG_NETLIST ON)
    set(A_LONG_SYNTH ON)
  endif()
  if(NOT DEFINED HTM_BLOCK_${BLOCK}_PARAMS)
    message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): unknown block ${BLOCK}")
  endif()
  if(NOT NAME MATCHES "^[a-z][a-z0-9]*$")
    message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): names are lower-case alphanumeric")
  endif()
  if(NOT DEFINED A_NETLIST_CYCLES)
    set(A_NETLIST_CYCLES 2000)
  endif()
  if(NOT DEFINED A_CYCLES)
    set(A_CYCLES 50000)
  endif()
  set(gparams "")
  set(yparams "")
  set(cpp "")
  set(seen "")
  foreach(kv IN LISTS A_UNPARSED_ARGUMENTS)
    if(NOT kv MATCHES "^([A-Za-z0-9_]+)=(.+)$")
      message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): expected Param=value, got '${kv}'")
    endif()
    set(key ${CMAKE_MATCH_1})
    set(val ${CMAKE_MATCH_2})
    list(FIND HTM_BLOCK_${BLOCK}_PARAMS ${key} idx)
    if(idx LESS 0)
      message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): ${BLOCK} has no parameter ${key}")
    endif()
    list(APPEND seen ${key})
    list(GET HTM_BLOCK_${BLOCK}_MEMBERS ${idx} member)
    if(DEFINED HTM_ENUM_VALUE_${val})
      # An enum value: a sized number for Verilator and Yosys, the enumerator for C++.
      list(APPEND gparams "-G${key}=${HTM_ENUM_BITS_${val}}'d${HTM_ENUM_VALUE_${val}}")
      list(APPEND yparams "${key} ${HTM_ENUM_VALUE_${val}}")
      set(cppval ${HTM_ENUM_CPP_${val}})
    elseif(val MATCHES "^[0-9]+$")
      list(APPEND gparams "-G${key}=${val}")
      list(APPEND yparams "${key} ${val}")
      set(cppval ${val})
    else()
      message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): ${key}=${val} is neither a number "
                          "nor a value of an enum in rtl/include/htm_enums.def")
    endif()
    list(APPEND cpp "${idx}|.${member} = ${cppval}")
  endforeach()
  foreach(p IN LISTS HTM_BLOCK_${BLOCK}_PARAMS)
    list(FIND seen ${p} idx)
    if(idx LESS 0)
      message(FATAL_ERROR "htm_config(${BLOCK} ${NAME}): parameter ${p} is not set "
                          "(every configuration lists every parameter)")
    endif()
  endforeach()
  # Designated initialisers must follow the declaration order of the .def.
  list(SORT cpp COMPARE NATURAL)
  list(TRANSFORM cpp REPLACE "^[0-9]+\\|" "")
  list(JOIN cpp ", " cpp_init)
  set(HTM_BLOCK_${BLOCK}_CONFIGS ${HTM_BLOCK_${BLOCK}_CONFIGS} ${NAME} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_G "${gparams}" CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_Y "${yparams}" CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_CPP "${cpp_init}" CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_NETLIST_CYCLES ${A_NETLIST_CYCLES} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_CYCLES ${A_CYCLES} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_LONG_NETLIST ${A_LONG_NETLIST} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_NO_NETLIST ${A_NO_NETLIST} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_KEEP_MEMORIES ${A_KEEP_MEMORIES} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_LONG_SYNTH ${A_LONG_SYNTH} CACHE INTERNAL "")
  set(HTM_CFG_${BLOCK}_${NAME}_ROUTER ${A_ROUTER} CACHE INTERNAL "")
  set(trace "")
  if(DEFINED A_TRACE_DEPTH)
    set(trace --trace-depth ${A_TRACE_DEPTH})
  endif()
  set(HTM_CFG_${BLOCK}_${NAME}_TRACE "${trace}" CACHE INTERNAL "")
endfunction()

# Whether this build has the netlist model of a configuration: not for NO_NETLIST, and not for
# LONG_NETLIST without HTM_LONG.
function(_htm_with_netlist BLOCK CFG OUT)
  set(on ON)
  if(NOT HTM_LONG AND HTM_CFG_${BLOCK}_${CFG}_LONG_NETLIST)
    set(on OFF)
  endif()
  if(HTM_CFG_${BLOCK}_${CFG}_NO_NETLIST OR HTM_COVERAGE)  # the coverage tree: RTL models only
    set(on OFF)
  endif()
  set(${OUT} ${on} PARENT_SCOPE)
endfunction()

# Capitalises a configuration name for a C++ constant: default -> kDefault.
function(_htm_cpp_const NAME OUT)
  string(SUBSTRING ${NAME} 0 1 first)
  string(SUBSTRING ${NAME} 1 -1 rest)
  string(TOUPPER ${first} first)
  set(${OUT} "k${first}${rest}" PARENT_SCOPE)
endfunction()

# The registry entry (C++ statements appending to `r`) of one Verilated model of a
# configuration: the lockstep run, and the machine instance (RTL or netlist, alone or checked
# against the golden model) of the configuration's parameters. Also used for the mutation
# flow's models (mutate/CMakeLists.txt).
function(_htm_reg_entry block cfg model netlist OUT)
  _htm_cpp_const(${cfg} const)
  set(bench ${HTM_BLOCK_${block}_BENCH})
  set(p htm::configs::${block}::${const})
  if(netlist)
    set(is_net true)
    set(cycles ${HTM_CFG_${block}_${cfg}_NETLIST_CYCLES})
  else()
    set(is_net false)
    set(cycles ${HTM_CFG_${block}_${cfg}_CYCLES})
  endif()
  set(inst_ports "&typeid(${bench}::Ports)")
  set(inst_match "[](const void* q) { return *static_cast<const ${bench}::Ports::Params*>(q) == ${p}; }")
  string(CONCAT text
    "  r.push_back({\"${block}\", \"${cfg}\", ${is_net}, ${cycles},\n"
    "               [](const htm::tb::RunOptions& o) {\n"
    "                 return htm::tb::RunLockstep<${bench}, ${model}>(${p}, o);\n"
    "               },\n"
    "               ${inst_ports}, ${inst_match},\n"
    "               [](bool checked, const htm::golden::InstanceInfo& i)\n"
    "                   -> std::unique_ptr<htm::golden::InstanceBase> {\n"
    "                 if (checked) {\n"
    "                   return std::make_unique<htm::tb::CheckedInstance<${bench}::Model, ${model}>>(${p}, i, ${is_net});\n"
    "                 }\n"
    "                 return std::make_unique<htm::tb::RtlInstance<${bench}::Ports, ${model}>>(${p}, i, ${is_net});\n"
    "               },\n"
    "               [](const htm::tb::RunOptions& o) {\n"
    "                 return htm::tb::RunModel<${bench}>(${p}, o);\n"
    "               }});\n")
  set(${OUT} "${text}" PARENT_SCOPE)
endfunction()

# Writes <path>: htm::tb::Registry(), filled explicitly by calling each anchor (no
# static-initialisation order to depend on). Also the mutation flow's registries.
function(_htm_registry_source path anchors)
  set(src "// Generated by cmake/HtmBlocks.cmake. Do not edit.\n#include \"htm/tb/registry.h\"\n\n")
  foreach(a IN LISTS anchors)
    string(APPEND src "void ${a}(std::vector<htm::tb::Entry>& r);\n")
  endforeach()
  string(APPEND src "\nnamespace htm::tb {\n\nconst std::vector<Entry>& Registry() {\n")
  string(APPEND src "  static const std::vector<Entry> entries = [] {\n    std::vector<Entry> r;\n")
  foreach(a IN LISTS anchors)
    string(APPEND src "    ${a}(r);\n")
  endforeach()
  string(APPEND src "    return r;\n  }();\n  return entries;\n}\n\n}  // namespace htm::tb\n")
  file(WRITE ${path}.tmp "${src}")
  file(COPY_FILE ${path}.tmp ${path} ONLY_IF_DIFFERENT)
endfunction()

# Writes <out> from a Yosys script body, running Yosys at configure time if <out> is missing
# (verilate() needs the file to exist) and adding a build rule to regenerate it.
# The mutation flow's netlists of every mutant (mutate/CMakeLists.txt) pass:
#   FILES <f...>       the files to read, relative to the source tree (default: the block's)
#   DEPENDS <f...>     what they depend on, absolute (default: the block's files)
#   DEFINES <d...>     read_verilog defines (-DNAME)
#   EXPOSE <wire>      a wire of the top module made a top-level input before synthesis
#   POST <cmd...>      a command run on the netlist after Yosys (in the source tree)
function(_htm_yosys_netlist BLOCK CFG OUT)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "EXPOSE" "FILES;DEPENDS;DEFINES;POST")
  get_filename_component(name ${OUT} NAME_WE)
  get_filename_component(dir ${OUT} DIRECTORY)
  set(script ${dir}/${name}.ys)
  set(chparams "")
  foreach(p IN LISTS HTM_CFG_${BLOCK}_${CFG}_Y)
    string(APPEND chparams " -chparam ${p}")
  endforeach()
  file(RELATIVE_PATH rel_out ${CMAKE_SOURCE_DIR} ${OUT})
  if(arg_FILES)
    list(JOIN arg_FILES " " files)
  else()
    list(JOIN HTM_RTL_DEPS_REL_${BLOCK} " " files)
  endif()
  if(NOT arg_DEPENDS)
    set(arg_DEPENDS ${HTM_RTL_DEPS_${BLOCK}})
  endif()
  set(defines "")
  foreach(d IN LISTS arg_DEFINES)
    string(APPEND defines "${d} ")
  endforeach()
  set(expose "")
  if(arg_EXPOSE)
    set(expose "proc\nexpose -input ${BLOCK}/${arg_EXPOSE}\n")
  endif()
  if(HTM_CFG_${BLOCK}_${CFG}_KEEP_MEMORIES)
    # synth's script without memory_map: memories stay arrays (as RAM macros would), every
    # other cell is mapped to gates.
    set(synth "synth -flatten -top ${BLOCK} -run begin:fine\n"
              "opt -fast -full\nopt -full\ntechmap\nopt -fast\nabc\nopt -fast\n"
              "synth -top ${BLOCK} -run check:\n")
  else()
    set(synth "synth -flatten -top ${BLOCK}\n")
  endif()
  file(WRITE ${script}.tmp
    "# Generated by cmake/HtmBlocks.cmake: the netlist of ${BLOCK}/${CFG} for the netlist test.\n"
    "read_verilog -sv -noautowire -defer ${defines}${HTM_YOSYS_INCLUDES} ${files}\n"
    "hierarchy -check -top ${BLOCK}${chparams}\n"
    ${expose}
    ${synth}
    "splitnets\n"
    "rename -top ${BLOCK}\n"
    "write_verilog -noattr ${rel_out}\n")
  file(COPY_FILE ${script}.tmp ${script} ONLY_IF_DIFFERENT)
  file(REMOVE ${script}.tmp)
  set(post_sh "")
  set(post_cmd "")
  if(arg_POST)
    list(JOIN arg_POST " " post_sh)
    set(post_sh " && ${post_sh}")
    set(post_cmd COMMAND ${arg_POST})
  endif()
  if(NOT EXISTS ${OUT} OR ${script} IS_NEWER_THAN ${OUT})
    # Run now (verilate() needs the file), all such netlists in parallel: _htm_run_netlists.
    set_property(GLOBAL APPEND PROPERTY HTM_NETLIST_JOBS
      "${BLOCK}/${CFG}\t(${HTM_YOSYS} -q -l ${OUT}.log -s ${script}${post_sh}) || (rm -f ${OUT} && false)")
  endif()
  add_custom_command(OUTPUT ${OUT}
    COMMAND ${HTM_YOSYS} -q -l ${OUT}.log -s ${script}
    ${post_cmd}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    DEPENDS ${arg_DEPENDS} ${HTM_RTL_INCLUDES_ALL} ${script}
    COMMENT "Yosys: netlist of ${BLOCK}/${CFG}" VERBATIM)
endfunction()

# Runs the netlist jobs _htm_yosys_netlist queued, in parallel (one per core), before any
# verilate() needs their output.
function(_htm_run_netlists)
  get_property(jobs GLOBAL PROPERTY HTM_NETLIST_JOBS)
  if(NOT jobs)
    return()
  endif()
  list(LENGTH jobs n)
  cmake_host_system_information(RESULT ncpu QUERY NUMBER_OF_LOGICAL_CORES)
  message(STATUS "Yosys: ${n} netlists, ${ncpu} at a time")
  list(JOIN jobs "\n" text)
  file(WRITE ${HTM_GEN_DIR}/netlist/jobs.txt "${text}\n")
  execute_process(COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/run_jobs.py
                          --jobs ${ncpu} ${HTM_GEN_DIR}/netlist/jobs.txt
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Yosys failed on a netlist; see ${HTM_GEN_DIR}/netlist/*.v.log")
  endif()
  set_property(GLOBAL PROPERTY HTM_NETLIST_JOBS "")
endfunction()

# Verilator writes a model as many small C++ files, and every one of them pays about a second of
# CPU for parsing verilated.h before any code: most of a cold build. The model's files are
# compiled instead as a few unity files: one group per optimisation class (fast path, slow
# path), each cut into batches of about HTM_UNITY_BYTES of source so that a large model still
# compiles in parallel. Verilator emits no file-scope statics, so the files of one model combine
# safely. The generated files stay in the target as headers (HEADER_FILE_ONLY), the unity files
# depend on them (OBJECT_DEPENDS), and a changed file list (a new `_copy.cmake`) reconfigures.
set(HTM_UNITY_BYTES 2000000)
function(_htm_unity_model target prefix vdir opt_fast opt_slow)
  include(${vdir}/${prefix}_copy.cmake)
  set(fast ${${prefix}_CLASSES_FAST} ${${prefix}_SUPPORT_FAST})
  set(slow ${${prefix}_CLASSES_SLOW} ${${prefix}_SUPPORT_SLOW})
  set_source_files_properties(${fast} ${slow} PROPERTIES HEADER_FILE_ONLY ON)
  # Beside the model's directory tree: vl/<model> -> vl-unity/<model> (the mutation flow's
  # models of the same names: vl-mut/<model> -> vl-mut-unity/<model>).
  get_filename_component(vparent ${vdir} DIRECTORY)
  set(udir ${vparent}-unity/${prefix})
  file(MAKE_DIRECTORY ${udir})
  foreach(kind fast slow)
    set(n 0)
    set(bytes 0)
    set(text "")
    set(deps "")
    set(files ${${kind}})
    list(LENGTH files count)
    set(i 0)
    foreach(f IN LISTS files)
      math(EXPR i "${i} + 1")
      string(APPEND text "#include \"${f}\"\n")
      list(APPEND deps ${f})
      if(EXISTS ${f})
        file(SIZE ${f} sz)
        math(EXPR bytes "${bytes} + ${sz}")
      endif()
      if(bytes GREATER_EQUAL HTM_UNITY_BYTES OR i EQUAL count)
        set(u ${udir}/${prefix}__${kind}_${n}.cpp)
        file(WRITE ${u}.tmp "// Generated by cmake/HtmBlocks.cmake. Do not edit.\n${text}")
        file(COPY_FILE ${u}.tmp ${u} ONLY_IF_DIFFERENT)
        target_sources(${target} PRIVATE ${u})
        set_source_files_properties(${u} PROPERTIES COMPILE_FLAGS "${opt_${kind}}"
                                    OBJECT_DEPENDS "${deps}")
        math(EXPR n "${n} + 1")
        set(bytes 0)
        set(text "")
        set(deps "")
      endif()
    endforeach()
  endforeach()
endfunction()

# htm/configs/<block>.h: one constexpr Params per named configuration (golden models, tools and
# tests use them; no Verilator needed).
function(_htm_config_header block)
  set(hdr "// Generated by cmake/HtmBlocks.cmake from cmake/HtmConfigs.cmake. Do not edit.\n")
  string(APPEND hdr "#pragma once\n\n#include <array>\n#include <string_view>\n#include <utility>\n\n")
  string(APPEND hdr "#include \"${HTM_BLOCK_${block}_BENCH_HEADER}\"\n\n")
  string(APPEND hdr "namespace htm::configs::${block} {\n\n")
  string(APPEND hdr "using Params = ${HTM_BLOCK_${block}_PORTS}::Params;\n\n")
  set(all "")
  list(LENGTH HTM_BLOCK_${block}_CONFIGS ncfg)
  foreach(cfg IN LISTS HTM_BLOCK_${block}_CONFIGS)
    _htm_cpp_const(${cfg} const)
    string(APPEND hdr "inline constexpr Params ${const}{${HTM_CFG_${block}_${cfg}_CPP}};\n")
    list(APPEND all "{\"${cfg}\", ${const}}")
  endforeach()
  list(JOIN all ", " all)
  string(APPEND hdr "\n/// Every named configuration, the paper's size (\"default\") first.\n")
  string(APPEND hdr "inline constexpr std::array<std::pair<std::string_view, Params>, ${ncfg}> kAll{{${all}}};\n")
  string(APPEND hdr "\n}  // namespace htm::configs::${block}\n")
  file(WRITE ${HTM_GEN_DIR}/include/htm/configs/${block}.h.tmp "${hdr}")
  file(COPY_FILE ${HTM_GEN_DIR}/include/htm/configs/${block}.h.tmp
       ${HTM_GEN_DIR}/include/htm/configs/${block}.h ONLY_IF_DIFFERENT)
endfunction()

function(htm_finalize_blocks)
  foreach(block IN LISTS HTM_BLOCKS)
    _htm_config_header(${block})
  endforeach()
  # htm::tb::NamedConfig (htm/tb/named_configs.h): a block's parameters -> the name of its
  # configuration, in both builds (the coverage columns name the machine's configurations).
  set(src "// Generated by cmake/HtmBlocks.cmake. Do not edit.\n#include \"htm/tb/named_configs.h\"\n\n")
  foreach(block IN LISTS HTM_BLOCKS)
    string(APPEND src "#include \"htm/configs/${block}.h\"\n")
  endforeach()
  string(APPEND src "\nnamespace htm::tb {\n\nnamespace {\n\n"
    "template <class Params, class All>\n"
    "std::string Find(const void* params, const All& all) {\n"
    "  for (const auto& [name, p] : all) {\n"
    "    if (p == *static_cast<const Params*>(params)) {\n"
    "      return std::string(name);\n"
    "    }\n"
    "  }\n"
    "  return \"\";\n"
    "}\n\n}  // namespace\n\n"
    "std::string NamedConfig(const std::string& block, const void* params) {\n")
  foreach(block IN LISTS HTM_BLOCKS)
    string(APPEND src "  if (block == \"${block}\") {\n"
      "    return Find<configs::${block}::Params>(params, configs::${block}::kAll);\n  }\n")
  endforeach()
  string(APPEND src "  return \"\";\n}\n\n}  // namespace htm::tb\n")
  file(WRITE ${HTM_GEN_DIR}/src/named_configs.cc.tmp "${src}")
  file(COPY_FILE ${HTM_GEN_DIR}/src/named_configs.cc.tmp ${HTM_GEN_DIR}/src/named_configs.cc
       ONLY_IF_DIFFERENT)
  target_sources(htm_tb PRIVATE ${HTM_GEN_DIR}/src/named_configs.cc)
  if(NOT HTM_RTL)
    return()  # the golden models only: no netlists, Verilated models, registry or RTL tests
  endif()
  file(MAKE_DIRECTORY ${HTM_GEN_DIR}/netlist)
  # First the netlists (in parallel), then the models that read them.
  # Every block keeps a netlist test in make test: LONG_NETLIST may move a block's costly
  # configurations to the long flows, never all of them (unless every one is NO_NETLIST, or
  # the block is named in HTM_NETLIST_LONG_ONLY).
  foreach(block IN LISTS HTM_BLOCKS)
    set(n_net 0)
    set(n_any 0)
    foreach(cfg IN LISTS HTM_BLOCK_${block}_CONFIGS)
      _htm_with_netlist(${block} ${cfg} with_netlist)
      if(with_netlist)
        _htm_yosys_netlist(${block} ${cfg} ${HTM_GEN_DIR}/netlist/${block}__${cfg}.v)
        math(EXPR n_net "${n_net} + 1")
      endif()
      if(NOT HTM_CFG_${block}_${cfg}_NO_NETLIST)
        math(EXPR n_any "${n_any} + 1")
      endif()
    endforeach()
    if(n_net EQUAL 0 AND n_any GREATER 0 AND NOT HTM_COVERAGE
       AND NOT block IN_LIST HTM_NETLIST_LONG_ONLY)
      message(FATAL_ERROR "${block}: every configuration with a netlist is LONG_NETLIST; make "
                          "test would have no netlist test of it (cmake/HtmConfigs.cmake)")
    endif()
  endforeach()
  _htm_run_netlists()
  add_library(htm_models STATIC)
  target_link_libraries(htm_models PUBLIC htm_tb htm_golden)
  target_compile_definitions(htm_models PUBLIC VM_TRACE=1 VM_TRACE_FST=1)
  htm_coverage_runtime(htm_models)  # cmake/HtmCoverage.cmake (HTM_COVERAGE only)
  foreach(block IN LISTS HTM_BLOCKS)
    # make test synthesizes one configuration per block (its `one`, else its first that is not
    # LONG_SYNTH); every other synthesis is in make fpga (label synth_long).
    set(short_synth "")
    if("one" IN_LIST HTM_BLOCK_${block}_CONFIGS AND NOT HTM_CFG_${block}_one_LONG_SYNTH)
      set(short_synth one)
    else()
      foreach(c IN LISTS HTM_BLOCK_${block}_CONFIGS)
        if(NOT short_synth AND NOT HTM_CFG_${block}_${c}_LONG_SYNTH)
          set(short_synth ${c})
        endif()
      endforeach()
    endif()
    set(HTM_BLOCK_${block}_SHORT ${short_synth} CACHE INTERNAL "")
    # make test runs the area flow on the configuration it synthesizes, and on htm_rct's
    # default: a paper-size configuration whose RAM macro (CACTI's part of the flow) maps in
    # seconds; every other configuration is in make area (label area_long).
    set(short_area ${short_synth})
    if(block STREQUAL "htm_rct")
      set(short_area default)
    endif()
    foreach(cfg IN LISTS HTM_BLOCK_${block}_CONFIGS)
      set(model V${block}__${cfg})
      _htm_cpp_const(${cfg} const)
      htm_coverage_model(${block} cov_sources cov_args)  # empty unless HTM_COVERAGE
      verilate(htm_models
        PREFIX ${model} TOP_MODULE ${block} TRACE_FST
        DIRECTORY ${CMAKE_BINARY_DIR}/vl/${model}
        SOURCES ${HTM_RTL_VLT} ${HTM_RTL_DEPS_${block}} ${cov_sources}
        INCLUDE_DIRS ${HTM_RTL_INCLUDE_DIRS}
        VERILATOR_ARGS -Wall --assert --x-assign unique --x-initial unique
                       ${HTM_CFG_${block}_${cfg}_G} ${HTM_CFG_${block}_${cfg}_TRACE} ${cov_args}
        # Constructors, initial blocks and trace set-up (the *__Slow files) run once: -O0
        # keeps their compilation cheap (they are half of a large model's C++).
        OPT_FAST -O2 OPT_SLOW -O0)
      _htm_unity_model(htm_models ${model} ${CMAKE_BINARY_DIR}/vl/${model} -O2 -O0)
      # The netlist of the same configuration (LONG_NETLIST configurations: with HTM_LONG).
      _htm_with_netlist(${block} ${cfg} with_netlist)
      if(with_netlist)
        set(net ${HTM_GEN_DIR}/netlist/${block}__${cfg}.v)
        verilate(htm_models
          PREFIX ${model}__netlist TOP_MODULE ${block} TRACE_FST
          DIRECTORY ${CMAKE_BINARY_DIR}/vl/${model}__netlist
          SOURCES ${net}
          # Verilator's default optimisation: 5.006 mis-evaluated Yosys's bit-level netlists with
          # it (htm_sig/default computed wrong H3 indices) and needed -O0; 5.048 passes every
          # netlist test with it, 40 times the make-test length (docs/flows.md).
          VERILATOR_ARGS -Wno-fatal -Wno-lint -Wno-style --x-assign unique --x-initial unique
          OPT_FAST -O1 OPT_SLOW -O0)
        _htm_unity_model(htm_models ${model}__netlist ${CMAKE_BINARY_DIR}/vl/${model}__netlist
                         -O1 -O0)
      endif()
      # Registration with the lockstep registry.
      set(reg ${HTM_GEN_DIR}/src/reg_${block}__${cfg}.cc)
      set(code "// Generated by cmake/HtmBlocks.cmake. Do not edit.\n")
      string(APPEND code "#include \"htm/configs/${block}.h\"\n#include \"htm/tb/registry.h\"\n")
      string(APPEND code "#include \"htm/tb/rtl_instance.h\"\n")
      string(APPEND code "#include \"${model}.h\"\n")
      if(with_netlist)
        string(APPEND code "#include \"${model}__netlist.h\"\n")
      endif()
      _htm_reg_entry(${block} ${cfg} ${model} OFF entry)
      string(APPEND code "\nvoid htm_reg_${block}__${cfg}(std::vector<htm::tb::Entry>& r) {\n${entry}")
      if(with_netlist)
        _htm_reg_entry(${block} ${cfg} ${model}__netlist ON entry)
        string(APPEND code "${entry}")
      endif()
      string(APPEND code "}\n")
      file(WRITE ${reg}.tmp "${code}")
      file(COPY_FILE ${reg}.tmp ${reg} ONLY_IF_DIFFERENT)
      target_sources(htm_models PRIVATE ${reg})
      list(APPEND anchors "htm_reg_${block}__${cfg}")
      # Per-configuration CTests.
      htm_add_lint_verilator(${block} ${cfg})
      set(synth_long ON)
      if(cfg STREQUAL short_synth)
        set(synth_long OFF)
      endif()
      htm_add_synth_test(${block} ${cfg} ${synth_long} ${HTM_CFG_${block}_${cfg}_ROUTER})
      set(area_long ON)
      if(cfg STREQUAL short_area)
        set(area_long OFF)
      endif()
      htm_add_area_test(${block} ${cfg} ${area_long})
    endforeach()
  endforeach()
  _htm_registry_source(${HTM_GEN_DIR}/src/models_anchor.cc "${anchors}")
  target_sources(htm_models PRIVATE ${HTM_GEN_DIR}/src/models_anchor.cc
                                    ${CMAKE_SOURCE_DIR}/tb/src/model_factory.cc)
endfunction()
