# shellcheck shell=bash
# Sourced by the scripts that run OpenCL on a GPU machine (ci/gpu.sh,
# tests/bench/run/opencl-peer-bench.sh): registers NVIDIA's OpenCL driver next to PoCL when the
# machine has the driver but no ICD file for it, as the GPU machines of this project do (found by
# nvidia-smi or ldconfig). Elsewhere it changes nothing.
#
# A vendors folder holds both drivers. The machine's OCL_ICD_FILENAMES would bypass that folder,
# and ldconfig resolves libOpenCL.so.1 to the CUDA toolkit's copy, an older loader that treats
# OCL_ICD_VENDORS as one file: the ocl-icd loader the binaries were linked against goes first on
# LD_LIBRARY_PATH, so the folder is what counts.
if [[ ! -e /etc/OpenCL/vendors/nvidia.icd ]] && { command -v nvidia-smi >/dev/null 2>&1 ||
  ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl.so.1'; }; then
  polydev_vendors="$(mktemp -d)"
  echo "libnvidia-opencl.so.1" >"$polydev_vendors/nvidia.icd"
  [[ -f /etc/OpenCL/vendors/pocl.icd ]] && cp /etc/OpenCL/vendors/pocl.icd "$polydev_vendors/"
  export OCL_ICD_VENDORS="$polydev_vendors"
  unset OCL_ICD_FILENAMES
  for polydev_loader_dir in /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu; do
    if [[ -e "$polydev_loader_dir/libOpenCL.so.1" ]]; then
      export LD_LIBRARY_PATH="$polydev_loader_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      break
    fi
  done
  echo "NVIDIA's OpenCL driver registered through OCL_ICD_VENDORS=$OCL_ICD_VENDORS"
  unset polydev_vendors polydev_loader_dir
fi
