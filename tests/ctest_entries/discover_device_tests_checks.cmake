# Checks of polydev_discover_device_tests' CMake half, run as a CMake script by CTest:
#
#   cmake -DMODULE=<PolydevDeviceTests.cmake> -DWORK=<folder> -DGENERATOR=<generator> -P <this file>
#
# Each case configures a small project whose "test binary" is a shell script that prints a fixed
# --gtest_list_tests listing, then reads the entries CTest makes of it (ctest --show-only=json-v1):
# the entries per device with their filters, XML files, resources and disabled groups, and the
# configure errors of bad arguments.

foreach(variable IN ITEMS MODULE WORK GENERATOR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "discover_device_tests_checks.cmake needs -D${variable}=...")
  endif()
endforeach()
# A failed check: reported at once, counted at the end (in a global property, since checks fail
# inside functions).
function(fail message)
  message(SEND_ERROR "${message}")
  set_property(GLOBAL APPEND PROPERTY polydev_failed_checks "${message}")
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# The listing of a binary with host tests (a suite of them, and one beside a device's test in the
# same suite), a disabled test, a device whose only test is disabled,
# a placeholder, a typed suite, devices combined with the user's parameters (`<values>__<key>`), a
# typed suite over devices, a host suite whose names hold "__" and comments that hold characters
# CMake lists and brackets treat specially.
file(
  WRITE "${WORK}/listing.txt"
  "Running main() from gtest_main.cc\n"
  "HostSuite.\n"
  "  Works\n"
  "  DISABLED_Off\n"
  "OpenCL/Saxpy.\n"
  "  Runs/opencl_pocl_cpu_0  # GetParam() = opencl_pocl_cpu_0 ('cpu' on 'PoCL')\n"
  "  Runs/opencl_pocl_cpu_1  # GetParam() = a ; b ]=] [ c\n"
  "  DISABLED_Slow/opencl_pocl_cpu_0  # GetParam() = opencl_pocl_cpu_0\n"
  "OpenCL/Disabled.\n"
  "  DISABLED_Only/opencl_pocl_gpu_0  # GetParam() = opencl_pocl_gpu_0\n"
  "OpenCL/Broken.\n"
  "  Runs/opencl_selector_error  # GetParam() = opencl_selector_error (bad)\n"
  "CUDA/VectorAdd.\n"
  "  Runs/no_cuda_device  # GetParam() = no_cuda_device (CUDA unavailable)\n"
  "Typed/0.  # TypeParam = int\n"
  "  Works\n"
  "OpenCL/Scale.\n"
  "  Runs/1000_float__opencl_pocl_cpu_0  # GetParam() = (opencl_pocl_cpu_0, 1000, float)\n"
  "  Runs/opencl_pocl_cpu_1__cuda_h200_pci_00_07  # a user value that looks like a key\n"
  "  Runs/7__no_opencl_device  # GetParam() = (no_opencl_device, 7)\n"
  "OpenCL/Fill/float.\n"
  "  Writes/opencl_pocl_cpu_1  # GetParam() = opencl_pocl_cpu_1, TypeParam float\n"
  "Host/Pairs.\n"
  "  Runs/a__b  # GetParam() = (a, b)\n"
  "OpenCL/DevicePairs.\n"
  "  Copies/opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1  # GetParam() = a pair\n"
  "  Copies/opencl_pocl_cpu_1_AND_opencl_pocl_cpu_0  # GetParam() = a pair\n"
  "  Copies/opencl_pocl_cpu_1_AND_opencl_pocl_gpu_0  # GetParam() = a pair\n"
  "OpenCL/DeviceTriples.\n"
  "  Run/too_few_opencl_devices  # GetParam() = too_few_opencl_devices (needs 5)\n"
  "OpenCL/Mixed.\n"
  "  Runs/opencl_pocl_cpu_1  # GetParam() = opencl_pocl_cpu_1\n"
  "  Plain/7  # GetParam() = 7\n")
# The listing of a binary without a device: host tests and a placeholder.
file(WRITE "${WORK}/host_listing.txt"
     "HostSuite.\n  Works\nCUDA/VectorAdd.\n  Runs/no_cuda_device  # GetParam() = no_cuda_device\n")
# The binary lists listing.txt, or the file of its argument --listing=<file>, and also prints the
# device CTest allocated to it, if any.
file(
  WRITE "${WORK}/fake_tests.sh"
  "#!/bin/sh\nlisting='${WORK}/listing.txt'\n"
  "for argument in \"$@\"; do case \"$argument\" in --listing=*) listing=\"\${argument#--listing=}\";; esac; done\n"
  "cat \"$listing\"\necho \"allocated=$CTEST_RESOURCE_GROUP_0_OPENCL_POCL_CPU_0\"\n")
