// The include scanning behind both program caches' keys, without a driver: which directives are
// found, which folders the options add, and how names are resolved, read and bounded (missing
// files, FIFOs, huge headers, cycles, too many files, too deep).
#include "opencl/program_cache_includes.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/scoped_environment.hpp"

namespace {

namespace fs = std::filesystem;
using polydev::opencl::ProgramIncludes;
using polydev::opencl::detail::include_options;
using polydev::opencl::detail::IncludeResolver;
using polydev::opencl::detail::scan_include_directives;
using polydev_test::TemporaryDirectory;

std::vector<std::string> names(const std::string& text) {
  std::vector<std::string> result;
  for (const auto& directive : scan_include_directives(text).directives) {
    result.push_back((directive.quoted ? "\"" : "<") + directive.name);
  }
  return result;
}

ProgramIncludes resolve(const std::string& source, const std::string& options,
                        const std::string& source_folder = "/nonexistent-source-folder") {
  return IncludeResolver(options, source_folder).resolve(source);
}

std::string canonical(const std::string& path) { return fs::weakly_canonical(path).string(); }

// ---------------------------------------------------------------------------------------------
// Directives

TEST(IncludeDirectives, FindsQuotedAndAngledNamesInEveryForm) {
  EXPECT_EQ(names("#include \"a.h\"\n#include <b.h>\n"),
            (std::vector<std::string>{"\"a.h", "<b.h"}));
  EXPECT_EQ(names("  #  include\t<sub/c.h>\n"), (std::vector<std::string>{"<sub/c.h"}));
  EXPECT_EQ(names("#/* c */include/* d */\"e.h\""), (std::vector<std::string>{"\"e.h"}));
  EXPECT_EQ(names("%:include <digraph.h>\n"), (std::vector<std::string>{"<digraph.h"}));
  EXPECT_EQ(names("#inc\\\nlude \"spliced.h\"\n"), (std::vector<std::string>{"\"spliced.h"}));
  EXPECT_EQ(names("#include<tight.h>"), (std::vector<std::string>{"<tight.h"}));
}

TEST(IncludeDirectives, OverApproximatesCommentsAndDisabledCode) {
  EXPECT_EQ(names("// #include \"in_comment.h\"\n#if 0\n#include <disabled.h>\n#endif\n"),
            (std::vector<std::string>{"\"in_comment.h", "<disabled.h"}));
}

TEST(IncludeDirectives, IgnoresOtherDirectivesAndWords) {
  EXPECT_TRUE(names("#define X 1\n#included here\n#pragma once\n__kernel void k() {}\n").empty());
  EXPECT_TRUE(scan_include_directives("#includes").problem.empty());
}

TEST(IncludeDirectives, ComputedIncludeNextAndUnclosedNamesAreProblems) {
  const std::string computed = scan_include_directives("#include HEADER\n").problem;
  EXPECT_NE(computed.find("computed #include ('#include HEADER')"), std::string::npos) << computed;
  EXPECT_NE(computed.find("quotes or angle brackets"), std::string::npos) << computed;
  EXPECT_NE(scan_include_directives("#include_next <a.h>\n").problem.find("#include_next"),
            std::string::npos);
  EXPECT_NE(scan_include_directives("#include \"open.h\n").problem.find("not closed"),
            std::string::npos);
  EXPECT_NE(scan_include_directives("#include <>\n").problem.find("empty"), std::string::npos);
  EXPECT_NE(scan_include_directives("#include").problem.find("computed"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Options

TEST(IncludeOptions, TakesBothFormsOfEveryFolderFlag) {
  const auto options = include_options(
      "-DX=1 -I /a -I/b -I \"/with space\" -iquote /q -isystem/s -idirafter /d -include f.h "
      "-cl-std=CL1.2 -I");
  EXPECT_EQ(options.folders, (std::vector<std::string>{"/a", "/b", "/with space", "/s", "/d"}));
  EXPECT_EQ(options.quoted_folders, (std::vector<std::string>{"/q"}));
  EXPECT_EQ(options.forced, (std::vector<std::string>{"f.h"}));
}

// ---------------------------------------------------------------------------------------------
// Resolution

TEST(IncludeResolver, NoIncludesGiveAnEmptyKeyAndNoProblem) {
  const ProgramIncludes none = resolve("__kernel void k() {}", "-I /nowhere");
  EXPECT_TRUE(none.problem.empty()) << none.problem;
  EXPECT_TRUE(none.key.empty());
  EXPECT_TRUE(none.files.empty());
}

TEST(IncludeResolver, AngledNamesAreFoundThroughEitherFormOfI) {
  TemporaryDirectory folder;
  const std::string header = folder.write("probe-header.h", "#define VALUE 5\n");
  const std::string source = "#include <probe-header.h>\n__kernel void k() {}\n";
  const ProgramIncludes spaced = resolve(source, "-I " + folder.path());
  ASSERT_TRUE(spaced.problem.empty()) << spaced.problem;
  EXPECT_EQ(spaced.files, std::vector<std::string>{canonical(header)});
  EXPECT_NE(spaced.key.find("#define VALUE 5"), std::string::npos) << "the key has the content";
  const ProgramIncludes joined = resolve(source, "-I" + folder.path());
  EXPECT_EQ(joined.key, spaced.key);
}

TEST(IncludeResolver, AChangedHeaderChangesTheKey) {
  TemporaryDirectory folder;
  folder.write("probe-header.h", "#define VALUE 5\n");
  const std::string source = "#include <probe-header.h>\n";
  const std::string before = resolve(source, "-I " + folder.path()).key;
  folder.write("probe-header.h", "#define VALUE 7\n");
  const std::string after = resolve(source, "-I " + folder.path()).key;
  EXPECT_NE(before, after);
  EXPECT_EQ(resolve(source, "-I " + folder.path()).key, after) << "the same content, the same key";
}

TEST(IncludeResolver, QuotedNamesLookInTheIncludingFilesFolderFirstThenFollowEveryMatch) {
  TemporaryDirectory root;
  fs::create_directories(root.path() + "/a");
  fs::create_directories(root.path() + "/b");
  root.write("a/outer.h", "#include \"inner.h\"\n");
  root.write("a/inner.h", "// a's inner\n");
  root.write("b/inner.h", "// b's inner\n");
  const ProgramIncludes found =
      resolve("#include \"outer.h\"\n", "-I " + root.path() + "/a -I " + root.path() + "/b");
  ASSERT_TRUE(found.problem.empty()) << found.problem;
  EXPECT_EQ(found.files, (std::vector<std::string>{canonical(root.path() + "/a/outer.h"),
                                                   canonical(root.path() + "/a/inner.h"),
                                                   canonical(root.path() + "/b/inner.h")}))
      << "a's own folder first, then every -I folder that has one";
}

TEST(IncludeResolver, QuotedNamesOfTheSourceLookInTheSourceFolder) {
  TemporaryDirectory folder;
  const std::string header = folder.write("local.h", "#define LOCAL 1\n");
  const ProgramIncludes found = resolve("#include \"local.h\"\n", "", folder.path());
  ASSERT_TRUE(found.problem.empty()) << found.problem;
  EXPECT_EQ(found.files, std::vector<std::string>{canonical(header)});
  // An angled name does not look there.
  const ProgramIncludes angled = resolve("#include <local.h>\n", "", folder.path());
  EXPECT_NE(angled.problem.find("the #include <local.h> of the source is found in none"),
            std::string::npos)
      << angled.problem;
}

TEST(IncludeResolver, AbsoluteNamesAndForcedIncludesAreFollowed) {
  TemporaryDirectory folder;
  const std::string absolute = folder.write("absolute.h", "1");
  const std::string forced = folder.write("forced.h", "2");
  const ProgramIncludes found =
      resolve("#include \"" + absolute + "\"\n", "-include forced.h -I " + folder.path());
  ASSERT_TRUE(found.problem.empty()) << found.problem;
  EXPECT_EQ(found.files, (std::vector<std::string>{canonical(forced), canonical(absolute)}));
}

TEST(IncludeResolver, NestedIncludesAreFollowedAndFoldersOfTheNameAreSkipped) {
  TemporaryDirectory folder;
  fs::create_directories(folder.path() + "/first/deep.h");  // a folder named like the header
  fs::create_directories(folder.path() + "/second");
  folder.write("second/deep.h", "#include <deeper.h>\n");
  folder.write("second/deeper.h", "#define DEEPEST 3\n");
  const ProgramIncludes found = resolve(
      "#include <deep.h>\n", "-I " + folder.path() + "/first -I " + folder.path() + "/second");
  ASSERT_TRUE(found.problem.empty()) << found.problem;
  EXPECT_EQ(found.files.size(), 2u);
  EXPECT_NE(found.key.find("#define DEEPEST 3"), std::string::npos);
}

TEST(IncludeResolver, CyclesAndSelfIncludesReadEachFileOnce) {
  TemporaryDirectory folder;
  folder.write("a.h", "#include \"b.h\"\n#include \"a.h\"\n");
  folder.write("b.h", "#include \"a.h\"\n");
  const ProgramIncludes found = resolve("#include <a.h>\n", "-I " + folder.path());
  ASSERT_TRUE(found.problem.empty()) << found.problem;
  EXPECT_EQ(found.files.size(), 2u);
}

TEST(IncludeResolver, ANameFoundNowhereIsAProblemThatNamesTheFolders) {
  TemporaryDirectory folder;
  const ProgramIncludes missing =
      resolve("#include <missing.h>\n", "-I " + folder.path() + " -I /also-not-there");
  EXPECT_TRUE(missing.key.empty());
  EXPECT_NE(missing.problem.find("the #include <missing.h> of the source is found in none of the "
                                 "folders searched ('" +
                                 folder.path() + "', '/also-not-there'); add its folder with -I"),
            std::string::npos)
      << missing.problem;
  EXPECT_NE(missing.problem.find("built from source at every call and not cached"),
            std::string::npos)
      << missing.problem;
}

TEST(IncludeResolver, AMissingIncludeInACommentIsAProblemToo) {
  TemporaryDirectory folder;
  folder.write("real.h", "/* see #include <gone.h> */\n");
  const ProgramIncludes found = resolve("#include <real.h>\n", "-I " + folder.path());
  EXPECT_NE(found.problem.find("the #include <gone.h> of '" + canonical(folder.path() + "/real.h") +
                               "' is found in none"),
            std::string::npos)
      << found.problem;
  EXPECT_NE(found.problem.find("an #include in a comment or #if 0 code counts too"),
            std::string::npos)
      << found.problem;
}

TEST(IncludeResolver, AFifoIsAProblemAndNoHang) {
  TemporaryDirectory folder;
  const std::string fifo = folder.path() + "/fifo.h";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const ProgramIncludes found = resolve("#include <fifo.h>\n", "-I " + folder.path());
  EXPECT_NE(found.problem.find("cannot be read: " + fifo + ": a FIFO, not a regular file"),
            std::string::npos)
      << found.problem;
}

TEST(IncludeResolver, AHugeHeaderIsAProblemAndNotRead) {
  TemporaryDirectory folder;
  const std::string huge = folder.write("huge.h", "");
  fs::resize_file(huge, polydev::opencl::detail::kIncludedFileLimit + 1);  // sparse: no disk
  const ProgramIncludes found = resolve("#include <huge.h>\n", "-I " + folder.path());
  EXPECT_NE(found.problem.find("larger than the limit of 16777216 bytes"), std::string::npos)
      << found.problem;
}

TEST(IncludeResolver, TooManyFilesIsAProblem) {
  TemporaryDirectory folder;
  std::string source;
  for (std::size_t i = 0; i <= polydev::opencl::detail::kIncludedFilesLimit; ++i) {
    const std::string name = "h" + std::to_string(i) + ".h";
    folder.write(name, "");
    source += "#include <" + name + ">\n";
  }
  const ProgramIncludes found = resolve(source, "-I " + folder.path());
  EXPECT_NE(found.problem.find("reaches more than 1024 included files"), std::string::npos)
      << found.problem;
}

TEST(IncludeResolver, NestingTooDeepIsAProblem) {
  TemporaryDirectory folder;
  for (std::size_t i = 0; i <= polydev::opencl::detail::kIncludeDepthLimit; ++i) {
    folder.write("d" + std::to_string(i) + ".h", "#include \"d" + std::to_string(i + 1) + ".h\"\n");
  }
  folder.write("d" + std::to_string(polydev::opencl::detail::kIncludeDepthLimit + 1) + ".h", "");
  const ProgramIncludes found = resolve("#include <d0.h>\n", "-I " + folder.path());
  EXPECT_NE(found.problem.find("is nested more than 64 includes deep"), std::string::npos)
      << found.problem;
}

}  // namespace
