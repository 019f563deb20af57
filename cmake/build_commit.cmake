# build_commit.cmake: writes the commit the binary is being built from into
# a C++ header, at every build rather than at configure time, so that
# `matload --version` and every run it stores name the code that made them
# (reports/robustness/attack-2026-11-27-second, D11: a commit read once at
# configure time went stale, and runs named code that did not produce them).
# The header is rewritten only when the commit changes, so an unchanged tree
# recompiles nothing.
#   cmake -DSOURCE_DIR=DIR -DOUTPUT=FILE -P cmake/build_commit.cmake
# The commit is `git describe --always --dirty=-dirty --abbrev=40` of
# SOURCE_DIR: 40 hex digits, with "-dirty" when tracked files differ from
# it; "unknown" outside a git checkout (a source tarball).
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR OR NOT OUTPUT)
  message(FATAL_ERROR "build_commit.cmake needs -DSOURCE_DIR=DIR -DOUTPUT=FILE")
endif()
execute_process(COMMAND git -C ${SOURCE_DIR} describe --always --dirty=-dirty --abbrev=40
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit unknown)
endif()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT
  "// Written by cmake/build_commit.cmake at build time: the commit matload is built from.\n#define MATLOAD_GIT_COMMIT \"@commit@\"\n"
  @ONLY)