# The tool records its arguments and says FAKE_TOOL_SAYS on stderr, exiting with FAKE_TOOL_STATUS,
# where they are set.
file(
  WRITE "${WORK}/fake_tool.sh"
  "#!/bin/sh\n"
  "echo \"$*\" >> '${WORK}/tool_arguments.txt'\n"
  "[ -n \"$FAKE_TOOL_SAYS\" ] && echo \"$FAKE_TOOL_SAYS\" >&2\n"
  "[ -n \"$FAKE_TOOL_STATUS\" ] && exit \"$FAKE_TOOL_STATUS\"\n"
  "exit 0\n")
foreach(script IN ITEMS fake_tests.sh fake_tool.sh)
  file(CHMOD "${WORK}/${script}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()

# configure(<case> <project body> <ok|error> <regex>): configures a project whose CMakeLists holds
# the helper, an imported test binary `fake` (the script above) and an imported polydev::tool, and
# then <project body>; it must end as expected with <regex> in its output.
function(configure case body expected regex)
  set(source "${WORK}/${case}")
  file(
    WRITE "${source}/CMakeLists.txt"
    "cmake_minimum_required(VERSION 3.25)\n"
    "project(${case} LANGUAGES NONE)\n"
    "enable_testing()\n"
    "include(\"${MODULE}\")\n"
    "add_executable(fake IMPORTED)\n"
    "set_target_properties(fake PROPERTIES IMPORTED_LOCATION \"${WORK}/fake_tests.sh\")\n"
    "add_executable(polydev::tool IMPORTED)\n"
    "set_target_properties(polydev::tool PROPERTIES IMPORTED_LOCATION \"${WORK}/fake_tool.sh\")\n"
    "${body}\n")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${source}" -B "${source}/build" -G "${GENERATOR}" ${ARGN}
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output
    RESULT_VARIABLE result)
  # (CMake wraps the lines of its messages.)
  string(REGEX REPLACE "[ \n]+" " " output "${output}")
  if(result EQUAL 0)
    set(outcome ok)
  else()
    set(outcome error)
  endif()
  if(NOT outcome STREQUAL expected OR NOT output MATCHES "${regex}")
    fail("${case}: expected ${expected} with '${regex}', got ${outcome}:\n${output}")
  endif()
endfunction()

