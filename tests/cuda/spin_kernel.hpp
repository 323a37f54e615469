#pragma once

#include <cuda_runtime_api.h>

// Keeps the current device busy for about `seconds` with one block that spins on the SM clock,
// then writes `done` = 1; returns the kernel's elapsed time in milliseconds through `elapsed_ms`.
cudaError_t spin_on_device(double seconds, float* elapsed_ms);
