// `polydev report` reading GoogleTest's XML: outcomes, messages, properties and expectations of
// each test case, and what the reader refuses, with the file and line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report_samples.hpp"
#include "results.hpp"

namespace {

using polydev::report::CaseResult;
using polydev::report::Outcome;
using polydev::report::parse_report_xml;
using polydev::report::samples::device_case;
using polydev::report::samples::failure;
using polydev::report::samples::kPthread0;
using polydev::report::samples::kPthread1;
using polydev::report::samples::report;
using polydev::report::samples::skipped;
using polydev::report::samples::suite;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ReportParse, ReadsOutcomeMessageAndPropertiesOfEachTestCase) {
  const std::string xml = report(suite(
      "OpenCL/Saxpy",
      device_case("Matches", kPthread0) +
          device_case("Matches", kPthread1,
                      failure("/src/saxpy_test.cpp:30&#x0A;Expected equality") +
                          failure("/src/saxpy_test.cpp:31&#x0A;second")) +
          device_case("NeedsFp64", kPthread0, skipped("/src/x.cpp:5&#x0A;no fp64"), "skipped") +
          "<testcase name=\"DISABLED_Later\" status=\"notrun\" result=\"suppressed\" time=\"0\" "
          "classname=\"OpenCL/Saxpy\"/>"));
  const std::vector<CaseResult> results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].suite, "OpenCL/Saxpy");
  EXPECT_EQ(results[0].name, std::string("Matches/") + kPthread0);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[0].properties.at("polydev_device_key"), kPthread0);
  EXPECT_EQ(results[0].properties.at("polydev_driver"), "3.1+debian");
  EXPECT_EQ(results[0].file, "a.xml");
  EXPECT_EQ(results[0].line, 4);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message,
            "/src/saxpy_test.cpp:30\nExpected equality\n\n/src/saxpy_test.cpp:31\nsecond");
  EXPECT_EQ(results[2].outcome, Outcome::skip);
  EXPECT_EQ(results[2].message, "/src/x.cpp:5\nno fp64");
  EXPECT_EQ(results[3].outcome, Outcome::skip);
  EXPECT_EQ(results[3].message, "not run (disabled)");
}

TEST(ReportParse, SkippedResultWithoutElementAndJUnitErrorElement) {
  const std::string xml = report(suite("S",
                                       "<testcase name=\"a\" status=\"run\" result=\"skipped\"/>"
                                       "<testcase name=\"b\" status=\"run\" result=\"completed\">"
                                       "<error message=\"crashed\"/></testcase>"));
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::skip);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "crashed");
}

TEST(ReportParse, EmptyReportHasNoResults) {
  EXPECT_TRUE(parse_report_xml(report(""), "a.xml").empty());
}

TEST(ReportParse, ExpectationsMakeXfailAndXpass) {
  const std::string xfail = "<property name=\"polydev_expectation\" value=\"xfail\"/>";
  const std::string xml = report(suite(
      "OpenCL/Known",
      // Without the fixture's word, a failure is not taken for the expected one.
      device_case("Fails", kPthread0, failure("boom"), "completed", xfail) +
          device_case("Passes", kPthread0, "", "completed", xfail) +
          // polydev's fixtures report an intercepted expected failure as a skip.
          device_case("Intercepted", kPthread0, skipped("expected failure: ..."), "skipped",
                      xfail) +
          // A fixture that failed an unexpected pass itself (strict mode).
          device_case("StrictXpass", kPthread0,
                      failure("/p/polydev.yaml:3&#x0A;unexpected pass of an xfail entry: remove "
                              "/p/polydev.yaml:3"),
                      "completed",
                      xfail + "<property name=\"polydev_expectation_result\" value=\"passed\"/>") +
          // A fixture that kept the expected failure from GoogleTest.
          device_case("Hidden", kPthread0, "", "completed",
                      xfail + "<property name=\"polydev_expectation_result\" value=\"failed\"/>")));
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_EQ(results[0].message, "boom");
  EXPECT_EQ(results[1].outcome, Outcome::xpass);
  EXPECT_EQ(results[2].outcome, Outcome::xfail);
  EXPECT_EQ(results[2].message, "expected failure: ...");
  EXPECT_EQ(results[3].outcome, Outcome::xpass);
  EXPECT_EQ(results[4].outcome, Outcome::xfail);
  // What GoogleTest itself said stays known: the strict XPASS failed the run.
  EXPECT_TRUE(results[0].run_failed);
  EXPECT_FALSE(results[1].run_failed);
  EXPECT_TRUE(results[3].run_failed);
  EXPECT_FALSE(results[4].run_failed);
}

