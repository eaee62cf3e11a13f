// SPDX-License-Identifier: Apache-2.0
#pragma once

/// IdempotentRepository: the keys idempotentConsumer has seen, as Camel's
/// IdempotentRepository. `add` returns false for a key already there (a duplicate).
///
/// Example:
///   from("direct:orders")
///       .idempotentConsumer(header("orderId"), memoryIdempotentRepository(10000))
///         .to("direct:process")
///       .end();
///
/// Thread-safety: implementations are called from any thread at once.

#include <cstddef>
#include <memory>
#include <string_view>

namespace dromedary {

class IdempotentRepository {
 public:
  virtual ~IdempotentRepository() = default;
  /// Adds `key`; false when it was already there.
  virtual bool add(std::string_view key) = 0;
  virtual bool contains(std::string_view key) = 0;
  /// Removes `key` (its exchange failed and removeOnFailure is on); false when absent.
  virtual bool remove(std::string_view key) = 0;
  /// The exchange of `key` completed (repositories that stage keys commit them here).
  virtual void confirm(std::string_view key) { (void)key; }
  virtual void clear() = 0;
};

/// Keys in memory, the least recently added dropped beyond `cache_size` (Camel's
/// MemoryIdempotentRepository, default 1000).
std::shared_ptr<IdempotentRepository> memoryIdempotentRepository(size_t cache_size = 1000);

}  // namespace dromedary
