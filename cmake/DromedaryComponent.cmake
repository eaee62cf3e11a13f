# SPDX-License-Identifier: Apache-2.0
# dromedary_add_component(<name> SOURCES ... [DEPS ...] [TESTS ...])
#
# Creates dromedary_component_<name> on top of dromedary::core, with the option
# DROMEDARY_COMPONENT_<NAME> to compile it out. The component's source must define
# `void register<Name>Component(dromedary::Context&)`; components/CMakeLists.txt
# generates components_init.cc, which calls every enabled component's function
# explicitly (no static initialisers, nothing for the linker to strip).
set_property(GLOBAL PROPERTY DROMEDARY_COMPONENTS "")

function(dromedary_add_component name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;TESTS" ${ARGN})
  string(TOUPPER ${name} upper)
  option(DROMEDARY_COMPONENT_${upper} "Build the ${name} component" ON)
  if(NOT DROMEDARY_COMPONENT_${upper})
    return()
  endif()
  set(target dromedary_component_${name})
  add_library(${target} STATIC ${ARG_SOURCES})
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
                                       PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC dromedary::core PRIVATE dromedary_warnings ${ARG_DEPS})
  set_property(GLOBAL APPEND PROPERTY DROMEDARY_COMPONENTS ${name})
  if(DROMEDARY_BUILD_TESTS AND ARG_TESTS)
    add_executable(${target}_tests ${ARG_TESTS})
    target_include_directories(${target}_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_link_libraries(${target}_tests PRIVATE dromedary_components dromedary_test_support
                          dromedary_warnings GTest::gtest_main GTest::gmock)
    gtest_discover_tests(${target}_tests PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
  endif()
endfunction()