// The fixture keeps the expected failures from GoogleTest; a <failure> that GoogleTest still
// wrote (another thread's, a derived fixture's TearDown) is a failure of its own.
TEST(ReportParse, AFailureBesideAnExpectedOneIsAFailure) {
  const std::string expected =
      "<property name=\"polydev_expectation\" value=\"xfail\"/>"
      "<property name=\"polydev_expectation_result\" value=\"failed\"/>"
      "<property name=\"polydev_skip_reason\" value=\"expected failure: known bug\"/>";
  const std::string unexpected_pass =
      failure("/p/polydev.yaml:3&#x0A;unexpected pass of an xfail entry: remove /p/polydev.yaml:3");
  const std::string body_passed =
      "<property name=\"polydev_expectation\" value=\"xfail\"/>"
      "<property name=\"polydev_expectation_result\" value=\"passed\"/>";
  const auto results = parse_report_xml(
      report(suite("OpenCL/Known",
                   device_case("Thread", kPthread0,
                               skipped("/p/polydev.yaml:3&#x0A;expected failure: known bug") +
                                   failure("/src/t.cpp:9&#x0A;the worker thread failed"),
                               "skipped", expected) +
                       device_case("StrictAndMore", kPthread0,
                                   unexpected_pass + failure("/src/t.cpp:12&#x0A;TearDown failed"),
                                   "completed", body_passed) +
                       device_case("TwoUnexpectedPasses", kPthread0,
                                   unexpected_pass + unexpected_pass, "completed", body_passed) +
                       device_case("NotTheFixtures", kPthread0,
                                   failure("/src/t.cpp:12&#x0A;TearDown failed"), "completed",
                                   body_passed))),
      "a.xml");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_EQ(results[0].message, "/src/t.cpp:9\nthe worker thread failed")
      << "the real failure is shown, not the expectation's reason";
  EXPECT_TRUE(results[0].run_failed);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_THAT(results[1].message, HasSubstr("TearDown failed"));
  EXPECT_EQ(results[2].outcome, Outcome::fail) << "the fixture writes one unexpected pass";
  EXPECT_EQ(results[3].outcome, Outcome::fail);
}

// polydev's listener records a failure of SetUpTestSuite() or TearDownTestSuite(), which
// GoogleTest's XML leaves out, on the <testsuite>: every test case of the suite failed with it.
TEST(ReportParse, ASuiteFailureFailsEveryTestCaseOfTheSuite) {
  const std::string xml =
      "<testsuites>\n"
      "<testsuite name=\"OpenCL/SetUp\" polydev_suite_failure=\"/src/s.cpp:5&#x0A;no context\">\n"
      "<testcase name=\"A\" status=\"run\" result=\"skipped\"><skipped message=\"\"/></testcase>\n"
      "<testcase name=\"B\" status=\"run\" result=\"completed\">" +
      failure("/src/s.cpp:9&#x0A;own") +
      "</testcase>\n"
      "</testsuite>\n"
      "<testsuite name=\"OpenCL/TearDown\" polydev_suite_failure=\"leaked buffers\">\n"
      "<testcase name=\"C\" status=\"run\" result=\"completed\"/>\n"
      "</testsuite>\n"
      "<testsuite name=\"OpenCL/Empty\" polydev_suite_failure=\"\"/>\n"
      "<testsuite name=\"OpenCL/Fine\">\n"
      "<testcase name=\"D\" status=\"run\" result=\"completed\"/>\n"
      "</testsuite>\n"
      "</testsuites>\n";
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].outcome, Outcome::fail);
  EXPECT_TRUE(results[0].run_failed);
  EXPECT_EQ(results[0].message, "/src/s.cpp:5\nno context");
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "/src/s.cpp:5\nno context\n\n/src/s.cpp:9\nown");
  EXPECT_EQ(results[2].outcome, Outcome::fail);
  EXPECT_EQ(results[2].message, "leaked buffers");
  // A suite without test cases: its failure is one result named by the suite.
  EXPECT_EQ(results[3].suite, "OpenCL/Empty");
  EXPECT_EQ(results[3].outcome, Outcome::fail);
  EXPECT_THAT(results[3].message, HasSubstr("SetUpTestSuite() or TearDownTestSuite() failed"));
  EXPECT_EQ(results[3].line, 9);
  EXPECT_EQ(results[4].outcome, Outcome::pass);
}

