# man_page.cmake: writes matload.1 with help2man from matload's own help,
# so that the manual is the flag table (harness/cli/flags.cc) and cannot
# drift from it: `matload --help` gives the usage, the commands and the
# environment, and each `matload COMMAND --help` (a section of its own)
# that command's flags, their defaults and an example.
#   cmake -DMATLOAD=BINARY -DHELP2MAN=PATH -DVERSION=0.5 -DOUTPUT=matload.1 -P cmake/man_page.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${MATLOAD} --help OUTPUT_VARIABLE usage COMMAND_ERROR_IS_FATAL ANY)
# The commands are the usage's lines "  NAME  description", before the environment.
string(REGEX REPLACE "\nenvironment:.*" "" commands_part "${usage}")
string(REGEX MATCHALL "\n  [a-z]+ " command_lines "${commands_part}")
set(sections "")
foreach(line IN LISTS command_lines)
  string(STRIP "${line}" command)
  execute_process(COMMAND ${MATLOAD} ${command} --help OUTPUT_VARIABLE help COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX REPLACE "\nenvironment:.*" "" help "${help}")
  # help2man's include files take roff: a leading dot or quote would be a request.
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" help "${help}")
  string(APPEND sections "[COMMAND ${command}]\n.nf\n${help}\n.fi\n")
endforeach()
get_filename_component(output_dir ${OUTPUT} DIRECTORY)
file(WRITE ${output_dir}/matload-commands.h2m "${sections}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${VERSION}
                        "--name=differential fuzzing and conformance for PTX warp-level matrix loads"
                        --include=${output_dir}/matload-commands.h2m --output=${OUTPUT} ${MATLOAD}
                COMMAND_ERROR_IS_FATAL ANY)
