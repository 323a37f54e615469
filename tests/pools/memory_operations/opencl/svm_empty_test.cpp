// svm_empty, csvm_empty, fsvm_empty, their *_empty_like forms and SVMArray
// (polydev/opencl/memory/svm_empty.hpp) on every selected OpenCL device with coarse-grain SVM.
#include "polydev/opencl/memory/svm_empty.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <polydev/gtest.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydev/error.hpp"
#include "polydev/opencl/array_layout.hpp"
#include "polydev/opencl/detail/svm_capabilities.hpp"
#include "polydev/opencl/inventory.hpp"
#include "polydev/opencl/memory/mapping.hpp"
#include "support/opencl_checks.hpp"
#include "support/svm_test.hpp"

namespace {

using polydev::opencl::ArrayLayout;
using polydev::opencl::make_layout;
using polydev::opencl::Order;
using polydev::opencl::SVMAllocation;
using polydev::opencl::SVMAllocator;
using polydev::opencl::memory::MappedRegion;
using polydev::opencl::memory::SVMArray;
using polydev::opencl::memory::SVMSpan;
using polydev::testing::pools_support::thrown_message;

// An array goes wherever the SVM operations take SVM; it is move-only, as its memory has one
// owner.
static_assert(std::is_convertible_v<const SVMArray<int>&, SVMSpan>);
static_assert(!std::is_copy_constructible_v<SVMArray<int>>);
static_assert(std::is_nothrow_move_constructible_v<SVMArray<int>>);

class OpenCLSVMEmpty : public polydev::testing::pools_support::OpenCLSVMTest {
 protected:
  bool has_fine_grain() const {
    return (descriptor().device.svm_capabilities & polydev::opencl::svm_fine_grain_buffer) != 0;
  }

  // What the refusal of fine-grain SVM on this device says about it.
  std::string fine_grain_refusal(const char* who) const {
    return std::string(who) +
           ": fine-grain SVM (CL_MEM_SVM_FINE_GRAIN_BUFFER) was asked for, but device '" +
           device().getInfo<CL_DEVICE_NAME>() + "' has no fine-grain SVM buffers (its " +
           "CL_DEVICE_SVM_CAPABILITIES: " +
           polydev::opencl::detail::svm_capability_names(
               device().getInfo<CL_DEVICE_SVM_CAPABILITIES>()) +
           ")";
  }
};

TEST_P(OpenCLSVMEmpty, CoarseGrainArraysAreMappedForTheHostAndUsedByKernels) {
  constexpr std::size_t n = 512;
  SVMArray<cl_uint> array =
      polydev::opencl::memory::csvm_empty<cl_uint>(context(), n, Order::c, 0, queue());
  ASSERT_TRUE(array.valid());
  ASSERT_NE(array.data(), nullptr);
  EXPECT_EQ(array.size(), n);
  EXPECT_EQ(array.bytes(), n * sizeof(cl_uint));
  EXPECT_EQ(array.shape(), std::vector<std::size_t>{n});
  EXPECT_EQ(array.strides(), std::vector<std::size_t>{sizeof(cl_uint)});
  EXPECT_EQ(array.ndim(), 1u);
  EXPECT_EQ(array.order(), Order::c);
  EXPECT_EQ(array.queue(), queue()());
  EXPECT_EQ(array.allocation().size(), array.bytes());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(array.data()) % alignof(cl_uint), 0u);
  {
    MappedRegion region =
        polydev::opencl::memory::map_svm(queue(), array, CL_MAP_WRITE_INVALIDATE_REGION);
    EXPECT_EQ(region.data(), array.data());
    EXPECT_EQ(region.size(), array.bytes());
    std::iota(region.as<cl_uint>(), region.as<cl_uint>() + n, 0u);
  }
  run_twice(array.data(), n);
  const std::vector<cl_uint> seen = read(array, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 2 * i + 1) << "at " << i;

  SVMArray<cl_uint> moved(std::move(array));
  EXPECT_FALSE(array.valid());  // NOLINT(bugprone-use-after-move): specified moved-from state
  EXPECT_EQ(array.data(), nullptr);
  EXPECT_EQ(array.size(), 0u);
  EXPECT_TRUE(array.shape().empty());
  EXPECT_EQ(moved.size(), n);
  moved.release();
  EXPECT_FALSE(moved.valid());
  EXPECT_EQ(moved.data(), nullptr);
  EXPECT_EQ(queue().finish(), CL_SUCCESS);
}

