# shellcheck shell=bash
# Sourced: resource_spec_option TOOL SPEC sets the array spec_option to the ctest arguments that
# give CTest the devices as resources. CMake 3.28 and newer generate the spec at test time (the
# fixture test polydev_resource_spec, GENERATED_RESOURCE_SPEC_FILE) and refuse --resource-spec-file
# beside it, so they get nothing; older ones get the spec that TOOL (a polydev tool) writes to SPEC.
resource_spec_option() {
  local tool=$1 spec=$2 version
  version="$(cmake --version | head -n 1 | cut -d' ' -f3)"
  # shellcheck disable=SC2034 # the caller's array
  spec_option=()
  if [[ "$(printf '%s\n' 3.28 "$version" | sort -V | head -n 1)" != 3.28 ]]; then
    "$tool" resource-spec --output "$spec"
    # shellcheck disable=SC2034
    spec_option=(--resource-spec-file "$spec")
  fi
}
