#!/usr/bin/env bash
# polydev's OpenCL device suite as Slurm job steps, on a real Slurm: a one-node cluster started on
# this machine (ci/lib/slurm-cluster.sh) and stopped at the end whatever happens, the job submitted
# with the recipe of docs/clusters.md (fixtures/scripts/polydev-suite.sbatch, three tasks over the
# three PoCL devices). Checks that every device ran in exactly one task, that the tasks' reports
# hold every device instance of the suite and that the job and the merged report pass; then that a
# task that fails, and one that is cancelled (scancel), make the job fail. Builds first when
# POLYDEV_BUILD_DIR (default build) has no build.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_BUILD_DIR:-build}"
binary="$build/tests/polydev_opencl_tests"
tool="$build/framework/polydev"
if [[ ! -x "$binary" || ! -x "$tool" ]]; then
  POLYDEV_BUILD_TARGETS="polydev_opencl_tests polydev_tool" bash ci/build.sh
fi
binary=$(realpath "$binary")
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
# shellcheck source=ci/lib/slurm-cluster.sh
source ci/lib/slurm-cluster.sh

fail() {
  echo "ci/slurm.sh: $*" >&2
  exit 1
}
for command in slurmctld slurmd munged srun sbatch scancel squeue scontrol; do
  command -v "$command" >/dev/null 2>&1 ||
    fail "$command is missing (Debian: slurmctld slurmd slurm-client munge; ci/deps.sh installs them)"
done
[[ $(id -u) -eq 0 ]] || fail "needs root, to run munged as the munge user"

# Outside a Slurm task the step script runs nothing and says why.
if env -u SLURM_PROCID fixtures/scripts/polydev-slurm-step --results /nonexistent -- true 2>"${TMPDIR:-/tmp}/polydev-slurm-step.err"; then
  fail "polydev-slurm-step ran outside a Slurm task"
fi
grep -q "run this under srun, as a Slurm task" "${TMPDIR:-/tmp}/polydev-slurm-step.err" ||
  fail "polydev-slurm-step outside a task does not say why"
rm -f "${TMPDIR:-/tmp}/polydev-slurm-step.err"

work="$(mktemp -d "${TMPDIR:-/tmp}/polydev-slurm.XXXXXX")"
trap 'slurm_cluster_stop "$work/cluster"; rm -rf "$work"' EXIT
tasks=3
slurm_cluster_start "$work/cluster" "$tasks"
echo "   a one-node cluster: $(sinfo -h -N -o '%N, %c CPUs, %T')"
# The installed commands of the recipe: polydev, polydev-slurm-step.
PATH="$(realpath "$build/framework"):$(realpath fixtures/scripts):$PATH"
export PATH
export POLYDEV_CONFIG=""
job_script=fixtures/scripts/polydev-suite.sbatch

# submit NAME ARGUMENTS...: submits the recipe's job with --wait; sets job_status.
submit() {
  local name=$1
  shift
  job_status=0
  timeout 600 sbatch --wait --ntasks="$tasks" --output="$work/$name.out" "$job_script" \
    "$work/$name" "$@" >"$work/$name.sbatch.log" 2>&1 || job_status=$?
}

echo "== the suite as $tasks Slurm tasks, one device shard each"
submit pass "$binary" --gtest_filter='OpenCL/*'
if ((job_status != 0)); then
  cat "$work/pass.sbatch.log" "$work/pass.out" >&2
  fail "the job of the suite exited $job_status"
fi
"$binary" --gtest_list_tests --gtest_filter='OpenCL/*' >"$work/listing.txt"
"$tool" devices --json >"$work/devices.json"
python3 - "$work/pass" "$work/listing.txt" "$work/devices.json" "$tasks" <<'PY' ||
import glob, json, re, sys
import xml.etree.ElementTree as ElementTree

results, listing, devices, tasks = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
keys = [d["key"] for p in json.load(open(devices))["opencl"]["platforms"] for d in p["devices"]]
if len(keys) != tasks:
    sys.exit(f"{len(keys)} OpenCL devices, expected {tasks} (POCL_DEVICES)")