// tinyxml2 turns "&#0;" into a NUL that ends the name or message, and stops reading at a NUL
// byte: XML allows neither, so either is an error with its line.
TEST(ReportParse, ANulCharacterIsAnErrorWithItsLine) {
  struct Case {
    std::string xml;
    int line;
    std::string message;
  };
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::vector<Case> cases{
      {head + "<testcase name=\"a&#0;b\"/>\n" + tail, 3,
       "the character reference '&#0;' is NUL, which XML does not allow; expected a character "
       "other than U+0000"},
      {head + "<testcase name=\"a\">\n<failure message=\"x&#x000;hidden\"/></testcase>\n" + tail, 4,
       "the character reference '&#x000;' is NUL"},
      {head + "<testcase name=\"a\"><skipped>&#00;</skipped></testcase>\n" + tail, 3,
       "the character reference '&#00;' is NUL"},
      {head + "<testcase name=\"a\"/>\n" + std::string(1, '\0') + "\n" + tail, 4,
       "a NUL byte; XML allows no NUL character"},
  };
  for (const Case& bad : cases) {
    try {
      parse_report_xml(bad.xml, "r.xml");
      ADD_FAILURE() << "accepted: " << bad.xml;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.line(), bad.line) << error.what();
      EXPECT_THAT(error.what(),
                  HasSubstr("r.xml:" + std::to_string(bad.line) + ": " + bad.message));
    }
  }
  // In a CDATA section it is text, as it is in a comment; &#10; is a character like any other.
  const auto results =
      parse_report_xml(head + "<!-- &#0; -->\n<testcase name=\"a&#10;b\">" + failure("x") +
                           "<failure type=\"\"><![CDATA[&#0;]]></failure></testcase>\n" + tail,
                       "r.xml");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].name, "a\nb");
  EXPECT_EQ(results[0].message, "x\n\n&#0;");
}

// A writer puts only text in a <failure>, a <skipped>, a <system-out> and a <property>: a
// <failure> nested there would be a failure nobody reads.
TEST(ReportParse, AnElementInsideTextOnlyElementsIsAnError) {
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"<testcase name=\"a\"><skipped>\n<failure message=\"x\"/></skipped></testcase>\n",
       "unexpected <failure> in <skipped>; its writer puts only text there"},
      {"<testcase name=\"a\"><system-out>\n<failure/></system-out></testcase>\n",
       "unexpected <failure> in <system-out>"},
      {"<testcase name=\"a\"><failure>\n<error/></failure></testcase>\n",
       "unexpected <error> in <failure>"},
      {"<testcase name=\"a\"><properties><property name=\"n\" value=\"v\">\n<failure/>"
       "</property></properties></testcase>\n",
       "unexpected <failure> in <property>"},
      {"<system-out>\n<testcase name=\"hidden\"/></system-out>\n",
       "unexpected <testcase> in <system-out>"},
      {"<properties>\n<testcase name=\"hidden\"/></properties>\n",
       "unexpected <testcase> in <properties>; expected <property>"},
  };
  for (const auto& [body, message] : cases) {
    try {
      parse_report_xml(head + body + tail, "r.xml");
      ADD_FAILURE() << "accepted: " << body;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.line(), 4) << error.what();
      EXPECT_THAT(error.what(), HasSubstr(message));
    }
  }
}

