# pomp_unit_test(NAME SOURCES... LIBS ...): a cmocka unit test labelled "unit".
function(pomp_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE PkgConfig::CMOCKA pomp-common ${T_LIBS})
  target_include_directories(${name} PRIVATE ${POMP_INCLUDE_DIR})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS unit
    ENVIRONMENT "POMP_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR}")
endfunction()
