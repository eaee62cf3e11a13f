# SPDX-License-Identifier: Apache-2.0
# dromedary_add_component(<name> SOURCES ... [DEPS ...] [TESTS ...]
#                         [MODULE SCHEMES ... [BEAN_TYPES ...] [EAGER_SOURCES ...]
#                          [EAGER_REGISTER function] [MODULE_LINK ...]])
#
# Creates dromedary_component_<name> on top of dromedary::core, with the option
# DROMEDARY_COMPONENT_<NAME> to compile it out. The component's source must define
# `void register<Name>Component(dromedary::Context&)`; components/CMakeLists.txt
# generates components_init.cc, which calls every enabled component's function
# explicitly (no static initialisers, nothing for the linker to strip).
#
# MODULE: the component is also built as a loadable module, dromedary-<name>.so, which the
# dromedary program loads the first time a route uses one of its SCHEMES or BEAN_TYPES (so
# that a process pays for libcurl, libpq, librdkafka or Proton only when it uses them:
# docs/modules.md). The static library stays, for tests, benchmarks and applications.
#   SCHEMES, BEAN_TYPES  what register<Name>Component registers (a test checks it).
#   EAGER_SOURCES        sources the program links itself, without the module's libraries:
#                        what must be known before the module loads (exception types).
#   EAGER_REGISTER       the function in them the program calls at start-up.
#   MODULE_LINK          what the module links besides DEPS' libraries (DEPS' own
#                        dromedary:: libraries are the program's, which exports them).
set_property(GLOBAL PROPERTY DROMEDARY_COMPONENTS "")
set_property(GLOBAL PROPERTY DROMEDARY_MODULES "")

# Where modules are, relative to the folder above the program's (bin/): the same in the build
# tree and when installed.
include(GNUInstallDirs)
set(DROMEDARY_MODULE_DIR ${CMAKE_INSTALL_LIBDIR}/dromedary)
add_custom_target(dromedary_modules)

# The registration function of each component: registerFooComponent for foo.
function(dromedary_register_function name out)
  string(SUBSTRING ${name} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${name} 1 -1 rest)
  set(${out} register${first}${rest}Component PARENT_SCOPE)
endfunction()

function(dromedary_add_component name)
  cmake_parse_arguments(ARG "MODULE" "EAGER_REGISTER"
                        "SOURCES;DEPS;TESTS;SCHEMES;BEAN_TYPES;EAGER_SOURCES;MODULE_LINK" ${ARGN})
  string(TOUPPER ${name} upper)
  option(DROMEDARY_COMPONENT_${upper} "Build the ${name} component" ON)
  if(NOT DROMEDARY_COMPONENT_${upper})
    return()
  endif()
  set(target dromedary_component_${name})
  if(NOT ARG_MODULE)
    add_library(${target} STATIC ${ARG_SOURCES})
    target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
                                         PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_link_libraries(${target} PUBLIC dromedary::core PRIVATE dromedary_warnings ${ARG_DEPS})
  else()
    dromedary_add_component_module(${name} ${target})
  endif()
  set_property(GLOBAL APPEND PROPERTY DROMEDARY_COMPONENTS ${name})
  if(DROMEDARY_BUILD_TESTS AND ARG_TESTS)
    add_executable(${target}_tests ${ARG_TESTS})
    target_include_directories(${target}_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_link_libraries(${target}_tests PRIVATE dromedary_components dromedary_test_support
                          dromedary_warnings GTest::gtest_main GTest::gmock)
    gtest_discover_tests(${target}_tests PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

# A MODULE component (called by dromedary_add_component, with its ARG_ variables): its sources
# compiled once, position-independent, into the static library and the module.
macro(dromedary_add_component_module name target)
  set(objects ${target}_objects)
  add_library(${objects} OBJECT ${ARG_SOURCES})
  set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${objects} PRIVATE -fno-semantic-interposition)
  target_include_directories(${objects} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
                                        PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${objects} PUBLIC dromedary::core PRIVATE dromedary_warnings ${ARG_DEPS})

  # The eager part: linked by the static library and by the program, never by the module.
  set(eager "")
  if(ARG_EAGER_SOURCES)
    set(eager ${target}_eager)
    add_library(${eager} STATIC ${ARG_EAGER_SOURCES})
    target_include_directories(${eager} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
                                        PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_link_libraries(${eager} PUBLIC dromedary::core PRIVATE dromedary_warnings fmt::fmt)
    # Compiled against the module's libraries' headers (their constants), never linked to them.
    foreach(dep IN LISTS ARG_DEPS)
      if(TARGET ${dep} AND NOT dep MATCHES "^dromedary::")
        target_include_directories(${eager} PRIVATE
                                   $<TARGET_PROPERTY:${dep},INTERFACE_INCLUDE_DIRECTORIES>)
      endif()
    endforeach()
  endif()

  add_library(${target} STATIC $<TARGET_OBJECTS:${objects}>)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${target} PUBLIC dromedary::core ${eager} PRIVATE ${ARG_DEPS})

  # The module: the objects and the third-party libraries; the core's symbols come from the
  # program that loads it. Its entry point names the build, so that a module from another
  # build is refused rather than run against a core it was not compiled with.
  dromedary_register_function(${name} register_function)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/module_entry.cc.in
                 ${CMAKE_CURRENT_BINARY_DIR}/module_entry.cc @ONLY)
  set(module dromedary-${name})
  add_library(${module} MODULE $<TARGET_OBJECTS:${objects}>
                               ${CMAKE_CURRENT_BINARY_DIR}/module_entry.cc)
  set_target_properties(${module} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/${DROMEDARY_MODULE_DIR})
  target_include_directories(${module} PRIVATE
                             $<TARGET_PROPERTY:dromedary_core,INTERFACE_INCLUDE_DIRECTORIES>)
  target_include_directories(${module} PRIVATE ${DROMEDARY_GENERATED_DIR})
  add_dependencies(${module} dromedary_build_id)
  set(module_deps "")
  foreach(dep IN LISTS ARG_DEPS)
    if(NOT dep MATCHES "^dromedary::")
      list(APPEND module_deps ${dep})
    endif()
  endforeach()
  target_link_libraries(${module} PRIVATE ${module_deps} ${ARG_MODULE_LINK} dromedary_warnings)
  add_dependencies(dromedary_modules ${module})
  install(TARGETS ${module} LIBRARY DESTINATION ${DROMEDARY_MODULE_DIR})

  set_property(GLOBAL APPEND PROPERTY DROMEDARY_MODULES ${name})
  set_property(GLOBAL PROPERTY DROMEDARY_MODULE_${name}_SCHEMES ${ARG_SCHEMES})
  set_property(GLOBAL PROPERTY DROMEDARY_MODULE_${name}_BEAN_TYPES ${ARG_BEAN_TYPES})
  set_property(GLOBAL PROPERTY DROMEDARY_MODULE_${name}_EAGER ${ARG_EAGER_REGISTER})
endmacro()
