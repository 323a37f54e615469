# Found first when PROBE_HIDE_GTEST is ON: answers as FindGTest does on a machine without GoogleTest,
# so the probe sees what the polydev package does there.
set(GTest_FOUND FALSE)
if(GTest_FIND_REQUIRED)
  message(FATAL_ERROR "Could NOT find GTest (PROBE_HIDE_GTEST=ON: the probe hides GoogleTest)")
endif()
