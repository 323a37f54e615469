#!/usr/bin/env bash
# The CMake snippets and C++ examples of README.md and docs/*.md, built as written, so that they
# cannot drift from polydev. In the Markdown, an HTML comment on the line before a code block says what the block is:
#
#   <!-- snippet: project [files=NAME,...] [requires=opencl|cuda] -->   before a ```cmake block: a
#        complete CMakeLists.txt, built with the files it names
#   <!-- snippet: file NAME -->      before any code block: the file NAME of the projects that name
#                                    it (names are unique across the pages)
#   <!-- snippet: compile [requires=opencl|cuda] -->   before a ```cpp block: a whole translation
#        unit, with every include it needs written in it, compiled (not linked) against the
#        installed polydev with its targets' include flags and definitions
#   <!-- snippet: body [requires=opencl|cuda] [uses=NAME,...] -->   before a ```cpp block:
#        statements as they stand in a function (local classes and declarations too), compiled
#        as the body of a function whose parameters are the names in `uses`, from the table
#        `known` below (device, context, queue, kernel: the bindings' objects; source, folder:
#        strings; local_size; launch: a function of a device pointer); its #include lines go
#        before the function. A line may show a value (`pool.held_blocks();  // 0`): unused
#        values and variables are no error in a body
#   <!-- snippet: fragment -->       before a ```cmake or ```cpp block that is deliberately not a
#                                    whole file or body (a signature, macros of a placeholder)
#
# Every ```cmake and every ```cpp block needs one of these (a ```cpp block: file, compile, body or
# fragment), so a new snippet is never silently left unchecked; an unmarked one fails the stage,
# naming its page and line. A compiler error in a compile or body block names the page's line. Each
# project is configured against one install of polydev (a project that gets polydev with
# FetchContent, against this checkout: FETCHCONTENT_SOURCE_DIR_POLYDEV), built with warnings as
# errors, and its tests run through CTest on every PoCL device. A project that requires a backend
# polydev was built without, or CUDA without nvcc, is listed as not built.
#
#   ci/doc-snippets.sh [BUILD_DIR]   install from a built polydev build folder (default:
#                                    POLYDEV_BUILD_DIR, which ci/test.sh sets); without one,
#                                    polydev is built first, tests off
#   POLYDEV_SNIPPETS=compile ci/doc-snippets.sh [BUILD_DIR]   only the compile and body blocks
#                                    (quicker while editing a page; CI builds every project)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-${POLYDEV_BUILD_DIR:-}}"

# shellcheck source=ci/lib/installed-package.sh
source ci/lib/installed-package.sh

