#===- TestConsumer.cmake - The ctest `install-consumer` -------------------===#
#
# Installs the build tree into a fresh prefix (a plain `cmake --install`,
# every default component), then configures, builds and runs the separate
# project examples/consumer against that prefix only, with
# find_package(Adjoint). Run as
#
#   cmake -DADJOINT_BUILD_DIR=build -DCONSUMER_SOURCE_DIR=examples/consumer
#         -DWORK_DIR=<scratch> -DCXX_COMPILER=clang++-22
#         -DMAKE_PROGRAM=<ninja> [-DLAUNCHER=ccache]
#         -DLIBDIR=lib -DBINDIR=bin -DINCLUDEDIR=include -P TestConsumer.cmake
#
#===-----------------------------------------------------------------------===#
foreach(var ADJOINT_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR CXX_COMPILER
    MAKE_PROGRAM LIBDIR BINDIR INCLUDEDIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "TestConsumer.cmake: -D${var}=... is missing")
  endif()
endforeach()

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${step} failed (${rc}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${prefix})
run("cmake --install" ${CMAKE_COMMAND} --install ${ADJOINT_BUILD_DIR}
  --prefix ${prefix})

# What a default install holds, and what it must not: the Python package is
# the separate component `python`.
foreach(path ${INCLUDEDIR}/adjoint/API/Builder.h
    ${INCLUDEDIR}/adjoint/Dialect/Adj/IR/AdjOps.h.inc
    ${LIBDIR}/libAdjointCompile.a ${LIBDIR}/libadjoint_runtime.so
    ${LIBDIR}/cmake/Adjoint/AdjointConfig.cmake
    ${LIBDIR}/cmake/Adjoint/AdjointConfigVersion.cmake
    ${BINDIR}/ir-opt ${BINDIR}/ir-run ${BINDIR}/adj-aot)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "cmake --install did not install ${path}")
  endif()
endforeach()
file(GLOB_RECURSE python_files ${prefix}/*.py ${prefix}/*_adjoint*.so)
if(python_files)
  message(FATAL_ERROR "a default install holds the Python package: "
    "${python_files}")
endif()
# The installed tools find libMLIR.so through their RPATH.
run("installed ir-run --version" ${prefix}/${BINDIR}/ir-run --version)

set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${build})
set(launcher)
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("configuring the consumer" ${CMAKE_COMMAND} -G Ninja
  -S ${CONSUMER_SOURCE_DIR} -B ${build}
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} ${launcher}
  -DCMAKE_PREFIX_PATH=${prefix}
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
# It must have found the installed package, not the build tree.
file(STRINGS ${build}/CMakeCache.txt adjoint_dir REGEX "^Adjoint_DIR:")
if(NOT adjoint_dir STREQUAL
    "Adjoint_DIR:PATH=${prefix}/${LIBDIR}/cmake/Adjoint")
  message(FATAL_ERROR "the consumer found ${adjoint_dir}, not ${prefix}")
endif()
run("building the consumer" ${CMAKE_COMMAND} --build ${build})
run("running the consumer" ${build}/consumer)
message(STATUS "consumer: ${output}")