// What the reader takes of a document is bounded before tinyxml2 allocates it: the error names
// the limit. Quoted '=' and '>' and markup in comments are no attributes or elements.
TEST(ReportParse, ADocumentAboveTheLimitsIsAnErrorNamingTheLimit) {
  polydev::report::XmlLimits limits;
  limits.nodes = 40;
  limits.attributes_per_element = 5;
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::string five =
      "<testcase name=\"a\" status=\"run\" result=\"completed\" "
      "time=\"x=>y\" classname='k=\"'/>\n";
  EXPECT_EQ(
      parse_report_xml(
          head + "<!-- <x a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\" f=\"6\"/> -->\n" + five + tail,
          "r.xml", limits)
          .size(),
      1u);
  try {
    parse_report_xml(head + "<testcase\n a=\"\" b=\"\" c=\"\" d=\"\" e=\"\" f=\"\"/>\n" + tail,
                     "r.xml", limits);
    ADD_FAILURE() << "six attributes accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_EQ(error.line(), 3);
    EXPECT_THAT(error.what(), HasSubstr("<testcase> with more than 5 attributes; the report "
                                        "reads at most 5 an element"));
  }
  std::string many;
  for (int i = 0; i < 7; ++i) many += five;
  try {
    parse_report_xml(head + many + tail, "r.xml", limits);
    ADD_FAILURE() << "more than 40 nodes accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_EQ(error.line(), 9);
    EXPECT_THAT(error.what(), HasSubstr("more than 40 XML nodes (elements, attributes, text, "
                                        "comments and other markup); the report reads at most 40 "
                                        "a file"));
  }
}

// Every node the parser makes counts toward the limit, not only elements and attributes: 60 MB of
// "<!---->" inside the root took 1 GB and read as a pass before. White space between elements
// makes no node and does not count.
TEST(ReportParse, CommentsAndTextCountTowardTheLimit) {
  polydev::report::XmlLimits limits;
  limits.nodes = 40;
  // The declaration, two elements and an attribute; the test case's two: 6 nodes, 34 to spare.
  const std::string head = "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "<testcase name=\"a\"/>\n</testsuite>\n</testsuites>\n";
  const auto repeated = [](const std::string& text, int times) {
    std::string all;
    for (int i = 0; i < times; ++i) all += text;
    return all;
  };
  EXPECT_EQ(parse_report_xml(head + std::string(100000, ' ') + repeated("<!---->\n", 34) + tail,
                             "r.xml", limits)
                .size(),
            1u);
  const std::vector<std::string> nodes = {
      "<!---->",    "<!-- a <b c=\"d\"/> -->", "<?pi x?>",      "<![CDATA[text]]>",
      "<!unknown>", "text&amp;more<!---->",    "\n t \n<!---->"};
  for (const std::string& node : nodes) {
    try {
      parse_report_xml(head + repeated(node + "\n", 35) + tail, "r.xml", limits);
      ADD_FAILURE() << "accepted: 35 of " << node;
    } catch (const polydev::report::input_error& error) {
      EXPECT_THAT(error.what(), HasSubstr("more than 40 XML nodes (elements, attributes, text, "
                                          "comments and other markup); the report reads at most "
                                          "40 a file"))
          << node;
    }
  }
}

