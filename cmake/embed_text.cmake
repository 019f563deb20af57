# embed_text.cmake: writes a C++ source that holds a file's bytes, so that
# the binary carries checked-in data it must not look for at run time (the
# discrepancy registry: harness/runs/registry_in_force.h). The bytes are an
# array of hex numbers, which holds any content whatever its quotes or
# length. Run at build time whenever INPUT changes; nothing is downloaded.
#   cmake -DINPUT=FILE -DOUTPUT=FILE.cc -DHEADER=path/x.h -DFUNCTION=Name -P cmake/embed_text.cmake
# OUTPUT defines `absl::string_view matload::FUNCTION()`, declared in HEADER.
cmake_minimum_required(VERSION 3.25)
foreach(variable IN ITEMS INPUT OUTPUT HEADER FUNCTION)
  if(NOT ${variable})
    message(FATAL_ERROR "embed_text.cmake needs -D${variable}=...")
  endif()
endforeach()
file(READ ${INPUT} bytes HEX)
string(LENGTH "${bytes}" digits)
math(EXPR size "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${bytes}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    "
       bytes "${bytes}")
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT [[
// Written by cmake/embed_text.cmake at build time from @INPUT@.
#include "@HEADER@"

namespace matload {
namespace {

constexpr unsigned char kBytes[@size@ + 1] = {
    @bytes@0};

}  // namespace

absl::string_view @FUNCTION@() { return absl::string_view(reinterpret_cast<const char*>(kBytes), @size@); }

}  // namespace matload
]] @ONLY)
