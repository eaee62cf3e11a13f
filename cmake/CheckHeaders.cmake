# SPDX-License-Identifier: Apache-2.0
# Every public header compiles on its own (as Seastar's checkheaders): one translation unit per
# header under include/ and components/*/include/, holding only its #include, built with the
# tests. A header that leans on something its includer happened to include first fails here.
# A glob on purpose: a header added later is checked without anyone listing it.
file(GLOB_RECURSE _dromedary_public_headers CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/include/dromedary/*.h
     ${PROJECT_SOURCE_DIR}/components/*/include/dromedary/*.h)
set(_units)
foreach(header IN LISTS _dromedary_public_headers)
  string(REGEX REPLACE "^.*/include/dromedary/" "" relative "${header}")
  string(REPLACE "/" "__" unit "${relative}")
  set(file ${CMAKE_BINARY_DIR}/header_check/${unit}.cc)
  file(CONFIGURE OUTPUT ${file} CONTENT "#include <dromedary/${relative}>\n")
  list(APPEND _units ${file})
endforeach()
add_library(dromedary_header_check OBJECT ${_units})
target_link_libraries(dromedary_header_check PRIVATE dromedary_warnings dromedary::core
                      dromedary::dsl dromedary::components dromedary::management
                      dromedary::http_server dromedary::sqlite)