// Every way the input can be wrong, with the line the error names and what it says.
TEST(ReportParse, BadInputIsAnErrorWithFileAndLine) {
  struct Case {
    std::string xml;
    int line;
    std::string message;
  };
  const std::string head = "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::vector<Case> cases{
      {"", 1, "an empty file; a GoogleTest XML report (--gtest_output=xml) has <testsuites>"},
      {"\n  \n", 1, "an empty file"},
      {"<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n", 3, "malformed XML"},
      {"<testsuites>\n<testsuite name=\"S\">\n</testsuites>\n", 2,
       "malformed XML: XML_ERROR_MISMATCHED_ELEMENT at XMLElement name=testsuite"},
      {"<?xml version=\"1.0\"?>\n<project>\n</project>\n", 2,
       "root element <project>; a GoogleTest XML report (--gtest_output=xml) has <testsuites>"},
      {"<testsuites>\n<suite/>\n</testsuites>", 2,
       "unexpected <suite> in <testsuites>; expected <testsuite>"},
      {"<testsuites>\n<testsuite/>\n</testsuites>", 2, "<testsuite> without a 'name'"},
      {head + "<test name=\"a\"/>\n" + tail, 4,
       "unexpected <test> in <testsuite>; expected <testcase>"},
      {head + "<testcase status=\"run\"/>\n" + tail, 4, "<testcase> without a 'name'"},
      {head + "<testcase name=\"a\" status=\"ran\"/>\n" + tail, 4,
       "status 'ran' of a <testcase>; GoogleTest writes 'run' or 'notrun'"},
      {head + "<testcase name=\"a\" result=\"done\"/>\n" + tail, 4,
       "result 'done' of a <testcase>; GoogleTest writes 'completed', 'skipped' or 'suppressed'"},
      {head + "<testcase name=\"a\">\n<properties><prop/></properties></testcase>\n" + tail, 5,
       "unexpected <prop> in <properties>; expected <property>"},
      {head +
           "<testcase name=\"a\"><properties>\n<property name=\"x\"/></properties></testcase>\n" +
           tail,
       5, "<property> needs the attributes 'name' and 'value'"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation\" "
           "value=\"flaky\"/></properties></testcase>\n" +
           tail,
       4, "property polydev_expectation = 'flaky'; the report knows 'xfail'"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation\" "
           "value=\"xfail\"/><property name=\"polydev_expectation_result\" value=\"maybe\"/>"
           "</properties></testcase>\n" +
           tail,
       4, "property polydev_expectation_result = 'maybe'; expected 'failed' or 'passed'"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation_result\" "
           "value=\"passed\"/></properties></testcase>\n" +
           tail,
       4, "property polydev_expectation_result without polydev_expectation = 'xfail'"},
      // Two values of one polydev property: the outcome or the device would be the last one's.
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_expectation\" "
           "value=\"xfail\"/><property name=\"polydev_expectation_result\" value=\"failed\"/>\n"
           "<property name=\"polydev_expectation_result\" value=\"passed\"/>"
           "</properties></testcase>\n" +
           tail,
       5,
       "property 'polydev_expectation_result' given twice in one <testcase>; polydev's fixtures "
       "record each of theirs once"},
      {head +
           "<testcase name=\"a\"><properties><property name=\"polydev_device_key\" "
           "value=\"opencl_a_0\"/>\n<property name=\"polydev_device_key\" value=\"opencl_b_0\"/>"
           "</properties></testcase>\n" +
           tail,
       5, "property 'polydev_device_key' given twice in one <testcase>"},
  };
  for (const Case& bad : cases) {
    try {
      parse_report_xml(bad.xml, "results/shard1.xml");
      ADD_FAILURE() << "accepted:\n" << bad.xml;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.file(), "results/shard1.xml");
      EXPECT_EQ(error.line(), bad.line) << error.what();
      EXPECT_THAT(error.what(),
                  HasSubstr("results/shard1.xml:" + std::to_string(bad.line) + ": " + bad.message));
    }
  }
}

