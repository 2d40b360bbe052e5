// cupp::detail::dims: an ndarray's shape or strides, stored inline up to six dimensions (a copy of
// an array handle allocates nothing in the common case) and on the heap beyond. Reads as a
// std::span<const std::int64_t>.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace cupp::detail {

class dims {
 public:
  static constexpr std::size_t inline_capacity = 6;

  dims() noexcept = default;
  dims(std::span<const std::int64_t> values) { assign(values); }  // NOLINT: implicit, like a vector
  dims(const dims& other) { assign(other); }
  dims(dims&& other) noexcept { take(other); }
  dims& operator=(const dims& other) {
    if (this != &other) assign(other);
    return *this;
  }
  dims& operator=(dims&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }
  dims& operator=(std::span<const std::int64_t> values) {
    assign(values);
    return *this;
  }
  ~dims() = default;

  operator std::span<const std::int64_t>() const noexcept { return {data(), size_}; }  // NOLINT
  const std::int64_t* data() const noexcept { return heap_ ? heap_.get() : inline_.data(); }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const std::int64_t* begin() const noexcept { return data(); }
  const std::int64_t* end() const noexcept { return data() + size_; }
  std::int64_t operator[](std::size_t i) const noexcept { return data()[i]; }

 private:
  void assign(std::span<const std::int64_t> values) {
    if (values.size() > inline_capacity) {
      // Copy first: `values` may point into this object's own heap block.
      auto block = std::make_unique_for_overwrite<std::int64_t[]>(values.size());
      std::copy(values.begin(), values.end(), block.get());
      heap_ = std::move(block);
    } else {
      if (values.data() != inline_.data()) std::copy(values.begin(), values.end(), inline_.begin());
      heap_.reset();
    }
    size_ = values.size();
  }
  void take(dims& other) noexcept {
    heap_ = std::move(other.heap_);
    inline_ = other.inline_;
    size_ = other.size_;
    other.size_ = 0;
  }

  std::array<std::int64_t, inline_capacity> inline_{};
  std::unique_ptr<std::int64_t[]> heap_;
  std::size_t size_ = 0;
};

}  // namespace cupp::detail
