# packaging.cmake: what `cmake --install` puts on a fleet's machines and the
# packages CPack makes of it (a .deb and a .tar.gz): the matload binary,
# which carries its discrepancy registry (harness/runs/registry_in_force.h),
# the scripts it and a cluster run (scripts/fetch-cuda-tools.sh, the Slurm
# scripts), the weekly soak's systemd units, the README and docs/, and the manual page help2man makes from
# the flag table. Nothing of the source tree is needed at run time.
# Included once, from the top CMakeLists.txt.
include(GNUInstallDirs)

install(TARGETS matload RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/fetch-cuda-tools.sh DESTINATION ${CMAKE_INSTALL_DATADIR}/matload/scripts)
# submit.sh finds shard.sbatch and merge.sbatch beside itself.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/slurm/submit.sh ${PROJECT_SOURCE_DIR}/scripts/slurm/shard.sbatch
                 ${PROJECT_SOURCE_DIR}/scripts/slurm/merge.sbatch
        DESTINATION ${CMAKE_INSTALL_DATADIR}/matload/slurm)
# The weekly soak's systemd units (docs/soak.md), to copy to /etc/systemd/system.
install(FILES ${PROJECT_SOURCE_DIR}/scripts/systemd/matload-soak.service
              ${PROJECT_SOURCE_DIR}/scripts/systemd/matload-soak.timer
        DESTINATION ${CMAKE_INSTALL_DATADIR}/matload/systemd)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")

# The manual page, made at build time where help2man is installed
# (scripts/install-deps.sh installs it) and installed with the binary.
find_program(MATLOAD_HELP2MAN help2man)
if(MATLOAD_HELP2MAN)
  set(matload_man_page ${PROJECT_BINARY_DIR}/man/matload.1)
  add_custom_command(
    OUTPUT ${matload_man_page}
    COMMAND ${CMAKE_COMMAND} -DMATLOAD=$<TARGET_FILE:matload> -DHELP2MAN=${MATLOAD_HELP2MAN}
            -DVERSION=${PROJECT_VERSION} -DOUTPUT=${matload_man_page} -P ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
    DEPENDS matload ${PROJECT_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "Writing matload.1 from matload's help (help2man)")
  add_custom_target(matload_man_page ALL DEPENDS ${matload_man_page})
  install(FILES ${matload_man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no manual page (scripts/install-deps.sh installs help2man)")
endif()

set(CPACK_PACKAGE_NAME matload)
set(CPACK_PACKAGE_VENDOR "matload maintainers")
set(CPACK_PACKAGE_CONTACT "matload maintainers <maintainers@users.noreply.a-seed-c4f79dc5.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "differential fuzzing and conformance for PTX warp-level matrix loads")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/packages)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The .deb depends on the shared libraries the binary links (Abseil, SQLite,
# RE2, libcrypto), as dpkg-shlibdeps finds them; the CUDA toolkit and driver
# are not Debian packages here, and matload runs compile-only without them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)

# The packages, built from this build tree and installed into a scratch root.
add_test(NAME package_test COMMAND ${PROJECT_SOURCE_DIR}/scripts/package-test.sh ${PROJECT_BINARY_DIR}
                                   ${PROJECT_BINARY_DIR}/package-test)
set_tests_properties(package_test PROPERTIES TIMEOUT 300 ENVIRONMENT "MATLOAD_PTXAS=${MATLOAD_CUDA_HOME}/bin/ptxas")
