#pragma once

/// @file
/// Which optional members of the allocator concept (polydev/pools/pool.hpp) an allocator has.

#include <cstddef>
#include <type_traits>
#include <utility>

namespace polydev::pools::detail {

template <typename Allocator, typename = void>
struct has_reserve : std::false_type {};
template <typename Allocator>
struct has_reserve<Allocator, std::void_t<decltype(std::declval<Allocator&>().allocate_from_reserve(
                                  std::size_t{}))>> : std::true_type {};

template <typename Allocator, typename = void>
struct has_release_empty_segments : std::false_type {};
template <typename Allocator>
struct has_release_empty_segments<
    Allocator, std::void_t<decltype(std::declval<Allocator&>().release_empty_segments())>>
    : std::true_type {};

template <typename Allocator, typename Block, typename = void>
struct has_hand_out_hook : std::false_type {};
template <typename Allocator, typename Block>
struct has_hand_out_hook<Allocator, Block,
                         std::void_t<decltype(std::declval<Allocator&>().hand_out_existing_block(
                             std::declval<Block&>()))>> : std::true_type {};

}  // namespace polydev::pools::detail
