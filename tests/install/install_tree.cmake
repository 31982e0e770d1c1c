cmake_minimum_required(VERSION 3.20)
# Test fixture (cmake -P): installs the build tree BUILD_DIR into a fresh
# PREFIX with `cmake --install`, then checks the layout the README and
# issue 6 promise. Inputs: CMAKE_COMMAND_PATH, BUILD_DIR, PREFIX, SOURCE_DIR,
# VERSION, MAJOR, LIBDIR, INCLUDEDIR, BINDIR, MANDIR, READELF.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND_PATH} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}); build everything first "
                      "(cmake --build ${BUILD_DIR}):\n${out}${err}")
endif()

set(missing "")
set(lib ${PREFIX}/${LIBDIR})
foreach(file ${BINDIR}/collcalc ${LIBDIR}/libcollcalc.a ${LIBDIR}/libcollcalc.so
             ${LIBDIR}/libcollcalc.so.${MAJOR} ${LIBDIR}/libcollcalc.so.${VERSION}
             ${LIBDIR}/pkgconfig/collcalc.pc
             ${LIBDIR}/cmake/collcalc/collcalcConfig.cmake
             ${LIBDIR}/cmake/collcalc/collcalcConfigVersion.cmake
             ${LIBDIR}/cmake/collcalc/collcalcTargets.cmake
             ${MANDIR}/man1/collcalc.1)
  if(NOT EXISTS ${PREFIX}/${file})
    list(APPEND missing ${file})
  endif()
endforeach()
foreach(link libcollcalc.so libcollcalc.so.${MAJOR})
  if(NOT IS_SYMLINK ${lib}/${link})
    list(APPEND missing "${LIBDIR}/${link} (as a symlink)")
  endif()
endforeach()

# The shared library names its major version and carries its own
# dependencies (cJSON is private: users never link it themselves).
if(EXISTS ${lib}/libcollcalc.so.${VERSION})
  execute_process(COMMAND ${READELF} -d ${lib}/libcollcalc.so.${VERSION} OUTPUT_VARIABLE dynamic)
  if(NOT dynamic MATCHES "\\(SONAME\\)[^\n]*\\[libcollcalc\\.so\\.${MAJOR}\\]")
    list(APPEND missing "SONAME libcollcalc.so.${MAJOR} in libcollcalc.so.${VERSION}")
  endif()
  if(NOT dynamic MATCHES "\\(NEEDED\\)[^\n]*\\[libcjson\\.so")
    list(APPEND missing "libcjson among libcollcalc.so.${VERSION}'s NEEDED entries")
  endif()
endif()

# Exactly the public headers, and none of them pulls in cJSON.
file(GLOB source_headers RELATIVE ${SOURCE_DIR}/include/collcalc ${SOURCE_DIR}/include/collcalc/*.h)
file(GLOB installed_headers RELATIVE ${PREFIX}/${INCLUDEDIR}/collcalc
     ${PREFIX}/${INCLUDEDIR}/collcalc/*)
foreach(header ${source_headers})
  if(NOT header IN_LIST installed_headers)
    list(APPEND missing ${INCLUDEDIR}/collcalc/${header})
  endif()
endforeach()
set(problems "")
foreach(header ${installed_headers})
  if(NOT header IN_LIST source_headers)
    list(APPEND problems "${INCLUDEDIR}/collcalc/${header} is installed but is not a public header")
  else()
    file(STRINGS ${PREFIX}/${INCLUDEDIR}/collcalc/${header} cjson REGEX "#[ \t]*include.*[cC][jJ][sS][oO][nN]")
    if(cjson)
      list(APPEND problems "${INCLUDEDIR}/collcalc/${header} includes cJSON: ${cjson}")
    endif()
  endif()
endforeach()
if(missing)
  list(JOIN missing "\n  " text)
  list(APPEND problems "missing under ${PREFIX}:\n  ${text}")
endif()
if(problems)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "${text}")
endif()
list(LENGTH installed_headers count)
message(STATUS "installed into ${PREFIX}: tool, libcollcalc.a, libcollcalc.so.${VERSION}, "
               "${count} headers, collcalc.pc, CMake package, man page")