# Every instance of a device or a device set in the listing: "<suite>.<test>/<...key>", where the
# key part is a device key or keys joined by _AND_ (a placeholder is neither).
device_part = re.compile(r"(^|/|__)((opencl|cuda)_[a-z0-9_]+(_AND_(opencl|cuda)_[a-z0-9_]+)*)$")
instances, suite = set(), None
for line in open(listing):
    if not line.startswith(" "):
        suite = line.strip()
    else:
        name = suite + line.split()[0]
        if device_part.search(name) and not name.endswith("_selector_error"):
            instances.add(name)
reports = sorted(glob.glob(results + "/*.xml"))
if len(reports) != tasks:
    sys.exit(f"{len(reports)} reports in {results}, expected one per task ({tasks})")
ran_in = {key: [] for key in keys}
seen = set()
for report in reports:
    for case in ElementTree.parse(report).iter("testcase"):
        name = case.get("classname") + "." + case.get("name")
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        key = properties.get("polydev_device_key")
        if case.find("failure") is not None:
            sys.exit(f"{report}: {name} failed")
        if key is None:
            continue
        if properties.get("polydev_host") is None:
            sys.exit(f"{report}: {name} records no polydev_host")
        seen.add(name)
        # A device set's instances run in the one task that its shard gives the set.
        if report not in ran_in.setdefault(key, []):
            ran_in[key].append(report)
for key, where in ran_in.items():
    if len(where) != 1:
        what = "device set" if "_AND_" in key else "device"
        sys.exit(f"{what} {key} ran in {len(where)} tasks ({where}), expected exactly one")
missing = sorted(instances - seen)
if missing:
    sys.exit(f"{len(missing)} device instances are in no task's report, e.g. {missing[:3]}")
sets = sum("_AND_" in key for key in ran_in)
print(f"   {len(seen)} instances of devices and device sets; each of the {tasks} devices and "
      f"{sets} sets ran in exactly one task")
PY
  fail "the tasks' reports are not the whole suite, each device once"
# (The job's status includes that of `polydev report` on the tasks' reports.)
echo "   the job and the merged report of its tasks passed"

echo "== a task that fails makes the job fail"
# A strict xfail entry for one test on the first device: it passes there, so that task fails.
first_key=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["opencl"]["platforms"][0]["devices"][0]["key"])' "$work/devices.json")
printf 'version: 1\nexpectations:\n  - test: "*"\n    device: "%s"\n    xfail: "fails here"\n' \
  "$first_key" >"$work/xfail.yaml"
POLYDEV_CONFIG="$work/xfail.yaml" submit failing "$binary" --gtest_filter='OpenCL/Saxpy*'
((job_status != 0)) || fail "the job passed although the task of $first_key failed: $(cat "$work/failing.out")"
grep -q "unexpected pass of an xfail entry" "$work/failing.out" ||
  fail "the failing task's message is not in the job's output"
echo "   the job exited $job_status"

echo "== a cancelled task makes the job fail"
job_status=0
timeout 120 sbatch --wait --ntasks="$tasks" --output="$work/cancelled.out" "$job_script" \
  "$work/cancelled" sh -c 'sleep 300' >"$work/cancelled.sbatch.log" 2>&1 &
waiter=$!
job=""
for _ in $(seq 100); do
  job=$(squeue -h -o '%i' -n polydev | head -n 1)
  [[ -n "$job" ]] && squeue -h -s -j "$job" -o '%i' | grep -q "^$job\.0$" && break
  sleep 0.2
done
[[ -n "$job" ]] || fail "the job to cancel never started"
scancel "$job.0"
wait "$waiter" || job_status=$?
((job_status != 0)) || fail "the job passed although its step was cancelled: $(cat "$work/cancelled.out")"
echo "   step $job.0 cancelled: the job exited $job_status"
[[ -z "$(squeue -h)" ]] || fail "jobs are left in the queue: $(squeue -h)"
# Stopped here, not only by the trap, so that a daemon left running fails the stage.
slurm_cluster_stop "$work/cluster" || fail "the cluster's daemons did not stop"
for pid_file in "$work"/cluster/run/*.pid; do
  [[ -e "$pid_file" ]] && fail "$pid_file is left"
done
echo "   the cluster is stopped: no munged, slurmctld or slurmd of it is left"
