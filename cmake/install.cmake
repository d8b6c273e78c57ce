# Install rules (LDDB_INSTALL): public headers, the static libraries and liblddb.so, the
# `lddb` program, the shipped databases, the Python binding, the CMake package (find_package(lddb 2.0 CONFIG))
# and lddb.pc for pkg-config.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LDDB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/lddb)

foreach(folder core format generator runtime checker io capi)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/include/lddb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endforeach()

# One export set per component, so that find_package(lddb COMPONENTS ...) creates only the
# targets asked for (and those they link) and finds only their dependencies
# (cmake/lddbConfig.cmake.in).
foreach(component core format generator runtime checker io c lddb)
  set(target lddb_${component})
  if(component STREQUAL "lddb")
    set(target lddb_shared)
  endif()
  install(TARGETS ${target}
          EXPORT lddb-${component}-targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT lddb-${component}-targets NAMESPACE lddb:: DESTINATION ${LDDB_CMAKE_DIR})
endforeach()
if(LDDB_BUILD_TOOLS)
  install(TARGETS lddb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
file(GLOB LDDB_SHIPPED_DATABASES ${PROJECT_SOURCE_DIR}/lddb/*.lddb)
install(FILES ${LDDB_SHIPPED_DATABASES} DESTINATION ${CMAKE_INSTALL_DATADIR}/lddb)
# The ctypes binding, the package lddb for PYTHONPATH=PREFIX/share/lddb/python; it finds PREFIX/lib's
# liblddb from its own folder. Not the bytecode a source-tree run leaves beside it.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/capi/python/lddb DESTINATION ${CMAKE_INSTALL_DATADIR}/lddb/python
        PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lddbConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/lddbConfig.cmake INSTALL_DESTINATION ${LDDB_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lddbConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lddbConfig.cmake ${PROJECT_BINARY_DIR}/lddbConfigVersion.cmake
        DESTINATION ${LDDB_CMAKE_DIR})

# lddb.pc finds its prefix from its own folder, so the install can move.
file(RELATIVE_PATH LDDB_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" LDDB_PC_TO_PREFIX "${LDDB_PC_TO_PREFIX}")  # no // in the rpath
configure_file(${PROJECT_SOURCE_DIR}/cmake/lddb.pc.in ${PROJECT_BINARY_DIR}/lddb.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lddb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
