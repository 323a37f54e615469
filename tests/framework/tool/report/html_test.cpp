// `polydev report --html`: one self-contained page, every text from the reports escaped, the
// messages grouped with their counts, cells linking to their message and places linking to files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "matrix.hpp"
#include "render.hpp"
#include "report_samples.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::Matrix;
using polydev::report::parse_report_xml;
using polydev::report::samples::device_case;
using polydev::report::samples::failure;
using polydev::report::samples::grouped_sample;
using polydev::report::samples::hostile_report;
using polydev::report::samples::kPthread0;
using polydev::report::samples::kPthread1;
using polydev::report::samples::occurrences;
using polydev::report::samples::report;
using polydev::report::samples::sample;
using polydev::report::samples::skipped;
using polydev::report::samples::suite;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ReportHtml, SelfContainedPageWithColoredCellsAndFlaggedRows) {
  const std::string html = polydev::report::format_html(sample(), {"results/a.xml"});
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  for (const char* external : {"<script", "<link", "src=", "http://", "https://", "@import"}) {
    EXPECT_THAT(html, Not(HasSubstr(external))) << external;
  }
  std::string wrappable = kPthread1;  // a header may wrap after each underscore
  for (std::size_t at = wrappable.find('_'); at != std::string::npos;
       at = wrappable.find('_', at + 6)) {
    wrappable.insert(at + 1, "<wbr>");
  }
  EXPECT_THAT(html, HasSubstr("<span class=\"key\">" + wrappable + "</span>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"badge xfail\">1 xfail</span>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"badge skip\">2 skip</span>"));
  EXPECT_THAT(html, HasSubstr("pthread-skylake-avx512-AMD EPYC"));
  EXPECT_THAT(html, HasSubstr("<td class=\"cell fail\""));
  EXPECT_THAT(html, HasSubstr("<td class=\"cell xpass\""));
  EXPECT_THAT(html, HasSubstr("<tr class=\"flagged\"><td class=\"test\"><span "
                              "class=\"name\">OpenCL/Fp64.Adds</span><span class=\"flag\">skipped "
                              "on every device</span>"));
  EXPECT_THAT(html, HasSubstr("7 results from 1 file in <code>results/</code></summary>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"flag\">ran on no device</span>"));
  EXPECT_THAT(html, HasSubstr("<span class=\"badge fail\">1 fail</span>"));
  EXPECT_THAT(html, HasSubstr("y[3] is 7, expected 8"));
}

