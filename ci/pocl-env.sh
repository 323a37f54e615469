# shellcheck shell=bash
# Sourced by the ci scripts: several PoCL devices on one platform, so that multi-device paths run
# everywhere. PoCL 3 (Debian 12) calls its CPU driver "pthread", PoCL 5 calls it "cpu"; "basic" is
# a second, single-threaded CPU driver. Set POCL_DEVICES yourself to override.
if [[ -z "${POCL_DEVICES:-}" ]]; then
  if POCL_DEVICES=pthread clinfo -l 2>/dev/null | grep -q 'Device #0: pthread'; then
    export POCL_DEVICES="pthread pthread basic"
  else
    export POCL_DEVICES="cpu cpu basic"
  fi
fi
# PoCL's kernel cache inside the build tree: no state left in the home directory between runs.
export POCL_CACHE_DIR="${POLYDEV_BUILD_DIR:-build}/pocl-cache"