TEST_P(OpenCLSVMEmpty, ShapesAndOrdersGiveNumPysStrides) {
  const cl_svm_mem_flags flags = CL_MEM_READ_WRITE;
  const SVMArray<cl_float> c =
      polydev::opencl::memory::svm_empty<cl_float>(context(), flags, {2, 3, 4});
  EXPECT_EQ(c.size(), 24u);
  EXPECT_EQ(c.bytes(), 96u);
  EXPECT_EQ(c.strides(), (std::vector<std::size_t>{48, 16, 4}));
  const SVMArray<cl_float> f =
      polydev::opencl::memory::svm_empty<cl_float>(context(), flags, {2, 3, 4}, Order::fortran);
  EXPECT_EQ(f.strides(), (std::vector<std::size_t>{4, 8, 24}));
  EXPECT_EQ(f.order(), Order::fortran);
  EXPECT_EQ(f.shape(), (std::vector<std::size_t>{2, 3, 4}));
  EXPECT_NE(c.data(), f.data());

  const SVMArray<cl_double> scalar =
      polydev::opencl::memory::svm_empty<cl_double>(context(), flags, std::vector<std::size_t>{});
  EXPECT_EQ(scalar.ndim(), 0u);
  EXPECT_EQ(scalar.size(), 1u) << "a 0-d array holds one element";
  EXPECT_EQ(scalar.bytes(), sizeof(cl_double));
  EXPECT_NE(scalar.data(), nullptr);

  const SVMArray<cl_uint> empty = polydev::opencl::memory::csvm_empty<cl_uint>(context(), {3, 0});
  EXPECT_TRUE(empty.valid());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.bytes(), 0u);
  EXPECT_EQ(empty.data(), nullptr) << "no bytes: no memory, as PyOpenCL's 0-byte allocation";
  EXPECT_EQ(empty.strides(), (std::vector<std::size_t>{4, 4}));
  EXPECT_EQ(SVMSpan(empty).size(), 0u);
}

TEST_P(OpenCLSVMEmpty, AlignmentIsHonouredAndBadOnesAreRefused) {
  const SVMArray<cl_uchar> aligned =
      polydev::opencl::memory::csvm_empty<cl_uchar>(context(), 10, Order::c, 128);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned.data()) % 128, 0u);
  const std::string below = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::csvm_empty<cl_double>(context(), 4, Order::c, 4); });
  EXPECT_NE(below.find("csvm_empty: alignment 4 is less than the 8 bytes the element type needs"),
            std::string::npos)
      << below;
  const std::string odd = thrown_message<polydev::error>([&] {
    polydev::opencl::memory::svm_empty<cl_uchar>(context(), CL_MEM_READ_WRITE, 4, Order::c, 48);
  });
  EXPECT_NE(odd.find("svm_empty: alignment 48 is not a power of two"), std::string::npos) << odd;
}

