#!/usr/bin/env python3
"""Checks that no two CTest entries used one device at the same time.

Reads the GoogleTest XML report of every entry under the given folders
(polydev_results/<binary>/<entry>.xml, written by polydev_discover_device_tests): the entry's
devices are the keys its name holds (one device, or a device set's keys joined by _AND_), and the
time it ran is its report's timestamp and duration. Two entries that ran at overlapping times must
hold no device in common; CTest's resource allocation is what guarantees it. Prints how many pairs
of entries ran at once (the parallel work the allocation allowed) and exits 1 naming any two that
shared a device.
"""
import datetime
import pathlib
import re
import sys
import xml.etree.ElementTree as ElementTree

SEPARATOR = "_AND_"
KEY = re.compile(r"^(opencl|cuda)_[a-z0-9_]+$")


def entries(folders):
    for folder in folders:
        for report in sorted(pathlib.Path(folder).glob("*/*.xml")):
            keys = report.stem.split(SEPARATOR)
            if not all(KEY.match(key) for key in keys):
                continue  # the host entry, a placeholder
            root = ElementTree.parse(report).getroot()
            start = datetime.datetime.fromisoformat(root.get("timestamp"))
            end = start + datetime.timedelta(seconds=float(root.get("time", "0")))
            yield f"{report.parent.name}/{report.stem}", set(keys), start, end


def main(folders):
    found = list(entries(folders))
    if not found:
        print("check_device_overlap: no entry report of a device under " + ", ".join(folders))
        return 1
    concurrent = 0
    clashes = []
    for i, (name, keys, start, end) in enumerate(found):
        for other, other_keys, other_start, other_end in found[i + 1:]:
            if start < other_end and other_start < end:
                concurrent += 1
                if keys & other_keys:
                    clashes.append(f"{name} and {other} both held {', '.join(sorted(keys & other_keys))}")
    print(f"check_device_overlap: {len(found)} entries of devices and device sets, "
          f"{concurrent} pairs of them ran at the same time, {len(clashes)} on a common device")
    for clash in clashes:
        print("  " + clash)
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
