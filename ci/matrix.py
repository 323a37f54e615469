#!/usr/bin/env python3
"""Prints a test x device table and per-device counts from GoogleTest XML reports of polydev suites.

A polydev test instance is named `<Backend>/<Suite>.<Test>/<device key>`; placeholders of suites
with no device are named `no_opencl_device`, `opencl_selector_error` and so on, and appear as a
column of their own, so a run that tested nothing is visible.
"""
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict

SYMBOL = {"pass": "pass", "fail": "FAIL", "skip": "skip"}


def outcome(testcase):
    if testcase.find("failure") is not None or testcase.find("error") is not None:
        return "fail"
    if testcase.find("skipped") is not None or testcase.get("result") == "skipped":
        return "skip"
    return "pass"


def main(paths):
    results = {}
    devices = []
    for path in paths:
        for testcase in ElementTree.parse(path).iter("testcase"):
            suite, name = testcase.get("classname", ""), testcase.get("name", "")
            if not suite.startswith(("OpenCL/", "CUDA/")) or "/" not in name:
                continue  # not an instance of a polydev device suite
            test, device = name.rsplit("/", 1)
            results[(f"{suite}.{test}", device)] = outcome(testcase)
            if device not in devices:
                devices.append(device)
    if not results:
        print("no device-parametrized test in", " ".join(paths))
        return 1
    tests = sorted({test for test, _ in results})
    width = max(len(test) for test in tests)
    print("devices:")
    for number, device in enumerate(devices, 1):
        print(f"  [{number}] {device}")
    print(" " * width + "  " + "  ".join(f"[{n}] " for n in range(1, len(devices) + 1)))
    for test in tests:
        cells = [SYMBOL.get(results.get((test, device)), " -- ").ljust(4) for device in devices]
        print(test.ljust(width) + "  " + "  ".join(cells))
    print("\nper device: passed / skipped / failed")
    counts = defaultdict(lambda: defaultdict(int))
    for (_, device), result in results.items():
        counts[device][result] += 1
    for device in devices:
        c = counts[device]
        print(f"  {device}: {c['pass']} passed, {c['skip']} skipped, {c['fail']} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