TEST_P(OpenCLSVMEmpty, FineGrainArraysNeedNoMapOrAreRefusedWithTheDevicesCapabilities) {
  if (!has_fine_grain()) {
    const std::string message = thrown_message<polydev::error>(
        [&] { polydev::opencl::memory::fsvm_empty<cl_uint>(context(), 16); });
    EXPECT_NE(message.find(fine_grain_refusal("fsvm_empty")), std::string::npos) << message;
    GTEST_SKIP() << "device has coarse-grain SVM only: checked that fsvm_empty says so";
  }
  constexpr std::size_t n = 300;
  SVMArray<cl_uint> array =
      polydev::opencl::memory::fsvm_empty<cl_uint>(context(), {n}, Order::c, 0, queue());
  std::iota(array.data(), array.data() + n, 10u);  // the host writes without a map
  run_twice(array.data(), n);
  ASSERT_EQ(queue().finish(), CL_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(array.data()[i], 2 * (i + 10) + 1) << "at " << i;
  const SVMArray<cl_uint> like = polydev::opencl::memory::fsvm_empty_like(context(), array);
  EXPECT_EQ(like.shape(), array.shape());
  like.data()[0] = 1;  // fine grain too
  EXPECT_EQ(like.data()[0], 1u);
}

// A device without fine-grain SVM refuses fsvm_empty_like the same way; one with it has nothing
// to refuse.
TEST_P(OpenCLSVMEmpty, FineGrainLikeFormsAreRefusedWithTheDevicesCapabilities) {
  if (has_fine_grain()) GTEST_SKIP() << "device has fine-grain SVM: nothing to refuse";
  const SVMArray<cl_uint> model = polydev::opencl::memory::csvm_empty<cl_uint>(context(), {4, 4});
  const std::string message = thrown_message<polydev::error>(
      [&] { polydev::opencl::memory::fsvm_empty_like(context(), model); });
  EXPECT_NE(message.find(fine_grain_refusal("fsvm_empty_like")), std::string::npos) << message;
}

TEST_P(OpenCLSVMEmpty, EmptyLikeTakesTheShapeAndOrder) {
  const SVMArray<cl_int> model =
      polydev::opencl::memory::csvm_empty<cl_int>(context(), {5, 7}, Order::fortran, 0, queue());
  const SVMArray<cl_int> c_like = polydev::opencl::memory::csvm_empty_like(context(), model);
  EXPECT_EQ(c_like.shape(), model.shape());
  EXPECT_EQ(c_like.strides(), model.strides());
  EXPECT_EQ(c_like.order(), Order::fortran);
  EXPECT_NE(c_like.data(), model.data());
  EXPECT_EQ(c_like.queue(), nullptr) << "the queue is not taken from the model";
  const SVMArray<cl_int> bound =
      polydev::opencl::memory::svm_empty_like(context(), CL_MEM_READ_WRITE, model, 64, queue());
  EXPECT_EQ(bound.queue(), queue()());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bound.data()) % 64, 0u);
  // The alignment is passed on (PyOpenCL's csvm_empty_like and fsvm_empty_like drop it): a bad
  // one is refused.
  for (const auto& [who, make] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"csvm_empty_like",
            [&] { polydev::opencl::memory::csvm_empty_like(context(), model, 48); }},
           {"fsvm_empty_like",
            [&] { polydev::opencl::memory::fsvm_empty_like(context(), model, 48); }},
       }) {
    const std::string message = thrown_message<polydev::error>(make);
    EXPECT_NE(message.find(who + ": alignment 48 is not a power of two"), std::string::npos)
        << message;
  }

  const std::vector<cl_short> host(33);
  const SVMArray<cl_short> from_host = polydev::opencl::memory::csvm_empty_like(context(), host);
  EXPECT_EQ(from_host.shape(), std::vector<std::size_t>{33});
  EXPECT_EQ(from_host.bytes(), 66u);
  const SVMArray<cl_short> flagged =
      polydev::opencl::memory::svm_empty_like(context(), CL_MEM_READ_ONLY, host);
  EXPECT_EQ(flagged.size(), 33u);
  if (has_fine_grain()) {
    EXPECT_EQ(polydev::opencl::memory::fsvm_empty_like(context(), host).size(), 33u);
  } else {
    EXPECT_THROW(polydev::opencl::memory::fsvm_empty_like(context(), host), polydev::error);
  }

  SVMArray<cl_int> released = polydev::opencl::memory::csvm_empty<cl_int>(context(), 4);
  released.release();
  for (const auto& [who, make] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"svm_empty_like",
            [&] {
              polydev::opencl::memory::svm_empty_like(context(), CL_MEM_READ_WRITE, released);
            }},
           {"csvm_empty_like",
            [&] { polydev::opencl::memory::csvm_empty_like(context(), released); }},
           {"fsvm_empty_like",
            [&] { polydev::opencl::memory::fsvm_empty_like(context(), released); }},
       }) {
    const std::string message = thrown_message<polydev::error>(make);
    EXPECT_NE(message.find(who + ": the array to take the shape of was released"),
              std::string::npos)
        << message;
  }
}

TEST_P(OpenCLSVMEmpty, SizesBeyondSizeTAreLengthErrorsAndBadOrdersInvalidArguments) {
  EXPECT_THROW(polydev::opencl::memory::csvm_empty<cl_uint>(context(), SIZE_MAX / 2),
               std::length_error);
  EXPECT_THROW(polydev::opencl::memory::csvm_empty<cl_uint>(context(), {SIZE_MAX / 8, 0, 16}),
               std::length_error);
  const std::string order = thrown_message<std::invalid_argument>(
      [&] { polydev::opencl::memory::csvm_empty<cl_uint>(context(), 4, static_cast<Order>(7)); });
  EXPECT_NE(order.find("array order 7 is not an Order"), std::string::npos) << order;
}