# The entries of a configured case: sets <case>_names and, per entry, <case>_<index>_test (the JSON
# object of the test).
function(read_entries case)
  execute_process(
    COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${WORK}/${case}/build" --show-only=json-v1
    OUTPUT_VARIABLE json
    ERROR_VARIABLE errors
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    fail("${case}: ctest --show-only failed: ${errors}")
    return()
  endif()
  string(JSON count LENGTH "${json}" tests)
  set(names "")
  math(EXPR last "${count} - 1")
  foreach(index RANGE ${last})
    string(JSON test GET "${json}" tests ${index})
    string(JSON name GET "${test}" name)
    list(APPEND names "${name}")
    string(MAKE_C_IDENTIFIER "${name}" id)
    set(${case}_${id} "${test}" PARENT_SCOPE)
  endforeach()
  set(${case}_names "${names}" PARENT_SCOPE)
endfunction()

# expect_entry(<case> <name> <regex>...): the entry exists and its JSON matches every regex.
function(expect_entry case name)
  string(MAKE_C_IDENTIFIER "${name}" id)
  if(NOT DEFINED ${case}_${id})
    fail("${case}: no entry '${name}' among: ${${case}_names}")
    return()
  endif()
  foreach(regex IN LISTS ARGN)
    if(NOT "${${case}_${id}}" MATCHES "${regex}")
      fail("${case}: entry '${name}' does not match '${regex}':\n${${case}_${id}}")
    endif()
  endforeach()
endfunction()

# An entry per device and placeholder, the host tests in the first device's entry; resources for
# devices only; a device whose tests are all disabled is a disabled entry.
configure(device_entries "polydev_discover_device_tests(fake GRANULARITY device)" ok "")
read_entries(device_entries)
set(expected_names
    "fake/opencl_pocl_cpu_0;fake/opencl_pocl_cpu_1;fake/opencl_pocl_gpu_0;fake/opencl_selector_error;fake/no_cuda_device;fake/cuda_h200_pci_00_07;fake/no_opencl_device;fake/opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1_AND_opencl_pocl_gpu_0"
)
list(SORT expected_names)
set(names "${device_entries_names}")
list(SORT names)
if(NOT names STREQUAL expected_names)
  fail("device_entries: entries '${names}', expected '${expected_names}'")
endif()
set(results "${WORK}/device_entries/build/polydev_results/fake")
# An entry is Skipped by its process's exit status, which the entry's environment asks for, never
# by a rule on its output (which a failing test's message can match).
set(skip_by_status "\"SKIP_RETURN_CODE\",[ \n]*\"value\" : 77")
# (Each regex keeps its brackets balanced: CMake's lists do not split inside brackets.)
set(asks_for_the_status "\"ENVIRONMENT_MODIFICATION\",[ \n]*\"value\" :[ \n]*\\[[ \n]*\"POLYDEV_ALL_SKIPPED_EXIT_CODE=set:77\",[ \n]*\"POLYDEV_CTEST_ENTRY=set:[a-zA-Z0-9_]+\"[ \n]*\\]")
# What an entry tells its process it runs, in the same property: its devices, "host" or a
# placeholder, whatever its command line.
function(names_its_entry out entry)
  set(${out} "\"POLYDEV_CTEST_ENTRY=set:${entry}\"\n" PARENT_SCOPE)
endfunction()
names_its_entry(entry_cpu_0 opencl_pocl_cpu_0)
names_its_entry(entry_host host)
names_its_entry(entry_no_cuda no_cuda_device)
names_its_entry(entry_sets opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1_AND_opencl_pocl_gpu_0)
# expect_no_output_rule(<case>): no entry of the case has a skip rule on its output.
function(expect_no_output_rule case)
  foreach(name IN LISTS ${case}_names)
    string(MAKE_C_IDENTIFIER "${name}" id)
    if("${${case}_${id}}" MATCHES "SKIP_REGULAR_EXPRESSION")
      fail("${case}: entry '${name}' is skipped by a rule on its output:\n${${case}_${id}}")
    endif()
  endforeach()
endfunction()
expect_no_output_rule(device_entries)
expect_entry(
  device_entries fake/opencl_pocl_cpu_0
  "--gtest_filter=\\*/opencl_pocl_cpu_0:\\*__opencl_pocl_cpu_0[:\"]"
  "--gtest_output=xml:${results}/opencl_pocl_cpu_0.xml\"" "\"\\.type\" : \"opencl_pocl_cpu_0\""
  "${skip_by_status}" "${asks_for_the_status}" "${entry_cpu_0}")
expect_entry(device_entries fake/no_cuda_device "${entry_no_cuda}")
expect_entry(
  device_entries fake/opencl_pocl_cpu_1
  "--gtest_filter=\\*/opencl_pocl_cpu_1:\\*__opencl_pocl_cpu_1\"" "\"\\.type\" : \"opencl_pocl_cpu_1\"")
expect_entry(device_entries fake/cuda_h200_pci_00_07 "\"\\.type\" : \"cuda_h200_pci_00_07\"")
expect_entry(device_entries fake/opencl_pocl_gpu_0 "\"DISABLED\"")
# The device sets of a binary run in one entry that holds one slot of each of their devices, in one
# group: CTest runs it beside no entry that holds any of them, and the devices start once.
expect_entry(
  device_entries fake/opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1_AND_opencl_pocl_gpu_0
  "--gtest_filter=\\*/opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1:\\*__opencl_pocl_cpu_0_AND_opencl_pocl_cpu_1:\\*/opencl_pocl_cpu_1_AND_opencl_pocl_cpu_0:\\*__opencl_pocl_cpu_1_AND_opencl_pocl_cpu_0:\\*/opencl_pocl_cpu_1_AND_opencl_pocl_gpu_0:\\*__opencl_pocl_cpu_1_AND_opencl_pocl_gpu_0\""
  # (No 'q' between the types: no second "requirements", so one group holds them.)
  "\"requirements\" :[^q]*\"opencl_pocl_cpu_0\",[^q]*\"opencl_pocl_cpu_1\",[^q]*\"opencl_pocl_gpu_0\","
  "${skip_by_status}" "${entry_sets}")
# A set suite that lacks OpenCL devices runs its placeholder in the entry of the first OpenCL
# device, whose process starts the OpenCL drivers anyway; the tests that use no device run there
# too: a suite of them by its name, one beside a device's test by its own.
expect_entry(
  device_entries fake/opencl_pocl_cpu_0
  "--gtest_filter=\\*/opencl_pocl_cpu_0:\\*__opencl_pocl_cpu_0:\\*/too_few_opencl_devices:\\*__too_few_opencl_devices:HostSuite\\.\\*:Typed/0\\.\\*:Host/Pairs\\.\\*:OpenCL/Mixed\\.Plain/7\"")
foreach(unresourced IN ITEMS fake/opencl_selector_error fake/no_cuda_device
                             fake/no_opencl_device fake/opencl_pocl_cpu_0)
  string(MAKE_C_IDENTIFIER "${unresourced}" id)
  if(NOT unresourced STREQUAL "fake/opencl_pocl_cpu_0" AND "${device_entries_${id}}" MATCHES
                                                           "RESOURCE_GROUPS")
    fail("device_entries: ${unresourced} holds a resource:\n${device_entries_${id}}")
  endif()
  if("${device_entries_${id}}" MATCHES "\"DISABLED\"")
    fail("device_entries: ${unresourced} is disabled:\n${device_entries_${id}}")
  endif()
endforeach()

# CTest writes the spec of the entries' devices when it reads the list, and a plain `ctest` gives
# an entry its device: on every version of CMake, with no option, without the tool.
set(spec "${WORK}/device_entries/build/polydev_resource_spec.json")
file(REMOVE "${WORK}/tool_arguments.txt")
# ctest_output(<case> <variable> [<ctest arguments>...]): what `ctest -V` prints on the case.
function(ctest_output case variable)
  execute_process(
    COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${WORK}/${case}/build" -V ${ARGN}
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  string(REGEX REPLACE "[ \n]+" " " output "${output}")
  set(${variable} "${output}" PARENT_SCOPE)
endfunction()
ctest_output(device_entries allocated -R "^fake/opencl_pocl_cpu_0$")
if(NOT allocated MATCHES "allocated=id:0,slots:1")
  fail("device_entries: a plain ctest gave fake/opencl_pocl_cpu_0 no device:\n${allocated}")
endif()
# The spec holds every device an entry holds (a device of a set too), once each, and nothing else.
file(READ "${spec}" spec_text)
string(JSON spec_types GET "${spec_text}" local 0)
string(JSON spec_count LENGTH "${spec_types}")
set(spec_keys "")
math(EXPR last "${spec_count} - 1")
foreach(index RANGE ${last})
  string(JSON key MEMBER "${spec_types}" ${index})
  string(JSON slots GET "${spec_types}" ${key} 0 slots)
  list(APPEND spec_keys "${key}:${slots}")
endforeach()
list(SORT spec_keys)
set(expected_spec_keys
    "cuda_h200_pci_00_07:1;opencl_pocl_cpu_0:1;opencl_pocl_cpu_1:1;opencl_pocl_gpu_0:1")
if(NOT spec_keys STREQUAL expected_spec_keys)
  fail("device_entries: the spec holds '${spec_keys}', expected '${expected_spec_keys}':\n"
       "${spec_text}")
endif()
# When CTest starts, the tool checks the selection once; what it says (a selector error) is a
# warning at the top of CTest's output, and the entries keep their devices.
file(READ "${WORK}/tool_arguments.txt" arguments)
if(NOT arguments STREQUAL "devices --check\n")
  fail("device_entries: the tool ran with '${arguments}'")
endif()
set(ENV{FAKE_TOOL_SAYS} "polydev: PYOPENCL_TEST entry 1 'portable:pthred': no device matches")
set(ENV{FAKE_TOOL_STATUS} 2)
ctest_output(device_entries warned -R "^fake/opencl_pocl_cpu_0$")
if(NOT warned MATCHES "CMake Warning.*PYOPENCL_TEST entry 1 'portable:pthred': no device matches"
   OR NOT warned MATCHES "allocated=id:0,slots:1")
  fail("device_entries: the tool's message is not in CTest's output:\n${warned}")
endif()
unset(ENV{FAKE_TOOL_SAYS})
unset(ENV{FAKE_TOOL_STATUS})
# `--resource-spec-file` wins over the spec CTest writes.
file(WRITE "${WORK}/own_spec.json"
     "{\"version\": {\"major\": 1, \"minor\": 0}, \"local\": [{\"opencl_pocl_cpu_0\": [{\"id\": \"mine\", \"slots\": 1}]}]}\n")
ctest_output(device_entries own -R "^fake/opencl_pocl_cpu_0$" --resource-spec-file
             "${WORK}/own_spec.json")
if(NOT own MATCHES "allocated=id:mine,slots:1")
  fail("device_entries: --resource-spec-file did not win:\n${own}")
endif()

# Binaries of different SLOTS share a device's resource: the spec gives it the largest. A
# CTEST_RESOURCE_SPEC_FILE of the user's own, set in the test list, is left alone.
configure(
  slots
  "polydev_discover_device_tests(fake SLOTS 2)
   add_executable(other IMPORTED)
   set_target_properties(other PROPERTIES IMPORTED_LOCATION \"${WORK}/fake_tests.sh\")
   polydev_discover_device_tests(other SLOTS 3 GRANULARITY instance)" ok "")
ctest_output(slots slots_output -R "^fake/opencl_pocl_cpu_0$")
file(READ "${WORK}/slots/build/polydev_resource_spec.json" spec_text)
string(JSON slots_of_device GET "${spec_text}" local 0 opencl_pocl_cpu_0 0 slots)
if(NOT slots_of_device EQUAL 3 OR NOT slots_output MATCHES "allocated=id:0,slots:1")
  fail("slots: the device has ${slots_of_device} slots, not the largest SLOTS of its binaries (3):"
       "\n${spec_text}\n${slots_output}")
endif()
file(WRITE "${WORK}/slots/build/own.cmake" "set(CTEST_RESOURCE_SPEC_FILE [==[${WORK}/own_spec.json]==])\n")
file(READ "${WORK}/slots/build/CTestTestfile.cmake" test_list)
file(WRITE "${WORK}/slots/build/CTestTestfile.cmake"
     "include([==[${WORK}/slots/build/own.cmake]==])\n${test_list}")
ctest_output(slots own_in_list -R "^fake/opencl_pocl_cpu_0$")
if(NOT own_in_list MATCHES "allocated=id:mine,slots:1")
  fail("slots: CTEST_RESOURCE_SPEC_FILE of the test list did not win:\n${own_in_list}")
endif()

# Prefix, suffix, extra arguments, properties and an XML folder of one's own.
configure(
  device_options
  "polydev_discover_device_tests(fake GRANULARITY device TEST_PREFIX pre. TEST_SUFFIX .post
   EXTRA_ARGS --gtest_repeat=2 PROPERTIES LABELS gpu XML_OUTPUT_DIR \${CMAKE_BINARY_DIR}/xml)" ok
  "")
read_entries(device_options)
expect_entry(
  device_options pre.fake/opencl_pocl_cpu_0.post "--gtest_repeat=2"
  "--gtest_output=xml:${WORK}/device_options/build/xml/pre.fake/opencl_pocl_cpu_0.post.xml\""
  "\"LABELS\"[^]]*\"gpu\"")

# The user's own environment changes are kept beside the one that asks for the skip status.
configure(
  device_environment
  "polydev_discover_device_tests(fake GRANULARITY device PROPERTIES ENVIRONMENT_MODIFICATION
   FOO=set:1 LABELS gpu)" ok "")
read_entries(device_environment)
expect_entry(
  device_environment fake/opencl_pocl_cpu_0
  "\"ENVIRONMENT_MODIFICATION\",[ \n]*\"value\" :[ \n]*\\[[ \n]*\"POLYDEV_ALL_SKIPPED_EXIT_CODE=set:77\",[ \n]*\"FOO=set:1\",[ \n]*\"POLYDEV_CTEST_ENTRY=set:opencl_pocl_cpu_0\"[ \n]*\\]"
  "${skip_by_status}" "\"LABELS\"[^]]*\"gpu\"")

# A binary without a device entry runs its tests that use no device in an entry of their own: every
# test but those of a device or a placeholder.
configure(host_only [[polydev_discover_device_tests(fake GRANULARITY device
                       DISCOVERY_EXTRA_ARGS "--listing=${WORK}/host_listing.txt")]] ok ""
          -DWORK=${WORK})
read_entries(host_only)
if(NOT host_only_names STREQUAL "fake/host;fake/no_cuda_device")
  fail("host_only: entries '${host_only_names}', expected 'fake/host;fake/no_cuda_device'")
endif()
expect_entry(
  host_only fake/host
  "--gtest_filter=-\\*/opencl_\\*:\\*/cuda_\\*:\\*__opencl_\\*:\\*__cuda_\\*:\\*/no_opencl_device:\\*__no_opencl_device:\\*/no_cuda_device:\\*__no_cuda_device:\\*/opencl_selector_error:\\*__opencl_selector_error:\\*/cuda_selector_error:\\*__cuda_selector_error:\\*/polydev_require_devices_error:\\*__polydev_require_devices_error:\\*/too_few_opencl_devices:\\*__too_few_opencl_devices:\\*/too_few_cuda_devices:\\*__too_few_cuda_devices:\\*/device_sets_elsewhere:\\*__device_sets_elsewhere\""
  "--gtest_output=xml:${WORK}/host_only/build/polydev_results/fake/host.xml\"" "${entry_host}")

# The cache variable chooses when the call does not.
configure(cache_instance "polydev_discover_device_tests(fake)" ok ""
          -DPOLYDEV_CTEST_GRANULARITY=instance)
read_entries(cache_instance)
expect_entry(cache_instance OpenCL/Saxpy.Runs/opencl_pocl_cpu_0
             "--gtest_filter=OpenCL/Saxpy.Runs/opencl_pocl_cpu_0\""
             "\"\\.type\" : \"opencl_pocl_cpu_0\"")
# A device combined with the user's parameters holds its device's resource; so does a typed test.
expect_entry(cache_instance OpenCL/Scale.Runs/1000_float__opencl_pocl_cpu_0
             "--gtest_filter=OpenCL/Scale.Runs/1000_float__opencl_pocl_cpu_0\""
             "\"\\.type\" : \"opencl_pocl_cpu_0\"")
expect_entry(cache_instance OpenCL/Scale.Runs/opencl_pocl_cpu_1__cuda_h200_pci_00_07
             "\"\\.type\" : \"cuda_h200_pci_00_07\"")
expect_entry(cache_instance OpenCL/Fill/float.Writes/opencl_pocl_cpu_1
             "--gtest_filter=OpenCL/Fill/float.Writes/opencl_pocl_cpu_1\""
             "\"\\.type\" : \"opencl_pocl_cpu_1\"")
expect_entry(cache_instance OpenCL/Saxpy.Runs/opencl_pocl_cpu_0 "${skip_by_status}"
             "${asks_for_the_status}" "${entry_cpu_0}")
expect_entry(cache_instance HostSuite.Works "--gtest_filter=HostSuite.Works\"" "${skip_by_status}"
             "${entry_host}")
expect_entry(cache_instance OpenCL/Saxpy.DISABLED_Slow/opencl_pocl_cpu_0 "\"DISABLED\"")
expect_no_output_rule(cache_instance)
# TEST_FILTER, an entry per instance's own option, filters the listing.
configure(instance_filter
          "polydev_discover_device_tests(fake GRANULARITY instance TEST_FILTER OpenCL/Saxpy.*)" ok
          "")
read_entries(instance_filter)
expect_entry(instance_filter OpenCL/Saxpy.Runs/opencl_pocl_cpu_0)
configure(cache_default "polydev_discover_device_tests(fake)" ok "")
read_entries(cache_default)
expect_entry(cache_default fake/opencl_pocl_cpu_0)
configure(argument_wins "polydev_discover_device_tests(fake GRANULARITY instance)" ok ""
          -DPOLYDEV_CTEST_GRANULARITY=device)
read_entries(argument_wins)
expect_entry(argument_wins OpenCL/Saxpy.Runs/opencl_pocl_cpu_0)

# Bad input: a configure error that names what was wrong and what is right.
configure(bad_argument "polydev_discover_device_tests(fake GRANULARITY devices)" error
          "GRANULARITY 'devices' is not a granularity; expected 'device' .* or 'instance'")
configure(bad_cache "polydev_discover_device_tests(fake)" error
          "POLYDEV_CTEST_GRANULARITY 'Device' is not a granularity; expected 'device'"
          -DPOLYDEV_CTEST_GRANULARITY=Device)
configure(device_filter "polydev_discover_device_tests(fake GRANULARITY device TEST_FILTER Saxpy.*)"
          error "TEST_FILTER 'Saxpy.\\*' cannot be combined with the device filter")
configure(device_post_build
          "polydev_discover_device_tests(fake GRANULARITY device DISCOVERY_MODE POST_BUILD)" error
          "DISCOVERY_MODE 'POST_BUILD' is not supported")
configure(device_unknown "polydev_discover_device_tests(fake GRANULARITY device NO_SUCH_OPTION 1)"
          error "unknown arguments 'NO_SUCH_OPTION;1'")

get_property(failed GLOBAL PROPERTY polydev_failed_checks)
list(LENGTH failed failures)
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) of polydev_discover_device_tests failed")
endif()
message(STATUS "polydev_discover_device_tests: every check passed")
