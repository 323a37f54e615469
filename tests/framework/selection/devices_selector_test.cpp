// POLYDEV_DEVICES: the grammar, every error, the semantics of each term on a synthetic machine with
// OpenCL and CUDA devices, clause limits, and the words that explain each verdict.
#include "polydev/devices_selector.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "polydev/error.hpp"
#include "support/synthetic_inventory.hpp"

namespace {

using polydev::Device;
using polydev::DevicesSelector;
using polydev::DeviceVersion;
using polydev::parse_devices_selector;
using polydev::select_devices;
using polydev::selection_error;
using polydev::SelectorTerm;
using testing::AllOf;
using testing::ElementsAre;
using testing::EndsWith;
using testing::HasSubstr;
using testing::IsEmpty;
using testing::Not;
using Attribute = SelectorTerm::Attribute;
using Operator = SelectorTerm::Operator;

// The mixed machine of synthetic_inventory.hpp, every device a candidate, in run order:
// 0 OpenCL H200, 1 PoCL pthread, 2 PoCL basic, 3 FPGA emulator, 4 CUDA H200, 5 CUDA H200,
// 6 CUDA A100.
std::vector<Device> machine() {
  std::vector<Device> devices;
  const polydev::opencl::Inventory opencl = polydev_test::mixed_opencl_inventory();
  for (const auto& platform : opencl.platforms) {
    for (const auto& device : platform.devices) {
      devices.push_back(polydev::device_of(platform, device));
    }
  }
  for (const auto& device : polydev_test::mixed_cuda_inventory().devices) {
    devices.push_back(polydev::device_of(device));
  }
  return devices;
}

std::vector<std::size_t> taken(const std::string& text) { return select_devices(text, machine()); }

// The message of the selection_error that parsing `text` throws.
std::string parse_error(const std::string& text) {
  try {
    parse_devices_selector(text);
  } catch (const selection_error& failure) {
    return failure.what();
  }
  ADD_FAILURE() << "'" << text << "' parsed without an error";
  return {};
}

// --- attributes ---------------------------------------------------------------------------------

TEST(Device, OpenCLDevicesCarryTheirInventoryFacts) {
  const std::vector<Device> devices = machine();
  const Device& h200 = devices[0];
  EXPECT_EQ(h200.backend, polydev::Backend::opencl);
  EXPECT_EQ(h200.name, "NVIDIA H200");
  EXPECT_EQ(h200.platform, std::optional<std::string>("NVIDIA CUDA"));
  EXPECT_EQ(h200.type, "gpu");
  EXPECT_TRUE(h200.fp64);
  EXPECT_EQ(h200.opencl_version, std::optional<DeviceVersion>(DeviceVersion{3, 0}));
  EXPECT_EQ(h200.compute_capability, std::optional<DeviceVersion>(DeviceVersion{9, 0}));
  EXPECT_THAT(h200.extensions,
              ElementsAre("cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics",
                          "cl_nv_device_attribute_query"));
  EXPECT_EQ(h200.memory_bytes, 141ull << 30);
  EXPECT_EQ(devices[3].opencl_version, std::optional<DeviceVersion>(DeviceVersion{1, 2}));
  EXPECT_FALSE(devices[1].compute_capability.has_value()) << "PoCL has no compute capability";
}

TEST(Device, CudaDevicesAreNvidiaGpusWithoutPlatformOrOpenCLFacts) {
  const Device a100 = machine()[6];
  EXPECT_EQ(a100.backend, polydev::Backend::cuda);
  EXPECT_EQ(a100.vendor, "NVIDIA Corporation");
  EXPECT_EQ(a100.type, "gpu");
  EXPECT_FALSE(a100.platform.has_value());
  EXPECT_TRUE(a100.fp64);
  EXPECT_FALSE(a100.opencl_version.has_value());
  EXPECT_THAT(a100.extensions, IsEmpty());
  EXPECT_EQ(a100.compute_capability, std::optional<DeviceVersion>(DeviceVersion{8, 0}));
  EXPECT_EQ(a100.memory_bytes, 80ull << 30);
  EXPECT_EQ(a100.key, polydev_test::mixed_cuda_inventory().devices[2].key);
}

TEST(Device, AnOpenCLVersionOutsideTheStandardFormIsUnknown) {
  polydev::opencl::PlatformInfo platform;
  polydev::opencl::DeviceInfo device;
  device.version = "3.0 vendor special";
  EXPECT_FALSE(polydev::device_of(platform, device).opencl_version.has_value());
}

// --- parsing ------------------------------------------------------------------------------------

TEST(DevicesSelectorParse, BlankTextHasNoClause) {
  EXPECT_THAT(parse_devices_selector("").clauses, IsEmpty());
  EXPECT_THAT(parse_devices_selector(" \t ").clauses, IsEmpty());
}

TEST(DevicesSelectorParse, ClausesTermsPositionsAndLimits) {
  const DevicesSelector selector =
      parse_devices_selector("backend=opencl, name~basic ; type=gpu|Accelerator,max=2");
  ASSERT_EQ(selector.clauses.size(), 2u);
  const auto& first = selector.clauses[0];
  EXPECT_EQ(first.text, "backend=opencl, name~basic");
  EXPECT_EQ(first.position, 1u);
  EXPECT_FALSE(first.max.has_value());
  ASSERT_EQ(first.terms.size(), 2u);
  EXPECT_EQ(first.terms[0].attribute, Attribute::backend);
  EXPECT_EQ(first.terms[0].op, Operator::equal);
  EXPECT_THAT(first.terms[0].values, ElementsAre("opencl"));
  EXPECT_EQ(first.terms[1].text, "name~basic");
  EXPECT_EQ(first.terms[1].position, 17u);
  EXPECT_EQ(first.terms[1].op, Operator::contains);
  const auto& second = selector.clauses[1];
  EXPECT_EQ(second.position, 30u);
  EXPECT_EQ(second.max, std::optional<std::size_t>(2));
  ASSERT_EQ(second.terms.size(), 1u) << "max is the clause's limit, not a term";
  EXPECT_THAT(second.terms[0].values, ElementsAre("gpu", "accelerator"));
}

TEST(DevicesSelectorParse, NegationOperatorsAndBlanks) {
  const auto terms =
      parse_devices_selector("! fp64 , !name = basic, opencl >= 3.0, cc<9, mem <= 1.5T, key~x")
          .clauses.at(0)
          .terms;
  ASSERT_EQ(terms.size(), 6u);
  EXPECT_TRUE(terms[0].negated);
  EXPECT_EQ(terms[0].attribute, Attribute::fp64);
  EXPECT_EQ(terms[0].op, Operator::none);
  EXPECT_TRUE(terms[1].negated);
  EXPECT_EQ(terms[1].op, Operator::equal);
  EXPECT_THAT(terms[1].values, ElementsAre("basic"));
  EXPECT_EQ(terms[2].op, Operator::greater_equal);
  EXPECT_EQ(terms[2].version, (DeviceVersion{3, 0}));
  EXPECT_EQ(terms[3].op, Operator::less);
  EXPECT_EQ(terms[3].version, (DeviceVersion{9, 0}));
  EXPECT_EQ(terms[4].op, Operator::less_equal);
  EXPECT_EQ(terms[4].bytes, 3ull << 39);
  EXPECT_EQ(terms[5].attribute, Attribute::key);
}

TEST(DevicesSelectorParse, AttributeNamesAndEnumeratedValuesIgnoreCase) {
  const auto terms = parse_devices_selector("BACKEND=CUDA,Type=GPU,Name~H200").clauses[0].terms;
  EXPECT_THAT(terms[0].values, ElementsAre("cuda"));
  EXPECT_THAT(terms[1].values, ElementsAre("gpu"));
  EXPECT_THAT(terms[2].values, ElementsAre("H200")) << "kept as written, compared without case";
}

TEST(DevicesSelectorParse, MemorySizesAreBinary) {
  const auto bytes = [](const std::string& size) {
    return parse_devices_selector("mem>=" + size).clauses[0].terms[0].bytes;
  };
  EXPECT_EQ(bytes("1024"), 1024u);
  EXPECT_EQ(bytes("1024B"), 1024u);
  EXPECT_EQ(bytes("2K"), 2048u);
  EXPECT_EQ(bytes("512M"), 512ull << 20);
  EXPECT_EQ(bytes("512mib"), 512ull << 20);
  EXPECT_EQ(bytes("16G"), 16ull << 30);
  EXPECT_EQ(bytes("16 GiB"), 16ull << 30);
  EXPECT_EQ(bytes("1.5T"), 3ull << 39);
  EXPECT_EQ(bytes("0.5k"), 512u);
  EXPECT_EQ(bytes("16777215T"), 16777215ull << 40);
  EXPECT_EQ(bytes("1.999999T"), (1ull << 40) + 999999ull * (1ull << 40) / 1000000);
  EXPECT_EQ(bytes("16777215.999999T"), (16777215ull << 40) + 999999ull * (1ull << 40) / 1000000);
}

TEST(DevicesSelectorParse, MemorySizesUpToTheLargestUint64) {
  const auto bytes = [](const std::string& size) {
    return parse_devices_selector("mem>=" + size).clauses[0].terms[0].bytes;
  };
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(bytes("18446744073709551615"), kMax);
  EXPECT_EQ(bytes("18446744073709551615B"), kMax);
  EXPECT_EQ(bytes("18446744073709551614"), kMax - 1);
  EXPECT_EQ(bytes("000000000000000000000000001"), 1u) << "leading zeros do not make it large";
  EXPECT_EQ(bytes("18014398509481983K"), kMax - 1023);  // the largest whole number of KiB
  EXPECT_EQ(bytes("17179869183G"), kMax - ((1ull << 30) - 1));
  EXPECT_EQ(bytes("16777215T"), kMax - ((1ull << 40) - 1));
}

TEST(DevicesSelectorErrors, MemorySizesBeyondTheLargestAreTooLarge) {
  const std::string too_large =
      "is too large; the largest memory size is 18446744073709551615 bytes (16 EiB minus one "
      "byte)";
  for (const char* size :
       {"18446744073709551616", "18446744073709551616B", "99999999999999999999999999999",
        "18446744073709551615K", "18014398509481984K", "17179869184G", "16777216T", "16777216.0T",
        "16777215.9999999T"}) {
    const std::string message = parse_error(std::string("mem>=") + size);
    if (std::string(size) == "16777215.9999999T") {
      EXPECT_THAT(message, HasSubstr("is not a memory size")) << "at most 6 digits after the point";
    } else {
      EXPECT_THAT(message, HasSubstr("'" + std::string(size) + "' " + too_large)) << size;
    }
  }
}

TEST(DevicesSelectorErrors, ALongSelectorIsQuotedByItsStart) {
  // 100 000 empty clauses: the error quotes the selector's start and says how long it is.
  const std::string message = parse_error(std::string(99999, ';'));
  EXPECT_LT(message.size(), 2048u);
  EXPECT_THAT(message, HasSubstr("POLYDEV_DEVICES=';;;;"));
  EXPECT_THAT(message, HasSubstr(";;;'... (99999 bytes): clause 1 (character 1) is empty"));
  const std::string name(100000, 'n');
  const std::string term_message = parse_error("type=gpu,name~" + name + ",colour=red");
  EXPECT_LT(term_message.size(), 2048u);
  EXPECT_THAT(term_message, HasSubstr("unknown attribute 'colour'"));
}

// --- every error --------------------------------------------------------------------------------

TEST(DevicesSelectorErrors, EmptyClauses) {
  EXPECT_THAT(parse_error(";type=gpu"),
              AllOf(HasSubstr("POLYDEV_DEVICES=';type=gpu': clause 1 (character 1) is empty"),
                    HasSubstr("clauses separated by single ';'")));
  EXPECT_THAT(parse_error("type=gpu;"), HasSubstr("clause 2 (character 10) is empty"));
  EXPECT_THAT(parse_error("type=gpu; ;fp64"), HasSubstr("clause 2 (character 11) is empty"));
}

TEST(DevicesSelectorErrors, EmptyTerms) {
  EXPECT_THAT(parse_error("type=gpu,,fp64"),
              AllOf(HasSubstr("term 2 of clause 1 (character 10) is empty"),
                    HasSubstr("expected a term between single ','")));
  EXPECT_THAT(parse_error("fp64;type=gpu,"), HasSubstr("term 2 of clause 2 (character 15)"));
}

TEST(DevicesSelectorErrors, NamesTheTermItsClauseAndItsPosition) {
  EXPECT_THAT(parse_error("fp64; type=gpu, colour=red"),
              AllOf(HasSubstr("POLYDEV_DEVICES='fp64; type=gpu, colour=red': term 'colour=red' "
                              "(clause 2, term 2, character 17): unknown attribute 'colour'"),
                    HasSubstr("accepted terms: backend=opencl|cuda, type=gpu|cpu|accelerator|"
                              "custom, name~TEXT or name=TEXT (also vendor, platform, key), "
                              "ext=EXTENSION, fp64, opencl>=X.Y, cc>=X.Y, mem>=SIZE")));
}

TEST(DevicesSelectorErrors, BareTypeOrBackendWordsSuggestTheTerm) {
  EXPECT_THAT(parse_error("gpu"),
              HasSubstr("unknown attribute 'gpu' (did you mean type=gpu?); accepted terms"));
  EXPECT_THAT(parse_error("cuda"), HasSubstr("(did you mean backend=cuda?)"));
  EXPECT_THAT(parse_error("!cpu"), HasSubstr("(did you mean !type=cpu?)"));
  EXPECT_THAT(parse_error("opencl"), AllOf(HasSubstr("'opencl' takes a comparison"),
                                           HasSubstr("for the backend: backend=opencl")));
}

TEST(DevicesSelectorErrors, MisspeltAttributesSuggestTheClosestName) {
  // Within two edits (one for names of up to three letters), a swap of neighbours counting one;
  // the operator and value are kept as written.
  EXPECT_THAT(parse_error("nme~basic"),
              HasSubstr("term 'nme~basic' (clause 1, term 1, character 1): unknown attribute "
                        "'nme' (did you mean 'name~basic'?); accepted terms"));
  EXPECT_THAT(parse_error("backend=opencl,typ=cpu"),
              HasSubstr("unknown attribute 'typ' (did you mean 'type=cpu'?)"));
  EXPECT_THAT(parse_error("fp46"), HasSubstr("unknown attribute 'fp46' (did you mean 'fp64'?)"));
  EXPECT_THAT(parse_error("!FP46"), HasSubstr("unknown attribute 'FP46' (did you mean '!fp64'?)"));
  EXPECT_THAT(parse_error("platfrom~pocl"), HasSubstr("(did you mean 'platform~pocl'?)"));
  EXPECT_THAT(parse_error("Vendr = nvidia"), HasSubstr("(did you mean 'vendor = nvidia'?)"));
  EXPECT_THAT(parse_error("kay=opencl_pocl"), HasSubstr("(did you mean 'key=opencl_pocl'?)"));
  EXPECT_THAT(parse_error("c>=9.0"), HasSubstr("(did you mean 'cc>=9.0'?)"));
  EXPECT_THAT(parse_error("ma=2"), HasSubstr("(did you mean 'max=2'?)"));
}

TEST(DevicesSelectorErrors, ABareWordSuggestsLookingForItInTheName) {
  EXPECT_THAT(parse_error("basic"),
              HasSubstr("unknown attribute 'basic' (did you mean 'name~basic'?); accepted terms"));
  EXPECT_THAT(parse_error("type=cpu,!H200"), HasSubstr("(did you mean '!name~H200'?)"));
}

TEST(DevicesSelectorErrors, NoSuggestionWhenNoNameIsCloseOrTwoAreEquallyClose) {
  for (const char* text : {"colour=red", "mex>=16G", "xx=1", "gpu=1", "fp46=1"}) {
    const std::string message = parse_error(text);
    EXPECT_THAT(message, HasSubstr("unknown attribute")) << text;
    EXPECT_THAT(message, Not(HasSubstr("did you mean"))) << text;
  }
}

TEST(DevicesSelectorErrors, MissingAttributeOrOperator) {
  EXPECT_THAT(parse_error("=gpu"), HasSubstr("expected an attribute name first"));
  EXPECT_THAT(parse_error("name h200"),
              HasSubstr("expected an operator ('=', '~', '>=', '>', '<=', '<') after the "
                        "attribute name, not 'h200'"));
  EXPECT_THAT(parse_error("type!=cpu"),
              HasSubstr("'!=' is not an operator; negate the whole term instead, e.g. !type=cpu"));
  EXPECT_THAT(parse_error("type==gpu"), HasSubstr("'==' is not an operator; write '=' once"));
}

TEST(DevicesSelectorErrors, NegationWithoutATermOrTwice) {
  EXPECT_THAT(parse_error("!"), HasSubstr("'!' must be followed by a term to negate"));
  EXPECT_THAT(parse_error("fp64, ! "), HasSubstr("term '!' (clause 1, term 2, character 7)"));
  EXPECT_THAT(parse_error("!!fp64"), HasSubstr("'!' twice; one '!' negates a term"));
}

TEST(DevicesSelectorErrors, BackendAndType) {
  EXPECT_THAT(parse_error("backend~cuda"),
              HasSubstr("'backend' takes '=' and one or more values separated by '|', e.g. "
                        "backend=opencl|cuda"));
  EXPECT_THAT(parse_error("backend=opencl2"),
              HasSubstr("'opencl2' is not a backend; expected opencl or cuda"));
  EXPECT_THAT(parse_error("type=fpga"),
              HasSubstr("'fpga' is not a device type; expected gpu, cpu, accelerator or custom"));
  EXPECT_THAT(parse_error("type>=gpu"), HasSubstr("'type' takes '='"));
}

TEST(DevicesSelectorErrors, ValuesAndAlternatives) {
  EXPECT_THAT(parse_error("name~"), HasSubstr("no value after the operator"));
  EXPECT_THAT(parse_error("type=gpu|"),
              HasSubstr("an empty alternative in 'gpu|'; separate values by single '|'"));
  EXPECT_THAT(parse_error("vendor=a||b"), HasSubstr("an empty alternative in 'a||b'"));
  EXPECT_THAT(parse_error("name>=h200"),
              HasSubstr("'name' takes '~' (contains) or '=' (is), e.g. name~h200"));
  EXPECT_THAT(parse_error("platform"), HasSubstr("'platform' takes '~' (contains) or '=' (is)"));
  EXPECT_THAT(parse_error("ext~fp16"), HasSubstr("'ext' takes '=' and one or more values"));
  EXPECT_THAT(parse_error("ext=cl_khr_fp16 cl_khr_fp64"),
              HasSubstr("'cl_khr_fp16 cl_khr_fp64' is not one extension name"));
  EXPECT_THAT(parse_error("fp64=1"), HasSubstr("'fp64' takes no value; write fp64 or !fp64"));
}

TEST(DevicesSelectorErrors, Versions) {
  EXPECT_THAT(parse_error("opencl~3"), HasSubstr("'opencl' takes a comparison ('>=', '>', '<=', "
                                                 "'<' or '='), e.g. opencl>=3.0"));
  EXPECT_THAT(parse_error("opencl>=3.x"),
              HasSubstr("'3.x' is not a version; expected MAJOR or MAJOR.MINOR, e.g. opencl>=3.0"));
  EXPECT_THAT(parse_error("cc>=9."), HasSubstr("'9.' is not a version"));
  EXPECT_THAT(parse_error("cc>=9.0.1"), HasSubstr("e.g. cc>=9.0"));
  EXPECT_THAT(parse_error("cc>="), HasSubstr("'' is not a version"));
  EXPECT_THAT(parse_error("cc>=1234567890"), HasSubstr("is not a version"));
  EXPECT_THAT(parse_error("cc>=8.0|9.0"),
              HasSubstr("'|' alternatives are for backend, type, name, vendor, platform, key and "
                        "ext; for a range write two terms, e.g. cc>=2.0,cc<3.0"));
}

TEST(DevicesSelectorErrors, MemorySizes) {
  EXPECT_THAT(parse_error("mem>=16GB"),
              HasSubstr("decimal units (KB, MB, GB, TB) are not accepted, to leave no doubt about "
                        "1000 or 1024; write the binary unit, e.g. mem>=16G"));
  EXPECT_THAT(parse_error("mem>=16X"), HasSubstr("'16X' has an unknown unit 'x'"));
  EXPECT_THAT(parse_error("mem>=G"),
              HasSubstr("'G' is not a memory size; expected a number (at most 6 decimals) with "
                        "an optional binary unit K, M, G or T"));
  EXPECT_THAT(parse_error("mem>=1.2.3G"), HasSubstr("'1.2.3G' is not a memory size"));
  EXPECT_THAT(parse_error("mem>=1.9999999T"), HasSubstr("'1.9999999T' is not a memory size"))
      << "at most 6 digits after the point";
  EXPECT_THAT(parse_error("mem>=1.5"), HasSubstr("'1.5' is not a whole number of bytes"));
  EXPECT_THAT(parse_error("mem>=16777216T"),
              HasSubstr("'16777216T' is too large; the largest memory size is "
                        "18446744073709551615 bytes (16 EiB minus one byte)"));
  EXPECT_THAT(parse_error("mem>=99999999999999999999"),
              HasSubstr("'99999999999999999999' is too large"));
  EXPECT_THAT(parse_error("mem~16G"), HasSubstr("'mem' takes a comparison"));
}

TEST(DevicesSelectorErrors, Limits) {
  for (const char* text : {"max=0", "max=x", "max>=2", "max", "max=-1", "max=1234567890"}) {
    EXPECT_THAT(parse_error(text),
                HasSubstr("'max' takes '=' and a count from 1 to 999999999, e.g. max=2"))
        << text;
  }
  EXPECT_THAT(parse_error("!max=1"), HasSubstr("'max' cannot be negated"));
  EXPECT_THAT(parse_error("max=1,fp64,max=2"),
              AllOf(HasSubstr("term 'max=2' (clause 1, term 3, character 12)"),
                    HasSubstr("a second 'max' in one clause")));
}

// --- semantics ----------------------------------------------------------------------------------

TEST(DevicesSelectorSemantics, BackendAndType) {
  EXPECT_THAT(taken("backend=opencl"), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(taken("backend=cuda"), ElementsAre(4, 5, 6));
  EXPECT_THAT(taken("backend=cuda|opencl"), ElementsAre(0, 1, 2, 3, 4, 5, 6));
  EXPECT_THAT(taken("type=gpu"), ElementsAre(0, 4, 5, 6)) << "CUDA devices are GPUs";
  EXPECT_THAT(taken("type=cpu|accelerator"), ElementsAre(1, 2, 3));
  EXPECT_THAT(taken("!type=cpu"), ElementsAre(0, 3, 4, 5, 6));
}

TEST(DevicesSelectorSemantics, NamesMatchEveryDeviceTheyFit) {
  EXPECT_THAT(taken("name~h200"), ElementsAre(0, 4, 5)) << "all matches, not the first";
  EXPECT_THAT(taken("name~H200|a100"), ElementsAre(0, 4, 5, 6));
  EXPECT_THAT(taken("name=basic"), ElementsAre(2));
  EXPECT_THAT(taken("name=BASIC"), ElementsAre(2));
  EXPECT_THAT(taken("name~basic"), ElementsAre(2));
  EXPECT_THAT(taken("!name~basic,backend=opencl"), ElementsAre(0, 1, 3));
  EXPECT_THAT(taken("vendor~nvidia"), ElementsAre(0, 4, 5, 6))
      << "CUDA devices have NVIDIA's vendor name";
  EXPECT_THAT(taken("vendor=NVIDIA Corporation"), ElementsAre(0, 4, 5, 6));
}

TEST(DevicesSelectorSemantics, PlatformsMatchByNameOrVendorAndAreOpenCLOnly) {
  EXPECT_THAT(taken("platform~portable"), ElementsAre(1, 2));
  EXPECT_THAT(taken("platform~pocl"), ElementsAre(1, 2)) << "the vendor 'The pocl project'";
  EXPECT_THAT(taken("platform=the POCL project"), ElementsAre(1, 2));
  EXPECT_THROW(taken("platform=portable"), selection_error) << "'=' is the whole name";
  EXPECT_THAT(taken("platform=portable computing language"), ElementsAre(1, 2));
  EXPECT_THAT(taken("platform~cuda"), ElementsAre(0)) << "a CUDA device has no platform";
  EXPECT_THAT(taken("!platform~portable"), ElementsAre(0, 3, 4, 5, 6));
}

TEST(DevicesSelectorSemantics, Keys) {
  const std::vector<Device> devices = machine();
  EXPECT_THAT(taken("key=" + devices[5].key), ElementsAre(5));
  EXPECT_THAT(taken("key~cuda_"), ElementsAre(4, 5, 6));
  EXPECT_THAT(taken("key~opencl_pocl"), ElementsAre(1, 2));
}

TEST(DevicesSelectorSemantics, Capabilities) {
  EXPECT_THAT(taken("fp64"), ElementsAre(0, 1, 3, 4, 5, 6)) << "every CUDA device has fp64";
  EXPECT_THAT(taken("!fp64"), ElementsAre(2));
  EXPECT_THAT(taken("ext=cl_khr_fp16"), ElementsAre(0));
  EXPECT_THAT(taken("ext=CL_KHR_FP16|cl_khr_int64_base_atomics"), ElementsAre(0, 1, 2));
  EXPECT_THAT(taken("ext=cl_khr_fp64,ext=cl_khr_int64_base_atomics"), ElementsAre(0, 1))
      << "two terms: both extensions";
  EXPECT_THAT(taken("!ext=cl_khr_fp16"), ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST(DevicesSelectorSemantics, OpenCLVersions) {
  EXPECT_THAT(taken("opencl>=3.0"), ElementsAre(0, 1, 2));
  EXPECT_THAT(taken("opencl>=2"), ElementsAre(0, 1, 2));
  EXPECT_THAT(taken("opencl<2.0"), ElementsAre(3));
  EXPECT_THAT(taken("opencl=1.2"), ElementsAre(3));
  EXPECT_THAT(taken("opencl>1.2"), ElementsAre(0, 1, 2));
  EXPECT_THAT(taken("opencl<=3.0"), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(taken("!opencl>=3.0"), ElementsAre(3, 4, 5, 6))
      << "a CUDA device has no OpenCL version, so the negation holds";
}

TEST(DevicesSelectorSemantics, ComputeCapabilitiesOfCudaAndNvidiaOpenCL) {
  EXPECT_THAT(taken("cc>=9.0"), ElementsAre(0, 4, 5));
  EXPECT_THAT(taken("cc>=9"), ElementsAre(0, 4, 5));
  EXPECT_THAT(taken("cc<9.0"), ElementsAre(6));
  EXPECT_THAT(taken("cc=8.0"), ElementsAre(6));
  EXPECT_THAT(taken("cc>8.0,backend=cuda"), ElementsAre(4, 5));
  EXPECT_THAT(taken("!cc>=1.0"), ElementsAre(1, 2, 3)) << "devices without a compute capability";
}

TEST(DevicesSelectorSemantics, Memory) {
  EXPECT_THAT(taken("mem>=100G"), ElementsAre(0, 4, 5));
  EXPECT_THAT(taken("mem>=80G"), ElementsAre(0, 4, 5, 6));
  EXPECT_THAT(taken("mem>80G"), ElementsAre(0, 4, 5));
  EXPECT_THAT(taken("mem<8G"), ElementsAre(3));
  EXPECT_THAT(taken("mem<=8G"), ElementsAre(1, 2, 3));
  EXPECT_THAT(taken("mem=4G"), ElementsAre(3));
}

TEST(DevicesSelectorSemantics, ClausesAreAlternativesInRunOrder) {
  EXPECT_THAT(taken("backend=cuda;name~basic"), ElementsAre(2, 4, 5, 6))
      << "run order, not clause order";
  EXPECT_THAT(taken("type=gpu;type=gpu"), ElementsAre(0, 4, 5, 6)) << "each device once";
  EXPECT_THAT(taken("type=gpu,backend=opencl;type=cpu,fp64"), ElementsAre(0, 1));
}

TEST(DevicesSelectorSemantics, BlankTakesEveryCandidate) {
  EXPECT_THAT(taken(""), ElementsAre(0, 1, 2, 3, 4, 5, 6));
  EXPECT_THAT(select_devices("  ", {}), IsEmpty());
}

TEST(DevicesSelectorSemantics, MaxTakesTheClausesFirstDevicesInRunOrder) {
  EXPECT_THAT(taken("max=2"), ElementsAre(0, 1));
  EXPECT_THAT(taken("type=gpu,max=2"), ElementsAre(0, 4)) << "OpenCL devices come first";
  EXPECT_THAT(taken("backend=cuda,max=1;type=cpu,max=1"), ElementsAre(1, 4));
  EXPECT_THAT(taken("max=100,backend=cuda"), ElementsAre(4, 5, 6));
  // A device over one clause's limit is still taken by another clause.
  EXPECT_THAT(taken("name~h200,max=1;backend=cuda"), ElementsAre(0, 4, 5, 6));
}

TEST(DevicesSelectorSemantics, MaxCountsDevicesAnotherClauseTookToo) {
  // Clause 2 takes device 4 (its first), so its limit is spent before device 5.
  EXPECT_THAT(taken("name~h200;backend=cuda,max=1"), ElementsAre(0, 4, 5));
}

TEST(DevicesSelectorSemantics, NothingTakenIsAnErrorListingEveryDevice) {
  const std::vector<Device> devices = machine();
  try {
    select_devices("name~nomatch;backend=cuda,mem>=1T", devices);
    FAIL() << "no error";
  } catch (const selection_error& failure) {
    const std::string message = failure.what();
    EXPECT_THAT(message, HasSubstr("POLYDEV_DEVICES='name~nomatch;backend=cuda,mem>=1T' takes no "
                                   "device of the 7: " +
                                   devices[0].key + " ('NVIDIA H200') [clause 1"));
    EXPECT_THAT(message, HasSubstr(", " + devices[2].key +
                                   " ('basic') [clause 1 'name~nomatch': 'name~nomatch' does not "
                                   "hold (name 'basic'); clause 2 'backend=cuda,mem>=1T': "
                                   "'backend=cuda' does not hold (backend opencl)], "));
    EXPECT_THAT(message, HasSubstr(", " + devices[6].key +
                                   " ('NVIDIA A100-SXM4-80GB') [clause 1 'name~nomatch': "
                                   "'name~nomatch' does not hold (name 'NVIDIA A100-SXM4-80GB'); "
                                   "clause 2 'backend=cuda,mem>=1T': 'mem>=1T' does not hold "
                                   "(memory 80.0 GiB)]; 'polydev devices --explain' shows every "
                                   "device and clause"));
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line, as every selector error";
  }
  EXPECT_THROW(select_devices("fp64", {}), selection_error);
  try {
    select_devices("fp64", {});
  } catch (const selection_error& failure) {
    EXPECT_STREQ(failure.what(),
                 "POLYDEV_DEVICES='fp64' takes no device: there is no device to choose from");
  }
}

TEST(DevicesSelectorSemantics, MalformedTextThrowsBeforeLookingAtDevices) {
  EXPECT_THROW(select_devices("type=gpu,", machine()), selection_error);
  EXPECT_THROW(select_devices("type=gpu,", {}), selection_error);
}

// --- verdicts in words --------------------------------------------------------------------------

TEST(DevicesSelectorWords, WhyATermFailsNamesTheFactItTested) {
  const std::vector<Device> devices = machine();
  const auto why = [&](const std::string& text, std::size_t device) {
    const SelectorTerm term = parse_devices_selector(text).clauses.at(0).terms.at(0);
    EXPECT_FALSE(polydev::term_holds(term, devices[device])) << text;
    return polydev::why_term_fails(term, devices[device]);
  };
  EXPECT_EQ(why("type=gpu", 1), "'type=gpu' does not hold (type cpu)");
  EXPECT_EQ(why("vendor~intel", 1), "'vendor~intel' does not hold (vendor 'AuthenticAMD')");
  EXPECT_EQ(why("platform~portable", 4),
            "'platform~portable' does not hold (no platform: a cuda device)");
  EXPECT_EQ(why("platform~nvidia", 1),
            "'platform~nvidia' does not hold (platform 'Portable Computing Language' of 'The pocl "
            "project')");
  EXPECT_EQ(why("key=x", 1), "'key=x' does not hold (key " + devices[1].key + ")");
  EXPECT_EQ(why("ext=cl_khr_fp16", 1), "'ext=cl_khr_fp16' does not hold (without cl_khr_fp16)");
  EXPECT_EQ(why("ext=cl_khr_fp16|cl_khr_3d_image_writes", 1),
            "'ext=cl_khr_fp16|cl_khr_3d_image_writes' does not hold (without any of them)");
  EXPECT_EQ(why("!ext=cl_khr_fp16|cl_khr_fp64", 0),
            "'!ext=cl_khr_fp16|cl_khr_fp64' does not hold (with cl_khr_fp16, cl_khr_fp64)");
  EXPECT_EQ(why("ext=cl_khr_fp16", 4),
            "'ext=cl_khr_fp16' does not hold (no OpenCL extensions: a cuda device)");
  EXPECT_EQ(why("fp64", 2), "'fp64' does not hold (no fp64)");
  EXPECT_EQ(why("!fp64", 4), "'!fp64' does not hold (fp64 supported)");
  EXPECT_EQ(why("opencl>=2.0", 3), "'opencl>=2.0' does not hold (OpenCL 1.2)");
  EXPECT_EQ(why("opencl>=2.0", 6),
            "'opencl>=2.0' does not hold (no OpenCL version: a cuda device)");
  EXPECT_EQ(why("cc>=9.0", 6), "'cc>=9.0' does not hold (compute capability 8.0)");
  EXPECT_EQ(why("cc>=9.0", 1),
            "'cc>=9.0' does not hold (no compute capability: not an NVIDIA "
            "device)");
  EXPECT_EQ(why("mem>=16G", 3), "'mem>=16G' does not hold (memory 4.0 GiB)");
}

TEST(DevicesSelectorWords, AnUnknownOpenCLVersionIsSaid) {
  Device device = machine()[1];
  device.opencl_version.reset();
  const SelectorTerm term = parse_devices_selector("opencl>=1.0").clauses[0].terms[0];
  EXPECT_EQ(polydev::why_term_fails(term, device),
            "'opencl>=1.0' does not hold (OpenCL version not in the standard form)");
  device.memory_bytes = 512ull << 20;
  const SelectorTerm memory = parse_devices_selector("mem>=1G").clauses[0].terms[0];
  EXPECT_EQ(polydev::why_term_fails(memory, device), "'mem>=1G' does not hold (memory 512 MiB)");
}

TEST(DevicesSelectorWords, VerdictsSayWhichClauseTookTheDeviceOrWhyEachLeftItOut) {
  const std::vector<Device> devices = machine();
  const DevicesSelector selector =
      parse_devices_selector("backend=opencl,name~basic;type=gpu,max=1;fp64");
  const auto verdicts = polydev::evaluate(selector, devices);
  ASSERT_EQ(verdicts.size(), devices.size());
  EXPECT_EQ(polydev::describe_verdict(selector, verdicts[0], devices[0]),
            "taken by clause 2 'type=gpu,max=1' and clause 3 'fp64'");
  EXPECT_EQ(polydev::describe_verdict(selector, verdicts[2], devices[2]),
            "taken by clause 1 'backend=opencl,name~basic'");
  EXPECT_TRUE(verdicts[4].clauses[1].over_limit);
  EXPECT_FALSE(verdicts[4].clauses[1].failed_term.has_value());
  EXPECT_EQ(polydev::describe_verdict(selector, verdicts[4], devices[4]),
            "taken by clause 3 'fp64'");
  const DevicesSelector strict = parse_devices_selector("name~basic;type=gpu,max=1");
  const auto strict_verdicts = polydev::evaluate(strict, devices);
  EXPECT_EQ(polydev::describe_verdict(strict, strict_verdicts[4], devices[4]),
            "left out: clause 1 'name~basic': 'name~basic' does not hold (name 'NVIDIA H200'); "
            "clause 2 'type=gpu,max=1': over its limit (max=1 devices, taken before this one)");
  EXPECT_EQ(
      polydev::describe_verdict(DevicesSelector{}, polydev::DeviceVerdict{true, {}}, devices[0]),
      "taken: the selector has no clause");
}

// A message names three clauses a device and counts the rest: a selector of thousands of clauses
// made each error, and each test's reason, as long as the selector times the devices (15 000
// clauses: 4.8 MB a line). --explain, which asks for every clause, still gets them all.
TEST(DevicesSelectorWords, AMessageNamesThreeClausesADeviceAndCountsTheRest) {
  const std::vector<Device> devices = machine();
  std::string text = "name~zz";
  for (int i = 1; i < 5000; ++i) text += ";name~zz";
  const DevicesSelector selector = parse_devices_selector(text);
  const auto verdicts = polydev::evaluate(selector, devices);
  const std::string three =
      polydev::describe_verdict(selector, verdicts[0], devices[0], polydev::kClausesInAMessage);
  EXPECT_THAT(three, EndsWith("; clause 3 'name~zz': 'name~zz' does not hold (name '" +
                              devices[0].name + "'); and 4997 more clauses leave it out"));
  EXPECT_EQ(three.find("clause 4 "), std::string::npos);
  EXPECT_THAT(polydev::describe_verdict(selector, verdicts[0], devices[0]),
              HasSubstr("clause 5000 'name~zz'"));
  try {
    select_devices(text, devices);
    ADD_FAILURE() << "no device is taken";
  } catch (const selection_error& failure) {
    EXPECT_LT(std::string(failure.what()).size(), 600 * devices.size());
  }
  std::string takers = "fp64";
  for (int i = 1; i < 5; ++i) takers += ";fp64";
  const DevicesSelector taking = parse_devices_selector(takers);
  EXPECT_EQ(polydev::describe_verdict(taking, polydev::evaluate(taking, devices)[0], devices[0],
                                      polydev::kClausesInAMessage),
            "taken by clause 1 'fp64' and clause 2 'fp64' and clause 3 'fp64' and 2 more clauses");
}

TEST(DevicesSelectorWords, TheFirstFailingTermIsTheReason) {
  const polydev::SelectorClause clause =
      parse_devices_selector("backend=opencl,type=cpu,fp64").clauses[0];
  EXPECT_EQ(polydev::check_clause(clause, machine()[2]).failed_term, std::optional<std::size_t>(2));
  EXPECT_EQ(polydev::check_clause(clause, machine()[4]).failed_term, std::optional<std::size_t>(0));
  EXPECT_TRUE(polydev::check_clause(clause, machine()[1]).takes());
}

}  // namespace