TEST_P(OpenCLSVMEmpty, EnqueueReleaseEmptiesTheArrayAndLaterUsesAreRefused) {
  SVMArray<cl_uint> array =
      polydev::opencl::memory::csvm_empty<cl_uint>(context(), {16, 16}, Order::c, 0, queue());
  const cl::Event filled = polydev::opencl::memory::enqueue_svm_memfill(queue(), array, cl_uint{7});
  const cl::Event freed = array.enqueue_release({filled});
  EXPECT_FALSE(array.valid());
  EXPECT_EQ(array.data(), nullptr);
  EXPECT_EQ(array.size(), 0u);
  EXPECT_TRUE(array.shape().empty());
  EXPECT_EQ(freed.getInfo<CL_EVENT_COMMAND_TYPE>(),
            static_cast<cl_command_type>(CL_COMMAND_SVM_FREE));
  EXPECT_EQ(freed.wait(), CL_SUCCESS);

  for (const auto& [what, use] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"release", [&] { array.release(); }},
           {"enqueue_release", [&] { array.enqueue_release(); }},
           {"enqueue_release", [&] { array.enqueue_release(queue()); }},
           {"bind_to_queue", [&] { array.bind_to_queue(queue()); }},
           {"unbind_from_queue", [&] { array.unbind_from_queue(); }},
           {"the conversion to SVMSpan", [&] { static_cast<void>(static_cast<SVMSpan>(array)); }},
       }) {
    const std::string message = thrown_message<polydev::error>(use);
    EXPECT_NE(message.find("SVMArray: " + what + " of an array that was released"),
              std::string::npos)
        << message;
  }
}

TEST_P(OpenCLSVMEmpty, ArraysBindUnbindAndReleaseOnAGivenQueue) {
  SVMArray<cl_uint> array = polydev::opencl::memory::csvm_empty<cl_uint>(context(), 64);
  EXPECT_EQ(array.queue(), nullptr) << "svm_empty without a queue: bound to none";
  const std::string no_queue = thrown_message<polydev::error>([&] { array.enqueue_release(); });
  EXPECT_NE(no_queue.find("no queue was given and the allocation is bound to none"),
            std::string::npos)
      << no_queue;
  EXPECT_TRUE(array.valid());
  const cl::CommandQueue other(context(), device());
  array.bind_to_queue(other);
  EXPECT_EQ(array.queue(), other());
  polydev::opencl::memory::enqueue_svm_memfill(other, array, cl_uint{2});
  array.unbind_from_queue();  // other is finished: the host may map it on any queue
  EXPECT_EQ(array.queue(), nullptr);
  EXPECT_EQ(read(array, 64), std::vector<cl_uint>(64, 2u));
  EXPECT_EQ(array.enqueue_release(queue()).wait(), CL_SUCCESS);
  EXPECT_FALSE(array.valid());
}

TEST_P(OpenCLSVMEmpty, AnArrayOverAnAllocationChecksThatItFits) {
  const SVMAllocator allocator(context());
  const ArrayLayout layout = make_layout({4, 4}, sizeof(cl_uint), Order::c);
  const SVMArray<cl_uint> fits(allocator(64), layout);
  EXPECT_EQ(fits.size(), 16u);

  const std::string small =
      thrown_message<std::invalid_argument>([&] { SVMArray<cl_uint> bad(allocator(60), layout); });
  EXPECT_NE(small.find("an array of shape (4, 4) needs 64 bytes, the allocation has 60"),
            std::string::npos)
      << small;
  const std::string itemsize = thrown_message<std::invalid_argument>(
      [&] { SVMArray<cl_ushort> bad(allocator(64), layout); });
  EXPECT_NE(itemsize.find("the layout's elements have 4 bytes, the type's 2"), std::string::npos)
      << itemsize;
  const std::string released = thrown_message<std::invalid_argument>(
      [&] { SVMArray<cl_uint> bad(SVMAllocation(), layout); });
  EXPECT_NE(released.find("the allocation was released"), std::string::npos) << released;

  // An element type aligned beyond what the driver gave the allocation.
  struct alignas(1 << 16) Wide {
    unsigned char bytes[1 << 16];
  };
  const ArrayLayout none = make_layout({0}, sizeof(Wide), Order::c);
  for (int attempt = 0; attempt < 4; ++attempt) {
    SVMAllocation allocation = allocator(64);
    if (reinterpret_cast<std::uintptr_t>(allocation.ptr()) % alignof(Wide) == 0) continue;
    const std::string misaligned = thrown_message<std::invalid_argument>(
        [&] { SVMArray<Wide> bad(std::move(allocation), none); });
    EXPECT_NE(misaligned.find("not aligned to the 65536 bytes its elements need"),
              std::string::npos)
        << misaligned;
    return;
  }
  GTEST_SKIP() << "every allocation the driver gave was 64 KiB aligned: no misaligned one to "
                  "refuse";
}

POLYDEV_INSTANTIATE_OPENCL_TEST_SUITE_P(OpenCLSVMEmpty);

}  // namespace
