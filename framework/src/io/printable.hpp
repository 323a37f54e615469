#pragma once

// The printable-text functions are declared in polydev/detail/printable.hpp, where the fixtures and
// the test main reach them too: every path that shows foreign text uses the same escapes.
#include "polydev/detail/printable.hpp"