# Extracts the marked blocks: one folder per project under $work/projects, and a line per project
# in $work/projects.txt: folder, page:line, requires.
python3 - "$work" README.md docs/*.md <<'PY'
import os, re, sys

work, pages = sys.argv[1], sys.argv[2:]
marker = re.compile(r"^<!-- snippet: (project|file|compile|body|fragment)\b(.*?)-->\s*$")
fence = re.compile(r"^```(\S*)\s*$")
files, projects, errors = {}, [], []
compiled = {}  # requires -> [(where, unit)]
# The names a body block may use without declaring them, as the parameters of its function.
known = {
    "device": "const cl::Device& device",
    "context": "const cl::Context& context",
    "queue": "const cl::CommandQueue& queue",
    "kernel": "cl::Kernel& kernel",
    "source": "const std::string& source",
    "folder": "const std::string& folder",
    "local_size": "std::size_t local_size",
    "launch": "void (*launch)(void* data)",
}


def compile_unit(page, start, body):
    """A compile block as a translation unit whose lines the compiler names by the page's."""
    return f'#line {start + 1} "{page}"\n' + body


def body_unit(page, start, body, uses, number):
    """A body block as a translation unit: its includes, then a function of it."""
    includes, statements, following = [], [], False
    for offset, line in enumerate(body.rstrip("\n").split("\n")):
        if line.lstrip().startswith("#include"):
            includes.append(f'#line {start + 1 + offset} "{page}"\n{line}')
            following = False
            continue
        if not following:
            statements.append(f'#line {start + 1 + offset} "{page}"')
            following = True
        statements.append(line)
    parameters = ", ".join(known[name] for name in uses)
    return ("\n".join(includes) + "\n"
            + ("#include <CL/opencl.hpp>\n" if any(known[n].count("cl::") for n in uses) else "")
            + "#include <cstddef>\n#include <string>\n"
            "#pragma GCC diagnostic ignored \"-Wunused-result\"\n"
            "#pragma GCC diagnostic ignored \"-Wunused-value\"\n"
            "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
            "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n"
            f"void polydev_snippet_body_{number}({parameters});\n"
            f"void polydev_snippet_body_{number}({parameters}) {{\n"
            + "\n".join(statements) + "\n}\n")


for page in pages:
    lines = open(page, encoding="utf-8").read().split("\n")
    pending = None  # (kind, attributes, line) of a marker waiting for its block
    i = 0
    while i < len(lines):
        found = marker.match(lines[i])
        if found:
            if pending:
                errors.append(f"{page}:{pending[2]}: a snippet marker with no code block after it")
            pending = (found.group(1), found.group(2).split(), i + 1)
            i += 1
            continue
        opening = fence.match(lines[i])
        if not opening or not opening.group(1):
            if lines[i].strip() and pending:
                errors.append(f"{page}:{pending[2]}: the snippet marker is not right before a code block")
                pending = None
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = "\n".join(lines[start:end]) + "\n"
        language = opening.group(1)
        where = f"{page}:{start}"
        if pending is None:
            if language == "cmake":
                errors.append(f"{where}: a cmake block without a snippet marker; put "
                              "'<!-- snippet: project -->' (a complete project, built in CI) or "
                              "'<!-- snippet: fragment -->' on the line before it")
            elif language == "cpp":
                errors.append(f"{where}: a cpp block without a snippet marker; put "
                              "'<!-- snippet: compile -->' (a whole file, compiled in CI, with "
                              "its includes), '<!-- snippet: body uses=NAME,... -->' "
                              "(statements, compiled in a function), '<!-- snippet: file NAME -->' "
                              "(a file of a project) or '<!-- snippet: fragment -->' on the line "
                              "before it")
        else:
            kind, attributes, _ = pending
            if kind == "file":
                if len(attributes) != 1:
                    errors.append(f"{where}: 'snippet: file' names one file")
                elif attributes[0] in files:
                    errors.append(f"{where}: a second snippet file {attributes[0]} "
                                  f"(first at {files[attributes[0]][1]})")
                else:
                    files[attributes[0]] = (body, where)
            elif kind == "compile":
                options = dict(a.split("=", 1) for a in attributes if "=" in a)
                if language != "cpp":
                    errors.append(f"{where}: 'snippet: compile' marks a cpp block, not {language}")
                elif set(options) - {"requires"} or any("=" not in a for a in attributes):
                    errors.append(f"{where}: unknown snippet attributes {attributes}")
                else:
                    compiled.setdefault(options.get("requires", ""), []).append(
                        (where, compile_unit(page, start, body)))
            elif kind == "body":
                options = dict(a.split("=", 1) for a in attributes if "=" in a)
                uses = [n for n in options.get("uses", "").split(",") if n]
                if language != "cpp":
                    errors.append(f"{where}: 'snippet: body' marks a cpp block, not {language}")
                elif set(options) - {"requires", "uses"} or any("=" not in a for a in attributes):
                    errors.append(f"{where}: unknown snippet attributes {attributes}")
                elif set(uses) - set(known):
                    errors.append(f"{where}: uses={','.join(sorted(set(uses) - set(known)))}: "
                                  f"not a name a body may use; known: {', '.join(known)}")
                else:
                    number = sum(len(units) for units in compiled.values()) + 1
                    compiled.setdefault(options.get("requires", ""), []).append(
                        (where, body_unit(page, start, body, uses, number)))
            elif kind == "fragment" and language == "cpp":
                pass
            elif language != "cmake":
                errors.append(f"{where}: 'snippet: {kind}' marks a cmake block, not {language}")
            elif kind == "project":
                options = dict(a.split("=", 1) for a in attributes if "=" in a)
                unknown = set(options) - {"files", "requires"} or {a for a in attributes if "=" not in a}
                if unknown:
                    errors.append(f"{where}: unknown snippet attributes {sorted(unknown)}")
                projects.append((where, body, [f for f in options.get("files", "").split(",") if f],
                                 options.get("requires", "")))
            pending = None
        i = end + 1

# The compile snippets: one project per backend they require, an object library of them all.
for requires, units in sorted(compiled.items()):
    where = f"{len(units)}-compile-snippets-from-{units[0][0]}"
    names = [f"unit_{requires or 'any'}_{n:02d}.cpp" for n in range(1, len(units) + 1)]
    body = ("cmake_minimum_required(VERSION 3.25)\nproject(compile_snippets LANGUAGES CXX)\n"
            "find_package(polydev CONFIG REQUIRED COMPONENTS framework pools gtest)\n"
            f"add_library(snippets OBJECT {' '.join(names)})\n"
            "target_link_libraries(snippets PRIVATE polydev::pools polydev::gtest)\n"
            "enable_testing()\n"
            "add_test(NAME compiled COMMAND ${CMAKE_COMMAND} -E echo compiled)\n")
    projects.append((where, body, names, requires))
    for name, (unit_where, unit) in zip(names, units):
        files[name] = (f"// {unit_where}\n" + unit, unit_where)

listing = []
for number, (where, body, needed, requires) in enumerate(projects, 1):
    folder = os.path.join(work, "projects", f"{number:02d}")
    os.makedirs(folder)
    with open(os.path.join(folder, "CMakeLists.txt"), "w", encoding="utf-8") as out:
        out.write(body)
    for name in needed:
        if name not in files:
            errors.append(f"{where}: the project names {name}, which no 'snippet: file' block is")
            continue
        with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
            out.write(files[name][0])
    listing.append(f"{folder} {where} {requires or '-'}")
if errors:
    sys.exit("\n".join(errors))
if not projects:
    sys.exit("no '<!-- snippet: project -->' block found")
with open(os.path.join(work, "projects.txt"), "w") as out:
    out.write("\n".join(listing) + "\n")
PY

install_polydev "$build"
config="$(find "$prefix" -name polydevConfig.cmake)"
has_backend() {
  grep -q "^set(polydev_HAS_$1 ON)" "$config"
}

only="${POLYDEV_SNIPPETS:-all}"
[[ "$only" == all || "$only" == compile ]] || fail "POLYDEV_SNIPPETS='$only'; expected all or compile"
built=0
while read -r folder where requires; do
  [[ "$only" == all || "$where" == *-compile-snippets-from-* ]] || continue
  case "$requires" in
    -) ;;
    opencl | cuda)
      if ! has_backend "${requires^^}"; then
        echo "== $where: not built: polydev was built without ${requires}"
        continue
      fi
      if [[ "$requires" == cuda ]] && ! command -v nvcc >/dev/null 2>&1; then
        echo "== $where: not built: no nvcc on PATH for its CUDA sources"
        continue
      fi
      ;;
    *) fail "$where: requires=$requires; expected opencl or cuda" ;;
  esac
  echo "== $where"
  options=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror"
    "-DCMAKE_PREFIX_PATH=$prefix")
  if grep -q 'FetchContent_Declare(polydev' "$folder/CMakeLists.txt"; then
    # The snippet's repository and tag stand for the user's; this checkout is that source.
    options+=("-DFETCHCONTENT_SOURCE_DIR_POLYDEV=$PWD")
  fi
  logged "$folder.configure.log" cmake -S "$folder" -B "$folder/build" "${options[@]}"
  logged "$folder.build.log" cmake --build "$folder/build" --parallel "$(nproc)"
  logged "$folder.ctest.log" ctest --test-dir "$folder/build" --output-on-failure \
    --no-tests=error --timeout 300
  echo "   $(grep -E '^[0-9]+% tests passed' "$folder.ctest.log")"
  built=$((built + 1))
done <"$work/projects.txt"
((built > 0)) || fail "no snippet project was built"
echo "ci/doc-snippets.sh: $built snippet projects of README.md and docs/ built and passed"
