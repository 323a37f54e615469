// ImageFormat's sizes, names, equality and hashing against tables written out here (PyOpenCL's
// own numbers where polydev keeps them), and get_supported_image_formats on every selected device
// with image support, whose formats' itemsize is checked against CL_IMAGE_ELEMENT_SIZE of a real
// image (polydev/opencl/memory/image_format.hpp).
#include "polydev/opencl/memory/image_format.hpp"

#include <algorithm>
#include <polydev/gtest.hpp>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/memory/image.hpp"
#include "support/opencl_checks.hpp"

namespace {

using polydev::opencl::memory::ImageFormat;
using polydev::testing::pools_support::thrown_message;

struct Order {
  cl_channel_order code;
  const char* name;
  unsigned channels;  // 0: PyOpenCL's channel_count raises for it
  unsigned polydev_channels;
};

// PyOpenCL's channel_order constants (every one it defines), with the count its channel_count
// gives, and polydev's, which also counts the orders PyOpenCL refuses.
const Order kPyOpenCLOrders[] = {
    {CL_R, "R", 1, 1},
    {CL_A, "A", 1, 1},
    {CL_RG, "RG", 2, 2},
    {CL_RA, "RA", 2, 2},
    {CL_RGB, "RGB", 3, 3},
    {CL_RGBA, "RGBA", 4, 4},
    {CL_BGRA, "BGRA", 4, 4},
    {CL_INTENSITY, "INTENSITY", 1, 1},
    {CL_LUMINANCE, "LUMINANCE", 1, 1},
    {CL_Rx, "Rx", 0, 2},
    {CL_RGx, "RGx", 0, 3},
    {CL_RGBx, "RGBx", 0, 4},
    {CL_sRGB, "sRGB", 0, 3},
    {CL_sRGBx, "sRGBx", 0, 4},
    {CL_sRGBA, "sRGBA", 0, 4},
    {CL_sBGRA, "sBGRA", 0, 4},
    {CL_ABGR, "ABGR", 0, 4},
};

struct Type {
  cl_channel_type code;
  const char* name;
  std::size_t size;  // 0: PyOpenCL's dtype_size raises for it, and so does polydev's
  bool packed;
};

// PyOpenCL's channel_type constants (every one it defines), with the dtype_size it gives.
const Type kPyOpenCLTypes[] = {
    {CL_SNORM_INT8, "SNORM_INT8", 1, false},
    {CL_SNORM_INT16, "SNORM_INT16", 2, false},
    {CL_UNORM_INT8, "UNORM_INT8", 1, false},
    {CL_UNORM_INT16, "UNORM_INT16", 2, false},
    {CL_UNORM_SHORT_565, "UNORM_SHORT_565", 2, true},
    {CL_UNORM_SHORT_555, "UNORM_SHORT_555", 2, true},
    {CL_UNORM_INT_101010, "UNORM_INT_101010", 4, true},
    {CL_SIGNED_INT8, "SIGNED_INT8", 1, false},
    {CL_SIGNED_INT16, "SIGNED_INT16", 2, false},
    {CL_SIGNED_INT32, "SIGNED_INT32", 4, false},
    {CL_UNSIGNED_INT8, "UNSIGNED_INT8", 1, false},
    {CL_UNSIGNED_INT16, "UNSIGNED_INT16", 2, false},
    {CL_UNSIGNED_INT32, "UNSIGNED_INT32", 4, false},
    {CL_HALF_FLOAT, "HALF_FLOAT", 2, false},
    {CL_FLOAT, "FLOAT", 4, false},
    {CL_UNORM_INT24, "UNORM_INT24", 0, false},
    {CL_UNORM_INT_101010_2, "UNORM_INT_101010_2", 4, true},
};

// The orders a packed type packs (OpenCL's rule).
bool packs(cl_channel_type type, cl_channel_order order) {
  if (type == CL_UNORM_INT_101010_2) return order == CL_RGBA;
  return order == CL_RGB || order == CL_RGBx;
}

TEST(OpenCLImageFormat, ChannelCountsOfEveryOrder) {
  for (const Order& order : kPyOpenCLOrders) {
    const ImageFormat format(order.code, CL_FLOAT);
    EXPECT_EQ(format.channel_count(), order.polydev_channels) << order.name;
    if (order.channels != 0) {
      EXPECT_EQ(format.channel_count(), order.channels) << order.name;
    }
  }
  // Orders PyOpenCL has no constant for.
  EXPECT_EQ(ImageFormat(CL_ARGB, CL_UNORM_INT8).channel_count(), 4u);
  EXPECT_EQ(ImageFormat(CL_DEPTH, CL_FLOAT).channel_count(), 1u);
}

TEST(OpenCLImageFormat, ChannelSizesOfEveryType) {
  for (const Type& type : kPyOpenCLTypes) {
    const ImageFormat format(CL_RGBA, type.code);
    if (type.size == 0) {
      const std::string message =
          thrown_message<polydev::error>([&] { (void)format.dtype_size(); });
      EXPECT_NE(message.find("ImageFormat(RGBA, UNORM_INT24).dtype_size: UNORM_INT24 is a "
                             "depth-stencil type"),
                std::string::npos)
          << message;
      continue;
    }
    EXPECT_EQ(format.dtype_size(), type.size) << type.name;
  }
}

// Every (order, type) pair of PyOpenCL's constants: the pixel size, or the reason there is none.
TEST(OpenCLImageFormat, ItemSizesOfEveryPairPyOpenCLKnows) {
  for (const Order& order : kPyOpenCLOrders) {
    for (const Type& type : kPyOpenCLTypes) {
      const ImageFormat format(order.code, type.code);
      const std::string label = std::string(order.name) + "/" + type.name;
      if (type.size == 0) {
        EXPECT_THROW((void)format.itemsize(), polydev::error) << label;
      } else if (!type.packed) {
        EXPECT_EQ(format.itemsize(), order.polydev_channels * type.size) << label;
        // PyOpenCL's channel_count * dtype_size, where it has both.
        if (order.channels != 0) {
          EXPECT_EQ(format.itemsize(), order.channels * type.size) << label;
        }
      } else if (packs(type.code, order.code)) {
        EXPECT_EQ(format.itemsize(), type.size) << label << ": the packed pixel";
      } else {
        const std::string message =
            thrown_message<polydev::error>([&] { (void)format.itemsize(); });
        EXPECT_NE(message.find(".itemsize: " + std::string(type.name) + " packs the channels of"),
                  std::string::npos)
            << label << ": " << message;
        EXPECT_NE(message.find("OpenCL does not pack " + std::string(order.name) + " pixels"),
                  std::string::npos)
            << message;
      }
    }
  }
}

// PyOpenCL gives ImageFormat(RGB, UNORM_SHORT_565).itemsize as 3 * 2 = 6; the pixel is 2 bytes.
TEST(OpenCLImageFormat, PackedPixelsAreTheirPackedSize) {
  EXPECT_EQ(ImageFormat(CL_RGB, CL_UNORM_SHORT_565).itemsize(), 2u);
  EXPECT_EQ(ImageFormat(CL_RGB, CL_UNORM_SHORT_565).channel_count(), 3u);
  EXPECT_EQ(ImageFormat(CL_RGB, CL_UNORM_SHORT_565).dtype_size(), 2u);
  EXPECT_EQ(ImageFormat(CL_RGBx, CL_UNORM_SHORT_555).itemsize(), 2u);
  EXPECT_EQ(ImageFormat(CL_RGB, CL_UNORM_INT_101010).itemsize(), 4u);
  EXPECT_EQ(ImageFormat(CL_RGBA, CL_UNORM_INT_101010_2).itemsize(), 4u);
}

TEST(OpenCLImageFormat, UnknownCodesAreErrorsThatNameThem) {
  const ImageFormat odd_order(0x10ff, CL_FLOAT);
  const std::string order =
      thrown_message<polydev::error>([&] { (void)odd_order.channel_count(); });
  EXPECT_NE(order.find("ImageFormat(<unknown channel order 0x10ff>, FLOAT).channel_count: channel "
                       "order 0x10ff is not one OpenCL defines (R, A, RG"),
            std::string::npos)
      << order;
  EXPECT_THROW((void)odd_order.itemsize(), polydev::error);

  const ImageFormat odd_type(CL_RGBA, 0x42);
  const std::string type = thrown_message<polydev::error>([&] { (void)odd_type.dtype_size(); });
  EXPECT_NE(type.find("ImageFormat(RGBA, <unknown channel data type 0x42>).dtype_size: channel "
                      "data type 0x42 is not one OpenCL defines"),
            std::string::npos)
      << type;
  EXPECT_THROW((void)odd_type.itemsize(), polydev::error);

  const ImageFormat depth_stencil(CL_DEPTH_STENCIL, CL_UNORM_INT24);
  const std::string stencil =
      thrown_message<polydev::error>([&] { (void)depth_stencil.channel_count(); });
  EXPECT_NE(stencil.find("DEPTH_STENCIL images come from OpenGL textures"), std::string::npos)
      << stencil;
}

TEST(OpenCLImageFormat, TextIsPyOpenCLsRepr) {
  EXPECT_EQ(polydev::opencl::memory::to_string(ImageFormat(CL_RGBA, CL_FLOAT)),
            "ImageFormat(RGBA, FLOAT)");
  EXPECT_EQ(polydev::opencl::memory::to_string(ImageFormat(CL_sRGBx, CL_UNORM_INT8)),
            "ImageFormat(sRGBx, UNORM_INT8)");
  EXPECT_EQ(polydev::opencl::memory::to_string(ImageFormat(0x1234, 0x99)),
            "ImageFormat(<unknown channel order 0x1234>, <unknown channel data type 0x99>)");
  std::ostringstream out;
  out << ImageFormat(CL_R, CL_UNSIGNED_INT16);
  EXPECT_EQ(out.str(), "ImageFormat(R, UNSIGNED_INT16)");
  for (const Order& order : kPyOpenCLOrders) {
    EXPECT_EQ(polydev::opencl::memory::channel_order_name(order.code), order.name);
  }
  for (const Type& type : kPyOpenCLTypes) {
    EXPECT_EQ(polydev::opencl::memory::channel_type_name(type.code), type.name);
  }
  EXPECT_EQ(polydev::opencl::memory::channel_order_name(CL_ARGB), "ARGB");
  EXPECT_EQ(polydev::opencl::memory::channel_order_name(CL_DEPTH), "DEPTH");
}

TEST(OpenCLImageFormat, EqualityAndHashingGoByOrderAndType) {
  constexpr ImageFormat rgba_float(CL_RGBA, CL_FLOAT);
  static_assert(rgba_float == ImageFormat(CL_RGBA, CL_FLOAT));
  static_assert(rgba_float != ImageFormat(CL_RGBA, CL_HALF_FLOAT));
  static_assert(rgba_float != ImageFormat(CL_BGRA, CL_FLOAT));

  std::unordered_set<ImageFormat> every;
  for (const Order& order : kPyOpenCLOrders) {
    for (const Type& type : kPyOpenCLTypes) {
      EXPECT_TRUE(every.insert(ImageFormat(order.code, type.code)).second);
      EXPECT_FALSE(every.insert(ImageFormat(order.code, type.code)).second) << "equal formats";
      EXPECT_EQ(std::hash<ImageFormat>{}(ImageFormat(order.code, type.code)),
                std::hash<ImageFormat>{}(ImageFormat(order.code, type.code)));
    }
  }
  EXPECT_EQ(every.size(), std::size(kPyOpenCLOrders) * std::size(kPyOpenCLTypes));
  // The order and the type do not trade places in the hash.
  EXPECT_NE(std::hash<ImageFormat>{}(ImageFormat(CL_R, CL_FLOAT)),
            std::hash<ImageFormat>{}(ImageFormat(CL_FLOAT, CL_R)));

  std::unordered_map<ImageFormat, int> names = {{rgba_float, 1}};
  EXPECT_EQ(names.at(ImageFormat(CL_RGBA, CL_FLOAT)), 1);
}

TEST(OpenCLImageFormat, ConvertsToAndFromOpenCLsFormats) {
  const cl_image_format raw{CL_BGRA, CL_UNORM_INT8};
  const ImageFormat from_raw = raw;
  EXPECT_EQ(from_raw.channel_order, static_cast<cl_channel_order>(CL_BGRA));
  EXPECT_EQ(from_raw.channel_data_type, static_cast<cl_channel_type>(CL_UNORM_INT8));

  const cl::ImageFormat bound(CL_RG, CL_HALF_FLOAT);
  const ImageFormat from_bound = bound;
  EXPECT_EQ(from_bound, ImageFormat(CL_RG, CL_HALF_FLOAT));
  EXPECT_TRUE(from_bound == bound) << "compares with the bindings' format";

  const cl::ImageFormat back = ImageFormat(CL_A, CL_SIGNED_INT32);
  EXPECT_EQ(back.image_channel_order, static_cast<cl_channel_order>(CL_A));
  EXPECT_EQ(back.image_channel_data_type, static_cast<cl_channel_type>(CL_SIGNED_INT32));
  const cl_image_format& as_raw = back;
  EXPECT_EQ(as_raw.image_channel_data_type, static_cast<cl_channel_type>(CL_SIGNED_INT32));
}

class OpenCLSupportedImageFormats : public polydev::testing::OpenCLTest {
 protected:
  polydev::testing::Capabilities required_capabilities() const override {
    return {polydev::testing::images()};
  }
};

const cl_mem_object_type kImageTypes[] = {
    CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D,
};

// OpenCL 1.2 and later require CL_RGBA / CL_FLOAT of every device with images, for every type.
TEST_P(OpenCLSupportedImageFormats, EveryImageTypeHasFormatsWithRGBAFloatAmongThem) {
  for (cl_mem_object_type type : kImageTypes) {
    const std::vector<ImageFormat> formats =
        polydev::opencl::memory::get_supported_image_formats(context(), CL_MEM_READ_ONLY, type);
    EXPECT_FALSE(formats.empty()) << std::hex << type;
    EXPECT_NE(std::find(formats.begin(), formats.end(), ImageFormat(CL_RGBA, CL_FLOAT)),
              formats.end())
        << std::hex << type;
    std::vector<cl::ImageFormat> bound;
    ASSERT_EQ(context().getSupportedImageFormats(CL_MEM_READ_ONLY, type, &bound), CL_SUCCESS);
    ASSERT_EQ(formats.size(), bound.size()) << "the driver's list, whole";
    for (std::size_t i = 0; i < formats.size(); ++i) EXPECT_EQ(formats[i], bound[i]) << i;
  }
}

// itemsize is the pixel OpenCL lays out: CL_IMAGE_ELEMENT_SIZE of a 2-D image in each format the
// device lists (the orders PyOpenCL cannot count, such as ARGB on PoCL, included).
TEST_P(OpenCLSupportedImageFormats, ItemSizeIsTheElementSizeOfEverySupportedFormat) {
  const std::vector<ImageFormat> formats = polydev::opencl::memory::get_supported_image_formats(
      context(), CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D);
  std::size_t checked = 0;
  for (const ImageFormat& format : formats) {
    std::size_t itemsize = 0;
    try {
      itemsize = format.itemsize();
    } catch (const polydev::error& unknown) {
      ADD_FAILURE() << "the device lists a format polydev cannot size: " << unknown.what();
      continue;
    }
    const polydev::opencl::memory::AnyImage image =
        polydev::opencl::memory::create_image(context(), CL_MEM_READ_WRITE, format, {3, 2});
    EXPECT_EQ(polydev::opencl::memory::as_image(image).getImageInfo<CL_IMAGE_ELEMENT_SIZE>(),
              itemsize)
        << format;
    EXPECT_EQ(ImageFormat(polydev::opencl::memory::as_image(image).getImageInfo<CL_IMAGE_FORMAT>()),
              format);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

TEST_P(OpenCLSupportedImageFormats, BadRequestsAreErrorsThatSayWhy) {
  const std::string type = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::get_supported_image_formats(context(), CL_MEM_READ_ONLY,
                                                         CL_MEM_OBJECT_BUFFER);
  });
  EXPECT_NE(type.find("get_supported_image_formats: image type 0x10f0 is not an image type; use "
                      "CL_MEM_OBJECT_IMAGE1D"),
            std::string::npos)
      << type;
  const std::string empty = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::get_supported_image_formats(cl::Context(), CL_MEM_READ_ONLY,
                                                         CL_MEM_OBJECT_IMAGE2D);
  });
  EXPECT_NE(empty.find("get_supported_image_formats: the context is empty"), std::string::npos)
      << empty;
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSupportedImageFormats);

}  // namespace
