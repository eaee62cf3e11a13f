// SPDX-License-Identifier: Apache-2.0
#pragma once

// The context's endpoints by normalised URI: an open-addressing table of the endpoints
// themselves, keyed by their own Endpoint::uri(). A context may hold tens of thousands of
// endpoints (two a route in a big file); an unordered_map's node and bucket per endpoint were
// ~56 bytes of it, this table's slots are 8 bytes at a load of 3/8 to 3/4.
// Not thread-safe: the context's mutex guards it.

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include <dromedary/spi/component.h>

namespace dromedary::detail {

class EndpointTable {
 public:
  /// The endpoint whose normalised URI is `uri`, or null.
  Endpoint* find(std::string_view uri) const noexcept {
    if (slots_.empty()) return nullptr;
    for (size_t i = slotOf(uri);; i = (i + 1) & (slots_.size() - 1)) {
      Endpoint* e = slots_[i].get();
      if (!e || e->uri() == uri) return e;
    }
  }
  /// Keeps `endpoint`, whose URI no endpoint of the table has; returns it.
  Endpoint* insert(std::unique_ptr<Endpoint> endpoint) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    Endpoint* e = endpoint.get();
    place(std::move(endpoint));
    ++size_;
    return e;
  }
  template <class F>
  void forEach(F&& f) const {
    for (const auto& slot : slots_) {
      if (slot) f(*slot);
    }
  }
  size_t size() const noexcept { return size_; }
  void clear() noexcept {
    slots_.clear();
    slots_.shrink_to_fit();
    size_ = 0;
  }

 private:
  size_t slotOf(std::string_view uri) const noexcept {
    return std::hash<std::string_view>{}(uri) & (slots_.size() - 1);
  }
  void place(std::unique_ptr<Endpoint> endpoint) noexcept {
    size_t i = slotOf(endpoint->uri());
    while (slots_[i]) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = std::move(endpoint);
  }
  void grow() {
    std::vector<std::unique_ptr<Endpoint>> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    for (auto& endpoint : old) {
      if (endpoint) place(std::move(endpoint));
    }
  }

  std::vector<std::unique_ptr<Endpoint>> slots_;  // a power of two of them, or none
  size_t size_ = 0;
};

}  // namespace dromedary::detail
