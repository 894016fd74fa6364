# SPDX-License-Identifier: Apache-2.0
#
# Reads the one RTL file list (rtl/files.f) for every flow.
#   HTM_RTL_FILES       absolute paths, compilation order
#   HTM_RTL_FILES_REL   the same, relative to the source tree (for Yosys scripts)
#   HTM_RTL_DEPS_<module>, HTM_RTL_DEPS_REL_<module>
#                       the files a module needs (the package, its file, the modules it
#                       instantiates, transitively), in file-list order (tools/rtl_deps.py):
#                       models, netlists and synthesis of a block read only these
#   HTM_RTL_INCLUDE_DIRS, HTM_YOSYS_INCLUDES, HTM_RTL_VLT, HTM_RTL_INCLUDES_ALL

file(STRINGS ${CMAKE_SOURCE_DIR}/rtl/files.f _lines)
set(HTM_RTL_FILES "")
set(HTM_RTL_FILES_REL "")
foreach(line IN LISTS _lines)
  string(STRIP "${line}" line)
  if(line STREQUAL "" OR line MATCHES "^//")
    continue()
  endif()
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/${line})
    message(FATAL_ERROR "rtl/files.f lists ${line}, which does not exist")
  endif()
  list(APPEND HTM_RTL_FILES ${CMAKE_SOURCE_DIR}/${line})
  list(APPEND HTM_RTL_FILES_REL ${line})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rtl/files.f)

# Per-module file lists. A changed instantiation changes them: every RTL file is a configure
# dependency (configuring again re-runs Verilator or Yosys only where a file list changed).
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/rtl_deps.py --root ${CMAKE_SOURCE_DIR}
          --filelist rtl/files.f --out ${HTM_GEN_DIR}/cmake/rtl_deps.cmake
  RESULT_VARIABLE _deps_rc)
if(NOT _deps_rc EQUAL 0)
  message(FATAL_ERROR "tools/rtl_deps.py failed")
endif()
include(${HTM_GEN_DIR}/cmake/rtl_deps.cmake)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${HTM_RTL_FILES}
             ${CMAKE_SOURCE_DIR}/tools/rtl_deps.py)

set(HTM_RTL_INCLUDE_DIRS ${CMAKE_SOURCE_DIR}/rtl/include ${HTM_GEN_DIR}/rtl)
file(RELATIVE_PATH _gen_rel ${CMAKE_SOURCE_DIR} ${HTM_GEN_DIR}/rtl)
set(HTM_YOSYS_INCLUDES "-I rtl/include -I ${_gen_rel}")
set(HTM_RTL_VLT ${CMAKE_SOURCE_DIR}/rtl/lint/verilator.vlt)
file(GLOB HTM_RTL_INCLUDES_ALL ${CMAKE_SOURCE_DIR}/rtl/include/*.svh)
list(APPEND HTM_RTL_INCLUDES_ALL ${HTM_GEN_DIR}/rtl/htm_enums.svh ${HTM_GEN_DIR}/rtl/htm_sig_masks.svh)
