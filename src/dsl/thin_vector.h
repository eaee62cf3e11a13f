// SPDX-License-Identifier: Apache-2.0
#pragma once

// Containers of one pointer, for the parts of a route file's source (file_source.h) that most
// steps leave empty: a choice's whens, a doTry's catches, a step's expression ... A step's
// source held one std::vector (24 bytes) and one std::optional (its whole value) per such part,
// about 500 bytes a step, and a big route file's sources are all held while it loads. Empty,
// these are a null pointer; used, they hold a std::vector or a value on the heap.

#include <memory>
#include <utility>
#include <vector>

namespace dromedary::dsl {

/// The parts of std::vector that sources use (push, iterate, index), in one pointer.
template <class T>
class ThinVector {
 public:
  ThinVector() noexcept = default;
  ThinVector(const ThinVector& other)
      : items_(other.items_ ? std::make_unique<std::vector<T>>(*other.items_) : nullptr) {}
  ThinVector(ThinVector&&) noexcept = default;
  ThinVector& operator=(const ThinVector& other) {
    if (this != &other) *this = ThinVector(other);
    return *this;
  }
  ThinVector& operator=(ThinVector&&) noexcept = default;

  bool empty() const noexcept { return !items_ || items_->empty(); }
  size_t size() const noexcept { return items_ ? items_->size() : 0; }
  T* begin() noexcept { return items_ ? items_->data() : nullptr; }
  T* end() noexcept { return items_ ? items_->data() + items_->size() : nullptr; }
  const T* begin() const noexcept { return items_ ? items_->data() : nullptr; }
  const T* end() const noexcept { return items_ ? items_->data() + items_->size() : nullptr; }
  T& operator[](size_t i) noexcept { return (*items_)[i]; }
  const T& operator[](size_t i) const noexcept { return (*items_)[i]; }
  T& front() noexcept { return items_->front(); }
  const T& front() const noexcept { return items_->front(); }
  T& back() noexcept { return items_->back(); }
  const T& back() const noexcept { return items_->back(); }

  void push_back(const T& item) { made().push_back(item); }
  void push_back(T&& item) { made().push_back(std::move(item)); }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    return made().emplace_back(std::forward<Args>(args)...);
  }

  /// Read as the std::vector that functions over sources take (an empty one when none).
  operator const std::vector<T>&() const noexcept {  // NOLINT: implicit, as the vector it was
    static const std::vector<T> kNone;
    return items_ ? *items_ : kNone;
  }
  /// The vector itself, made when there is none: for functions that fill one.
  std::vector<T>& vector() { return made(); }

 private:
  std::vector<T>& made() {
    if (!items_) items_ = std::make_unique<std::vector<T>>();
    return *items_;
  }
  std::unique_ptr<std::vector<T>> items_;
};

/// std::optional's reading and setting, its value on the heap: one pointer when empty.
template <class T>
class ThinOptional {
 public:
  ThinOptional() noexcept = default;
  ThinOptional(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT
  ThinOptional(const ThinOptional& other)
      : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  ThinOptional(ThinOptional&&) noexcept = default;
  ThinOptional& operator=(const ThinOptional& other) {
    if (this != &other) *this = ThinOptional(other);
    return *this;
  }
  ThinOptional& operator=(ThinOptional&&) noexcept = default;
  ThinOptional& operator=(T value) {
    value_ = std::make_unique<T>(std::move(value));
    return *this;
  }

  explicit operator bool() const noexcept { return value_ != nullptr; }
  T& operator*() noexcept { return *value_; }
  const T& operator*() const noexcept { return *value_; }
  T* operator->() noexcept { return value_.get(); }
  const T* operator->() const noexcept { return value_.get(); }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace dromedary::dsl
