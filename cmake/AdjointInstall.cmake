#===- AdjointInstall.cmake - `cmake --install` and find_package(Adjoint) --===#
#
# Installs what a C++ project needs to use Adjoint (docs/install.md):
#
#   component `devel`   headers (include/adjoint, with the generated .h.inc),
#                       the static libraries and lib/cmake/Adjoint: the
#                       package AdjointConfig.cmake, its version file and the
#                       exported targets Adjoint::Adjoint (everything: build,
#                       differentiate, optimize, interpret, compile and run)
#                       and Adjoint::Runtime (what an adj-aot object needs)
#   component `tools`   bin/ir-opt, bin/ir-run, bin/adj-aot
#   component `runtime` lib/libadjoint_runtime.so (Adjoint::SharedRuntime,
#                       for lowered code run by mlir-runner)
#
# A plain `cmake --install build --prefix DIR` installs all three; the
# Python package is the separate component `python` (python/CMakeLists.txt).
# The static libraries need MLIR/LLVM 22 (libMLIR.so, libLLVM.so) at the
# consumer's link time: AdjointConfig.cmake finds them as this build did.
#
#===-----------------------------------------------------------------------===#
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ADJOINT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Adjoint)

# Installed programs find libMLIR.so and libLLVM.so where this build linked
# them (/usr/lib/llvm-22/lib is not on the loader's default path).
set_target_properties(ir-opt ir-run adj-aot adjoint_runtime PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)

# The libraries, in no particular order: the exported link interfaces carry
# the order. Every one that Adjoint::Adjoint reaches must be listed, or
# install(EXPORT) fails at configure time naming the missing one.
set(ADJOINT_INSTALLED_LIBRARIES
  AdjointAD AdjointADRules AdjointAPI AdjointAdjDialect AdjointAdjTransforms
  AdjointCompile AdjointInitAll AdjointInterpreter AdjointPipelines
  AdjointCommonCodegen AdjointCPUCodegen AdjointGPUCodegen AdjointIntelCodegen
  AdjointNVIDIACodegen AdjointAMDCodegen
  AdjointRuntime AdjointSupport AdjointTarget)
foreach(lib ${ADJOINT_INSTALLED_LIBRARIES})
  # Adjoint::Compile, Adjoint::Runtime, ... rather than Adjoint::AdjointX.
  string(REGEX REPLACE "^Adjoint" "" name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${name})
endforeach()
set_target_properties(adjoint_runtime PROPERTIES EXPORT_NAME SharedRuntime)

# The one target a C++ user links: the builder API, AD, the pass pipelines,
# the reference interpreter and compile(), with their headers. The MLIR and
# LLVM headers come from AdjointConfig.cmake, which finds them.
add_library(Adjoint INTERFACE)
target_link_libraries(Adjoint INTERFACE AdjointCompile AdjointAPI
  AdjointInterpreter AdjointAD AdjointPipelines AdjointInitAll)
# The headers are compiled as C++20 here; consumers need the same.
target_compile_features(Adjoint INTERFACE cxx_std_20)

install(TARGETS Adjoint ${ADJOINT_INSTALLED_LIBRARIES}
  EXPORT AdjointTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
  # Every exported target gets <prefix>/include as an include directory.
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS adjoint_runtime
  EXPORT AdjointTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
install(TARGETS ir-opt ir-run adj-aot
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)

# Public headers: the sources and the ones tablegen writes into the build
# tree (AdjOps.h.inc, Passes.h.inc, ...).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/adjoint
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/adjoint
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
  FILES_MATCHING PATTERN "*.h.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT AdjointTargets NAMESPACE Adjoint::
  DESTINATION ${ADJOINT_INSTALL_CMAKEDIR} COMPONENT devel)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/AdjointConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/AdjointConfig.cmake
  INSTALL_DESTINATION ${ADJOINT_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
# Before 1.0 the API changes between minor versions: a request for 0.1
# accepts 0.1.x only.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/AdjointConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/AdjointConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/AdjointConfigVersion.cmake
  DESTINATION ${ADJOINT_INSTALL_CMAKEDIR} COMPONENT devel)