TEST(ReportHtml, EscapesEveryTextFromTheReports) {
  const std::string xml =
      report(suite("OpenCL/S&lt;script&gt;",
                   device_case("T", kPthread0,
                               failure("&lt;img onerror=&apos;x&apos;&gt; &amp; &quot;q&quot;"))));
  const std::string html =
      polydev::report::format_html(build_matrix(parse_report_xml(xml, "a<b>.xml")), {"a<b>.xml"});
  EXPECT_THAT(html, Not(HasSubstr("<script>")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, Not(HasSubstr("a<b>")));
  EXPECT_THAT(html, HasSubstr("OpenCL/S&lt;script&gt;.T"));
  EXPECT_THAT(html, HasSubstr("&lt;img onerror=&#39;x&#39;&gt; &amp; &quot;q&quot;"));
  EXPECT_THAT(html, HasSubstr("a&lt;b&gt;.xml"));
}

TEST(ReportHtml, ShowsForeignTextWithoutControlCharacters) {
  const std::string html = polydev::report::format_html(
      build_matrix(parse_report_xml(hostile_report(), "a.xml")), {"a.xml"});
  for (const char raw : {'\x1b', '\x07', '\x7f', '\xff', '\xc0'}) {
    EXPECT_EQ(html.find(raw), std::string::npos) << "raw byte " << int{raw};
  }
  EXPECT_THAT(html, HasSubstr("OpenCL/S\\x1b[31m.T\\xff"));
}

// A right-to-left override (U+202E) in a name or message would reorder what the page shows after
// it ("T\u202Egnp.exe" reads "Texe.png"): it is shown as its bytes' escapes, in the text form too.
TEST(ReportHtml, ShowsBidiOverridesEscaped) {
  const std::string xml =
      report(suite("OpenCL/S", device_case("T\u202egnp.exe", kPthread0,
                                           failure("moved \u2066here\u2069 \u202eright"))));
  const auto matrix = build_matrix(parse_report_xml(xml, "a.xml"));
  const std::string html = polydev::report::format_html(matrix, {"a.xml"});
  for (const char* raw : {"\u202e", "\u2066", "\u2069"}) {
    EXPECT_EQ(html.find(raw), std::string::npos) << "a raw bidi control on the page";
  }
  EXPECT_THAT(html, HasSubstr("T\\xe2\\x80\\xaegnp.exe"));
  const std::string text = polydev::report::format_text(matrix, {"a.xml"});
  EXPECT_EQ(text.find("\u202e"), std::string::npos) << text;
  EXPECT_THAT(text, HasSubstr("T\\xe2\\x80\\xaegnp.exe"));
}

TEST(ReportHtml, NamesTheFilesFolderOnceWhenTheyShareOne) {
  const Matrix matrix = build_matrix({});
  EXPECT_THAT(
      polydev::report::format_html(matrix, {"out/a.xml", "out/b.xml"}),
      HasSubstr("2 files in <code>out/</code></summary><p class=\"sub\"><code>a.xml</code>, "
                "<code>b.xml</code></p>"));
  EXPECT_THAT(polydev::report::format_html(matrix, {"out/a.xml", "b.xml"}),
              HasSubstr("2 files</summary><p class=\"sub\"><code>out/a.xml</code>, "
                        "<code>b.xml</code></p>"));
}

// A CI run reads hundreds of files: their list is folded, and the summary stays at the top.
TEST(ReportHtml, TheFilesReadAreFolded) {
  const std::string html = polydev::report::format_html(sample(), {"results/a.xml"});
  EXPECT_THAT(html, HasSubstr("<h1>polydev report</h1>\n<details class=\"files\"><summary>7 "
                              "results from 1 file in <code>results/</code></summary><p "
                              "class=\"sub\"><code>a.xml</code></p></details>\n<div "
                              "class=\"summary\">"));
}

// However long the matrix, a failure is a click away: the summary's badges link to the sections
// that list what they count.
TEST(ReportHtml, TheSummaryBadgesLinkToTheirSections) {
  const std::string html = polydev::report::format_html(sample(), {"a.xml"});
  EXPECT_THAT(html,
              HasSubstr("<a href=\"#failures\"><span class=\"badge fail\">1 fail</span></a>"));
  EXPECT_THAT(html,
              HasSubstr("<a href=\"#failures\"><span class=\"badge xpass\">1 xpass</span></a>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"#reasons\"><span class=\"badge skip\">2 skip</span></a>"));
  EXPECT_THAT(html, HasSubstr("<section id=\"failures\"><h2>Failures and unexpected passes</h2>"));
  EXPECT_THAT(html, HasSubstr("<section id=\"reasons\"><h2>Reasons for skips"));
  EXPECT_THAT(html, HasSubstr("<table class=\"matrix\" id=\"matrix\">"));
  const std::string none = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(none, HasSubstr("<div class=\"summary\"><span class=\"badge pass zero\">0 pass</span>"
                              "<a href=\"#failures\">"))
      << "nothing to link to";
}

// Identical boards have one name and keys that differ in their last characters: the header
// numbers them among themselves.
TEST(ReportHtml, DevicesOfOneNameAreToldApartInTheirHeaders) {
  const std::string html = polydev::report::format_html(sample(), {"a.xml"});
  const std::string twin = "<span class=\"twin\" title=\"one of several devices of this name\">";
  EXPECT_THAT(html, HasSubstr("<span class=\"num\">[1]</span> pthread-skylake-avx512-AMD EPYC " +
                              twin + "#1</span><span class=\"key\">"));
  EXPECT_THAT(html, HasSubstr("<span class=\"num\">[2]</span> pthread-skylake-avx512-AMD EPYC " +
                              twin + "#2</span><span class=\"key\">"));
  const std::string one = polydev::report::format_html(
      build_matrix(parse_report_xml(report(suite("OpenCL/S", device_case("T", kPthread0))), "a")),
      {"a"});
  EXPECT_THAT(one, Not(HasSubstr("class=\"twin\""))) << "a name of its own";
}

// Two machines of one kind: a row of machines above their devices, each device once per machine.
TEST(ReportHtml, ColumnsOfSeveralMachinesAreGroupedUnderTheirMachine) {
  const std::string html = polydev::report::format_html(
      build_matrix(polydev::report::samples::two_machines()), {"a.xml", "b.xml"});
  EXPECT_THAT(html, HasSubstr("<table class=\"matrix hosts\" id=\"matrix\">\n<thead><tr><th "
                              "rowspan=\"2\">test</th><th class=\"machine\" colspan=\"1\">ci-a"
                              "</th><th class=\"machine\" colspan=\"1\">ci-b</th></tr>\n<tr><th "
                              "class=\"dev\""));
  EXPECT_THAT(html,
              HasSubstr("<span class=\"num\">[2]</span> pthread-skylake-avx512-AMD EPYC<span"))
      << "one device of that name on each machine";
  EXPECT_THAT(html, HasSubstr("<th>machine</th><th>key</th>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>[2]</td><td class=\"mono\">ci-b</td><td class=\"mono\">" +
                              std::string(kPthread0) + "</td>"));
  EXPECT_THAT(html, HasSubstr("<code>OpenCL/S.T</code> on <code>ci-a/" + std::string(kPthread0) +
                              "</code>"));
  EXPECT_THAT(html, Not(HasSubstr("Overlapping results")));
}

// A pass that a `strict: false` expectation allows has no message: the place of its expectation
// is shown and linked instead.
TEST(ReportHtml, AnAllowedUnexpectedPassLinksItsExpectation) {
  const std::string props =
      "<property name=\"polydev_expectation\" value=\"xfail\"/>"
      "<property name=\"polydev_expectation_result\" value=\"passed\"/>"
      "<property name=\"polydev_expectation_source\" value=\"/work/proj/polydev.yaml:7\"/>";
  polydev::report::SourceLinks links;
  links.page_folder = "/work/proj/build";
  const std::string html = polydev::report::format_html(
      build_matrix(parse_report_xml(
          report(suite("OpenCL/S", device_case("T", kPthread0, "", "completed", props))), "a.xml")),
      {"a.xml"}, links);
  EXPECT_THAT(html, HasSubstr("<pre>passed, but the xfail expectation at /work/proj/polydev.yaml:7 "
                              "says it fails: if it is fixed, remove the expectation</pre><div "
                              "class=\"where\">at <a href=\"../polydev.yaml\"><code>"
                              "/work/proj/polydev.yaml:7</code></a></div>"));
}

TEST(ReportHtml, ReasonsAreOnThePageGroupedWithCounts) {
  const std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(html, HasSubstr("<h2>Reasons for skips and expected failures</h2>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"m1\"><td class=\"cell skip\">skip</td><td class=\"n\">3"
                              "</td><td><pre>no cl_khr_fp64</pre><div class=\"where\">at "
                              "<code>/src/fp64_test.cpp:12</code></div><details><summary>3 "
                              "results: 1 test on [1], [2], [3]</summary>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"m2\"><td class=\"cell xfail\">xfail</td><td class=\"n\">2"
                              "</td><td><pre>expected failure: known bug "
                              "[/work/proj/polydev.yaml:3]</pre>"));
  EXPECT_THAT(html, HasSubstr("2 results: 2 tests on [1]</summary>"));
  for (const char* key : {"opencl_a_0", "opencl_b_0", "opencl_c_0"}) {
    EXPECT_THAT(html, HasSubstr("<tr><td class=\"mono\">OpenCL/Fp64.Adds</td><td class=\"mono\">" +
                                std::string(key) + "</td>"));
  }
  // Shown once on the page (the tooltips aside), not once per result.
  EXPECT_EQ(occurrences(html, "<pre>no cl_khr_fp64</pre>"), 1u);
}

TEST(ReportHtml, AFailureRepeatedForEveryTestIsShownOnceWithItsCount) {
  const std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(html, HasSubstr("<div class=\"failure\" id=\"m0\"><b>FAIL</b> <span "
                              "class=\"count\">&#215;5</span> <code>OpenCL/Suite0.T</code> on "
                              "<code>no device</code> and 4 more<pre>PYOPENCL_TEST entry 1 "
                              "&#39;x&#39;: no platform matches</pre>"));
  EXPECT_THAT(html, HasSubstr("<summary>5 results: 5 tests on no device</summary>"));
  EXPECT_EQ(occurrences(html, "<pre>PYOPENCL_TEST entry 1"), 1u);
  EXPECT_EQ(occurrences(html, "<div class=\"failure"), 1u);
  // The flagged tests link to it instead of repeating it.
  EXPECT_EQ(occurrences(html,
                        "<a href=\"#m0\">PYOPENCL_TEST entry 1 &#39;x&#39;: no platform "
                        "matches</a>"),
            5u);
}

TEST(ReportHtml, CellsLinkToTheirMessage) {
  const std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"});
  EXPECT_THAT(html, HasSubstr("\"><a href=\"#m1\">skip</a></td>"));
  EXPECT_THAT(html, HasSubstr("\"><a href=\"#m2\">xfail</a></td>"));
  EXPECT_THAT(html, HasSubstr("\"><a href=\"#m0\">FAIL</a></td>"));
  const std::string passed = polydev::report::format_html(
      build_matrix(parse_report_xml(report(suite("OpenCL/S", device_case("T", kPthread0))), "a")),
      {"a"});
  EXPECT_THAT(passed, HasSubstr("\">pass</td>")) << "a pass has no message";
  EXPECT_THAT(passed, Not(HasSubstr("Reasons for skips"))) << "no empty section";
}

TEST(ReportHtml, LocationsLinkRelativeToThePageOrBelowTheSourceUrl) {
  polydev::report::SourceLinks links;
  links.page_folder = "/work/proj/build/report";
  std::string html = polydev::report::format_html(grouped_sample(), {"a.xml"}, links);
  EXPECT_THAT(html, HasSubstr("at <a href=\"../../polydev.yaml\"><code>/work/proj/polydev.yaml:3"
                              "</code></a>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"../../../../src/fp64_test.cpp\">"));

  links.url = "https://example.org/o/r/blob/abc123";
  links.root = "/work/proj";
  html = polydev::report::format_html(grouped_sample(), {"a.xml"}, links);
  EXPECT_THAT(html, HasSubstr("at <a href=\"https://example.org/o/r/blob/abc123/polydev.yaml#L3\">"
                              "<code>/work/proj/polydev.yaml:3</code></a>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"../../../../src/fp64_test.cpp\">"))
      << "outside the root: relative to the page";
}

TEST(ReportLinks, WhatALocationLinksTo) {
  using polydev::report::source_link;
  polydev::report::SourceLinks page;
  page.page_folder = "/ci/out";
  EXPECT_EQ(source_link("/ci/out/x.yaml:3", page), "x.yaml");
  EXPECT_EQ(source_link("/ci/src/my dir/t#1.cpp:40", page), "../src/my%20dir/t%231.cpp");
  EXPECT_EQ(source_link("/ci/a/../polydev.yaml", page), "../polydev.yaml") << "no line";
  EXPECT_EQ(source_link("unknown file", page), "");
  EXPECT_EQ(source_link("tests/t.cpp:3", page), "") << "relative to an unknown folder";
  EXPECT_EQ(source_link("/ci/t.cpp:3", {}), "") << "no page, no URL: text";
  polydev::report::SourceLinks url = page;
  url.url = "https://example.org/blob/1/";
  url.root = "/ci";
  EXPECT_EQ(source_link("/ci/src/t.cpp:40", url), "https://example.org/blob/1/src/t.cpp#L40");
  EXPECT_EQ(source_link("/ci/src/t.cpp", url), "https://example.org/blob/1/src/t.cpp");
  EXPECT_EQ(source_link("/elsewhere/t.cpp:4", url), "../../elsewhere/t.cpp");
  EXPECT_EQ(source_link("/ci", url), "..") << "the root itself is no file below it";
}

TEST(ReportHtml, ReasonsAndLocationsAreEscaped) {
  const std::string xml = report(
      suite("OpenCL/S",
            device_case(
                "T", kPthread0,
                skipped("/src/&quot;x&quot;&lt;.cpp:3&#x0A;&lt;script&gt;alert(1)&lt;/script&gt;"),
                "skipped")));
  polydev::report::SourceLinks links;
  links.page_folder = "/out";
  const std::string html =
      polydev::report::format_html(build_matrix(parse_report_xml(xml, "a.xml")), {"a.xml"}, links);
  EXPECT_THAT(html, Not(HasSubstr("<script>")));
  EXPECT_THAT(html, HasSubstr("<pre>&lt;script&gt;alert(1)&lt;/script&gt;</pre>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"../src/%22x%22%3C.cpp\"><code>/src/&quot;x&quot;&lt;.cpp:3"
                              "</code></a>"));
}

}  // namespace