// What is outside the first root element, or unknown inside a test case, may be results: it is
// an error, never dropped (a dropped failure would make the report pass).
TEST(ReportParse, ContentTheReportDoesNotUnderstandIsAnErrorWithItsLine) {
  struct Case {
    std::string xml;
    int line;
    std::string message;
  };
  const std::string first =
      "<testsuites>\n<testsuite name=\"S\">\n<testcase name=\"a\"/>\n"
      "</testsuite>\n</testsuites>\n";
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  const std::vector<Case> cases{
      {first + "<testsuites>\n<testsuite name=\"S\">\n<testcase name=\"b\">" + failure("boom") +
           "</testcase>\n" + tail,
       6,
       "<testsuites> after the root element <testsuites> (line 1); a report has one root element"},
      {first + "<testcase name=\"b\">" + failure("boom") + "</testcase>\n", 6,
       "<testcase> after the root element <testsuites> (line 1)"},
      {first + "trailing words\n", 6, "malformed XML: XML_ERROR_PARSING_TEXT"},
      {head + "<testcase name=\"a\">\n<Failure message=\"boom\"/></testcase>\n" + tail, 4,
       "unexpected <Failure> in <testcase>; GoogleTest writes <failure>, <skipped> and "
       "<properties> (JUnit also <error>, <system-out>, <system-err>)"},
      {head + "<testcase name=\"a\"><failur message=\"boom\"/></testcase>\n" + tail, 3,
       "unexpected <failur> in <testcase>"},
      {head + "<testcase name=\"a\">\n\n<flakyFailure message=\"boom\"/></testcase>\n" + tail, 5,
       "unexpected <flakyFailure> in <testcase>"},
  };
  for (const Case& bad : cases) {
    try {
      const auto results = parse_report_xml(bad.xml, "r.xml");
      ADD_FAILURE() << "accepted, " << results.size() << " results:\n" << bad.xml;
    } catch (const polydev::report::input_error& error) {
      EXPECT_EQ(error.line(), bad.line) << error.what();
      EXPECT_THAT(error.what(),
                  HasSubstr("r.xml:" + std::to_string(bad.line) + ": " + bad.message));
    }
  }
}

TEST(ReportParse, CommentsAndDeclarationsAroundTheRootAreFine) {
  const std::string xml =
      "<?xml version=\"1.0\"?>\n<!-- run 3 -->\n<!DOCTYPE testsuites>\n"
      "<testsuites><testsuite name=\"S\"><testcase name=\"a\"/></testsuite>"
      "</testsuites>\n<!-- end -->\n";
  EXPECT_EQ(parse_report_xml(xml, "a.xml").size(), 1u);
}

TEST(ReportParse, JUnitOutputElementsAreNotResults) {
  const std::string xml = report(
      suite("S",
            "<testcase name=\"a\"><system-out>hello</system-out><system-err>oops</system-err>"
            "</testcase>"
            "<testcase name=\"b\"><system-out>x</system-out><failure message=\"boom\"/>"
            "</testcase>"
            "<system-out>suite output</system-out><system-err/>"));
  const auto results = parse_report_xml(xml, "a.xml");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::pass);
  EXPECT_EQ(results[1].outcome, Outcome::fail);
  EXPECT_EQ(results[1].message, "boom");
}

TEST(ReportParse, ErrorsQuoteTheReportWithoutControlCharactersAndCutLongValues) {
  const std::string head = "<testsuites>\n<testsuite name=\"S\">\n";
  const std::string tail = "</testsuite>\n</testsuites>\n";
  try {
    parse_report_xml(head + "<testcase name=\"a\" status=\"&#27;[2J\xff\"/>\n" + tail, "a.xml");
    ADD_FAILURE() << "accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("status '\\x1b[2J\\xff' of a <testcase>"));
    EXPECT_THAT(error.what(), Not(HasSubstr("\x1b")));
  }
  try {
    parse_report_xml(
        head + "<testcase name=\"a\" result=\"" + std::string(100000, 'x') + "\"/>\n" + tail,
        "a.xml");
    ADD_FAILURE() << "accepted";
  } catch (const polydev::report::input_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("... (100000 bytes)' of a <testcase>"));
    EXPECT_LT(std::string(error.what()).size(), 600u);
  }
}

TEST(ReportParse, InputErrorIsAPolydevError) {
  EXPECT_THROW(parse_report_xml("<testsuites>", "a.xml"), polydev::error);
}

}  // namespace
