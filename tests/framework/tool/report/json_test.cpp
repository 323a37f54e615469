// `polydev report --json`: columns, cells and summary, valid UTF-8 whatever the reports hold.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "matrix.hpp"
#include "render.hpp"
#include "report_samples.hpp"
#include "results.hpp"

namespace {

using polydev::report::build_matrix;
using polydev::report::CaseResult;
using polydev::report::parse_report_xml;
using polydev::report::samples::device_case;
using polydev::report::samples::failure;
using polydev::report::samples::hostile_report;
using polydev::report::samples::kPthread0;
using polydev::report::samples::report;
using polydev::report::samples::suite;
using ::testing::HasSubstr;

TEST(ReportJson, DescribesColumnsCellsAndSummary) {
  std::vector<CaseResult> results = parse_report_xml(
      report(
          suite("OpenCL/S", device_case("T", kPthread0, failure("a &quot;quoted&quot; problem")))),
      "a.xml");
  const std::string json = polydev::report::format_json(build_matrix(results), {"a.xml"});
  EXPECT_EQ(json, std::string(R"({"files": ["a.xml"], "columns": [{"id": ")") + kPthread0 +
                      R"(", "kind": "device", "name": "pthread-skylake-avx512-AMD EPYC", )"
                      R"("platform": "Portable Computing Language", "driver": "3.1+debian"}], )"
                      R"("tests": [{"name": "OpenCL/S.T", "skipped_on_every_device": false, )"
                      R"("ran_on_no_device": false, "cells": [{"column": ")" +
                      kPthread0 +
                      R"(", "outcome": "fail", "results": [{"outcome": "fail", )"
                      R"("message": "a \"quoted\" problem", "file": "a.xml", "line": 4}]}]}], )"
                      R"("summary": {"results": 1, "pass": 0, "fail": 1, "skip": 0, "xfail": 0, )"
                      R"("xpass": 0, "skipped_on_every_device": 0, "ran_on_no_device": 0}, )"
                      R"("warnings": []})"
                      "\n");
}

TEST(ReportJson, ColumnsOfSeveralMachinesNameMachineAndKey) {
  const std::string json = polydev::report::format_json(
      build_matrix(polydev::report::samples::two_machines()), {"a.xml", "b.xml"});
  EXPECT_THAT(json, HasSubstr(std::string(R"({"id": "ci-b/)") + kPthread0 +
                              R"(", "kind": "device", "name": "pthread-skylake-avx512-AMD EPYC", )"
                              R"("platform": "Portable Computing Language", "driver": )"
                              R"("3.1+debian", "host": "ci-b", "key": ")" +
                              kPthread0 + R"("})"));
  EXPECT_THAT(
      json, HasSubstr(std::string(R"({"column": "ci-a/)") + kPthread0 + R"(", "outcome": "fail")"));
  EXPECT_THAT(json, HasSubstr(R"("warnings": [])"));
}

TEST(ReportJson, IsValidUtf8WhateverTheReportHolds) {
  const std::string json = polydev::report::format_json(
      build_matrix(parse_report_xml(hostile_report(), "a\xff.xml")), {"a\xff.xml"});
  for (std::size_t i = 0; i + 1 < json.size(); ++i) {
    EXPECT_GE(static_cast<unsigned char>(json[i]), 0x20u) << "a raw control character at " << i;
  }
  EXPECT_THAT(json, HasSubstr("\"OpenCL/S\\u001b[31m.T\xef\xbf\xbd\""));
  EXPECT_THAT(json, HasSubstr("\"name\": \"GPU\\u001b[5m\\u009b\""));
  EXPECT_THAT(json, HasSubstr("\"driver\": \"\\u007f\xef\xbf\xbd\""));
  EXPECT_THAT(json, HasSubstr("\"a\xef\xbf\xbd.xml\""));
  EXPECT_EQ(json.find('\xff'), std::string::npos);
  EXPECT_EQ(json.find("\xc0\xaf"), std::string::npos);
  EXPECT_EQ(json.find("\xed\xa0\x80"), std::string::npos);
}

}  // namespace
